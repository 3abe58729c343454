"""The one format of every cache file: data that cannot run code.

A cache file sits in a folder another program could write to, so reading one must never run code
named by its bytes, as unpickling does. Every cached value is encoded to MessagePack: plain values
(None, booleans, numbers, strings, bytes, lists, dicts) as themselves, and everything else as an
extension naming what it is:

* a tuple, or a tree of tuples and syntax-tree nodes (:func:`register_node`), as one *flat* program:
  a string of operations and the list of its leaves, rebuilt by one loop with an explicit stack (a
  long operator chain nests deeper than any recursion limit, and one loop is faster than a call per
  node);
* a set or frozenset, an integer beyond 64 bits, a fraction, a date;
* an instance of a class of specgen's own that its module registered (:func:`register`): a
  dataclass, a named tuple, a pydantic model, an enum or a class with its own pair of functions.
  A class stored by position (dataclass, named tuple) has the digest of its field names in its tag.

Decoding resolves a class only through that registry, which holds the classes themselves: a name
in a file selects among them and never imports anything. A file whose bytes do not decode, or name
a class nobody registered, raises :class:`ValueError`; every reader treats that as a miss and
recomputes. :data:`FORMAT` is part of every cache file's header: a change of the encoding is a new
format, and a file of another is never read.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import gc
import hashlib
from fractions import Fraction
from typing import Any, Callable, Iterable

import msgpack

FORMAT = b"msgpack-1"

_FLAT, _SET, _FROZENSET, _INT, _OBJ, _DATE, _FRACTION = 1, 2, 3, 4, 5, 6, 7
_LEAF, _TUPLE, _NODE, _LEAF_NODE, _LEAF_TUPLE = 0, 1, 2, 3, 4  # the last two: items all leaves

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]
_BY_TYPE: dict[type, tuple[str, Encoder]] = {}
_BY_TAG: dict[str, Decoder] = {}
_NODE_TYPE: list[type] = []


class _End:
    """Marks where a tuple's or node's items end on the encoder's stack."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj


def register_node(cls: type) -> None:
    """The syntax-tree node class: instances with ``kind``, ``line``, ``col`` and an ``args`` tuple,
    built by ``cls(kind, line, col, args)``; encoded inside flat programs."""
    _NODE_TYPE[:] = [cls]


def register(*classes: type, encode: Encoder | None = None, decode: Decoder | None = None) -> None:
    """Allow instances of ``classes`` (specgen's own plain-data classes) in cache files.

    Dataclasses are stored as their fields in order, named tuples as their items, pydantic models
    as their state (what pickling keeps), enums as their value; any other class needs ``encode``
    (the instance to a plain value) and ``decode`` (that value back).
    """
    for cls in classes:
        if not cls.__module__.startswith("specgen."):
            raise ValueError(f"{cls!r}: only specgen's own classes are registered")
        tag = f"{cls.__module__}.{cls.__qualname__}"
        if encode is not None and decode is not None:
            enc, dec = encode, decode
        elif isinstance(cls, type) and issubclass(cls, enum.Enum):
            enc, dec = _enum_value, cls
        elif dataclasses.is_dataclass(cls):
            enc, dec = _dataclass_codec(cls)
            tag += _shape(f.name for f in dataclasses.fields(cls))
        elif issubclass(cls, tuple) and hasattr(cls, "_fields"):
            enc, dec = list, (lambda items, c=cls: c(*items))
            tag += _shape(cls._fields)
        elif hasattr(cls, "model_fields"):
            enc, dec = _model_state, (lambda state, c=cls: _model(c, state))
        else:
            raise ValueError(f"{cls!r}: not a dataclass, named tuple, pydantic model or enum; give encode and decode")
        _BY_TYPE[cls] = (tag, enc)
        _BY_TAG[tag] = dec


def _shape(names: Iterable[str]) -> str:
    """The field names of a class stored by position, in its tag: a file written before a field was
    added, removed or moved names another tag, and is a miss rather than values in the wrong fields."""
    return "/" + hashlib.blake2b("\0".join(names).encode(), digest_size=4).hexdigest()


def _enum_value(obj: enum.Enum) -> Any:
    return obj.value


def _dataclass_codec(cls: type) -> tuple[Encoder, Decoder]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    if all(f.init for f in dataclasses.fields(cls)):  # by keyword: a kw_only field takes no position
        return (lambda obj: [getattr(obj, n) for n in names]), (lambda items: cls(**dict(zip(names, items))))

    def dec(items: list) -> Any:
        obj = object.__new__(cls)
        if len(items) != len(names):
            raise ValueError(f"{cls.__name__}: {len(items)} fields, expected {len(names)}")
        for n, v in zip(names, items):
            object.__setattr__(obj, n, v)
        return obj
    return (lambda obj: [getattr(obj, n) for n in names]), dec


def _model_state(obj: Any) -> list:
    state = obj.__getstate__()
    fields_set = state.get("__pydantic_fields_set__") or set()
    return [state["__dict__"], state.get("__pydantic_extra__"), sorted(fields_set),
            state.get("__pydantic_private__")]


def _model(cls: type, state: list) -> Any:
    values, extra, fields_set, private = state
    if not isinstance(values, dict):
        raise ValueError(f"{cls.__name__}: bad state")
    obj = cls.__new__(cls)
    obj.__setstate__({"__dict__": values, "__pydantic_extra__": extra,
                      "__pydantic_fields_set__": set(fields_set), "__pydantic_private__": private})
    return obj


# -- encoding -------------------------------------------------------------------------------

def _flat(root: Any) -> msgpack.ExtType:
    """A tree of tuples and nodes as (operations, leaves) in post-order, walked without recursion.

    The leaf tests are plain loops, not ``all()`` over a generator: this loop runs once per node of every
    parsed module a cold run stores (a third of the encoding time went into creating those generators)."""
    node = _NODE_TYPE[0] if _NODE_TYPE else None
    ops = bytearray()
    op = ops.append
    vals: list[Any] = []
    val = vals.append
    more = vals.extend
    stack: list[Any] = [root]
    push, pop = stack.append, stack.pop
    while stack:
        x = pop()
        t = type(x)
        if t is tuple:
            for a in x:
                ta = type(a)
                if ta is tuple or ta is node:
                    push(_End(len(x)))
                    stack.extend(reversed(x))
                    break
            else:
                op(_LEAF_TUPLE)
                val(len(x))
                more(x)
        elif t is node:
            args = x.args
            for a in args:
                ta = type(a)
                if ta is tuple or ta is node:
                    push(_End(x))
                    stack.extend(reversed(args))
                    break
            else:
                op(_LEAF_NODE)
                more((x.kind, x.line, x.col, len(args)))
                more(args)
        elif t is _End:
            o = x.obj
            if type(o) is int:
                op(_TUPLE)
                val(o)
            else:
                op(_NODE)
                more((o.kind, o.line, o.col, len(o.args)))
        else:
            op(_LEAF)
            val(x)
    return msgpack.ExtType(_FLAT, _pack([bytes(ops), vals]))


def _default(obj: Any) -> Any:
    t = type(obj)
    if t is tuple or (_NODE_TYPE and t is _NODE_TYPE[0]):
        return _flat(obj)
    hit = _BY_TYPE.get(t)
    if hit is not None:
        return msgpack.ExtType(_OBJ, _pack([hit[0], hit[1](obj)]))
    if t is int:
        return msgpack.ExtType(_INT, str(obj).encode())
    if t is frozenset or t is set:
        try:
            items = sorted(obj)  # the same bytes in every process: a value digest depends on them
        except TypeError:
            items = list(obj)
        return msgpack.ExtType(_FROZENSET if t is frozenset else _SET, _pack(items))
    if t is datetime.date:
        return msgpack.ExtType(_DATE, obj.isoformat().encode())
    if t is Fraction:
        return msgpack.ExtType(_FRACTION, f"{obj.numerator}/{obj.denominator}".encode())
    raise TypeError(f"{t.__module__}.{t.__qualname__} is not registered for the cache (specgen.cache.codec)")


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, default=_default, strict_types=True, use_bin_type=True)


def encode(value: Any) -> bytes:
    """``value`` as bytes; TypeError names a class no module registered (the value is not cached)."""
    return _pack(value)


# -- decoding -------------------------------------------------------------------------------

def _build(ops: bytes, vals: list) -> Any:
    node = _NODE_TYPE[0] if _NODE_TYPE else None
    if node is None and (_NODE in ops or _LEAF_NODE in ops):
        raise ValueError("syntax-tree nodes in a process that has not imported their class")
    stack: list[Any] = []
    push = stack.append
    i = 0
    for op in ops:  # the operations' numbers as literals: the loop runs once per node
        if op == 3:  # _LEAF_NODE
            j = i + 4 + vals[i + 3]
            push(node(vals[i], vals[i + 1], vals[i + 2], tuple(vals[i + 4:j])))  # type: ignore[misc]
            i = j
        elif op == 0:  # _LEAF
            push(vals[i])
            i += 1
        elif op == 4:  # _LEAF_TUPLE
            j = i + 1 + vals[i]
            push(tuple(vals[i + 1:j]))
            i = j
        elif op == 2:  # _NODE
            n = vals[i + 3]
            args = tuple(stack[-n:]) if n else ()
            if n:
                del stack[-n:]
            push(node(vals[i], vals[i + 1], vals[i + 2], args))  # type: ignore[misc]
            i += 4
        elif op == 1:  # _TUPLE
            n = vals[i]
            i += 1
            t = tuple(stack[-n:]) if n else ()
            if n:
                del stack[-n:]
            push(t)
        else:
            raise ValueError(f"unknown operation {op} in a flat program")
    if len(stack) != 1:
        raise ValueError("malformed flat program")
    return stack[0]


def _ext(code: int, data: bytes) -> Any:
    if code == _FLAT:
        ops, vals = _unpack(data)
        return _build(ops, vals)
    if code == _OBJ:
        tag, state = _unpack(data)
        dec = _BY_TAG.get(tag)
        if dec is None:
            raise ValueError(f"unknown class {tag!r} in a cache file")
        return dec(state)
    if code == _FROZENSET:
        return frozenset(_unpack(data))
    if code == _SET:
        return set(_unpack(data))
    if code == _INT:
        return int(data.decode("ascii"))
    if code == _DATE:
        return datetime.date.fromisoformat(data.decode("ascii"))
    if code == _FRACTION:
        num, _, den = data.decode("ascii").partition("/")
        return Fraction(int(num), int(den))
    raise ValueError(f"unknown extension {code} in a cache file")


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, ext_hook=_ext, raw=False, strict_map_key=False, use_list=True)


def decode(data: bytes) -> Any:
    """The value ``data`` encodes; ValueError for anything that is not a whole, known encoding.

    The cyclic collector is paused while it decodes: a parsed module is hundreds of thousands of
    tuples, each allocation counting towards a collection that walks every one of them again (7x
    the decode time of a warm ``specgen run``), and decoding makes no cycles for it to find.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _unpack(data)
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 - msgpack's own errors, a class's constructor refusing its fields
        raise ValueError(f"undecodable cache entry: {exc}") from exc
    finally:
        if paused:
            gc.enable()


__all__ = ["FORMAT", "decode", "encode", "register", "register_node"]
