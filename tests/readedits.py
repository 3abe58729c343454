"""Single-definition edits of a spec tree, one of each kind a run can read (issue 38's property test).

Every edit is found from what the tree declares (its parsed units, its catalogs, its tests), never
from a list of names: a function's body, a constant, a ``config`` default, a global variable's
initialiser (or declared type), an enumeration's member order, a named bitvector's width, a record's
fields, an AVS test, a catalog record the generated ASL is made from, and the configuration
(``specification.toml``'s step budget). An edit changes digits or swaps names, so the unit still
parses and no other declaration moves; :class:`Editor` also reverts an earlier edit (itself an edit).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from specgen.asl.ast import FuncDecl, GlobalDecl, TypeDecl
from specgen.asl.index import SpecIndex

# ---------------------------------------------------------------- the stale-verdict probes (issue 38)
PROBE_UNIT = "asl/arch/data-types/integer.asl"
PROBE_TESTS = "tests/asl/arch/data-types/integer"

# appended to PROBE_UNIT (the end of the file: no other declaration moves); each read by one probe only
PROBE_DEFINITIONS = """
constant PROBE_LIMIT = 7;
config PROBE_DEPTH : integer = 3;
var ProbeCounter : integer = 5;
type ProbeNibble of bits(4);
type ProbeColour of enumeration {
    ProbeColour_Red,
    ProbeColour_Green
};
"""

# kind -> (the definition's name, the probe's main body, the edit of PROBE_UNIT that makes it fail)
PROBES: dict[str, tuple[str, str, tuple[str, str]]] = {
    "constant": ("PROBE_LIMIT", "assert PROBE_LIMIT == 7;",
                 ("constant PROBE_LIMIT = 7;", "constant PROBE_LIMIT = 8;")),
    "config": ("PROBE_DEPTH", "assert PROBE_DEPTH + 1 == 4;",
               ("config PROBE_DEPTH : integer = 3;", "config PROBE_DEPTH : integer = 4;")),
    "global": ("ProbeCounter", "ProbeCounter = ProbeCounter + 1;\n    assert ProbeCounter == 6;",
               ("var ProbeCounter : integer = 5;", "var ProbeCounter : integer = 9;")),
    "bitvector": ("ProbeNibble", "var n : ProbeNibble;\n    assert Len(n) == 4;",
                  ("type ProbeNibble of bits(4);", "type ProbeNibble of bits(5);")),
    "enumeration": ("ProbeColour", "var c : ProbeColour;\n    assert c == ProbeColour_Red;",
                    ("    ProbeColour_Red,\n    ProbeColour_Green", "    ProbeColour_Green,\n    ProbeColour_Red")),
}


def probe_id(kind: str) -> str:
    return f"PTO-AVS-ARCH-INTEGER-PROBE-{kind.upper()}-001"


def probe_path(kind: str) -> str:
    return f"{PROBE_TESTS}/arch-exec-integer-probe-{kind}-001.asl"


def add_probes(root: Path) -> None:
    """The five definitions and the five tests reading them, in a copy of the bundled spec."""
    unit = root / PROBE_UNIT
    unit.write_text(unit.read_text(encoding="utf-8") + PROBE_DEFINITIONS, encoding="utf-8")
    for kind, (name, body, _edit) in PROBES.items():
        header = {"id": probe_id(kind), "source": PROBE_UNIT, "requirements": [], "kind": "execution",
                  "summary": f"the probe reads {name}", "pass_condition": f"{name} is as declared",
                  "related_sources": []}
        (root / probe_path(kind)).write_text(
            f"// PTO-TEST: {json.dumps(header, separators=(',', ':'))}\nfunc main() => integer\nbegin\n"
            f"    {body}\n    return 0;\nend;\n", encoding="utf-8")


def edit_probe(root: Path, kind: str) -> None:
    old, new = PROBES[kind][2]
    unit = root / PROBE_UNIT
    text = unit.read_text(encoding="utf-8")
    assert text.count(old) == 1
    unit.write_text(text.replace(old, new), encoding="utf-8")


# ---------------------------------------------------------------- random single-definition edits
_INT = re.compile(r"(?<![\w.'])\d+(?![\w.'])")
KINDS = ("function", "constant", "config", "global", "enumeration", "bitvector", "record", "test", "catalog",
         "configuration", "revert")


def _code(line: str) -> str:
    return line.split("//", 1)[0]


def _kind(decl: object) -> str | None:
    if isinstance(decl, FuncDecl):
        return "function"
    if isinstance(decl, GlobalDecl):
        return {"constant": "constant", "let": "constant", "config": "config", "var": "global"}.get(decl.kind)
    if isinstance(decl, TypeDecl):
        return {"enum": "enumeration", "record": "record", "alias": "bitvector"}.get(decl.form)
    return None


@dataclass
class Editor:
    """Random single-definition edits of one tree, from ``seed``; ``log`` says what each step did."""

    root: Path
    seed: int
    budget: int  # the step budget every run of the property gets ([specgen] max_steps)
    kinds: tuple[str, ...] = KINDS
    log: list[str] = field(default_factory=list)
    _original: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # -- the text of the tree --------------------------------------------------------------
    def _read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def _write(self, rel: str, text: str) -> None:
        self._original.setdefault(rel, self._read(rel))
        (self.root / rel).write_text(text, encoding="utf-8")

    def _bump(self, rel: str, first: int, last: int) -> bool:
        """Change one integer literal of lines ``first``..``last`` (1-based, code only) by one."""
        lines = self._read(rel).split("\n")
        spots = [(i, m) for i in range(first - 1, min(last, len(lines))) for m in _INT.finditer(_code(lines[i]))]
        if not spots:
            return False
        i, m = self.rng.choice(spots)
        value = int(m.group())
        new = value + 1 if value < 2 or self.rng.random() < 0.5 else value - 1
        lines[i] = lines[i][:m.start()] + str(new) + lines[i][m.end():]
        self._write(rel, "\n".join(lines))
        return True

    # -- edits -------------------------------------------------------------------------------
    def step(self, index: SpecIndex, read: set[str]) -> str:
        """One edit: a definition of a random kind (one of ``read`` mostly: the names results read)."""
        for _ in range(50):
            kind = self.rng.choice(self.kinds)
            done = getattr(self, "_" + kind)(index, read) if kind in ("revert", "test", "catalog", "configuration") \
                else self._definition(kind, index, read)
            if done:
                self.log.append(done)
                return done
        raise AssertionError(f"no edit found in 50 tries (seed {self.seed})")

    def _definition(self, kind: str, index: SpecIndex, read: set[str]) -> str | None:
        names = [n for n, locs in index.defs.items() if any(k != "enum_member" for k, _f, _d in locs)]
        pool = [n for n in names if n in read] if self.rng.random() < 0.8 else names
        self.rng.shuffle(pool)
        for name in pool[:200]:
            for kind_, fi, di in index.defs[name]:
                if kind_ == "enum_member":
                    continue
                mod = index.module(fi)
                decl = mod.decls[di]
                if _kind(decl) != kind or decl.name != name:
                    continue
                after = [d.line for d in mod.decls if d.line > decl.line]
                last = min(after) - 1 if after else 10**9
                if self._edit_decl(decl, last):
                    return f"{kind} {name} ({decl.path}:{decl.line})"
        return None

    def _edit_decl(self, decl: FuncDecl | TypeDecl | GlobalDecl, last: int) -> bool:
        rel = decl.path
        if isinstance(decl, TypeDecl) and decl.form == "enum":
            members = list(decl.payload)  # type: ignore[arg-type]
            if len(members) < 2:
                return False
            i = self.rng.randrange(len(members) - 1)
            a, b = members[i], members[i + 1]
            lines = self._read(rel).split("\n")
            span = "\n".join(lines[decl.line - 1:last])
            swapped = re.sub(rf"\b({re.escape(a)}|{re.escape(b)})\b", lambda m: b if m.group() == a else a, span)
            self._write(rel, "\n".join(lines[:decl.line - 1] + swapped.split("\n") + lines[last:]))
            return True
        if isinstance(decl, TypeDecl) and decl.form == "record":
            if self.rng.random() < 0.5 and self._bump(rel, decl.line, last):
                return True
            lines = self._read(rel).split("\n")
            for i in range(decl.line - 1, min(last, len(lines))):
                if "{" in _code(lines[i]):  # a first field on the brace's line: no line moves
                    at = lines[i].index("{") + 1
                    lines[i] = lines[i][:at] + f" probe_field{self.rng.randrange(1000)}: integer," + lines[i][at:]
                    self._write(rel, "\n".join(lines))
                    return True
            return False
        if isinstance(decl, FuncDecl):  # the body, not the signature
            return self._bump(rel, decl.line + 1, last)
        return self._bump(rel, decl.line, last)

    def _test(self, index: SpecIndex, read: set[str]) -> str | None:
        tests = sorted(p.relative_to(self.root).as_posix() for p in (self.root / "tests").rglob("*.asl"))
        rel = self.rng.choice(tests)
        lines = self._read(rel).split("\n")
        begin = next((i for i, line in enumerate(lines) if line.strip() == "begin"), 0)
        return f"test {rel}" if self._bump(rel, begin + 2, len(lines)) else None

    def _catalog(self, index: SpecIndex, read: set[str]) -> str | None:
        """One catalog value the generated ASL is made from: a constraint loses a value, or a field moves."""
        catalogs = sorted(p for p in (self.root / "spec" / "catalog").glob("*.json"))
        if not catalogs:
            return None
        path = self.rng.choice(catalogs)
        data = json.loads(path.read_text(encoding="utf-8"))
        spots: list[tuple[list, int]] = []

        def walk(node: object, key: str = "") -> None:
            if isinstance(node, dict):
                for k, v in node.items():
                    walk(v, k)
            elif isinstance(node, list):
                if key == "values" and len(node) > 1 and all(isinstance(x, int) for x in node):
                    spots.append((node, -1))
                for v in node:
                    walk(v, key)
        walk(data)
        if not spots:
            return None
        values, _ = self.rng.choice(spots)
        values.pop(self.rng.randrange(len(values)))
        rel = path.relative_to(self.root).as_posix()
        self._write(rel, json.dumps(data, indent=2) + "\n")
        return f"catalog {rel}"

    def _configuration(self, index: SpecIndex, read: set[str]) -> str | None:
        rel = "specification.toml"
        text = self._read(rel)
        line = f"max_steps = {self.budget}"
        if line not in text:
            return None
        small = self.rng.choice((2000, 20000))
        self._write(rel, text.replace(line, f"max_steps = {small}"))
        return f"configuration max_steps = {small}"

    def _revert(self, index: SpecIndex, read: set[str]) -> str | None:
        changed = [rel for rel, text in self._original.items() if self._read(rel) != text]
        if not changed:
            return None
        rel = self.rng.choice(sorted(changed))
        (self.root / rel).write_text(self._original[rel], encoding="utf-8")
        return f"revert {rel}"


def set_budget(root: Path, budget: int) -> None:
    """``[specgen] max_steps`` of the tree: a random edit of a loop bound stays a short run."""
    toml = root / "specification.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + f"\n[specgen]\nmax_steps = {budget}\n", encoding="utf-8")
