"""The embedded ASL interpreter, construct by construct, on small snippets."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

from specgen.asl import ASLError, Interpreter, parse_source
from specgen.asl.ast import Node
from specgen.asl.hooks import Around, Replace
from specgen.asl.compile_base import Scope
from specgen.asl.compile_expr import EXPR, compile_expr
from specgen.asl.compile_lvalue import LVALUE
from specgen.asl.compile_stmt import STMT
from specgen.asl.compile_types import TYPES
from specgen.asl.values import Bits, bits

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


def interp(src: str, path: str = "snippet.asl") -> Interpreter:
    return Interpreter(None, modules=[parse_source(src, path)])


def run(src: str, name: str = "f", *args):
    return interp(src).call(name, *args)


# ------------------------------------------------------------------ parsing
def test_parse_error_names_file_line_and_column():
    with pytest.raises(ASLError) as exc:
        parse_source("func f() => integer\nbegin\n    return 1 +;\nend;\n", "bad.asl")
    err = exc.value
    assert err.kind == "parse"
    assert (err.span.path, err.span.line) == ("bad.asl", 3)
    assert err.span.col == 15
    assert "unexpected" in err.message


def test_parse_error_on_bad_character():
    with pytest.raises(ASLError) as exc:
        parse_source("func f() => integer\nbegin\n    return 1 # 2;\nend;\n", "bad.asl")
    assert exc.value.span.line == 3 and exc.value.kind == "parse"


def test_declarations_carry_positions_and_references():
    mod = parse_source("\n\npure func g(x: integer) => integer\nbegin\n    return h(x) + K;\nend;\n", "p.asl")
    (decl,) = mod.decls
    assert (decl.name, decl.path, decl.line) == ("g", "p.asl", 3)
    assert decl.quals == ("pure",)
    assert {"h", "K"} <= decl.refs


# ------------------------------------------------------------------ integers, reals, booleans
def test_integer_operators():
    src = """
func f(a: integer, b: integer) => (integer, integer, integer, integer, integer, boolean)
begin
    return (a DIVRM b, a MOD b, a * b - 1, 2 ^ 10, -a, a > b && !(a == b));
end;
"""
    assert run(src, "f", -7, 2) == (-4, 1, -15, 1024, 7, False)


def test_div_must_be_exact():
    src = "func f() => integer\nbegin\n    return 7 DIV 2;\nend;\n"
    with pytest.raises(ASLError) as exc:
        run(src)
    assert exc.value.span.line == 3 and "not exact" in exc.value.message


def test_reals_are_exact():
    src = """
func f() => (real, integer, integer, integer)
begin
    let x = 1.0 / 3.0;
    return (x * 3.0, RoundDown(2.5), RoundUp(2.5), RoundTowardsZero(-2.5));
end;
"""
    assert run(src) == (Fraction(1), 2, 3, -2)


def test_if_expression_and_elsif_chain():
    src = """
func f(x: integer) => integer
begin
    if x < 0 then return -1;
    elsif x == 0 then return 0;
    else return if x > 10 then 2 else 1;
    end;
end;
"""
    it = interp(src)
    assert [it.call("f", v) for v in (-5, 0, 3, 11)] == [-1, 0, 1, 2]


# ------------------------------------------------------------------ bitvectors
def test_bitvector_literals_slices_and_arithmetic():
    src = """
func f(x: bits(8)) => (bits(4), bits(1), bits(3), bits(8), bits(8), integer, integer)
begin
    return (x[7:4], x[0], x[2 +: 3], x + 1, NOT x, UInt(x), SInt(x));
end;
"""
    hi, b0, mid, inc, inv, u, s = run(src, "f", 0b1010_0111)
    assert hi == bits("1010") and b0 == bits("1") and mid == bits("001")
    assert inc == bits(0xA8, 8) and inv == bits(0x58, 8)
    assert (u, s) == (0xA7, 0xA7 - 256)


def test_bits_wrap_and_extend():
    src = """
func f() => (bits(8), bits(16), bits(16), boolean, boolean)
begin
    let x = Ones{8} + 1;
    return (x, ZeroExtend{16}('1000 0000'), SignExtend{16}('10000000'), IsZero(x), Zeros{4} == '0000');
end;
"""
    x, z, s, is_zero, eq = run(src)
    assert x == Bits(0, 8) and z == Bits(0x80, 16) and s == Bits(0xFF80, 16)
    assert is_zero is True and eq is True


def test_slice_assignment_and_shifts():
    src = """
func f() => bits(8)
begin
    var x = Zeros{8};
    x[7:4] = '1111';
    x[0] = '1';
    return LSR(x, 1) OR LSL('00000001', 1);
end;
"""
    assert run(src) == bits(0b0111_1010, 8)


def test_bitwise_width_mismatch_is_a_type_error():
    src = "func f() => bits(4)\nbegin\n    return '0000' AND '11';\nend;\n"
    with pytest.raises(ASLError) as exc:
        run(src)
    assert exc.value.kind == "type" and exc.value.span.line == 3


def test_slice_out_of_range_is_located():
    src = "func f(x: bits(4)) => bits(2)\nbegin\n    return x[5:4];\nend;\n"
    with pytest.raises(ASLError) as exc:
        run(src, "f", 3)
    assert exc.value.span.line == 3 and "out of range" in exc.value.message


# ------------------------------------------------------------------ records, arrays, enums
RECORDS = """
type Colour of enumeration { Colour_Red, Colour_Green, Colour_Blue };
type Cell of record { colour: Colour, value: bits(8), hits: integer };
var _Cells : array [[4]] of Cell;
var _ByColour : array [[Colour]] of integer;

func Touch(i: integer) => integer
begin
    _Cells[[i]].hits = _Cells[[i]].hits + 1;
    _ByColour[[_Cells[[i]].colour]] = _ByColour[[_Cells[[i]].colour]] + 1;
    return _Cells[[i]].hits;
end;

func Snapshot() => (integer, integer)
begin
    let before = _Cells[[0]];
    _Cells[[0]].hits = 100;
    var copy = before;
    copy.hits = 7;
    return (before.hits, copy.hits);
end;

func Make() => Cell
begin
    return Cell { colour = Colour_Blue, value = '00000001', hits = 3 };
end;
"""


def test_records_arrays_and_enum_indexed_arrays():
    it = interp(RECORDS)
    assert it.call("Touch", 1) == 1 and it.call("Touch", 1) == 2
    assert it.get_global("_ByColour") == [2, 0, 0]
    assert it.call("Make") == {"colour": "Colour_Blue", "value": bits(1, 8), "hits": 3}


def test_records_and_arrays_are_values():
    it = interp(RECORDS)
    assert it.call("Snapshot") == (0, 7)
    assert it.get_global("_Cells")[0]["hits"] == 100
    # default elements were shared; writing one must not change the others
    assert [c["hits"] for c in it.get_global("_Cells")] == [100, 0, 0, 0]


def test_array_index_out_of_range():
    it = interp(RECORDS)
    with pytest.raises(ASLError) as exc:
        it.call("Touch", 4)
    assert exc.value.kind == "runtime" and "outside 0..3" in exc.value.message


def test_record_construction_must_name_every_field():
    src = RECORDS + "func Bad() => Cell\nbegin\n    return Cell { hits = 1 };\nend;\n"
    with pytest.raises(ASLError) as exc:
        interp(src).call("Bad")
    assert exc.value.kind == "type" and "omits" in exc.value.message


# ------------------------------------------------------------------ tuples, loops, case
def test_tuples_and_discards():
    src = """
func pair() => (integer, boolean, bits(2))
begin
    return (4, TRUE, '10');
end;
func f() => integer
begin
    let (a, -, c) = pair();
    var x: integer;
    var y: bits(2);
    (x, -, y) = pair();
    - = pair();
    return a + x + UInt(c) + UInt(y);
end;
"""
    assert run(src) == 12


def test_loops_and_looplimit():
    src = """
func f(n: integer) => integer
begin
    var total = 0;
    for i = 0 to n - 1 looplimit 10 do
        total = total + i;
    end;
    for i = 3 downto 1 do
        total = total * 2;
    end;
    var k = 0;
    while k < 3 looplimit 5 do
        k = k + 1;
    end;
    repeat
        k = k + 10;
    until k > 20 looplimit 4;
    return total + k;
end;
"""
    it = interp(src)
    assert it.call("f", 4) == 6 * 8 + 23
    with pytest.raises(ASLError) as exc:
        it.call("f", 11)
    assert "looplimit" in exc.value.message and exc.value.span.line == 5


def test_case_with_otherwise_and_no_match():
    src = """
func f(x: integer) => integer
begin
    case x of
        when 1, 2 => return 10;
        when 3 => return 30;
        otherwise => return 0;
    end;
end;
func g(x: bits(2)) => integer
begin
    case x of
        when '00' => return 0;
        when '11' => return 3;
    end;
    return 9;
end;
"""
    it = interp(src)
    assert [it.call("f", v) for v in (1, 2, 3, 4)] == [10, 10, 30, 0]
    assert it.call("g", 3) == 3
    with pytest.raises(ASLError) as exc:
        it.call("g", 1)
    assert "no 'when' matches" in exc.value.message


# ------------------------------------------------------------------ casts, asserts, errors
def test_as_checks_constrained_integers():
    src = """
type Index of integer {0..3};
func f(x: integer) => Index
begin
    return x as Index;
end;
"""
    it = interp(src)
    assert it.call("f", 3) == 3
    with pytest.raises(ASLError) as exc:
        it.call("f", 4)
    assert exc.value.kind == "assert" and "outside" in exc.value.message


def test_failed_assert_reports_location_and_asl_stack():
    src = """func inner(x: integer)
begin
    assert x > 0;
end;

func outer() => integer
begin
    inner(1);
    inner(0);
    return 0;
end;
"""
    with pytest.raises(ASLError) as exc:
        interp(src, "stack.asl").call("outer")
    err = exc.value
    assert err.kind == "assert" and (err.span.path, err.span.line) == ("stack.asl", 3)
    assert [(n, s.line) for n, s in err.asl_stack] == [("outer", 9), ("inner", 3)]


def test_unknown_identifier_is_reported_when_reached():
    src = "func f(x: boolean) => integer\nbegin\n    if x then return Missing + 1; end;\n    return 0;\nend;\n"
    it = interp(src)
    assert it.call("f", False) == 0
    with pytest.raises(ASLError) as exc:
        it.call("f", True)
    assert exc.value.kind == "unknown-name" and "'Missing'" in exc.value.message
    assert exc.value.span.line == 3


def test_unsupported_construct_is_a_located_error():
    src = "func g(x: integer) => integer\nbegin\n    return x;\nend;\n" \
          "func f() => integer\nbegin\n    return g{3}(1);\nend;\n"
    with pytest.raises(ASLError) as exc:
        run(src)
    assert exc.value.kind == "unsupported" and exc.value.span.line == 7


def test_unreachable():
    src = "func f() => integer\nbegin\n    unreachable;\nend;\n"
    with pytest.raises(ASLError) as exc:
        run(src)
    assert exc.value.kind == "unreachable"


# ------------------------------------------------------------------ globals, impdef, hooks
def test_globals_constants_and_config():
    src = """
constant WIDTH = 8;
config LIMIT : integer {1..100} = 40 + 2;
let DOUBLE = WIDTH * 2;
var _Counter : integer = 5;
func f() => (integer, bits(WIDTH))
begin
    _Counter = _Counter + LIMIT;
    return (_Counter + DOUBLE, Ones{WIDTH});
end;
"""
    it = interp(src)
    assert it.call("f") == (63, bits(0xFF, 8))
    assert it.get_global("_Counter") == 47
    it.reset()
    it.load_module(parse_source(src, "again.asl"))
    assert it.get_global("_Counter") == 5


def test_assignment_to_constant_is_rejected():
    src = "constant K = 1;\nfunc f()\nbegin\n    K = 2;\nend;\n"
    with pytest.raises(ASLError) as exc:
        run(src)
    assert exc.value.kind == "type"


def test_implementation_overrides_impdef():
    src = """
impdef func Choice() => integer
begin
    return 1;
end;
implementation func Choice() => integer
begin
    return 2;
end;
readonly func f() => integer
begin
    return Choice();
end;
"""
    assert run(src) == 2


def test_python_hook_replaces_a_function_and_can_delegate():
    src = """
func Base(x: integer) => integer
begin
    return x + 1;
end;
func f(x: integer) => integer
begin
    return Base(x) * 10;
end;
"""
    mod = parse_source(src, "h.asl")

    def hook(original, x):
        return original(x) + 100

    it = Interpreter(None, modules=[mod], hooks={"Base": Around(hook)})
    assert it.call("f", 1) == 1020
    plain = Interpreter(None, modules=[mod])
    plain.install_hook("Base", Replace(lambda x: x * 2))
    assert plain.call("f", 3) == 60


def test_a_hook_or_constant_comes_before_the_first_call():
    """A hook installed after callers compiled would be seen by some callers only; a constant after
    compiling would not be folded: both are refused, with the name."""
    mod = parse_source("""
constant K : integer = 2;
func Base(x: integer) => integer
begin
    return x + K;
end;
""", "k.asl")
    it = Interpreter(None, modules=[mod])
    it.set_constant("K", 5)
    assert it.call("Base", 1) == 6
    with pytest.raises(RuntimeError, match="Base"):
        it.install_hook("Base", Replace(lambda x: x))
    with pytest.raises(RuntimeError, match="K"):
        it.set_constant("K", 7)
    assert it.call("Base", 1) == 6
    assert "Base" not in it.hooks


def test_a_hook_calls_asl_inside_the_running_call():
    """``Interpreter.function`` runs an ASL function from a hook without clearing the call stack."""
    mod = parse_source("""
func Inner(x: integer) => integer
begin
    return x * 3;
end;
func Hooked(x: integer) => integer
begin
    return x;
end;
func Outer(x: integer) => integer
begin
    return Hooked(x) + 1;
end;
""", "s.asl")
    it = Interpreter(None, modules=[mod])
    seen: list[tuple[str, ...]] = []

    def hooked(x):
        before = tuple(name for name, _ in it.stack)
        got = it.function("Inner", 1)(x)
        seen.append(before)
        seen.append(tuple(name for name, _ in it.stack))
        return got

    it.install_hook("Hooked", Replace(hooked))
    assert it.call("Outer", 2) == 7
    assert seen[0] == seen[1] and seen[0][0] == "Outer"
    assert [fn.name for fn in it.resolved("Inner")] == ["Inner"] and it.declarations("Inner") == []


def test_arbitrary_and_recursion():
    src = """
func fact(n: integer) => integer
begin
    if n <= 1 then return 1; end;
    return n * fact(n - 1);
end;
func f() => (integer, boolean)
begin
    return (fact(20), ARBITRARY: boolean);
end;
"""
    assert run(src) == (2432902008176640000, False)


def test_call_converts_python_ints_to_bitvectors():
    src = "func f(x: bits(4), n: integer) => bits(4)\nbegin\n    return x + n;\nend;\n"
    assert run(src, "f", 0xF, 2) == bits(1, 4)


def test_constant_fill_loops_keep_value_semantics():
    src = """
var _A : array [[8]] of bits(4);
func f() => (bits(4), bits(4), integer)
begin
    let before = _A;
    var i = 0;
    for i = 2 to 5 do
        _A[[i]] = '1010';
    end;
    return (before[[3]], _A[[3]], i);
end;
func g()
begin
    for j = 6 to 8 do
        _A[[j]] = '1111';
    end;
end;
"""
    it = interp(src)
    assert it.call("f") == (bits(0, 4), bits(0b1010, 4), 5)
    assert [x.v for x in it.get_global("_A")] == [0, 0, 10, 10, 10, 10, 0, 0]
    with pytest.raises(ASLError) as exc:
        it.call("g")
    assert "outside 0..7" in exc.value.message


# ------------------------------------------------------------------ dispatch tables
def _parser_kinds(prefix: str) -> set[str]:
    """Every node kind of one family the parser can build."""
    import re

    from specgen.asl import lark_reference as parser

    return set(re.findall(r'_n\("(%s_[a-z_]+)"' % prefix, Path(parser.__file__).read_text()))


@pytest.mark.parametrize("prefix, table", [("e", EXPR), ("s", STMT), ("l", LVALUE), ("t", TYPES)])
def test_every_parsed_node_kind_has_one_documented_rule(prefix, table):
    rules = table.rules()
    assert _parser_kinds(prefix) and set(rules) == _parser_kinds(prefix)
    assert all(rules.values()), [k for k, doc in rules.items() if not doc]


def test_a_kind_registered_twice_is_refused():
    with pytest.raises(ValueError, match="registered twice"):
        EXPR.rule("e_lit")(lambda c, node, ctx: None)


def test_a_kind_without_rule_is_a_located_unsupported_error():
    it = interp("func f() => integer\nbegin\n    return 1;\nend;\n")
    with pytest.raises(ASLError) as exc:
        compile_expr(it, Node("e_bogus", 7, 3, ()), Scope("x.asl", set(), "f"))
    assert exc.value.kind == "unsupported"
    assert exc.value.message == "unsupported expression e_bogus"
    assert (exc.value.span.path, exc.value.span.line, exc.value.span.col) == ("x.asl", 7, 3)


def test_rules_are_looked_up_when_compiling_not_when_running(monkeypatch):
    it = interp("func f(n: integer) => integer\nbegin\n    var s = 0;\n"
                "    for i = 1 to n do\n        s = s + i;\n    end;\n    return s;\nend;\n")
    assert it.call("f", 3) == 6
    monkeypatch.setattr(EXPR, "_handlers", {})
    monkeypatch.setattr(STMT, "_handlers", {})
    monkeypatch.setattr(LVALUE, "_handlers", {})
    assert it.call("f", 10) == 55
