"""Format generations: which shape of each artifact kind a spec tree uses.

Spec formats evolve from release to release, and specgen must read the older
releases a project keeps online. What every generation of an artifact kind has
in common is one closed model; what differs is a variant (a closed subclass
that drops or changes the facts that generation has). The loader recognises
the generation of each kind from the records' ``schema_version`` fields and
structure (:mod:`specgen.loader.formats`) and records it in
``Spec.formats`` (kind -> label), so rules that need a fact a generation does
not have can stay silent on it instead of reporting its absence thousands of
times. A fact a generation lacks is ``None`` in the models, never a default.

The labels below are the whole vocabulary: a label is stable (rules compare
against it), its docstring says what a tree of that generation has.
"""

from __future__ import annotations

#: ``formats[kind]`` when the tree holds no artifact of that kind at all.
ABSENT = "absent"
#: ``formats[kind]`` when the artifacts match no known generation (one finding says why).
UNKNOWN = "unknown"

#: kind -> label -> what a tree of that generation has (why a rule may or may not run on it).
GENERATIONS: dict[str, dict[str, str]] = {
    "instruction": {
        "contract": "PTO-INSTRUCTION records own a 14-key `contract` object (canonical assembly, "
                    "block composition, operands, legality, effects, examples); mnemonics have no spaces.",
        "pre-contract": "PTO-INSTRUCTION records without `contract`: pages and rules fall back to "
                        "`assembly`/`block`; a mnemonic may hold a space (`HL.BSTART CALL`, file "
                        "`HL.BSTART_CALL.asl`).",
    },
    "unit": {
        "v1": "PTO-UNIT records: id, surface, classification, depends_on, plus optional "
              "catalog_projection, field_domains, deleted_names, manual_reservation_reviews.",
    },
    "review": {
        "review-records": "every instruction file carries one `// PTO-REVIEW:` record.",
        "none": "no `// PTO-REVIEW:` records exist yet (the pre-contract generation): "
                "review rules do not apply.",
    },
    "ndf": {
        "v1": "`// NDF-BEGIN:` regions with `// ndf: kind=… level=… layer=… status=…` attributes.",
    },
    "adr": {
        "json-front-matter": "ADRs open with a JSON object between `---` fences (AdrFrontMatter, 19 keys).",
        "markdown-headers": "ADRs open with `# ADR NNNN: Title` and state their status in a `- Status:` "
                            "line or a `## Status` section (free text: no status list; a leading "
                            "`accepted`, `superseded`, … is that word), their date in `- Decision date:`/`- Date:`; "
                            "authors, approvers, baseline and affected NDF do not exist (None).",
    },
    "avs": {
        "kind-named": "AVS test files are named `<surface>-<kind token>-<name>-NNN.asl`; the id is not "
                      "derived from the name; summaries must describe the behaviour.",
        "id-named": "AVS test files are named `<PTO-TEST-ID>.asl` (the convention the release's "
                    "tests/README.md states); summaries are free text.",
        "function-shards": "test files carry no header; each is a shard of test functions whose prefix "
                           "the release's tests/README.md states, each function one test.",
        "main-per-file": "test files carry no header; each is one test, its `main()` returning zero, as "
                         "the release's tests/README.md states (0.57.1).",
    },
    "manifest": {
        "release-selection": "the release manifest has `release_selection` (expanded NDF digests, "
                             "selected and excluded ADRs).",
        "no-release-selection": "the release manifest has no `release_selection`: NDF digests and ADR "
                                "selection are not recorded, rules that compare them do not apply.",
    },
    "evidence": {
        "readiness-subjects": "the traceability view rows carry `readiness_subjects` and units "
                              "`semantic_tests`; the summary counts mnemonic semantic gaps.",
        "no-readiness-subjects": "the traceability view has no readiness subjects, no per-unit "
                                 "semantic tests and no mnemonic gap counts (None).",
    },
    "engine": {
        "record": "tile PTO-INSTRUCTION records carry their execution `engine` (0.58.x): each tile record "
                  "without one is a `record-schema` error.",
        "none": "no tile PTO-INSTRUCTION record carries an `engine` (the development trees before 0.58.0's "
                "release): tile records are read without it, pages name no engine.",
    },
    "catalog": {
        "extension-reservations": "encoding reservations live in "
                                  "`spec/catalog/extension-encoding-reservations.json`.",
        "linx-vector-reservations": "encoding reservations live in "
                                    "`spec/catalog/linx-vector-reservations.json` (same record shape).",
    },
}

#: Every artifact kind ``Spec.formats`` names, in report order.
KINDS: tuple[str, ...] = tuple(GENERATIONS)


def describe(kind: str, label: str) -> str:
    """One line for a report: what the tree's generation of ``kind`` has."""
    if label == ABSENT:
        return f"{kind}: the tree has none"
    if label == UNKNOWN:
        return f"{kind}: matches no known generation"
    return f"{kind}: {label}: {GENERATIONS.get(kind, {}).get(label, '')}"
