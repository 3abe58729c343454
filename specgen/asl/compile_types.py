"""ASL type expressions resolved to :class:`TypeInfo`, one handler per type node kind.

A type is resolved when a declaration, ``as``, ``ARBITRARY`` or a call's
parameter needs it: enough to build the type's base value (an
uninitialised variable) and to check ``as``. Widths and bounds stay
compiled expressions, evaluated on an empty frame.
"""

from __future__ import annotations

from fractions import Fraction

from specgen.diagnostics import Span

from .ast import Node, TypeDecl
from .budget import FREE_BITS, produce
from .compile_base import AsFailure, Compiler, DispatchTable, Scope
from .errors import ASLError, MissingFunction
from .values import Bits, show


class TypeInfo:
    """A resolved type: enough to build a default value and check ``as``."""

    __slots__ = ("kind", "width", "constraints", "elem", "size", "enum", "fields", "items", "name")

    def __init__(self, kind: str, **kw) -> None:
        self.kind = kind  # int, bool, real, string, bits, enum, record, array, tuple
        self.width = kw.get("width")  # Expr for bits
        self.constraints = kw.get("constraints")  # list[(Expr, Expr|None)]
        self.elem = kw.get("elem")
        self.size = kw.get("size")  # Expr (or enum TypeInfo)
        self.enum = kw.get("enum")  # tuple of member names
        self.fields = kw.get("fields")  # list[(name, TypeInfo)]
        self.items = kw.get("items")
        self.name = kw.get("name", "")


TYPES: DispatchTable = DispatchTable("type form")


def type_of(c: Compiler, node: Node | None, path: str) -> TypeInfo:
    """The type ``node`` (declared in file ``path``) denotes; no type is the empty tuple."""
    if node is None:
        return TypeInfo("tuple", items=[])
    ctx = Scope(path, set(), "<type>")
    return TYPES.lookup(node, ctx)(c, node, ctx)


@TYPES.rule("t_int")
def t_int(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``integer``: unconstrained."""
    return TypeInfo("int")


@TYPES.rule("t_int_c")
def t_int_c(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``integer {a, b..c}``: a value must lie in one of the listed points or ranges."""
    cs = [(c._expr(lo, ctx), c._expr(hi, ctx) if hi is not None else None) for lo, hi in node.args[0]]
    return TypeInfo("int", constraints=cs)


@TYPES.rule("t_bool")
def t_bool(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``boolean``."""
    return TypeInfo("bool")


@TYPES.rule("t_real")
def t_real(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``real``: exact rationals."""
    return TypeInfo("real")


@TYPES.rule("t_string")
def t_string(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``string``."""
    return TypeInfo("string")


@TYPES.rule("t_bits")
def t_bits(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``bits(N)``: the width is an expression over constants."""
    return TypeInfo("bits", width=c._expr(node.args[0], ctx))


@TYPES.rule("t_array")
def t_array(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``array [[N]] of T``: ``N`` is a size, or an enumeration whose members index it."""
    size = node.args[0]
    elem = node.args[1]
    if size.kind == "e_var":
        decls, _ = c._decls(size.args[0])
        if any(isinstance(d, TypeDecl) for d in decls):
            et = c._named_type(size.args[0], ctx.span(node))
            return TypeInfo("array", size=et, elem=c._type_of(elem, ctx.path))
    return TypeInfo("array", size=c._expr(size, ctx), elem=c._type_of(elem, ctx.path))


@TYPES.rule("t_tuple")
def t_tuple(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """``(T1, T2, ...)``: a function's multiple results."""
    return TypeInfo("tuple", items=[c._type_of(t, ctx.path) for t in node.args[0]])


@TYPES.rule("t_named")
def t_named(c: Compiler, node: Node, ctx: Scope) -> TypeInfo:
    """A type name: an enumeration, a record or an alias declared with ``type``."""
    return c._named_type(node.args[0], ctx.span(node))


def named_type(c: Compiler, types: dict[str, TypeInfo], name: str, span: Span) -> TypeInfo:
    """Resolve the declared type ``name`` once, caching it in ``types``.

    A type nothing declares but the upstream build generates is an
    enumeration without members (its default value raises MissingFunction).
    """
    decls, _ = c._decls(name)
    tdecl = next((d for d in decls if isinstance(d, TypeDecl)), None)
    if tdecl is None:
        if c._is_generated_type(name):
            ti = TypeInfo("enum", enum=(), name=name)
            types[name] = ti
            return ti
        raise ASLError(f"unknown type '{name}'", span, "unknown-name", c._snapshot(span))
    if tdecl.form == "enum":
        ti = TypeInfo("enum", enum=tdecl.payload, name=name)
    elif tdecl.form == "record":
        ti = TypeInfo("record", fields=[], name=name)
        types[name] = ti  # allow recursion through arrays
        ti.fields = [(f, c._type_of(t, tdecl.path)) for f, t in tdecl.payload]  # type: ignore[union-attr]
        return ti
    else:
        ti = c._type_of(tdecl.payload, tdecl.path)  # type: ignore[arg-type]
    types[name] = ti
    return ti


def default(ti: TypeInfo) -> object:
    """The base value of a type: 0 (or the bound nearest 0), FALSE, zeros, the first member."""
    k = ti.kind
    if k == "int":
        return _int_default(ti)
    if k == "bool":
        return False
    if k == "bits":
        return Bits(0, bits_width(ti.width({})))
    if k == "real":
        return Fraction(0)
    if k == "string":
        return ""
    if k == "enum":
        if not ti.enum:
            raise MissingFunction(ti.name)
        return ti.enum[0]
    if k == "record":
        return {f: default(t) for f, t in ti.fields}
    if k == "array":
        n = len(ti.size.enum) if isinstance(ti.size, TypeInfo) else ti.size({})
        if type(n) is not int or n < 0:
            raise TypeError(f"array size {show(n)} is not a non-negative integer")
        if n > 1024:  # making n references costs about as much as copying 64 bits each
            produce(n, f"an array of {n:,} elements", n >> 7, n << 3)  # 8 bytes a reference
        return [default(ti.elem)] * n
    if k == "tuple":
        return tuple(default(t) for t in ti.items)
    raise TypeError(f"no default value for type kind {k}")


def bits_width(n: object) -> int:
    """A ``bits(N)`` type's width as evaluated: a non-negative integer within the value budget."""
    if type(n) is not int:
        raise TypeError(f"bitvector width {show(n)} is not an integer")
    if n < 0:
        raise TypeError(f"bits({n}): a bitvector width cannot be negative")
    if n > FREE_BITS:
        produce(n, "a bits(N) value")
    return n


def _int_default(ti: TypeInfo) -> int:
    if not ti.constraints:
        return 0
    best = None
    for lo, hi in ti.constraints:
        a = lo({})
        b = hi({}) if hi is not None else a
        if a <= 0 <= b:
            return 0
        cand = a if abs(a) < abs(b) else b
        if best is None or abs(cand) < abs(best):
            best = cand
    return best


def check_as(v: object, ti: TypeInfo) -> object:
    """``v as T``: ``v`` itself when it is in ``T``'s domain, else AsFailure."""
    k = ti.kind
    if k == "int":
        if type(v) is not int:
            raise TypeError(f"'as integer' applied to {show(v)}")
        if ti.constraints:
            for lo, hi in ti.constraints:
                a = lo({})
                b = hi({}) if hi is not None else a
                if a <= v <= b:
                    return v
            raise AsFailure(f"value {v} is outside the constrained integer domain")
        return v
    if k == "bits":
        n = ti.width({})
        if type(v) is not Bits or v.n != n:
            raise AsFailure(f"value {show(v)} is not a bits({n})")
        return v
    return v


_FITS = {
    "int": lambda v, ti: type(v) is int,
    "bool": lambda v, ti: type(v) is bool,
    "enum": lambda v, ti: isinstance(v, str) and v in ti.enum,
    "real": lambda v, ti: isinstance(v, Fraction),
    "record": lambda v, ti: isinstance(v, dict),
    "array": lambda v, ti: isinstance(v, list),
    "bits": lambda v, ti: type(v) is Bits and v.n == ti.width({}),
}


def value_fits(v: object, ti: TypeInfo) -> bool:
    """Whether ``v`` is a value of ``ti``: how a call picks among same-arity overloads."""
    fits = _FITS.get(ti.kind)
    return True if fits is None else fits(v, ti)
