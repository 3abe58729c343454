"""Whole-tile NumPy paths that stand in for per-element ASL loops, where a test proves them equal.

The interpreter evaluates ``ExecuteTileBinary`` one element at a time; a
256-element tile is instant, a 16,384-element one is not. This module offers
three replacements, each checked against the interpreted ASL on random inputs
by ``tests/test_examples_fast.py`` (same ``_Tiles`` state, element for
element, in both profiles):

* :func:`bulk_write` - the state ``WriteTileElement`` leaves after writing a
  block of elements, built in one step;
* :func:`bulk_read` - the words and definedness ``ReadTileElementRaw`` /
  ``TileElementDefined`` return;
* an ``ExecuteTileBinary`` hook computing the valid region with NumPy for the
  (operation, type, profile) combinations below, then the definedness and
  padding of ``TileWithValidRegionDefined``/``TileWithPadding`` (the padding
  word itself comes from the ASL ``TilePaddingWord``), and handing every
  other combination to the spec's own ASL;
* ``EmptyTileInfo`` (a zero-argument ``pure func``) evaluated by the ASL once
  and reused.

Vectorised: integer ADD/SUB/MUL/MAX/MIN/AND/OR/XOR (all eight types);
floating MAX/MIN (``TileFloatMinMax``) for FP64, FP32, TF32, HF32, FP16, BF16,
E4M3, E5M2; floating ADD/SUB/MUL as raw carriers (``reference``) or IEEE RNE
for FP64/FP32/FP16/BF16 (``hardware-ieee``). Anything else runs the ASL.
"""

from __future__ import annotations

import numpy as np

from .. import speccontract as contract
from ..asl import Bits, Interpreter
from ..asl.hooks import ASLFunction, Around
from ..vocabulary import DataType, Vocabulary
from .datatypes import FLOATS

U64 = np.uint64


def _positions(rows: int, cols: int, layout: str, nr: int, nc: int) -> np.ndarray:
    r = np.arange(nr).reshape(-1, 1)
    c = np.arange(nc).reshape(1, -1)
    if layout == "TileLayout_ColumnMajor":
        return (c * rows + r).astype(np.int64)
    return (r * cols + c).astype(np.int64)


def bulk_write(it: Interpreter, idx: int, words: tuple[tuple[int, ...], ...]) -> None:
    """Store ``words`` (row-major matrix from (0, 0)) in register ``idx`` and mark them defined."""
    tiles = it.get_global(contract.TILES.name)
    tile = dict(tiles[idx])  # type: ignore[index]
    payload = list(tile["payload"])
    defined = list(tile["defined"])
    rows, cols = tile["rows"], tile["columns"]
    count = tile["defined_valid_count"]
    vr, vc = tile["valid_rows"], tile["valid_columns"]
    nr = len(words)
    nc = len(words[0]) if words else 0
    if any(len(row) != nc for row in words) or nr > rows or nc > cols:
        raise IndexError(f"element block {nr}x{nc} (rows of equal length) does not fit the {rows}x{cols} tile")
    pos = _positions(rows, cols, tile["layout"], nr, nc)
    inside = np.zeros((nr, nc), dtype=bool)
    inside[:min(vr, nr), :min(vc, nc)] = True
    flat_pos = pos.ravel().tolist()
    was = [defined[p] for p in flat_pos]
    count += sum(1 for p_in, w in zip(inside.ravel().tolist(), was) if p_in and not w)
    mask = 0xFFFFFFFFFFFFFFFF
    for p, w in zip(flat_pos, (w for row in words for w in row)):
        payload[p] = Bits(w & mask, 64)
        defined[p] = True
    tile["payload"] = payload
    tile["defined"] = defined
    tile["defined_valid_count"] = count
    tile["contents_defined"] = count == vr * vc
    new = list(tiles)  # type: ignore[call-overload]
    new[idx] = tile
    it.set_global(contract.TILES.name, new)


def bulk_read(it: Interpreter, idx: int) -> tuple[list[list[int]], list[list[bool]]]:
    """Every physical element of ``idx`` as (words, defined), row-major by (row, column)."""
    tile = it.get_global(contract.TILES.name)[idx]  # type: ignore[index]
    rows, cols = tile["rows"], tile["columns"]
    pos = _positions(rows, cols, tile["layout"], rows, cols)
    payload, defined = tile["payload"], tile["defined"]
    words = [[payload[p].v for p in row] for row in pos.tolist()]
    dfn = [[defined[p] is True for p in row] for row in pos.tolist()]
    return words, dfn


# ---------------------------------------------------------------- element formats
# Bit layouts of the floating formats the fast path vectorises, keyed by format. They are
# properties of the formats (IEEE 754, OCP FP8), which the spec states only as ASL code; a
# DataType of the spec's vocabulary without an entry here runs the ASL instead.
# (sign bit, exponent lsb, exponent width, fraction width) and canonical NaN of each floating format, from the
# one table of formats (executor/datatypes.FLOATS)
_FLOAT_FIELDS = {n: (f.bits - 1, f.fraction, f.exponent, f.fraction) for n, f in FLOATS.items()}
_CANONICAL_NAN = {n: f.quiet_nan() for n, f in FLOATS.items()}
_IEEE = {"FP64": (np.float64, np.uint64), "FP32": (np.float32, np.uint32),
         "FP16": (np.float16, np.uint16), "BF16": ("bfloat16", np.uint16)}  # ml_dtypes' name: imported on use


def _ieee(name: str) -> tuple[type, type]:
    """The NumPy float and word types of ``name``; ml_dtypes (0.5 s of a warm ``specgen run``) loads only when a
    BF16 product is computed."""
    ftype, utype = _IEEE[name]
    if isinstance(ftype, str):
        import ml_dtypes
        ftype = getattr(ml_dtypes, ftype)
    return ftype, utype


def _mask(bits: int) -> U64:
    return U64((1 << bits) - 1)


def _float_minmax(name: str, maximum: bool, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``TileFloatMinMax`` on arrays of 64-bit carriers (a = left, b = right)."""
    sign, elsb, ew, fw = _FLOAT_FIELDS[name]

    def fields(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        neg = ((x >> U64(sign)) & U64(1)) == 1
        exp = (x >> U64(elsb)) & _mask(ew)
        frac = x & _mask(fw)
        return neg, exp, frac, exp == _mask(ew)

    an, ae, af, aones = fields(a)
    bn, be, bf, bones = fields(b)
    if name == "E4M3":
        anan = (a & U64(0x7F)) == U64(0x7F)
        bnan = (b & U64(0x7F)) == U64(0x7F)
    else:
        anan = aones & (af != 0)
        bnan = bones & (bf != 0)
    azero = (ae == 0) & (af == 0)
    bzero = (be == 0) & (bf == 0)
    width = sign + 1
    weight = 1 << sign
    araw = (a & _mask(width)).astype(object) if width == 64 else (a & _mask(width)).astype(np.int64)
    braw = (b & _mask(width)).astype(object) if width == 64 else (b & _mask(width)).astype(np.int64)
    akey = np.where(an, (2 * weight - 1) - araw, araw + weight)
    bkey = np.where(bn, (2 * weight - 1) - braw, braw + weight)
    if maximum:
        pick = np.where(akey >= bkey, a, b)
        zeros = np.where(an & bn, a, U64(0))
    else:
        pick = np.where(akey <= bkey, a, b)
        zeros = np.where(an, a, np.where(bn, b, U64(0)))
    out = np.where(azero & bzero, zeros, pick)
    out = np.where(bnan, a, out)
    out = np.where(anan, b, out)
    out = np.where(anan & bnan, U64(_CANONICAL_NAN[name]), out)
    return out.astype(np.uint64)


def _int_extend(x: np.ndarray, bits: int, signed: bool) -> np.ndarray:
    if bits == 64:
        return x
    low = x & _mask(bits)
    if signed:
        half = U64(1 << (bits - 1))
        return ((low ^ half) - half).astype(np.uint64)  # sign-extend modulo 2^64
    return low


def _zero_extend(x: np.ndarray, bits: int) -> np.ndarray:
    return x if bits == 64 else x & _mask(bits)


def compute(op: str, et: DataType | None, profile: str, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """The element results of ``op`` on carriers ``a`` and ``b`` (uint64 arrays), or None when not vectorised."""
    if et is None:
        return None
    with np.errstate(all="ignore"):
        if et.kind in ("signed", "unsigned"):
            signed = et.kind == "signed"
            x = _int_extend(a, et.bits, signed)
            y = _int_extend(b, et.bits, signed)
            if op == "TileBinary_ADD":
                return _int_extend(x + y, et.bits, signed)
            if op == "TileBinary_SUB":
                return _int_extend(x - y, et.bits, signed)
            if op == "TileBinary_MUL":
                return _int_extend(x * y, et.bits, signed)
            if op in ("TileBinary_MAX", "TileBinary_MIN"):
                kx, ky = (x.view(np.int64), y.view(np.int64)) if signed else (x, y)
                if op == "TileBinary_MAX":
                    return np.where(kx >= ky, x, y).astype(np.uint64)
                return np.where(kx <= ky, x, y).astype(np.uint64)
            if op == "TileBinary_AND":
                return _zero_extend(a & b, et.bits)
            if op == "TileBinary_OR":
                return _zero_extend(a | b, et.bits)
            if op == "TileBinary_XOR":
                return _zero_extend(a ^ b, et.bits)
            return None
        if et.name not in _FLOAT_FIELDS:
            return None
        if op in ("TileBinary_MAX", "TileBinary_MIN"):
            return _float_minmax(et.name, op == "TileBinary_MAX", a, b)
        if profile == "reference":
            if op == "TileBinary_ADD":
                return a + b
            if op == "TileBinary_SUB":
                return a - b
            if op == "TileBinary_MUL":
                return a * b
            return None
        if profile == "hardware-ieee" and et.name in _IEEE:
            ftype, utype = _ieee(et.name)
            bits = et.bits
            fa = (a & _mask(bits)).astype(utype).view(ftype)
            fb = (b & _mask(bits)).astype(utype).view(ftype)
            if op == "TileBinary_ADD":
                r = (fa + fb).astype(ftype)
            elif op == "TileBinary_SUB":
                r = (fa - fb).astype(ftype)
            elif op == "TileBinary_MUL":
                r = (fa * fb).astype(ftype)
            else:
                return None
            raw = r.view(utype).astype(np.uint64)
            return np.where(np.isnan(r.astype(np.float64)), U64(_CANONICAL_NAN[et.name]), raw)
        return None


def install_fast_paths(it: Interpreter, profile: str, vocabulary: Vocabulary) -> None:
    """Hook ``ExecuteTileBinary`` with the vectorised valid-region computation (when the spec has it)."""
    if contract.BINARY_ELEMENT.name in it.hooks or not it.has_function(contract.BINARY_ELEMENT.name):
        return
    needed = (contract.PADDING_WORD.name, contract.BUNDLE_PAD_VALUE.name, contract.IN_VALID_REGION.name)
    if not all(it.has_function(n) for n in needed):
        return

    def execute_tile_binary(original: ASLFunction, op: str, destination: int, source_left: int,
                            source_right: int) -> None:
        tiles = it.get_global(contract.TILES.name)
        left, right = tiles[source_left], tiles[source_right]  # type: ignore[index]
        nr, nc = left["valid_rows"], left["valid_columns"]
        pos = _positions(left["rows"], left["columns"], left["layout"], nr, nc).ravel()
        lp, rp = left["payload"], right["payload"]
        a = np.fromiter((lp[p].v for p in pos), dtype=np.uint64, count=len(pos))
        b = np.fromiter((rp[p].v for p in pos), dtype=np.uint64, count=len(pos))
        out = compute(op, vocabulary.datatype(str(left["data_type"])), profile, a, b)
        if out is None or not left["allocated"] or not right["allocated"] or \
                not tiles[destination]["allocated"]:  # type: ignore[index]
            original(op, destination, source_left, source_right)
            return
        result = dict(tiles[destination])  # type: ignore[index]
        payload = list(result["payload"])
        defined = list(result["defined"])
        for p, w in zip(pos.tolist(), out.tolist()):
            payload[p] = Bits(int(w), 64)
            defined[p] = True
        # TileWithValidRegionDefined, then TileWithPadding(result, CurrentBundlePadValue())
        pad = it.function(contract.BUNDLE_PAD_VALUE.name, 0)()  # inside the running call: its stack is kept
        pad_word = it.function(contract.PADDING_WORD.name, 2)(pad, result["data_type"])
        pad_defined = pad != "TilePad_Null"
        rows, cols = result["rows"], result["columns"]
        vr, vc = result["valid_rows"], result["valid_columns"]
        everything = _positions(rows, cols, result["layout"], rows, cols)
        inside = np.zeros((rows, cols), dtype=bool)
        inside[:vr, :vc] = True
        for p in everything[~inside].tolist():
            payload[p] = pad_word
            defined[p] = pad_defined
        result["payload"] = payload
        result["defined"] = defined
        result["defined_valid_count"] = vr * vc
        result["contents_defined"] = True
        new = list(it.get_global(contract.TILES.name))  # type: ignore[call-overload]
        new[destination] = result
        it.set_global(contract.TILES.name, new)

    it.install_hook(contract.BINARY_ELEMENT.name, Around(execute_tile_binary))

    # EmptyTileInfo is a zero-argument pure function: its value never changes, so
    # compute it once with the ASL and hand out that value (the interpreter copies
    # a container before updating it whenever another holder, like this cache, sees it).
    if contract.EMPTY_TILE_INFO.name not in it.hooks and it.has_function(contract.EMPTY_TILE_INFO.name):
        memo: list[object] = []

        def empty_tile_info(original: ASLFunction) -> object:
            if not memo:
                memo.append(original())
            return memo[0]

        it.install_hook(contract.EMPTY_TILE_INFO.name, Around(empty_tile_info))
