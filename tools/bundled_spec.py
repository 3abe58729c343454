#!/usr/bin/env python3
"""Maintainer script for specgen's bundled sample specification (``spec/``).

The sample keeps the PTO tree's derived files (catalog projections, the
traceability and readiness evidence, the ADR index, the release selection and
the release manifest) next to the ASL they are derived from. Editing one unit
or test makes those files stale; this script recomputes all of them from the
tree, deterministically, so the sample stays self-consistent:

    python tools/bundled_spec.py --write     # regenerate every derived file
    python tools/bundled_spec.py --check     # exit 1 if any file is stale
    python tools/bundled_spec.py --check --corpus ../shared/corpus/pto-spec-0.58.3

``--check`` also enforces the sample's authoring rules (ASCII, at most 500
lines per ASL file, well-formed headers and NDF regions, unique ids) and, with
``--corpus``, that no file of the sample is a copy of a corpus file and that
no long line was copied verbatim.

Standard library only: this script is not part of the specgen package.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_ROOT = REPO / "spec"

HEADER_RE = re.compile(r"^// (PTO-INSTRUCTION|PTO-UNIT|PTO-REVIEW|PTO-STATE): (\{.*\})$")
TEST_RE = re.compile(r"^// PTO-TEST: (\{.*\})$")
NDF_BEGIN_RE = re.compile(r"^// NDF-BEGIN: (PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*)$")
NDF_END_RE = re.compile(r"^// NDF-END: (PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*)$")
DOC_BEGIN_RE = re.compile(r"^// DOC-BEGIN: ([a-z][a-z0-9-]*)$")
DOC_END_RE = re.compile(r"^// DOC-END: ([a-z][a-z0-9-]*)$")
NDF_KIND_LEVEL = {"intent": "L0", "contract": "L1", "mechanism": "L2", "executable": "L3"}
SEMANTIC_KINDS = {"execution", "boundary", "fault", "state-transition", "ordering", "atomicity"}
TEST_KEYS = ["id", "source", "requirements", "kind", "summary", "pass_condition", "related_sources"]
ADR_KEYS = ["id", "title", "status", "authors", "approvers", "created", "accepted", "rejected",
            "superseded", "baseline", "target_releases", "affected_ndf", "affected_units",
            "resolves", "supersedes", "superseded_by", "implementation_issue", "release_impact",
            "legacy_ids"]
CLOSURE = "spec/evidence/instruction-contract-closure.json"
TRACE = "spec/evidence/release-traceability-readiness.json"
READINESS = "spec/evidence/architecture-readiness.json"
ADR_INDEX = "spec/evidence/adr-index.json"
SELECTION = "spec/release-selection.json"
SELECTION_SCHEMA = "spec/schemas/pto-release-selection.schema.json"
MANIFEST = "spec/release-manifest.json"
DEFAULT_BASELINE = "e138ecd2b8856bc7b45db7b67af705053d58e399"


class SpecError(Exception):
    """A tree problem that makes derivation meaningless; reported, never a traceback."""


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canon(value: Any) -> str:
    """SHA-256 of the canonical JSON text (sorted keys, no whitespace, ASCII escapes)."""
    return sha256_bytes(json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8"))


def pretty_sorted(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True) + "\n"


def pretty_ordered(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def slug(text: str) -> str:
    return re.sub(r"[^A-Z0-9]+", "-", text.upper()).strip("-")


@dataclass
class Clause:
    id: str
    attrs: dict[str, str]
    body: str
    source: str
    line: int


@dataclass
class Unit:
    path: str
    kind: str  # "instruction" or "unit"
    header: dict[str, Any]
    text: str
    sha256: str
    clauses: list[Clause] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.header["id"]

    @property
    def mnemonic(self) -> str | None:
        return self.header.get("mnemonic") if self.kind == "instruction" else None

    @property
    def inst_id(self) -> str:
        return f"PTO-INST-{slug(self.header['surface'])}-{slug(self.header['mnemonic'])}"


@dataclass
class Test:
    path: str
    header: dict[str, Any]
    sha256: str


@dataclass
class Tree:
    root: Path
    units: list[Unit]
    tests: list[Test]
    adrs: list[dict[str, Any]]  # front matter + "path", template excluded
    adr_files: list[str]  # every ADR file, template included
    problems: list[str]


def rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def parse_asl(root: Path, path: Path, problems: list[str]) -> Unit | None:
    relpath = rel(root, path)
    raw = path.read_bytes()
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        problems.append(f"{relpath}: not ASCII")
        text = raw.decode("utf-8", "replace")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines = lines[:-1]
    if len(lines) > 500:
        problems.append(f"{relpath}: {len(lines)} lines (at most 500)")
    if "\r" in text:
        problems.append(f"{relpath}: CR line ending")
    first = HEADER_RE.match(lines[0]) if lines else None
    if not first or first.group(1) not in ("PTO-INSTRUCTION", "PTO-UNIT"):
        problems.append(f"{relpath}:1: line 1 must be a PTO-INSTRUCTION or PTO-UNIT header")
        return None
    header = json.loads(first.group(2))
    unit = Unit(relpath, "instruction" if first.group(1) == "PTO-INSTRUCTION" else "unit",
                header, text, sha256_bytes(raw))
    open_clause: tuple[str, int, list[str]] | None = None
    open_doc: str | None = None
    docs: list[str] = []
    for number, line in enumerate(lines, 1):
        begin = NDF_BEGIN_RE.match(line)
        end = NDF_END_RE.match(line)
        if begin:
            if open_clause or open_doc:
                problems.append(f"{relpath}:{number}: nested NDF region")
            open_clause = (begin.group(1), number, [])
            continue
        if end:
            if not open_clause or open_clause[0] != end.group(1):
                problems.append(f"{relpath}:{number}: NDF-END without matching BEGIN")
                open_clause = None
                continue
            cid, start, body = open_clause
            attr_lines = [b for b in body if b.startswith("// ndf: ")]
            attrs: dict[str, str] = {}
            if len(attr_lines) != 1:
                problems.append(f"{relpath}:{start}: clause {cid} needs exactly one ndf: line")
            else:
                for token in attr_lines[0][len("// ndf: "):].split():
                    key, _, value = token.partition("=")
                    attrs[key] = value
                if set(attrs) != {"kind", "level", "layer", "status"} or \
                        NDF_KIND_LEVEL.get(attrs.get("kind", "")) != attrs.get("level"):
                    problems.append(f"{relpath}:{start}: clause {cid} has bad attributes")
            text_lines = []
            for b in body:
                if b.startswith("// ndf: "):
                    continue
                if not b.startswith("//"):
                    problems.append(f"{relpath}:{start}: clause {cid} has a non-comment line")
                stripped = b[2:]
                text_lines.append(stripped[1:] if stripped.startswith(" ") else stripped)
            body_text = "\n".join(text_lines).strip()
            if not body_text:
                problems.append(f"{relpath}:{start}: clause {cid} is empty")
            unit.clauses.append(Clause(cid, attrs, body_text, relpath, start))
            open_clause = None
            continue
        if open_clause:
            open_clause[2].append(line)
            continue
        doc_begin = DOC_BEGIN_RE.match(line)
        doc_end = DOC_END_RE.match(line)
        if doc_begin:
            if open_doc:
                problems.append(f"{relpath}:{number}: nested DOC region")
            open_doc = doc_begin.group(1)
            docs.append(open_doc)
        elif doc_end:
            if open_doc != doc_end.group(1):
                problems.append(f"{relpath}:{number}: DOC-END does not match")
            open_doc = None
    if open_clause or open_doc:
        problems.append(f"{relpath}: unterminated NDF or DOC region")
    if unit.kind == "instruction":
        if docs[:2] != ["decode", "operation"]:
            problems.append(f"{relpath}: instruction needs DOC regions decode then operation")
        reviews = [ln for ln in lines if ln.startswith("// PTO-REVIEW: ")]
        if len(reviews) != 1:
            problems.append(f"{relpath}: instruction needs exactly one PTO-REVIEW line")
        expected = "asl/" + "/".join([header["surface"], *header["classification"]]) + "/" + \
            re.sub(r"[^A-Za-z0-9._-]+", "_", header["mnemonic"]).strip("_") + ".asl"
        if relpath != expected:
            problems.append(f"{relpath}: instruction file should be {expected}")
    else:
        stem = path.stem
        if header.get("classification", [])[-1:] != [stem]:
            problems.append(f"{relpath}: unit classification must end with the file stem")
    return unit


def parse_test(root: Path, path: Path, problems: list[str]) -> Test | None:
    relpath = rel(root, path)
    raw = path.read_bytes()
    text = raw.decode("ascii", "replace")
    lines = text.split("\n")
    header = None
    for line in lines[:2]:
        m = TEST_RE.match(line)
        if m:
            header = json.loads(m.group(1))
    if header is None:
        problems.append(f"{relpath}: no PTO-TEST header on line 1 or 2")
        return None
    if list(header) != TEST_KEYS:
        problems.append(f"{relpath}: PTO-TEST keys must be exactly {', '.join(TEST_KEYS)}")
    if len(lines) > 300:
        problems.append(f"{relpath}: more than 300 lines")
    expected_dir = "tests/asl/" + header["source"][len("asl/"):-len(".asl")]
    if path.parent.relative_to(root).as_posix() != expected_dir:
        problems.append(f"{relpath}: test must live in {expected_dir}/")
    if text.count("func main() => integer") != 1:
        problems.append(f"{relpath}: needs exactly one func main() => integer")
    return Test(relpath, header, sha256_bytes(raw))


def parse_adr(root: Path, path: Path, problems: list[str]) -> dict[str, Any] | None:
    relpath = rel(root, path)
    lines = path.read_text("utf-8").split("\n")
    if not lines or lines[0] != "---" or "---" not in lines[1:]:
        problems.append(f"{relpath}: front matter must be JSON between --- lines")
        return None
    close = lines.index("---", 1)
    front = json.loads("\n".join(lines[1:close]))
    if list(front) != ADR_KEYS:
        problems.append(f"{relpath}: front matter keys must be the 19 ADR keys in order")
    if not path.name.startswith(front["id"][4:] + "-"):
        problems.append(f"{relpath}: file number must equal the ADR id")
    return front


def load_tree(root: Path) -> Tree:
    problems: list[str] = []
    units = []
    for path in sorted((root / "asl").rglob("*.asl")):
        unit = parse_asl(root, path, problems)
        if unit:
            units.append(unit)
    tests = []
    for path in sorted((root / "tests" / "asl").rglob("*.asl")):
        test = parse_test(root, path, problems)
        if test:
            tests.append(test)
    adrs, adr_files = [], []
    for path in sorted((root / "docs" / "status" / "decisions").glob("*.md")):
        adr_files.append(rel(root, path))
        front = parse_adr(root, path, problems)
        if front and path.name != "0000-template.md":
            adrs.append({**front, "path": rel(root, path)})
    tree = Tree(root, units, tests, sorted(adrs, key=lambda a: a["id"]), adr_files, problems)
    check_identities(tree)
    return tree


def check_identities(tree: Tree) -> None:
    problems = tree.problems
    ids = [u.id for u in tree.units]
    clause_ids = [c.id for u in tree.units for c in u.clauses]
    inst_ids = [u.inst_id for u in tree.units if u.kind == "instruction"]
    for name, values in (("unit id", ids), ("clause id", clause_ids), ("instruction identity", inst_ids),
                         ("test id", [t.header["id"] for t in tree.tests])):
        dup = sorted({v for v in values if values.count(v) > 1})
        if dup:
            problems.append(f"duplicate {name}: {', '.join(dup)}")
    known = set(ids) | {"generated:decoders"}
    for unit in tree.units:
        for dep in unit.header.get("depends_on", []):
            if dep not in known:
                problems.append(f"{unit.path}: depends_on names unknown unit {dep}")
    requirements = set(clause_ids) | set(inst_ids)
    sources = {u.path for u in tree.units}
    for test in tree.tests:
        for req in test.header["requirements"]:
            if req not in requirements:
                problems.append(f"{test.path}: unknown requirement {req}")
        for src in [test.header["source"], *test.header["related_sources"]]:
            if src not in sources:
                problems.append(f"{test.path}: unknown source {src}")
    state_ids = set()
    for unit in tree.units:
        for line in unit.text.split("\n"):
            m = HEADER_RE.match(line)
            if m and m.group(1) == "PTO-STATE":
                state_ids.add(json.loads(m.group(2))["id"])
    for unit in tree.units:
        for clause in unit.clauses:
            for ref in re.findall(r"\[\[(PTO-[A-Z0-9-]+)\]\]", clause.body):
                if ref not in requirements and ref not in state_ids:
                    problems.append(f"{unit.path}:{clause.line}: unresolved reference [[{ref}]]")
    for adr in tree.adrs:
        for ref in adr["affected_ndf"]:
            if ref not in requirements:
                problems.append(f"{adr['path']}: affected_ndf names unknown clause {ref}")
        for ref in adr["affected_units"]:
            if ref not in set(ids):
                problems.append(f"{adr['path']}: affected_units names unknown unit {ref}")


# ---------------------------------------------------------------- catalogs

def projection(tree: Tree, catalog: str) -> dict[str, Any]:
    for unit in tree.units:
        proj = unit.header.get("catalog_projection")
        if proj and proj.get("catalog") == catalog:
            return {k: v for k, v in proj.items() if k != "catalog"}
    raise SpecError(f"no PTO-UNIT carries catalog_projection for {catalog}")


def placed_records(tree: Tree, surface: str) -> list[dict[str, Any]]:
    slots: dict[int, dict[str, Any]] = {}
    for unit in tree.units:
        if unit.kind != "instruction" or unit.header["surface"] != surface:
            continue
        for index, record in zip(unit.header["catalog_indices"], unit.header["catalog_records"]):
            if index in slots:
                raise SpecError(f"{unit.path}: catalog index {index} used twice")
            if surface == "tile":
                record = {**record, "classification": unit.header["classification"][0],
                          "engine": unit.header["engine"]}
            slots[index] = record
    if sorted(slots) != list(range(len(slots))):
        raise SpecError(f"{surface} catalog indices are not contiguous from 0")
    return [slots[i] for i in range(len(slots))]


def command_forms(tree: Tree) -> dict[str, Any]:
    forms = placed_records(tree, "block")
    envelope = projection(tree, "command-forms")
    envelope.update({
        "form_count": len(forms),
        "form_constraint_count": sum(len(f["constraints"]) for f in forms),
        "forms": forms,
        "operand_field_count": len({fl["name"] for f in forms for fl in f["fields"]}),
        "operand_piece_count": sum(len(fl["pieces"]) for f in forms for fl in f["fields"]),
        "semantic_handler_count": len({f["semantic_handler"] for f in forms}),
    })
    return dict(sorted(envelope.items()))


def tile_operations(tree: Tree) -> dict[str, Any]:
    operations = placed_records(tree, "tile")
    proj = projection(tree, "tile-operations")
    out: dict[str, Any] = {"isa": proj.pop("isa"), "operation_count": len(operations),
                           "rejected_review_only_codes": proj.pop("rejected_review_only_codes"),
                           "operations": operations, "reserved": proj.pop("reserved"),
                           "schema_version": proj.pop("schema_version")}
    out.update(proj)
    return out


# ---------------------------------------------------------------- evidence

def instruction_closure(tree: Tree) -> dict[str, Any]:
    rows = [{"documentation": doc_path(u.path), "mnemonic": u.mnemonic, "ndf_clause": u.inst_id,
             "source": u.path} for u in tree.units if u.kind == "instruction"]
    return {"instructions": sorted(rows, key=lambda r: r["mnemonic"]),
            "schema": "pto.instruction-contract-closure.v1"}


def adr_index(tree: Tree) -> dict[str, Any]:
    legacy = {lid: a["id"] for a in tree.adrs for lid in a["legacy_ids"]}
    drafts = [a["id"] for a in tree.adrs if a["status"] == "draft"]
    return {"legacy_map": dict(sorted(legacy.items())), "open": drafts,
            "records": [dict(sorted(a.items())) for a in tree.adrs], "schema": "pto.adr-index",
            "summary": {"draft_count": len(drafts), "legacy_id_count": len(legacy),
                        "record_count": len(tree.adrs)}}


def doc_path(source: str) -> str:
    return "docs/" + source[len("asl/"):-len(".asl")] + ".md"


def live_adrs(tree: Tree) -> list[dict[str, Any]]:
    return [a for a in tree.adrs if a["status"] in ("draft", "accepted")]


def traceability(tree: Tree, derived: dict[str, str]) -> dict[str, Any]:
    live = live_adrs(tree)
    tests_by_source: dict[str, list[Test]] = {}
    for test in tree.tests:
        tests_by_source.setdefault(test.header["source"], []).append(test)
    units = []
    for unit in sorted(tree.units, key=lambda u: u.path):
        own = tests_by_source.get(unit.path, [])
        row: dict[str, Any] = {
            "classification": unit.header["classification"], "documentation": doc_path(unit.path),
            "id": unit.id, "mnemonic": unit.mnemonic,
            "readiness_subjects": sorted(a["id"] for a in live if unit.id in a["affected_units"]),
            "semantic_tests": sorted(t.header["id"] for t in own if t.header["kind"] in SEMANTIC_KINDS),
            "source": unit.path, "surface": unit.header["surface"],
            "tests": sorted(t.header["id"] for t in own)}
        if unit.kind == "instruction":
            row["instruction_contract"] = {"artifact": CLOSURE, "mnemonic": unit.mnemonic,
                                           "ndf_clause": unit.inst_id}
        units.append(dict(sorted(row.items())))
    requirements = []
    for rid, executable, owner in requirement_ids(tree):
        requirements.append({
            "executable": executable, "id": rid, "owners": [owner],
            "readiness_subjects": sorted(a["id"] for a in live if rid in a["affected_ndf"]),
            "tests": sorted(t.header["id"] for t in tree.tests if rid in t.header["requirements"])})
    tests = [{"id": t.header["id"], "kind": t.header["kind"], "path": t.path,
              "requirements": t.header["requirements"], "sha256": t.sha256,
              "source": t.header["source"]} for t in sorted(tree.tests, key=lambda t: t.header["id"])]
    sources = {u.path: u.sha256 for u in tree.units}
    sources.update({t.path: t.sha256 for t in tree.tests})
    sources.update(derived)
    uncovered_units = sorted(u["id"] for u in units if not u["tests"])
    uncovered_reqs = sorted(r["id"] for r in requirements if r["executable"] and not r["tests"])
    gaps = sorted(u["mnemonic"] for u in units if u["mnemonic"] and not u["semantic_tests"])
    summary = {
        "documentation_page_count": len(units),
        "executable_requirement_count": sum(1 for r in requirements if r["executable"]),
        "mnemonic_count": sum(1 for u in units if u["mnemonic"]),
        "mnemonic_semantic_gap_count": len(gaps), "mnemonics_without_semantic_tests": gaps,
        "requirement_count": len(requirements),
        "status": "closed" if not (uncovered_units or uncovered_reqs or gaps) else "open",
        "test_count": len(tests),
        "uncovered_executable_requirement_count": len(uncovered_reqs),
        "uncovered_executable_requirements": uncovered_reqs,
        "uncovered_unit_count": len(uncovered_units), "uncovered_units": uncovered_units,
        "unit_count": len(units)}
    surfaces = "{" + ",".join(sorted({u.header["surface"] for u in tree.units})) + "}"
    return {"derivation": {"architecture_owner": f"asl/{surfaces}",
                           "architecture_readiness_projection": READINESS,
                           "documentation_projection": f"docs/{surfaces}",
                           "instruction_contract_projection": CLOSURE,
                           "test_projection": f"tests/asl/{surfaces}"},
            "requirements": sorted(requirements, key=lambda r: r["id"]),
            "schema": "pto.release-traceability.v2", "sources": dict(sorted(sources.items())),
            "summary": summary, "tests": tests, "units": units}


def requirement_ids(tree: Tree) -> list[tuple[str, bool, str]]:
    rows = [(c.id, c.attrs.get("kind") == "executable", u.path) for u in tree.units for c in u.clauses]
    rows += [(u.inst_id, True, u.path) for u in tree.units if u.kind == "instruction"]
    return sorted(rows)


def architecture_readiness(tree: Tree, files: dict[str, bytes]) -> dict[str, Any]:
    stage_order = ["draft", "architecture-defined", "modeled", "executable", "validated", "released"]
    unit_ids = {u.id for u in tree.units}
    req = {rid for rid, _, _ in requirement_ids(tree)}
    unit_path = {u.id: u.path for u in tree.units}
    rows = []
    for adr in live_adrs(tree):
        ndf_ids, units = sorted(adr["affected_ndf"]), sorted(adr["affected_units"])
        paths = {unit_path.get(u) for u in units}
        test_ids = sorted({t.header["id"] for t in tree.tests
                           if t.header["source"] in paths or set(t.header["requirements"]) & set(ndf_ids)})
        if adr["status"] == "draft":
            stage, blockers = "draft", ["ADR is draft"]
        elif not set(ndf_ids) <= req or not set(units) <= unit_ids:
            stage, blockers = "architecture-defined", []
        elif not test_ids:
            stage, blockers = "modeled", []
        else:
            stage, blockers = "executable", []
        rows.append({"adr_ids": [adr["id"]], "blockers": blockers, "ndf_ids": ndf_ids,
                     "released_versions": [], "stage": stage, "subject_id": adr["id"],
                     "test_ids": test_ids, "unit_ids": units, "validated_commit": None})
    digest = hashlib.sha256()
    for path in tree.adr_files:
        digest.update(path.encode("utf-8") + b"\0" + (tree.root / path).read_bytes() + b"\0")
    counts = {s: sum(1 for r in rows if r["stage"] == s) for s in stage_order}
    blocker_count = sum(len(r["blockers"]) for r in rows)
    trace = json.loads(files[TRACE])
    return {"rows": rows, "schema": "pto.architecture-readiness",
            "sources": {"adr_records": {"count": len(tree.adr_files), "sha256": digest.hexdigest()},
                        "instruction_contract": {"path": CLOSURE, "sha256": sha256_bytes(files[CLOSURE])},
                        "release_traceability": {"path": TRACE, "sha256": sha256_bytes(files[TRACE]),
                                                 "test_count": trace["summary"]["test_count"],
                                                 "unit_count": trace["summary"]["unit_count"]}},
            "stage_order": stage_order,
            "summary": {"blocker_count": blocker_count, "draft_count": counts["draft"],
                        "released_count": 0, "stage_counts": counts,
                        "status": "open" if blocker_count else "closed", "subject_count": len(rows),
                        "validated_count": 0}}


# ---------------------------------------------------------------- release

def release_selection(tree: Tree, version: str) -> dict[str, Any]:
    path = tree.root / SELECTION
    baseline = DEFAULT_BASELINE
    if path.exists():
        baseline = json.loads(path.read_text("utf-8")).get("baseline_commit", baseline)
    return {"$schema": SELECTION_SCHEMA, "architecture_version": version,
            "baseline_commit": baseline,
            "excluded_draft_adrs": [a["id"] for a in tree.adrs if a["status"] == "draft"],
            "included_ndf_statuses": ["accepted"], "required_readiness_floor": "executable"}


def selection_schema() -> dict[str, Any]:
    return {"$id": "specgen:bundled-spec/release-selection",
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "additionalProperties": False,
            "description": "Which NDF statuses and ADRs the release of the sample selects.",
            "properties": {
                "$schema": {"const": SELECTION_SCHEMA},
                "architecture_version": {"type": "string", "pattern": r"^[0-9]+\.[0-9]+\.[0-9]+$"},
                "baseline_commit": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                "excluded_draft_adrs": {"type": "array", "uniqueItems": True,
                                        "items": {"type": "string", "pattern": "^ADR-[0-9]{4}$"}},
                "included_ndf_statuses": {"const": ["accepted"]},
                "required_readiness_floor": {"enum": ["executable", "validated", "released"]}},
            "required": ["$schema", "architecture_version", "baseline_commit", "excluded_draft_adrs",
                         "included_ndf_statuses", "required_readiness_floor"],
            "title": "Release selection of the specgen sample specification", "type": "object"}


def expanded_ndf(tree: Tree) -> list[dict[str, str]]:
    rows = []
    for unit in tree.units:
        for c in unit.clauses:
            if c.attrs.get("status") == "accepted":
                rows.append({"id": c.id, "sha256": canon({"id": c.id, "status": "accepted",
                                                           "source": unit.path, "body": c.body})})
        if unit.kind == "instruction":
            rows.append({"id": unit.inst_id, "sha256": canon({
                "id": unit.inst_id, "status": "accepted", "source": unit.path,
                "source_sha256": unit.sha256})})
    return sorted(rows, key=lambda r: r["id"])


def encoding_projection(abi: str, files: dict[str, bytes]) -> dict[str, Any]:
    forms = json.loads(files["spec/catalog/command-forms.json"])["forms"]
    ops = json.loads(files["spec/catalog/tile-operations.json"])["operations"]
    keep = ["form_id", "mnemonic", "asm", "length_bits", "encoding_kind", "encoding", "fields", "constraints"]
    tile = []
    for op in ops:
        tepl = op["family"] == "TEPL"
        tile.append({"family": op["family"], "name": op["name"], "command_mnemonic": op["command_mnemonic"],
                     "mode": op["mode"] if tepl else None, "function": op["function"],
                     "selector": (op["mode"] << 5 | op["function"]) if tepl else None})
    tile.sort(key=lambda t: (t["family"], t["selector"] if t["selector"] is not None else t["function"],
                             t["name"]))
    return {"encoding_abi": abi, "extension_encoding_reservations": [],
            "scalar_and_command_forms": sorted(({k: f[k] for k in keep} for f in forms),
                                               key=lambda f: f["form_id"]),
            "system_registers": [], "tile_operations": tile}


def read_toml_release(root: Path) -> tuple[str, str, str]:
    """architecture_version, encoding_abi and status from specification.toml (3.11 has tomllib)."""
    import tomllib

    data = tomllib.loads((root / "specification.toml").read_text("utf-8"))
    return (data["release"]["architecture_version"], data["release"]["encoding_abi"],
            data["specification"]["status"])


def manifest(tree: Tree, files: dict[str, bytes]) -> dict[str, Any]:
    version, abi, status = read_toml_release(tree.root)
    inputs: dict[str, str] = {u.path: u.sha256 for u in tree.units}
    for path in sorted((tree.root / "spec").rglob("*.json")):
        relpath = rel(tree.root, path)
        if relpath == MANIFEST:
            continue
        inputs[relpath] = sha256_bytes(files.get(relpath, path.read_bytes()))
    for relpath, data in files.items():
        if relpath != MANIFEST:
            inputs[relpath] = sha256_bytes(data)
    inputs["specification.toml"] = sha256_bytes((tree.root / "specification.toml").read_bytes())
    inputs = dict(sorted(inputs.items()))
    ndf = expanded_ndf(tree)
    selected = {r["id"] for r in ndf}
    sel = json.loads(files[SELECTION])
    forms = json.loads(files["spec/catalog/command-forms.json"])["forms"]
    ops = json.loads(files["spec/catalog/tile-operations.json"])["operations"]
    families: dict[str, int] = {}
    for f in forms:
        families[f["semantic_family"]] = families.get(f["semantic_family"], 0) + 1
    tile_families: dict[str, int] = {}
    for op in ops:
        tile_families[op["family"]] = tile_families.get(op["family"], 0) + 1
    statuses: dict[str, int] = {}
    for op in ops:
        statuses[op["contract_status"]] = statuses.get(op["contract_status"], 0) + 1
    return {
        "canonical_inputs": [{"path": p, "sha256": h} for p, h in inputs.items()],
        "catalog_counts": {"command_form_families": families, "command_forms": len(forms),
                           "contract_status_counts": statuses, "extension_encoding_reservations": 0,
                           "pending_base_operations": 0, "scalar_forms": 0,
                           "tile_operations": tile_families, "tile_operations_total": len(ops)},
        "content_sha256": canon(inputs),
        "elf_identity": {
            "alignment_bytes": 4,
            "descriptor_encoding": "UTF-8 JSON, keys sorted, no whitespace between tokens",
            "descriptor_fields": ["release", "encoding_abi", "encoding_projection_sha256"],
            "descriptor_nul_terminated": False,
            "link_policy": "objects link only when every identity field is equal",
            "load_policy": "an image loads only on an implementation with an equal identity",
            "name_size_bytes": 4, "note_name": "PTO", "note_type": "PTO_NT_ISA_IDENTITY",
            "note_type_value": 1, "section": ".note.pto.isa"},
        "encoding_abi": abi,
        "encoding_projection_sha256": canon(encoding_projection(abi, files)),
        "hash_contract": {
            "algorithm": "SHA-256",
            "content_projection": "canonical JSON of the object that maps every canonical input path to the SHA-256 of its bytes",
            "encoding_projection": "canonical JSON of the encoding ABI id, the command forms, the extension reservations, the tile operation selectors and the system-register locations",
            "json_encoding": "UTF-8 JSON, keys sorted, separators ',' and ':'"},
        "owned_artifacts": [],
        "release": version,
        "release_selection": {
            "architecture_version": version, "baseline_commit": sel["baseline_commit"], "blockers": [],
            "excluded_draft_adrs": sel["excluded_draft_adrs"], "expanded_ndf": ndf,
            "included_ndf_statuses": ["accepted"], "policy_sha256": canon(sel),
            "required_readiness_floor": sel["required_readiness_floor"],
            "selected_adr_ids": sorted(a["id"] for a in tree.adrs if a["status"] == "accepted"
                                       and set(a["affected_ndf"]) & selected)},
        "schema_version": 1,
        "specification_status": status,
    }


def derive(tree: Tree) -> dict[str, bytes]:
    """Every derived file, in dependency order, as root-relative path -> bytes."""
    version, _, _ = read_toml_release(tree.root)
    files: dict[str, bytes] = {}
    files["spec/catalog/command-forms.json"] = pretty_ordered(command_forms(tree)).encode("utf-8")
    files["spec/catalog/tile-operations.json"] = pretty_ordered(tile_operations(tree)).encode("utf-8")
    files[CLOSURE] = pretty_sorted(instruction_closure(tree)).encode("utf-8")
    files[ADR_INDEX] = pretty_sorted(adr_index(tree)).encode("utf-8")
    derived_sources = {p: sha256_bytes(files[p]) for p in (ADR_INDEX, CLOSURE)}
    files[TRACE] = pretty_sorted(traceability(tree, derived_sources)).encode("utf-8")
    files[READINESS] = pretty_sorted(architecture_readiness(tree, files)).encode("utf-8")
    files[SELECTION_SCHEMA] = pretty_sorted(selection_schema()).encode("utf-8")
    files[SELECTION] = pretty_sorted(release_selection(tree, version)).encode("utf-8")
    files[MANIFEST] = pretty_sorted(manifest(tree, files)).encode("utf-8")
    return files


# ---------------------------------------------------------------- corpus copy check

def corpus_copies(root: Path, corpus: Path, min_line: int = 60) -> list[str]:
    """Files of the sample byte-identical to a corpus file, and long lines copied verbatim.

    Lines are compared for ASL and Markdown files, the hand-written ones; the
    derived JSON necessarily repeats structural facts (paths, ids, encodings).
    The PTO-REVIEW line and the NDF attribute line are fixed format sentences
    and are exempt.
    """
    corpus_hashes: set[str] = set()
    corpus_lines: set[str] = set()
    for path in corpus.rglob("*"):
        if path.is_file() and ".git" not in path.parts:
            data = path.read_bytes()
            corpus_hashes.add(sha256_bytes(data))
            if path.suffix in (".asl", ".md", ".toml", ".json", ".txt", ".yaml"):
                for line in data.decode("utf-8", "replace").split("\n"):
                    line = line.strip()
                    if len(line) >= min_line:
                        corpus_lines.add(line)
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if sha256_bytes(data) in corpus_hashes:
            found.append(f"{rel(root, path)}: byte-identical to a corpus file")
            continue
        if path.suffix not in (".asl", ".md"):
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            line = line.strip()
            if len(line) >= min_line and line in corpus_lines and not line.startswith(("// PTO-REVIEW: ", "// ndf: ")):
                found.append(f"{rel(root, path)}:{number}: line copied from the corpus")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="regenerate every derived file")
    mode.add_argument("--check", action="store_true", help="fail if a derived file is stale")
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="sample tree (default: spec/)")
    parser.add_argument("--corpus", type=Path, help="also check that nothing was copied from this tree")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    try:
        tree = load_tree(root)
        if tree.problems:
            for problem in tree.problems:
                print(f"error: {problem}", file=sys.stderr)
            return 1
        files = derive(tree)
    except (SpecError, json.JSONDecodeError, KeyError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.write:
        for relpath, data in files.items():
            target = root / relpath
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_bytes() != data:
                target.write_bytes(data)
                print(f"wrote {relpath}")
        return 0
    stale = [p for p, data in files.items() if not (root / p).exists() or (root / p).read_bytes() != data]
    for relpath in stale:
        print(f"stale: {relpath} (run python tools/bundled_spec.py --write)", file=sys.stderr)
    copies = corpus_copies(root, args.corpus.resolve()) if args.corpus else []
    for problem in copies:
        print(f"error: {problem}", file=sys.stderr)
    if stale or copies:
        return 1
    print(f"ok: {len(tree.units)} units, {len(tree.tests)} tests, {len(tree.adrs)} ADRs, "
          f"{len(files)} derived files up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
