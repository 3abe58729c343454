"""Statement coverage: which ASL statements and functions of the spec a test run executed.

The interpreter records ``(path, line, col)`` of every statement it runs, and
``(path, line, 0)`` of every function it enters, when it was built with
coverage on (:meth:`~specgen.asl.interp.Interpreter.measure_coverage`); the
recording is compiled into the closures only then, so a run without coverage
pays nothing. This module turns that set into per-unit figures against every
statement and function the spec's source roots declare (tests are not
measured), and writes them as a table, JSON and LCOV.

Counts are executed-or-not (LCOV ``DA:line,1``), not hit counts: counting
each execution would cost a dictionary update per statement.

Every test's own coverage is part of its result in the dependency-tracked
layer (:mod:`specgen.asl.conformance`): the site's unit pages show the union of
the results valid for the tree as it is, measured by the build itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..workspace import current
from ..loader.tree import Spec
from .ast import FuncDecl, Node
from .compile_stmt import nested_blocks
from .index import SpecIndex, build_index
from .runkey import DEFAULT_PROFILE, run_key

FORMAT = 1


@dataclass
class UnitCoverage:
    """One ``.asl`` unit: its statements (line, col) and functions (name, line), and which ran."""

    path: str
    statements: dict[tuple[int, int], bool] = field(default_factory=dict)
    functions: list[tuple[str, int, bool]] = field(default_factory=list)

    @property
    def executed(self) -> int:
        return sum(self.statements.values())

    @property
    def functions_executed(self) -> int:
        return sum(1 for _n, _l, hit in self.functions if hit)

    def line_hits(self) -> dict[int, int]:
        """Each line holding a statement -> 1 when any of its statements ran, else 0."""
        out: dict[int, int] = {}
        for (line, _col), hit in sorted(self.statements.items()):
            out[line] = max(out.get(line, 0), int(hit))
        return out


@dataclass
class Coverage:
    units: list[UnitCoverage]
    tree_key: str

    @property
    def statements(self) -> int:
        return sum(len(u.statements) for u in self.units)

    @property
    def executed(self) -> int:
        return sum(u.executed for u in self.units)

    @property
    def functions(self) -> int:
        return sum(len(u.functions) for u in self.units)

    @property
    def functions_executed(self) -> int:
        return sum(u.functions_executed for u in self.units)


def _statements(stmts: Iterable[Node]) -> Iterable[Node]:
    for s in stmts:
        yield s
        for block in nested_blocks(s):
            if block is not None:
                yield from _statements(block)


def tree_key(spec: Spec, profile: str = DEFAULT_PROFILE, max_steps: int | None = None,
             max_value_bits: int | None = None, max_memory: int | None = None) -> str:
    """The key coverage is stored under: the tree and its tests, the run's budgets and profile, specgen's
    code (:func:`specgen.asl.runkey.run_key`); the site reads the key of a plain ``specgen test --coverage``."""
    return run_key(spec, profile, max_steps, max_value_bits, tests=True, max_memory=max_memory)


def measure(spec: Spec, hits: set[tuple[str, int, int]], profile: str = DEFAULT_PROFILE,
            max_steps: int | None = None, max_value_bits: int | None = None,
            max_memory: int | None = None) -> Coverage:
    """Per-unit coverage of the spec's source units (unparseable units have nothing to count)."""
    index = build_index(spec)
    units = []
    for i, path in enumerate(index.files):
        uc = UnitCoverage(path)
        functions, statements = _countable(index, i)
        for name, line in functions:
            uc.functions.append((name, line, (path, line, 0) in hits))
        for line, col in statements:
            uc.statements[(line, col)] = (path, line, col) in hits
        units.append(uc)
    return Coverage(units, tree_key(spec, profile, max_steps, max_value_bits, max_memory))


def _countable_table() -> dict[str, tuple[tuple[tuple[str, int], ...], tuple[tuple[int, int], ...]]]:
    """The workspace's table (it dies with the workspace)."""
    return current().table("asl.coverage._COUNTABLE")


def _countable(index: SpecIndex, i: int) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[int, int], ...]]:
    """A unit's functions (name, line) and statements (line, col), by its content (kept in the process)."""
    key = index.keys[i]
    hit = _countable_table().get(key)
    if hit is None:
        decls = [d for d in index.module(i).decls if isinstance(d, FuncDecl)]
        hit = (tuple((d.name, d.line) for d in decls),
               tuple((s.line, s.col) for d in decls for s in _statements(d.body)))
        if len(_countable_table()) > 20000:
            _countable_table().clear()
        _countable_table()[key] = hit
    return hit


def unit_figures(index: SpecIndex, i: int, path: str, executed: set[tuple[int, int]]) -> dict:
    """What a unit page shows of unit ``i`` of ``index`` given the (line, col) it saw run (functions at col 0):
    statements, executed, percent, functions, and what no test reaches."""
    uc = UnitCoverage(path)
    functions, statements = _countable(index, i)
    uc.functions = [(name, line, (line, 0) in executed) for name, line in functions]
    uc.statements = {pos: pos in executed for pos in statements}
    lines = uc.line_hits()
    return {"statements": len(uc.statements), "executed": uc.executed,
            "percent": f"{100.0 * uc.executed / len(uc.statements):.1f}" if uc.statements else "-",
            "functions": len(uc.functions), "functions_executed": uc.functions_executed,
            "unreached": sorted(n for n, hit in lines.items() if not hit),
            "functions_unreached": [name for name, _line, hit in uc.functions if not hit]}


def _pct(n: int, total: int) -> str:
    return f"{100.0 * n / total:.1f}" if total else "-"


def format_table(cov: Coverage) -> str:
    """Unit, statements, executed, %, functions executed/total; units without statements left out."""
    rows = [(u.path, str(len(u.statements)), str(u.executed), _pct(u.executed, len(u.statements)),
             f"{u.functions_executed}/{len(u.functions)}") for u in cov.units if u.statements or u.functions]
    rows.append(("TOTAL", str(cov.statements), str(cov.executed), _pct(cov.executed, cov.statements),
                 f"{cov.functions_executed}/{cov.functions}"))
    head = ("unit", "statements", "executed", "%", "functions")
    width = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    out = []
    for r in [head, *rows]:
        out.append("  ".join(r[0].ljust(width[0]) if i == 0 else r[i].rjust(width[i]) for i in range(5)).rstrip())
    return "\n".join(out) + "\n"


def to_json(cov: Coverage) -> dict:
    """The machine-readable form (what the site reads): totals, and per unit the lines and functions."""
    return {
        "format": FORMAT,
        "tree_key": cov.tree_key,
        "total": {"statements": cov.statements, "executed": cov.executed,
                  "functions": cov.functions, "functions_executed": cov.functions_executed},
        "units": [{
            "path": u.path, "statements": len(u.statements), "executed": u.executed,
            "functions": len(u.functions), "functions_executed": u.functions_executed,
            "lines": {str(line): hit for line, hit in u.line_hits().items()},
            "function_list": [{"name": n, "line": line, "executed": hit} for n, line, hit in u.functions],
        } for u in cov.units],
    }


def to_lcov(cov: Coverage) -> str:
    """An LCOV tracefile, paths relative to the spec root (run genhtml from the root)."""
    out = []
    for u in cov.units:
        out.append("TN:specgen")
        out.append(f"SF:{u.path}")
        for name, line, _hit in u.functions:
            out.append(f"FN:{line},{name}")
        for name, _line, hit in u.functions:
            out.append(f"FNDA:{int(hit)},{name}")
        out.append(f"FNF:{len(u.functions)}")
        out.append(f"FNH:{u.functions_executed}")
        lines = u.line_hits()
        for line, hit in lines.items():
            out.append(f"DA:{line},{hit}")
        out.append(f"LF:{len(lines)}")
        out.append(f"LH:{sum(1 for h in lines.values() if h)}")
        out.append("end_of_record")
    return "\n".join(out) + "\n"
