"""Names the spec's ASL declares twice (``asl-duplicate``): what ASLRef refuses and what would leave the
interpreter's overload dispatch two identical candidates."""

from __future__ import annotations

from ..diagnostics import Finding, Severity
from .ast import Decl, FuncDecl
from .index import SpecIndex


def _signature(decl: Decl) -> tuple:
    """What two declarations of one name must differ in: a function's parameter types (overloads) and
    whether it is an ``impdef`` or its ``implementation`` (a pair the tree may hold); nothing else."""
    if isinstance(decl, FuncDecl):
        return ("func", tuple(ty for _name, ty in decl.params), decl.is_impdef, decl.is_implementation)
    return ("name",)


def duplicate_findings(index: SpecIndex) -> list[Finding]:
    """One ``asl-duplicate`` finding per declaration that repeats an earlier one of the same name: a type,
    constant, config or variable declared twice, or a function with the same parameter types (ASLRef
    refuses the tree; specgen's interpreter could not choose between them)."""
    broken = {e[0] for e in index.parse_errors}
    out: list[Finding] = []
    for name, locs in index.defs.items():
        if len(locs) < 2:
            continue
        first: dict[tuple, Decl] = {}
        for decl in sorted((index.decl(loc) for loc in locs if index.files[loc[1]] not in broken),
                           key=lambda d: (d.path, d.line)):
            seen = first.setdefault(_signature(decl), decl)
            if seen is not decl and (decl.name == name or seen.name != decl.name):  # a member of a repeated
                # enumeration is that enumeration's finding; one of two enumerations is its own
                out.append(Finding("asl-duplicate", Severity.ERROR, decl.path, decl.line,
                                   f"'{name}' is declared again (first at {seen.path}:{seen.line})",
                                   subject=name, col=decl.col))
    return out
