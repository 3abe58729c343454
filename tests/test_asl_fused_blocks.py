"""Fused blocks (specgen/asl/compile_fuse_stmt.py): a hot block runs as one Python function with the
same results, errors, locations, steps and coverage as its closures (docs-internal/asl-interpreter.md)."""

from __future__ import annotations

import pytest

from specgen.asl import ASLError, Interpreter, parse_source
from specgen.asl import compile_fuse_stmt

SOURCE = """
var G : integer = 0;
type R of record { a : integer, b : bits(4) };

func Classify(x : integer) => integer
begin
    if x < 0 then
        return -1;
    elsif x == 0 then
        G = G + 1;
        return 0;
    else
        let y : bits(4) = x[3:0];
        var r : R;
        r.a = x;
        r.b = y;
        assert r.a == x;
        case x of
            when 1 => return 10;
            when 2, 3 => return 20;
            otherwise => return r.a * 2;
        end;
    end;
end;

func Sum(n : integer) => integer
begin
    var s : integer = 0;
    for i = 1 to n do
        if i MOD 3 == 0 then
            s = s + Classify(i);
        else
            s = s + i;
        end;
    end;
    return s;
end;

func Index(k : integer) => integer
begin
    var a : array [[4]] of integer;
    if k >= 0 then
        if k < 100 then
            return a[[k]];
        end;
    end;
    return 0;
end;

func Check(k : integer) => integer
begin
    if k > 1 then
        assert k < 5;
    end;
    return k;
end;

func Width(k : integer) => bits(4)
begin
    let v : bits(4) = Zeros{k};
    return v;
end;

func Pick(k : integer) => integer
begin
    case k of
        when 1 => return 5;
        when 2 => G = G + 1;
    end;
    return Zero() + Two(G, 1);
end;

func Zero() => integer
begin
    return G;
end;

func Two(a : integer, b : integer) => integer
begin
    return a - b;
end;
"""

CALLS = [("Classify", (-5,)), ("Classify", (0,)), ("Classify", (2,)), ("Classify", (7,)), ("Sum", (40,)),
         ("Index", (2,)), ("Index", (9,)), ("Check", (3,)), ("Check", (6,)), ("Width", (4,)), ("Width", (3,)),
         ("Pick", (1,)), ("Pick", (2,)), ("Pick", (3,))]


def _run(hot: int, monkeypatch: pytest.MonkeyPatch, coverage: bool = False) -> tuple[list, int, object]:
    """Each call twenty times on one interpreter: its results or located errors, the steps, the hits."""
    monkeypatch.setattr(compile_fuse_stmt, "HOT", hot)
    it = Interpreter(max_steps=10_000_000)
    if coverage:
        it.measure_coverage()
    it.load_module(parse_source(SOURCE, "fused.asl"))
    out: list = []
    for _ in range(20):
        for name, args in CALLS:
            try:
                out.append(("ok", it.call(name, *args)))
            except ASLError as e:
                out.append(("error", str(e), e.kind, [n for n, _ in e.asl_stack]))
    return out, it.steps_used, sorted(it.coverage) if coverage else None


def test_fused_blocks_give_the_closures_results_errors_and_locations(monkeypatch: pytest.MonkeyPatch) -> None:
    closures = _run(10 ** 9, monkeypatch)  # never hot: every block stays its closures
    fused = _run(1, monkeypatch)  # hot at once: every function, loop and case arm body fused
    assert fused == closures
    errors = {r[1] for r in closures[0] if r[0] == "error"}
    assert any(e.startswith("fused.asl:44:13:") and "index" in e for e in errors), errors  # inside two ifs
    assert any(e.startswith("fused.asl:53:9:") for e in errors), errors  # the assert's own line
    assert any(e.startswith("fused.asl:60:9:") for e in errors), errors  # a declared width
    assert any(e.startswith("fused.asl:66:5:") and "no 'when' matches 3" in e for e in errors), errors


def test_fused_blocks_record_the_same_coverage(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run(1, monkeypatch, coverage=True) == _run(10 ** 9, monkeypatch, coverage=True)


def test_a_block_is_fused_once_hot_and_its_frame_has_no_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_fuse_stmt, "HOT", 3)
    it = Interpreter()
    it.load_module(parse_source(SOURCE, "fused.asl"))
    seen: list = []
    real = compile_fuse_stmt._function

    def spy(w, signature):  # noqa: ANN001, ANN202 - the same signature
        f = real(w, signature)
        seen.append(f)
        return f
    monkeypatch.setattr(compile_fuse_stmt, "_function", spy)
    it.call("Check", 2)
    it.call("Check", 2)
    assert seen == []  # two runs: still the closures
    it.call("Check", 2)
    assert len(seen) == 1
    # the bindings are globals, not cells: a cell is a slot of every frame (CPython's frame stack
    # mapped and unmapped a chunk per call when big frames sat at its edge: 400,000 times in one test)
    assert seen[0].__code__.co_freevars == ()
    assert seen[0].__name__ == "fused_run"  # the whole function: its parameters, no frame dict passed in
    assert it.call("Check", 4) == 4


EXPRS = """
func Mul(x : integer, y : integer) => integer begin return x * y; end;
func Quo(x : integer, y : integer) => integer begin return x DIVRM y; end;
func Rem(x : integer, y : integer) => integer begin return x MOD y; end;
func Bit(b : bits(8), i : integer) => bits(1) begin return b[i]; end;
func Mid(b : bits(8)) => bits(3) begin return b[5:3]; end;
func Range(b : bits(8), h : integer, l : integer) => integer begin return UInt(b[h:l]); end;
func Up(b : bits(8), i : integer, w : integer) => integer begin return UInt(b[i +: w]); end;
"""
BIG = 1 << (1 << 16)  # past the free size (budget.FREE_BITS): charged, through the closure's code


def _eval_all(monkeypatch: pytest.MonkeyPatch, fuse: bool) -> list:
    from specgen.asl import compile_expr
    from specgen.asl.values import Bits
    if not fuse:
        monkeypatch.setattr(compile_expr, "fuse", lambda c, node, ctx: None)
    it = Interpreter(max_steps=10_000_000)
    it.load_module(parse_source(EXPRS, "exprs.asl"))
    b = Bits(0b10110101, 8)
    calls = [("Mul", (a, c)) for a in (0, 7, -3, BIG, 1 << 65535, -(1 << 65535)) for c in (5, -2, 1 << 65535)]
    calls += [(f, (a, c)) for f in ("Quo", "Rem") for a in (17, -17, 0, BIG) for c in (5, -5, 0)]
    calls += [("Bit", (b, i)) for i in (0, 7, 8, -1)] + [("Mid", (b,))]
    calls += [("Range", (b, h, lo)) for h, lo in ((7, 0), (3, 3), (2, 5), (9, 0))]
    calls += [("Up", (b, i, w)) for i, w in ((0, 8), (4, 2), (6, 3))]
    out = []
    for name, args in calls:
        try:
            out.append(("ok", it.call(name, *args)))
        except ASLError as e:
            out.append(("error", str(e), e.kind))
    return out + [it.steps_used]


def test_fused_arithmetic_and_slices_equal_the_closures(monkeypatch: pytest.MonkeyPatch) -> None:
    fused = _eval_all(monkeypatch, True)
    closures = _eval_all(monkeypatch, False)
    assert fused == closures
    assert ("ok", 35) in fused and any(r[0] == "error" and "DIVRM by zero" in r[1] for r in fused[:-1])


AS_EXPRS = """
func R1(x : integer) => integer begin return x as integer{0..7}; end;
func R2(x : integer) => integer begin return x as integer{1, 2, 4..6}; end;
func R3(x : integer) => integer begin return x as integer; end;
func B4(b : bits(4)) => bits(4) begin return b as bits(4); end;
"""


def test_fused_as_checks_equal_the_closures(monkeypatch: pytest.MonkeyPatch) -> None:
    from specgen.asl import compile_expr
    from specgen.asl.values import Bits

    def run(fuse: bool) -> list:
        with monkeypatch.context() as m:
            if not fuse:
                m.setattr(compile_expr, "fuse", lambda c, node, ctx: None)
            it = Interpreter()
            it.load_module(parse_source(AS_EXPRS, "as.asl"))
            out: list = []
            for name, arg in [("R1", 0), ("R1", 7), ("R1", 8), ("R1", -1), ("R2", 2), ("R2", 3), ("R2", 5),
                              ("R2", 7), ("R3", 12), ("B4", Bits(5, 4))]:
                try:
                    out.append(("ok", it.call(name, arg)))
                except ASLError as e:
                    out.append(("error", str(e), e.kind))
            return out
    fused, closures = run(True), run(False)
    assert fused == closures
    assert [r[0] for r in fused] == ["ok", "ok", "error", "error", "ok", "error", "ok", "error", "ok", "ok"]


DEEP = """
func Down(n : integer) => integer
begin
    if n == 0 then return 0; end;
    return Down(n - 1) + 1;
end;
func Zero() => integer begin return 0; end;
func CallsZero(n : integer) => integer begin return Zero() + n; end;
"""


def _deep(hot: int, monkeypatch: pytest.MonkeyPatch) -> list:
    monkeypatch.setattr(compile_fuse_stmt, "HOT", hot)
    it = Interpreter(max_steps=10_000_000)
    it.load_module(parse_source(DEEP, "deep.asl"))
    out: list = []
    for n in (10, 1999, 2000, 2500, 10):
        try:
            out.append(("ok", it.call("Down", n), it.call("CallsZero", n), len(it.stack)))
        except ASLError as e:
            out.append(("error", str(e), e.kind, len(e.asl_stack), len(it.stack)))
    return out


def test_a_fused_call_site_checks_the_depth_and_leaves_the_stack_as_the_closures(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The push and the depth check of a fused call are inline (no frame of their own): the same limit, the
    same located error and the same stack afterwards as the closures' call (Python's own limit raised, as
    the runner raises it, so the budget is what stops them)."""
    import sys
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        fused, closures = _deep(1, monkeypatch), _deep(10 ** 9, monkeypatch)
    finally:
        sys.setrecursionlimit(limit)
    assert fused == closures
    assert fused[0] == ("ok", 10, 10, 0) and fused[-1] == ("ok", 10, 10, 0)
    assert any(r[0] == "error" and "call depth budget" in r[1] for r in fused), fused
