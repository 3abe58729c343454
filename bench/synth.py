"""Synthetic specs N times the corpus, for scaling measurements (written to a temp dir only).

Every instruction's ASL unit and its AVS tests are cloned N-1 times under fresh names: copy ``k``
suffixes each ``PTO-…`` ID and each instruction mnemonic with ``ZZ<k>`` (glued on, so
mnemonics stay legal ASL identifiers and command mnemonics, and a unit's ID is still
``PTO-<SURFACE>-<slug(mnemonic)>``; its clause ID and file name follow), each
unit path and each test directory. The model's units (no instruction record: types, state, shared
helpers) and their tests are kept once: cloned, each declaration would be declared twice
(``asl-duplicate``), and an ISA N times larger has N times the instructions over one model. The same renaming is applied to every JSON
row that names a cloned file, mnemonic or ID (catalog records, manifest rows,
traceability rows), so the clones are records of the same shape, and every
hash that names a rewritten file is recomputed (manifest last, with its
``content_sha256``). Cloned catalog records keep their bit patterns (a 32-bit
encoding space has no room for ten copies of an ISA), so each original and its
clones accept the same words; the generator declares each such form as a
reviewed overlap (command-forms.json ``reviewed_encoding_overlaps``, reason
"synthetic clone"), as a spec would declare an intended alias, so
``encoding-collision`` still runs its pairwise search over every group.

The release selection's clause digests (``expanded_ndf``) are recomputed from the written tree.

``python -m bench.synth ROOT OUT N`` writes one tree.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

PTO_ID = re.compile(r"\bPTO-(?!(?:INSTRUCTION|UNIT|REVIEW|STATE|TEST):)[A-Z0-9]+(?:-[A-Z0-9]+)*")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
HEADER = re.compile(r"^// PTO-INSTRUCTION: (.*)$", re.M)
SHA = re.compile(r"^[0-9a-f]{64}$")
CLONED = re.compile(r"ZZ\d+$")


def _safe_name(mnemonic: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", mnemonic).strip("_")


class Renamer:
    """The string transform of copy ``k``: IDs, mnemonics and cloned paths."""

    def __init__(self, k: int, paths: dict[str, str], mnemonics: set[str], declared: frozenset[str] | set[str] = frozenset()) -> None:
        self.sfx = f"ZZ{k}"  # glued on: mnemonics, IDs and identifiers stay [A-Z0-9] where they were
        self.paths = paths
        self.mn = {m: f"{m}{self.sfx}" for m in mnemonics}
        self.declared = re.compile(r"\b(" + "|".join(sorted(map(re.escape, declared), key=len, reverse=True))
                                   + r")\b") if declared else None

    def asl(self, text: str) -> str:
        """A cloned ASL file: the names the instructions' units declare get the copy's suffix too (the
        model's units are not cloned and keep calling the originals)."""
        text = self(text)
        return self.declared.sub(lambda m: m.group(1) + self.sfx, text) if self.declared else text

    def _quoted(self, m: re.Match[str]) -> str:
        s = m.group(1)
        new = self.paths.get(s) or self.mn.get(s)
        return f'"{new}"' if new is not None else m.group(0)

    def __call__(self, text: str) -> str:
        text = QUOTED.sub(self._quoted, text)
        return PTO_ID.sub(self._id, text)

    def _id(self, m: re.Match[str]) -> str:
        # an ID another copy already renamed stays: copy k clones the originals only, so a tree
        # n times the corpus has n copies of each row, not 2^(n-1) (clones of clones)
        return m.group(0) if CLONED.search(m.group(0)) else f"{m.group(0)}{self.sfx}"


DECLARED = re.compile(r"^(?:(?:pure|readonly|noreturn|impdef|implementation)\s+)*func\s+(\w+)"
                      r"|^type\s+(\w+)|^(?:constant|config|var|let)\s+(\w+)", re.M)
MEMBERS = re.compile(r"^type\s+\w+\s+of\s+enumeration\s*\{([^}]*)\}", re.M)


def _declared(text: str) -> set[str]:
    """The names an ASL unit declares at its top level (functions, types, globals, enumeration members)."""
    names = {next(g for g in m.groups() if g) for m in DECLARED.finditer(text)}
    for m in MEMBERS.finditer(text):
        names |= set(re.findall(r"\w+", m.group(1)))
    return names


def _plan(root: Path, k: int) -> tuple[dict[str, str], set[str], set[str]]:
    """Old path -> new path of copy ``k`` for every instruction's unit and its tests, the mnemonics, and
    the names those units declare."""
    paths: dict[str, str] = {}
    mnemonics: set[str] = set()
    declared: set[str] = set()
    for p in sorted((root / "asl").rglob("*.asl")):
        rel = p.relative_to(root).as_posix()
        m = HEADER.search(p.read_text(encoding="utf-8", errors="replace"))
        mn = None
        if m:
            try:
                mn = json.loads(m.group(1)).get("mnemonic")
            except (ValueError, AttributeError):
                mn = None
        if isinstance(mn, str):
            mnemonics.add(mn)
            declared |= _declared(p.read_text(encoding="utf-8", errors="replace"))
            paths[rel] = f"{rel.rsplit('/', 1)[0]}/{_safe_name(f'{mn}ZZ{k}')}.asl"
        # a unit of no instruction (the model: types, state, helpers) is not cloned: its declarations
        # would be declared twice (asl-duplicate), and a larger ISA has more instructions, one model
    tests = root / "tests" / "asl"
    for p in sorted(tests.rglob("*.asl")) if tests.is_dir() else []:
        rel = p.relative_to(root).as_posix()
        d, name = rel.rsplit("/", 1)
        src = "asl/" + d.removeprefix("tests/asl/") + ".asl"
        new_src = paths.get(src)
        if new_src:  # the tests of an instruction's unit, with it
            paths[rel] = f"tests/{new_src.removesuffix('.asl')}/{name}"
    return paths, mnemonics, declared


def _clone_json(value: Any, tr: Callable[[str], str]) -> Any:
    """Append renamed copies of every list element / mapping entry that names something cloned."""
    if isinstance(value, list):
        out = [_clone_json(v, tr) if isinstance(v, (dict, list)) and not _names(v, tr) else v for v in value]
        for v in value:
            if isinstance(v, (dict, list, str)) and _names(v, tr):
                out.append(json.loads(tr(json.dumps(v))))
        return out
    if isinstance(value, dict):
        out_d: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, v in value.items():
            nk = tr(json.dumps(key))
            if json.loads(nk) != key:
                out_d[key] = v
                extra[json.loads(nk)] = json.loads(tr(json.dumps(v)))
            else:
                out_d[key] = _clone_json(v, tr) if isinstance(v, (dict, list)) else v
        out_d.update(extra)
        return out_d
    return value


def _names(v: Any, tr: Callable[[str], str]) -> bool:
    s = json.dumps(v)
    return tr(s) != s


def _rehash(value: Any, out: Path) -> None:
    """Recompute every sha256 that names a file of the new tree (rows and path->sha maps)."""
    if isinstance(value, list):
        for v in value:
            _rehash(v, out)
    elif isinstance(value, dict):
        path = value.get("path") if isinstance(value.get("path"), str) else value.get("source")
        if isinstance(path, str) and isinstance(value.get("sha256"), str) and (out / path).is_file():
            value["sha256"] = hashlib.sha256((out / path).read_bytes()).hexdigest()
        for key, v in list(value.items()):
            if isinstance(v, str) and SHA.match(v) and "/" in key and (out / key).is_file():
                value[key] = hashlib.sha256((out / key).read_bytes()).hexdigest()
            elif isinstance(v, (dict, list)):
                _rehash(v, out)


def synthesize(root: Path, out: Path, n: int) -> dict[str, int]:
    """Write ``root`` scaled ``n`` times into ``out`` (created; must not exist)."""
    root = root.resolve()
    shutil.copytree(root, out, ignore=shutil.ignore_patterns(".git"))
    plans = [_plan(root, k) for k in range(1, n)]
    renamers = [Renamer(k, paths, mns, names) for k, (paths, mns, names) in enumerate(plans, 1)]
    files = 0
    for (paths, _, _), tr in zip(plans, renamers):
        for old, new in paths.items():
            text = (root / old).read_text(encoding="utf-8")
            dst = out / new
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(tr.asl(text), encoding="utf-8")
            files += 1
    manifest = "spec/release-manifest.json"
    jsons = sorted(p.relative_to(out).as_posix() for p in (out / "spec").rglob("*.json"))
    cloned_forms: set[str] = set()
    for rel in [j for j in jsons if j != manifest and "/schemas/" not in j] + [REVIEWED, manifest]:
        p = out / rel
        if not p.is_file():
            continue
        data = json.loads(p.read_text(encoding="utf-8"))
        if rel == REVIEWED and cloned_forms and isinstance(data, dict):  # second visit: the clones' overlaps
            rows = data.setdefault("reviewed_encoding_overlaps", [])
            rows += [{"broad_form_id": f, "narrow_form_id": f, "reason": CLONE_REASON} for f in sorted(cloned_forms)]
        elif rel != REVIEWED or not cloned_forms:
            for tr in renamers:
                data = _clone_json(data, tr)
            cloned_forms |= _clone_forms(data)
        _rehash(data, out)
        if rel == manifest and isinstance(data, dict):
            from specgen.hashing import content_sha256
            rows = [(r["path"], r["sha256"]) for r in data.get("canonical_inputs", []) if isinstance(r, dict)]
            if "content_sha256" in data:
                data["content_sha256"] = content_sha256(rows)
        p.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if n > 1:
        _redigest(out, manifest)
    return {"copies": n, "cloned_files": files}


REVIEWED = "spec/catalog/command-forms.json"
CLONE_REASON = "synthetic clone (bench/synth.py): the copy keeps its original's bit pattern"


def _clone_forms(value: Any) -> set[str]:
    """The form IDs of cloned encodings (a record whose mnemonic carries a copy's suffix)."""
    found: set[str] = set()
    if isinstance(value, list):
        for v in value:
            found |= _clone_forms(v)
    elif isinstance(value, dict):
        if isinstance(value.get("form_id"), str) and CLONED.search(str(value.get("mnemonic", ""))):
            found.add(value["form_id"])
        for v in value.values():
            if isinstance(v, (dict, list)):
                found |= _clone_forms(v)
    return found


def _redigest(out: Path, manifest: str) -> None:
    """Recompute the release selection's clause digests (``expanded_ndf``) from the clones as written.

    A renamed clause has a new ID and body, so its digest is new; it is computed by specgen's own
    digest function over the tree the generator wrote (what the upstream release tooling does).
    The manifest's ``content_sha256`` covers its inputs' rows only, so it stays valid.
    """
    from specgen.check.rules.ndf_hash import expected_digests
    from specgen.graph import SpecGraph
    from specgen.loader import load_spec
    want = expected_digests(SpecGraph.build(load_spec(out, cache=False)))
    p = out / manifest
    data = json.loads(p.read_text(encoding="utf-8"))
    for row in data.get("release_selection", {}).get("expanded_ndf", []):
        if isinstance(row, dict) and row.get("id") in want:
            row["sha256"] = want[row["id"]]
    p.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    print(synthesize(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])))
