"""The spec contract checked against a tree: what specgen's programs and generated ASL need that the tree lacks.

Two questions, one answer each:

* **Before anything runs** (``validate``, ``check``): :func:`contract_findings` gives one
  ``spec-contract`` finding per absent name something of this tree depends on: a program entry
  (:data:`specgen.speccontract.PROGRAMS`) when the tree has Blocks, the scalar entry when its
  catalog has scalar forms, a name the generated decoders and dispatch refer to (read from their
  text, only the declarations the tree's ASL or its tests reach), a name a validation shard needs
  (what the shard generators declare with ``requires(form)``, only for the shards the tree's tests
  call). An absence nothing in the tree reaches is no finding (0.58.0 has no
  ``_BundleConditionSet``, and none of its tests calls a set-commit shard).
* **When the generated ASL runs** (``specgen test``): :func:`absences` reads every generated
  declaration's text and names each identifier that neither the tree, the generated ASL nor the
  built-ins define, with the generator and catalog rows behind it. The interpreter turns reaching
  one into ``not-derivable`` (:class:`~specgen.asl.errors.NotDerivable`) with that reason.

Nothing here names an instruction: the rows come from the catalogs, the names from the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..diagnostics import Finding, Severity
from ..loader.tree import Spec
from ..catalog_asl.sources import test_calls
from .. import speccontract as contract
from .headers import Header
from .index import SpecIndex
from .stdlib import BUILTINS

RULE = "spec-contract"
# ASL words spelled like names: operators, literals and type words the token scan meets
KEYWORDS = frozenset({"TRUE", "FALSE", "AND", "OR", "XOR", "EOR", "NOT", "DIV", "DIVRM", "MOD", "REM", "IN", "UNKNOWN",
                      "ARBITRARY", "SEE", "UNDEFINED", "UNPREDICTABLE", "IMPLEMENTATION_DEFINED"})
_TOKEN = re.compile(r"(?<![.\w'\"])([A-Z_][A-Za-z0-9_]*)")
_NOISE = re.compile(r"//[^\n]*|'[01xz ]*'|\"(?:[^\"\\\n]|\\.)*\"")
_DECL = re.compile(r"^(?:(?:pure|readonly|noreturn|impure)\s+)*(?:func|type|constant|var|let|config)\s+([A-Za-z_]\w*)",
                   re.MULTILINE)
# where a generated module's rows come from, by its path (``catalog_asl.sources.generated_sources`` names them)
_MODULE_CATALOG = {"tile-operations": "tile-operations.json", "tile-dispatch": "tile-operations.json",
                   "tile-timed": "tile-operations.json", "command-forms": "command-forms.json",
                   "canonical-commands": "command-forms.json", "system-registers": "system-registers.json",
                   "canonical-system-registers": "system-registers.json"}


@dataclass
class Absence:
    """A name generated ASL refers to that nothing defines: who refers to it and which catalog rows."""

    name: str
    modules: set[str] = field(default_factory=set)  # the generated modules (``<generated>/bru-shards.asl``)
    decls: set[str] = field(default_factory=set)  # the generated declarations that refer to it
    rows: list[str] = field(default_factory=list)  # ``SETC.EQ (spec/catalog/scalar-forms.json, forms[41])``

    def reason(self) -> str:
        """Why the tests that reach it are not derivable (the test report and the finding say it)."""
        what = contract.purpose_of(self.name)
        kind = f" ({what[0]})" if what else ""
        uses = f": {what[1]}" if what else ""
        gens = ", ".join(sorted(m.removeprefix("<generated>/").removesuffix(".asl") for m in self.modules))
        rows = ""
        if self.rows:
            rows = f"; catalog row{'s' if len(self.rows) > 1 else ''} " + ", ".join(self.rows[:4]) + (
                f" and {len(self.rows) - 4} more" if len(self.rows) > 4 else "")
        return (f"the tree defines no '{self.name}'{kind}, which the ASL specgen generates from its catalogs "
                f"({gens}) refers to{uses}{rows}")


def declarations(text: str) -> list[tuple[str, str]]:
    """A generated module's top-level declarations as (name, text), split at their column-0 header lines."""
    heads = list(_DECL.finditer(text))
    return [(m.group(1), text[m.start():heads[i + 1].start() if i + 1 < len(heads) else len(text)])
            for i, m in enumerate(heads)]


def references(text: str) -> set[str]:
    """The capitalised or ``_``-prefixed identifiers a piece of ASL names (not fields, literals or comments)."""
    return {n for n in _TOKEN.findall(_NOISE.sub(" ", text)) if n not in KEYWORDS}


def defined_names(index: SpecIndex, generated: Iterable[Header]) -> set[str]:
    """What the tree defines (enumeration members included), what the generated ASL declares, the built-ins."""
    names = set(index.defs) | set(BUILTINS) | KEYWORDS
    for h in generated:
        names.add(h.name)
        names.update(h.members)
    return names


def absences(spec: Spec, index: SpecIndex, sources: list[tuple[str, str]], generated: Iterable[Header],
             only: set[str] | None = None) -> dict[str, Absence]:
    """Every name the generated ``sources`` refer to that nothing defines (``only``: just these declarations)."""
    known = defined_names(index, generated)
    out: dict[str, Absence] = {}
    for text, path in sources:
        for name, body in declarations(text):
            if only is not None and name not in only:
                continue
            for ref in references(body) - known:
                a = out.setdefault(ref, Absence(ref))
                a.modules.add(path)
                a.decls.add(name)
    for a in out.values():
        a.rows = _rows(spec, a)
    return out


def _rows(spec: Spec, a: Absence) -> list[str]:
    """The catalog rows behind the declarations that need ``a.name``: a shard's row by its name's mnemonic,
    a dispatch name by the tile-operations row that declares it."""
    rows: list[str] = []
    root = f"{spec.config.json_root}/catalog"
    scalar = _catalog(spec, "scalar-forms.json")
    by_ident = {_ident(f.get("mnemonic", "")): (i, f.get("mnemonic", "")) for i, f in
                enumerate((scalar or {}).get("forms") or []) if isinstance(f, dict)}
    for decl in sorted(a.decls):
        hit = by_ident.get(decl.split("_", 1)[1]) if "_" in decl else None
        if hit is not None:
            rows.append(f"{hit[1]} ({root}/scalar-forms.json, forms[{hit[0]}])")
    tile = _catalog(spec, "tile-operations.json")
    for i, op in enumerate((tile or {}).get("operations") or []):
        if isinstance(op, dict) and a.name in _row_values(op):
            rows.append(f"{op.get('name', i)} ({root}/tile-operations.json, operations[{i}])")
    return list(dict.fromkeys(rows))


def _row_values(op: dict) -> set[str]:
    vals = {str(op.get(k, "")) for k in ("legality_handler", "semantic_handler", "effect_contract")}
    for arg in op.get("arguments") or []:
        if isinstance(arg, dict):
            vals.update(str(v) for k, v in arg.items() if k in ("constant", "runtime"))
    return vals


def _ident(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def _catalog(spec: Spec, name: str) -> dict | None:
    art = spec.artifacts.get(f"{spec.config.json_root}/catalog/{name}")
    data = art.data if art is not None else None
    return data if isinstance(data, dict) else None


def not_derivable(found: dict[str, Absence]) -> dict[str, str]:
    """Absent name -> the reason a run that reaches it is not derivable (what the interpreter is told)."""
    return {name: a.reason() for name, a in found.items()}


def absence_resolver(spec: Spec) -> Callable[[str], str | None]:
    """What the interpreter asks when a run reaches a name nothing defines: why it is not derivable here.

    Computed on the first question (a tree where nothing is absent never pays for it): every
    generated declaration is read (:func:`absences`), and a validation shard a test calls whose
    catalog row exists but for which no generator derives anything gets its own reason.
    """
    state: dict[str, dict[str, str]] = {}

    def why(name: str) -> str | None:
        if "reasons" not in state:
            state["reasons"] = _reasons(spec)
        return state["reasons"].get(name)
    return why


def _reasons(spec: Spec) -> dict[str, str]:
    from .index import build_index
    from .headers import scan_sources
    from ..catalog_asl.sources import generated_sources
    index = build_index(spec)
    sources = generated_sources(spec)
    headers = scan_sources(sources)
    out = not_derivable(absences(spec, index, sources, headers))
    declared = {h.name for h in headers}
    scalar = _catalog(spec, "scalar-forms.json") or {}
    rows = {_ident(f.get("mnemonic", "")): (i, f) for i, f in enumerate(scalar.get("forms") or [])
            if isinstance(f, dict)}
    where = f"{spec.config.json_root}/catalog/scalar-forms.json"
    for shard in shard_calls(spec):
        head, _, ident = shard.partition("_")
        hit = rows.get(ident)
        if shard in declared or shard in index.defs or hit is None:
            continue  # defined, or a shard of no row of this tree: a missing function, as ASLRef would fail it
        form = hit[1]
        out[shard] = (f"specgen derives no '{shard}' from {form.get('mnemonic')} ({where}, forms[{hit[0]}]): "
                      f"its record (family {form.get('semantic_family')}, handler {form.get('semantic_handler')}) "
                      "states no effect the validation-shard generators can check")
    return out


# -- the load-time check -------------------------------------------------------------------------------
_VALIDATION_CALL = re.compile(r"\b((?:Validate|Canonical)[A-Za-z0-9_]+)\s*\(")


def shard_calls(spec: Spec) -> dict[str, list[str]]:
    """Generated shard name -> the paths of the tests that call it."""
    out: dict[str, list[str]] = {}
    for path, names in test_calls(spec, _VALIDATION_CALL):
        for name in names:
            out.setdefault(name, []).append(path)
    return out


def contract_findings(spec: Spec, index: SpecIndex, sources: list[tuple[str, str]],
                      generated: list[Header]) -> list[Finding]:
    """One ``spec-contract`` finding per absent name something of this tree depends on (module docstring).

    ``sources`` are the generated decoders and dispatch (no shards: those are judged by what their
    generators declare), ``generated`` the headers of everything generated.
    """
    known = defined_names(index, generated)
    needs: dict[str, list[str]] = {}  # absent name -> what needs it, in words
    tile = _catalog(spec, "tile-operations.json")
    if tile and tile.get("operations"):
        for e in contract.PROGRAMS:
            if e.name not in known:
                needs.setdefault(e.name, []).append(
                    f"the program executor needs ({e.purpose}): `specgen run`, checked and worked examples cannot "
                    "run on this tree and say so")
    scalar = _catalog(spec, "scalar-forms.json")
    if scalar and scalar.get("forms") and contract.SCALAR_ENTRY.name not in known:
        needs.setdefault(contract.SCALAR_ENTRY.name, []).append(
            f"scalar commands in programs need ({contract.SCALAR_ENTRY.purpose})")
    calls = shard_calls(spec)
    # the generated decoders and dispatch the tree's ASL or tests reach
    for name, a in absences(spec, index, sources, generated, only=_reached(index, sources, set(calls))).items():
        needs.setdefault(name, []).append(a.reason().split(", which ", 1)[1])
    # the validation shards the tests call, by what their generators declare
    from ..catalog_asl.sources import shard_requirements
    for name, (needed, rows) in shard_requirements(spec, set(calls)).items():
        if name in known:
            continue
        tests = sorted({p for shard in needed for p in calls.get(shard, [])})
        what = contract.purpose_of(name)
        needs.setdefault(name, []).append(
            f"the validation shards specgen generates for {_some(rows)} read ({what[1] if what else 'the tree'}); "
            f"the {len(tests)} AVS test(s) that call them are not derivable (first {tests[0]})")
    where = f"{spec.config.json_root}/catalog"
    out = []
    for name in sorted(needs):
        what = contract.purpose_of(name)
        kind = f" ({what[0]})" if what else ""
        out.append(Finding(RULE, Severity.WARNING, where, 0,
                           f"the tree defines no '{name}'{kind}, which " + "; and which ".join(dict.fromkeys(needs[name])),
                           subject=name))
    out.extend(_underivable(spec, calls, where))
    return out


def _some(rows: list[str]) -> str:
    return ", ".join(rows[:4]) + (f" and {len(rows) - 4} more" if len(rows) > 4 else "")


def _underivable(spec: Spec, calls: dict[str, list[str]], where: str) -> list[Finding]:
    """One finding per catalog row whose validation shards the tests call and no generator derives (0.58.0's
    B.NZ names no operand of its condition): its tests are not derivable."""
    from ..catalog_asl.sources import _ROW_REQUIREMENTS
    scalar = _catalog(spec, "scalar-forms.json") or {}
    rows = {_ident(f.get("mnemonic", "")): (i, f) for i, f in enumerate(scalar.get("forms") or [])
            if isinstance(f, dict)}
    lost: dict[int, list[str]] = {}
    for shard, paths in calls.items():
        head, _, ident = shard.partition("_")
        hit = rows.get(ident) if head.startswith("ValidateScalar") else None
        if hit is not None and not any(requires(hit[1]) for requires in _ROW_REQUIREMENTS):
            lost.setdefault(hit[0], []).extend(paths)
    out = []
    for i, paths in sorted(lost.items()):
        form = scalar["forms"][i]
        out.append(Finding(RULE, Severity.WARNING, where, 0,
                           f"specgen derives no validation shards for {form.get('mnemonic')} ({where}/scalar-forms.json, "
                           f"forms[{i}]; family {form.get('semantic_family')}, handler {form.get('semantic_handler')}): "
                           f"its record states no effect the generators can check; the {len(set(paths))} AVS test(s) "
                           f"that call them are not derivable (first {sorted(paths)[0]})",
                           subject=str(form.get("mnemonic"))))
    return out


def _reached(index: SpecIndex, sources: list[tuple[str, str]], called: set[str]) -> set[str]:
    """The generated declarations the tree's units or tests name, and what those name in turn."""
    decls = {name: body for text, _ in sources for name, body in declarations(text)}
    todo = [n for refs in index.refs.values() for n in refs if n in decls] + [n for n in called if n in decls]
    seen: set[str] = set()
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(r for r in references(decls[n]) if r in decls and r not in seen)
    return seen


__all__ = ["RULE", "Absence", "absences", "contract_findings", "declarations", "not_derivable", "references",
           "shard_calls"]
