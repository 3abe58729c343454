"""Variants of a corpus release that no published tree has, built at test time in a scratch folder.

specgen must derive what a tree declares instead of fitting 0.58.3. Each function here copies a
release (``tests/treecopy.copy_tree``) and changes one thing the way a later or earlier
development commit could: a catalog form's fields, a global's name, a catalog branch form, the
prose of the matrix compositions, the operand parameters of the matrix predicates, the PE masks
a binding accepts, an ADR header, the keys of an evidence file, the whole layout of an older
release. ``rehash`` re-records the hashes afterwards, so the only findings a variant
can give are the ones its change causes (as a release's own tooling would regenerate them).

``python tests/variants.py NAME SRC DST`` builds one by hand (for the evidence in the docs).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from treecopy import copy_tree  # noqa: E402

CATALOG = "spec/catalog"


# -- helpers ---------------------------------------------------------------------------------------
def _read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _write_json(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")


def _edit(path: Path, edit: Callable[[str], str]) -> None:
    text = path.read_text(encoding="utf-8")
    new = edit(text)
    assert new != text, f"the variant changed nothing in {path}"
    path.write_text(new, encoding="utf-8")


def _edit_records(root: Path, edit: Callable[[str], str], where: str = "asl") -> int:
    """Apply ``edit`` to the text of every ``.asl`` file under ``where`` it changes; how many changed."""
    n = 0
    for p in sorted((root / where).rglob("*.asl")):
        text = p.read_text(encoding="utf-8")
        new = edit(text)
        if new != text:
            p.write_text(new, encoding="utf-8")
            n += 1
    return n


def _hashes(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root`` by POSIX path (what the release tooling records)."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


def rehash(root: Path, before: dict[str, str]) -> None:
    """Record what the variant changed as the release tooling would: every hash of a changed file in the
    manifest and the evidence JSON replaced, rows of removed files dropped and of added sources added
    (beside listed siblings), the content hash recomputed. An absent file the manifest lists (0.58.3's
    closure file) stays listed, so the variant keeps the release's one true finding."""
    from specgen.hashing import content_sha256
    after = _hashes(root)
    changed = {before[p]: after[p] for p in before if p in after and before[p] != after[p]}
    removed = {p for p in before if p not in after}
    added = {p: h for p, h in after.items() if p not in before}
    manifest = root / "spec/release-manifest.json"
    for p in sorted((root / "spec").rglob("*.json")):
        if p == manifest or not changed:
            continue
        text = p.read_text(encoding="utf-8")
        new = re.sub(r"\b[0-9a-f]{64}\b", lambda m: changed.get(m.group(0), m.group(0)), text)
        if new != text:
            p.write_text(new, encoding="utf-8")
    if not manifest.is_file():
        return
    after = _hashes(root)  # the evidence files changed too
    data = _read_json(manifest)
    rows = [r for r in data.get("canonical_inputs", []) if r["path"] not in removed]
    listed_dirs = {r["path"].rsplit("/", 1)[0] for r in rows}
    rows += [{"path": p, "sha256": h} for p, h in added.items()
             if p.rsplit("/", 1)[0] in listed_dirs or p.rsplit("/", 2)[0] in {d.rsplit("/", 1)[0] for d in listed_dirs}]
    for r in rows:
        r["sha256"] = after.get(r["path"], r["sha256"])
    data["canonical_inputs"] = sorted(rows, key=lambda r: r["path"])
    data["owned_artifacts"] = [r for r in data.get("owned_artifacts", []) if r["path"] not in removed]
    for r in data["owned_artifacts"]:
        r["sha256"] = after.get(r["path"], r["sha256"])
    data["content_sha256"] = content_sha256([(r["path"], r["sha256"]) for r in data["canonical_inputs"]])
    manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    sel = data.get("release_selection")
    if isinstance(sel, dict) and sel.get("expanded_ndf"):  # the selected clauses' digests, as the tree has them now
        from specgen.check.rules.ndf_hash import expected_digests
        from specgen.graph import SpecGraph
        from specgen.loader import load_spec
        digests = expected_digests(SpecGraph.build(load_spec(root)))
        sel["expanded_ndf"] = [{**r, "sha256": digests.get(r["id"], r["sha256"])} for r in sel["expanded_ndf"]]
        manifest.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


# -- variants of 0.58.3 ----------------------------------------------------------------------------
def fpatr7(root: Path) -> Path:
    """B.FPATR with 7 fields: TransA and TransB gone (their bits fixed zero), the tree's B.FPATR
    handler passing FALSE for them, its tests of the transpose bits removed. The records' prose keeps
    naming 9 fields (stale prose: the form is the authority)."""
    path = root / CATALOG / "command-forms.json"
    data = _read_json(path)
    for form in data["forms"]:
        if form.get("mnemonic") == "B.FPATR":
            form["fields"] = [f for f in form["fields"] if f["name"] not in ("TransA", "TransB")]
            form["constraints"] = [c for c in form["constraints"] if c.get("field") not in ("TransA", "TransB")]
            form["asm"] = form["asm"].replace(", TransA, TransB", "")
            for enc in form["encoding"]:
                enc["mask"] = f"0x{int(enc['mask'], 16) | 0x180:08x}"
    _write_json(path, data)
    _edit(root / "asl/block/model/dispatch/commands.asl",
          lambda t: re.sub(r"CommandDecodedBool\(instruction, form, CommandField_Trans[AB]\)", "FALSE", t))
    gone = [p for p in (root / "tests/asl").rglob("*.asl")
            if re.search(r"TransA|TransB|trans_a|trans_b|TRANS[AB]", p.read_text(encoding="utf-8"))]
    _forget_tests(root, gone)
    return root


def condition_global_renamed(root: Path) -> Path:
    """The tree names the conditional block's "condition was set" global ``_BundleConditionLatched``:
    the generated BRU set-commit checks still name ``_BundleConditionSet``."""
    n = _edit_records(root, lambda t: re.sub(r"\b_BundleConditionSet\b", "_BundleConditionLatched", t))
    assert n, "no unit names _BundleConditionSet"
    return root


def _forget_tests(root: Path, paths: list[Path]) -> None:
    """Remove test files and every trace of them in the readiness evidence, as the release tooling would."""
    ev = root / "spec/evidence/release-traceability-readiness.json"
    data = _read_json(ev)
    rels = {p.relative_to(root).as_posix() for p in paths}
    ids = {r["id"] for r in data["tests"] if r["path"] in rels}
    data["tests"] = [r for r in data["tests"] if r["path"] not in rels]
    for row in data["units"] + data["requirements"]:
        for key in ("tests", "semantic_tests"):
            if isinstance(row.get(key), list):
                row[key] = [t for t in row[key] if t not in ids]
    data["summary"]["test_count"] = len(data["tests"])

    def drop(x: object) -> None:  # every mapping keyed by a removed path (the recorded source digests)
        if isinstance(x, dict):
            for k in [k for k in x if k in rels]:
                del x[k]
            for v in x.values():
                drop(v)
        elif isinstance(x, list):
            for v in x:
                drop(v)
    drop(data)
    _write_json(ev, data)
    for p in paths:
        p.unlink()


def _drop_ids(root: Path, ids: set[str]) -> None:
    """Remove unit and clause ids from every record that lists them: units' ``depends_on``, ADR front
    matter (``affected_units``, ``affected_ndf``); only the records that change are rewritten."""
    header = re.compile(r"^(// PTO-(?:UNIT|INSTRUCTION): )(.*)$", re.M)

    def unit(text: str) -> str:
        def edit(m: re.Match[str]) -> str:
            rec = json.loads(m.group(2))
            if not set(rec.get("depends_on") or ()) & ids:
                return m.group(0)
            rec["depends_on"] = [d for d in rec["depends_on"] if d not in ids]
            return m.group(1) + json.dumps(rec, separators=(",", ":"), ensure_ascii=False)
        return header.sub(edit, text)
    _edit_records(root, unit)
    for p in sorted((root / "docs").rglob("*.md")):
        text = p.read_text(encoding="utf-8")
        if not text.startswith("---\n") or not any(i in text for i in ids):
            continue
        front, rest = text[4:].split("\n---\n", 1)
        rec = json.loads(front)
        for key in ("affected_units", "affected_ndf"):
            if isinstance(rec.get(key), list):
                rec[key] = [x for x in rec[key] if x not in ids]
        p.write_text("---\n" + json.dumps(rec, indent=2, ensure_ascii=False) + "\n---\n" + rest, encoding="utf-8")


def _record_tests(root: Path, paths: list[Path]) -> None:
    """Add new test files to the readiness evidence, as the release tooling would (rows, the unit's lists)."""
    ev = root / "spec/evidence/release-traceability-readiness.json"
    data = _read_json(ev)
    for p in paths:
        header = json.loads(p.read_text(encoding="utf-8").split("\n", 1)[0].split("PTO-TEST:", 1)[1])
        data["tests"].append({"id": header["id"], "kind": header["kind"], "path": p.relative_to(root).as_posix(),
                              "requirements": header["requirements"],
                              "sha256": hashlib.sha256(p.read_bytes()).hexdigest(), "source": header["source"]})
        unit = next(u for u in data["units"] if u["source"] == header["source"])
        unit["tests"] = sorted(unit["tests"] + [header["id"]])
        if header["kind"] == "execution" and unit.get("semantic_tests") is not None:
            unit["semantic_tests"] = sorted(unit["semantic_tests"] + [header["id"]])
    data["tests"].sort(key=lambda r: r["path"])
    data["summary"]["test_count"] = len(data["tests"])
    _write_json(ev, data)


def _encodings(root: Path) -> list[dict]:
    """Every encoding word pattern any catalog declares (forms, reservations)."""
    out: list[dict] = []

    def walk(x: object) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("encoding"), list):
                out.extend(e for e in x["encoding"] if isinstance(e, dict) and "mask" in e and "match" in e)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    for p in sorted((root / CATALOG).glob("*.json")):
        walk(_read_json(p))
    return out


def _replace_last(text: str, old: str, new: str) -> str:
    head, sep, tail = text.rpartition(old)
    assert sep, old
    return head + new + tail


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two (mask, match) word patterns accept a common word."""
    return ((a[1] ^ b[1]) & a[0] & b[0]) == 0


def branch_form_added(root: Path, *, implemented: bool = False) -> Path:
    """The scalar catalog declares conditional branches ``B.EQ``/``B.NE`` (as 0.58.0 and the releases after it
    did: ``b.eq SrcL, SrcR, label``), and the tests of the BRU model call their validation shards. Without
    ``implemented`` the tree has no ASL for them (no ``InstructionContractTarget_B_EQ``); with it, the
    dispatch branches to ``TPC + (offset << 1)`` and the unit states that target function."""
    path = root / CATALOG / "scalar-forms.json"
    data = _read_json(path)
    forms = data["forms"]
    # 0.58.3 reserves the branches' old encodings as extension space: a release that has them takes them back
    rpath = root / CATALOG / "extension-encoding-reservations.json"
    reservations = _read_json(rpath)
    taken = {r["mnemonic"]: r for r in reservations["reservations"] if r.get("mnemonic") in ("B.EQ", "B.NE")}
    assert len(taken) == 2
    reservations["reservations"] = [r for r in reservations["reservations"] if r.get("mnemonic") not in taken]
    reservations["reservation_count"] = len(reservations["reservations"])
    _write_json(rpath, reservations)
    template = next(f for f in forms if f["mnemonic"] == "CMP.EQ")
    tests = root / "tests/asl/scalar/model/dispatch/bru"
    tests.mkdir(parents=True, exist_ok=True)
    for cond in ("EQ", "NE"):
        form = json.loads(json.dumps(template))
        form.update(mnemonic=f"B.{cond}", asm=f"b.{cond.lower()} SrcL, SrcR, label",
                    semantic_handler="BranchRelative", form_id=f"b_{cond.lower()}_32_{hashlib.sha256(cond.encode()).hexdigest()[:12]}",
                    semantic_summary=f"B.{cond} - Conditionally branch to the PC-relative target after comparing "
                                     "scalar operands.", constraints=[],
                    fields=taken[f"B.{cond}"]["fields"], encoding=taken[f"B.{cond}"]["encoding"])
        forms.append(form)
        for n, shard in ((1, "Execute"), (2, "Bounds")):
            (tests / f"scalar-exec-bru-b-{cond.lower()}-branch-00{n}.asl").write_text(
                "// PTO-TEST: " + json.dumps({
                    "id": f"PTO-AVS-SCALAR-MODEL-DISPATCH-BRU-B-{cond}-EXEC-00{n}",
                    "source": "asl/scalar/model/dispatch/bru.asl", "requirements": [], "kind": "execution",
                    "summary": f"B.{cond} executes the canonical comparison, branch, jump, or control effect",
                    "pass_condition": "the mnemonic-owned semantic assertions hold", "related_sources": []},
                    separators=(",", ":")) + "\n"
                f"func main() => integer\nbegin\n    ValidateScalarBRU{shard}_B_{cond}();\n    return 0;\nend;\n",
                encoding="utf-8")
    data["form_count"] = len(forms)
    _write_json(path, data)
    _record_tests(root, sorted(tests.glob("scalar-exec-bru-b-*.asl")))
    if implemented:
        _edit(root / "asl/scalar/model/dispatch/bru.asl", lambda t: _replace_last(t, """        otherwise => unreachable;""", """        when ScalarOperation_B_EQ, ScalarOperation_B_NE =>
            let left = ReadDecodedScalarRegister(instruction, form, ScalarField_SrcL);
            let right = ReadDecodedScalarRegister(instruction, form, ScalarField_SrcR);
            let offset = ScalarDecodedWord(instruction, form, ScalarField_simm12);
            let taken = if operation == ScalarOperation_B_EQ then left == right else left != right;
            if taken then
                WriteTPC(InstructionContractTarget_B_EQ(ReadTPC(), offset));
            else
                WriteTPC(ReadTPC() + 4);
            end;
        otherwise => unreachable;""") + "".join(f"""
pure func InstructionContractTarget_B_{c}(base: Word, halfword_offset: Word) => Word
begin
    return base + LSL(halfword_offset, 1);
end;
""" for c in ("EQ", "NE")))
        _edit(root / "asl/scalar/model/dispatch/decode.asl",
              lambda t: t.replace("return handler == ScalarHandler_JumpRelative ||",
                                  "return handler == ScalarHandler_JumpRelative ||\n"
                                  "           handler == ScalarHandler_BranchRelative ||", 1))
    return root


def branch_form_implemented(root: Path) -> Path:
    """:func:`branch_form_added` with the branches' ASL."""
    return branch_form_added(root, implemented=True)


def form_removed(root: Path, mnemonic: str = "XORW") -> Path:
    """A scalar form is gone, as a later release drops one: its catalog row (the last, so no other form's
    index shifts and the tree's decoder tests keep theirs), its unit, its tests, and every reference the
    release tooling keeps (ADR ``affected_units``, ``depends_on``, the evidence rows, the release selection)."""
    ident = re.sub(r"[^A-Za-z0-9]", "-", mnemonic)
    unit_id, identity = f"PTO-SCALAR-{ident}", f"PTO-INST-SCALAR-{ident}"
    path = root / CATALOG / "scalar-forms.json"
    data = _read_json(path)
    assert data["forms"][-1]["mnemonic"] == mnemonic, "the variant removes the catalog's last form"
    data["forms"] = data["forms"][:-1]
    data["form_count"] = len(data["forms"])
    _write_json(path, data)
    unit = next((root / "asl/scalar").glob(f"*/{mnemonic}.asl"))
    source = unit.relative_to(root).as_posix()
    clauses = re.findall(r"NDF-BEGIN: ([A-Z0-9-]+)", unit.read_text(encoding="utf-8"))
    unit.unlink()
    word = re.compile(rf"\b{re.escape(mnemonic)}\b|\b{re.escape(mnemonic.replace('.', '_'))}\b")
    tests = sorted({*(root / "tests/asl/scalar").glob(f"*/{mnemonic}/*.asl"),
                    *(p for p in (root / "tests/asl").rglob("*.asl") if word.search(p.read_text(encoding="utf-8")))})
    _forget_tests(root, tests)
    for d in (root / "tests/asl/scalar").glob(f"*/{mnemonic}"):
        shutil.rmtree(d)
    _drop_ids(root, {unit_id, identity, *clauses})
    ev = root / "spec/evidence/release-traceability-readiness.json"
    view = _read_json(ev)
    view["units"] = [u for u in view["units"] if u["source"] != source]
    view["requirements"] = [r for r in view["requirements"] if r["id"] not in {identity, *clauses}]
    view["sources"].pop(source, None)
    _write_json(ev, view)
    manifest = root / "spec/release-manifest.json"
    man = _read_json(manifest)
    sel = man.get("release_selection") or {}
    sel["expanded_ndf"] = [r for r in sel.get("expanded_ndf", []) if r["id"] not in {identity, *clauses}]
    _write_json(manifest, man)
    return root


_CUBE_SOURCE = re.compile(r"\b([A-C]) CUBE_[MN][0-9]+(?:/[MN]?[0-9]+)? (primary|accumulator)")


def matrix_prose(root: Path) -> Path:
    """The matrix compositions say "A matrix, B matrix" where 0.58.3 names CUBE layouts."""
    def edit(text: str) -> str:
        if not text.startswith("// PTO-INSTRUCTION:"):
            return text
        first, _, rest = text.partition("\n")
        first = _CUBE_SOURCE.sub(lambda m: f"{m.group(1)} matrix", first)
        first = first.replace("D matching A's CUBE_M16/M32 layout", "D matching A's layout")
        return first + "\n" + rest
    assert _edit_records(root, edit) >= 24
    return root


def matrix_operands_renamed(root: Path) -> Path:
    """``TileOperandsLegal_TGEMV*``/``_TMATMUL_MX*`` name their operands otherwise (``lhs_vector``,
    ``lhs_scale``…), and the catalog roles say ``lhs-vector``/``lhs-scale``: the same operation, other words."""
    names = {"left_vector": "lhs_vector", "right_matrix": "rhs_matrix", "left_scale": "lhs_scale",
             "right_scale": "rhs_scale"}
    legality = root / "asl/tile/model/legality/matrix-shape.asl"
    _edit(legality, lambda t: re.sub(r"\b(" + "|".join(names) + r")\b", lambda m: names[m.group(1)], t))
    roles = {"left-vector": "lhs-vector", "right-matrix": "rhs-matrix", "row-scale": "lhs-scale",
             "column-scale": "rhs-scale"}
    pattern = re.compile(r'"role":"(' + "|".join(roles) + r')"')
    state = re.compile(r'(operand:source[0-9]:)(' + "|".join(roles) + r')"')

    def edit(text: str) -> str:
        return state.sub(lambda m: m.group(1) + roles[m.group(2)] + '"',
                         pattern.sub(lambda m: f'"role":"{roles[m.group(1)]}"', text))
    _edit_records(root, edit)
    path = root / CATALOG / "tile-operations.json"
    data = _read_json(path)
    for op in data["operations"]:
        for o in op.get("operands", []):
            o["role"] = roles.get(o["role"], o["role"])
        op["state_effects"] = [state.sub(lambda m: m.group(1) + roles[m.group(2)] + '"', e + '"')[:-1]
                               for e in op.get("state_effects", [])]
    _write_json(path, data)
    return root


def matrix_all_pes(root: Path) -> Path:
    """The ordinary matrix operations accept only a binding of all four PEs (``PE_MASK 1111``), as some
    releases require: ``TileOperandsLegal_TMATMUL`` (which the BIAS, ACC and TGEMV forms call) says so."""
    _edit(root / "asl/tile/model/legality/matrix-shape.asl",
          lambda t: t.replace("""begin
    return TileOrdinaryMatrixOperandsLegal(left, right) &&
           TileMatrixDestinationLegal(destination, left, right);""", """begin
    return _BundleTileBindings[[0]].pe_mask == '1111' &&
           TileOrdinaryMatrixOperandsLegal(left, right) &&
           TileMatrixDestinationLegal(destination, left, right);""", 1))
    return root


# -- ADRs and evidence -----------------------------------------------------------------------------
def adr_markdown_variants(root: Path) -> Path:
    """0.58.0's Markdown ADR headers as other releases' CI accepted them: three superseded ADRs that do
    not name their successor, two ``Status: proposed``."""
    decisions = sorted((root / "docs/status/decisions").glob("0*.md"))
    done = 0
    for p in decisions:
        text = p.read_text(encoding="utf-8")
        if done < 3 and "- Status: accepted" in text:
            p.write_text(text.replace("- Status: accepted", "- Status: Superseded", 1), encoding="utf-8")
            done += 1
        elif 3 <= done < 5 and "- Status: accepted" in text:
            p.write_text(text.replace("- Status: accepted", "- Status: proposed", 1), encoding="utf-8")
            done += 1
    assert done == 5
    return root


def evidence_renamed_keys(root: Path) -> Path:
    """The readiness evidence's unit rows name ``subjects`` where 0.58.3 has ``readiness_subjects``."""
    path = root / "spec/evidence/release-traceability-readiness.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"readiness_subjects"', '"subjects"'), encoding="utf-8")
    return root


# -- an older layout --------------------------------------------------------------------------------
SHARD_README = """# Tests

Every file under `asl/` is a shard of test functions for one ASL unit,
`asl/<surface>/<classification>/<unit>.asl`. Each function whose name starts
with `Test` takes no arguments and returns an integer; it is one test and
passes when it returns zero. Shards carry no per-file metadata.
"""
_MAIN = re.compile(r"^func main\(\) => integer$", re.M)
_DECL = re.compile(r"^(?:(?:pure|readonly|noreturn)\s+)?(?:func|type|var|let|constant|config)\s", re.M)


MAIN_README = """# Tests

Every file under `asl/` is one test of the ASL unit it mirrors,
`asl/<surface>/<classification>/<unit>.asl`. Each test has exactly one
`func main() => integer`, which returns 0 on success. Files carry no metadata.
"""


def older_layout_main(root: Path) -> Path:
    """0.57.1's tests as its ``tests/README.md`` states them: one file a test, its ``func main()``, no header
    (the rest of :func:`older_layout`)."""
    return older_layout(root, shards=False)


def older_layout(root: Path, shards: bool = True) -> Path:
    """A tree laid out as releases before 0.58 were (0.57.1), built from 0.58.0: ADRs in
    ``docs/architecture-decisions/``, instruction prose in ``docs/instructions/``, tests as ASL shards of
    ``Test…`` functions without per-file headers (the convention ``tests/README.md`` states; ``shards=False``:
    one file a test, its ``main()``), no instruction or unit records, no traceability evidence."""
    decisions = root / "docs/status/decisions"
    target = root / "docs/architecture-decisions"
    target.mkdir(parents=True)
    for p in sorted(decisions.glob("*.md")):
        p.rename(target / p.name)
    shutil.rmtree(root / "docs/status")
    instructions = root / "docs/instructions"
    instructions.mkdir()
    for unit in sorted((root / "asl").rglob("*.asl")):
        first = unit.read_text(encoding="utf-8").split("\n", 1)[0]
        doc = root / "docs" / unit.relative_to(root / "asl").with_suffix(".md")
        if first.startswith("// PTO-INSTRUCTION:") and doc.is_file():
            doc.rename(instructions / doc.name)
    # records become plain comment lines: every other line keeps its number
    _edit_records(root, lambda t: re.sub(r"^// PTO-(?:INSTRUCTION|UNIT|REVIEW): .*$", "//", t, flags=re.M))
    tests = root / "tests/asl"
    if not shards:
        for p in sorted(tests.rglob("*.asl")):
            p.write_text(re.sub(r"^// PTO-TEST: .*\n", "", p.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
        (root / "tests/README.md").write_text(MAIN_README, encoding="utf-8")
        (root / "spec/evidence/release-traceability-readiness.json").unlink()
        return root
    for unit_dir in sorted({p.parent for p in tests.rglob("*.asl")}, key=lambda d: -len(d.parts)):
        functions: list[str] = []
        for p in sorted(unit_dir.glob("*.asl")):
            text = re.sub(r"^// PTO-TEST: .*\n", "", p.read_text(encoding="utf-8"), flags=re.M)
            p.unlink()
            if len(_DECL.findall(text)) == 1 and _MAIN.search(text):  # the test is its main alone
                name = "Test" + re.sub(r"[^A-Za-z0-9]", "_", p.stem.title())
                functions.append(_MAIN.sub(f"func {name}() => integer", text).strip() + "\n")
        if functions:
            unit_dir.with_suffix(".asl").write_text("\n".join(functions), encoding="utf-8")
        if not any(unit_dir.iterdir()):
            unit_dir.rmdir()
    (root / "tests/README.md").write_text(SHARD_README, encoding="utf-8")
    (root / "spec/evidence/release-traceability-readiness.json").unlink()
    return root


_GENERATED_MARK = re.compile(r"\A<!--\s*GENERATED FROM:[^\n]*-->\n")


def instruction_prose(root: Path) -> Path:
    """An older layout whose ``docs/instructions/*.md`` is hand-written prose (as 0.57.1 published it): the
    files keep their text without the ``GENERATED FROM`` marker a later generator writes."""
    n = 0
    for p in sorted((root / "docs/instructions").glob("*.md")):
        text = p.read_text(encoding="utf-8")
        new = _GENERATED_MARK.sub("", text)
        if new != text:
            p.write_text(new, encoding="utf-8")
            n += 1
    assert n, "no generated instruction document to turn into prose"
    return root


VARIANTS: dict[str, Callable[[Path], Path]] = {
    "fpatr7": fpatr7,
    "condition-global-renamed": condition_global_renamed,
    "branch-form-added": branch_form_added,
    "branch-form-implemented": branch_form_implemented,
    "form-removed": form_removed,
    "matrix-prose": matrix_prose,
    "matrix-operands-renamed": matrix_operands_renamed,
    "matrix-all-pes": matrix_all_pes,
    "adr-markdown-variants": adr_markdown_variants,
    "evidence-renamed-keys": evidence_renamed_keys,
    "older-layout": older_layout,
    "older-layout-main": older_layout_main,
    "older-layout-prose": lambda root: instruction_prose(older_layout(root)),
}


def build(name: str, src: Path, dst: Path) -> Path:
    """A copy of ``src`` at ``dst`` with variant ``name`` applied."""
    copy_tree(src, dst)
    before = _hashes(dst)
    VARIANTS[name](dst)
    rehash(dst, before)
    return dst


if __name__ == "__main__":
    print(build(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])))
