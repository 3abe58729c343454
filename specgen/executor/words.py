"""Run a Block program as instruction words, through the spec's own command path.

A spec whose ASL states ``ExecuteCommandInstruction(instruction, length_bits)``
(the function its AVS tests drive) runs a program exactly as those tests do:
every statement is assembled from the spec's encodings
(:mod:`specgen.encoding.asm`) and the word is handed to that function; a
``CommandExecution_Rejected`` status stops the run with the ASL's
``_LastFault``. The destination of a commit is the register the run newly
allocated (a commit always allocates a fresh one).
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import speccontract as contract
from ..asl import Bits, Interpreter
from ..encoding.asm import Assembled, assemble_command
from ..encoding.model import EncodingSet
from ..program.syntax import Statement

COMMAND_ENTRY = contract.COMMAND_ENTRY.name
EXECUTED = "CommandExecution_Executed"
REJECTED = "CommandExecution_Rejected"
WORD_MASK = (1 << 64) - 1


def pe_mode_table(it: Interpreter) -> dict[int, int]:
    """PE mask -> PEMode code, read from the spec's ``…PEMaskOfPEMode`` function (empty when it has none)."""
    index = getattr(it, "index", None)
    names = [n for n in (index.defs if index is not None else {}) if n.endswith(contract.PE_MASK_OF_MODE.name)]
    if not names:
        return {}
    out: dict[int, int] = {}
    decl = index.lookup(names[0])[0]
    params = getattr(decl, "params", ())
    as_bits = bool(params) and "bits" in str(params[0][-1])
    for mode in range(8):  # the mode is bits(3) in 0.58.3, an integer in the bundled spec
        mask = it.call(names[0], Bits(mode, 3) if as_bits else mode)
        value = mask.v if isinstance(mask, Bits) else int(mask)  # type: ignore[call-overload]
        out.setdefault(value, mode)
    return out


# A predicate Tile (``storage_kind`` ``TileStorage_Predicate``, 0.58.3) packs one bit an element into bytes; the
# spec reads an element with these (``asl/tile/model/definedness/elements.asl``)
PREDICATE_STORAGE = "TileStorage_Predicate"
PREDICATE_READ = contract.READ_PREDICATE.name
PREDICATE_DEFINED = contract.PREDICATE_DEFINED.name


def is_predicate(it: Interpreter, tile: object) -> bool:
    """Whether a ``_Tiles`` descriptor is a predicate Tile the spec reads bit by bit."""
    try:
        kind = tile["storage_kind"]  # type: ignore[index]
    except (KeyError, TypeError, IndexError):
        return False
    return (str(kind) == PREDICATE_STORAGE and it.has_function(PREDICATE_READ)
            and it.has_function(PREDICATE_DEFINED))


def allocated(it: Interpreter) -> set[int]:
    """The Tile registers the model holds allocated (its ``_Tiles`` descriptors)."""
    tiles = it.get_global(contract.TILES.name)
    return {i for i in range(len(tiles)) if tiles[i]["allocated"] is True}  # type: ignore[arg-type, index]


class WordRunner:
    """Assemble and execute statements on one interpreter (the executor's).

    :class:`~specgen.encoding.asm.AsmError` escapes for a statement with no
    encodable form; the executor reports it as a statement that cannot run.
    """

    def __init__(self, interp: Interpreter, encodings: EncodingSet, dtype_none: int | None = None) -> None:
        self.interp = interp
        self.encodings = encodings
        self.dtype_none = dtype_none  # B.DATR's "no type" code (the spec's DTYPE_NONE)
        self.pe_modes: Mapping[int, int] = pe_mode_table(interp)
        self.new: list[int] = []  # every register the last statement newly allocated, lowest first

    def assemble(self, st: Statement) -> Assembled:
        fields = st.fields
        if st.mnemonic == "B.DATR" and "layout" not in fields and self.dtype_none is not None:
            # ``B.DATR PadValue=X`` is the full form with only the pad set: every other field
            # zero and the DataType "none" (the descriptor then sets nothing but the pad)
            fields = {"layout": 0, "data_type": self.dtype_none, "pad": fields.get("pad"), "cmode": 0,
                      "rmode": 0, "sat": 0, "canonicalize": 0}
        return assemble_command(self.encodings, st.mnemonic, fields, self.pe_modes)

    def execute(self, st: Statement) -> tuple[str, tuple, str, int | None]:
        """Run one statement: (entry, args, status, newly allocated destination or None)."""
        it = self.interp
        a = self.assemble(st)
        before = allocated(it)
        status = str(it.call(COMMAND_ENTRY, Bits(a.word, 64), a.width))
        new = sorted(allocated(it) - before)
        self.new = new  # a commit may allocate several destinations (TSORT's values and indices)
        return COMMAND_ENTRY, (a.hex(), a.width), status, (new[0] if new else None)

    def write_gprs(self, gprs: Mapping[int, int]) -> None:
        """Set absolute GPRs with the spec's ``WritePEGPR`` in every PE's file (a B.IOR reads the selected
        PEs' private GPRs), or ``WriteGPR`` where the spec has no per-PE files."""
        it = self.interp
        per_pe = it.has_function(contract.WRITE_PE_GPR.name)
        agents = int(it.get_global(contract.MEMORY_AGENTS.name)) if per_pe else 1  # type: ignore[arg-type]
        for index, value in gprs.items():
            for pe in range(agents):
                if per_pe:
                    it.call(contract.WRITE_PE_GPR.name, pe, index, Bits(value & WORD_MASK, 64))
                else:
                    it.call(contract.WRITE_GPR.name, index, Bits(value & WORD_MASK, 64))

    # -- tile state through the spec's element functions -------------------------------
    def write(self, idx: int, words: tuple[tuple[int, ...], ...]) -> None:
        """Install element words with the spec's ``WriteTileElement`` (a Word is 64 bits)."""
        it = self.interp
        for r, row in enumerate(words):
            for c, w in enumerate(row):
                it.call(contract.WRITE_ELEMENT.name, idx, r, c, Bits(w & WORD_MASK, 64))

    def read(self, idx: int) -> tuple[dict, list[list[int]], list[list[bool]]]:
        """The descriptor and every physical element (word, defined) via ``TileElementDefined``/``ReadTileElement``."""
        it = self.interp
        tile = it.get_global(contract.TILES.name)[idx]  # type: ignore[index]
        rows, cols = int(tile["rows"]), int(tile["columns"])
        words: list[list[int]] = []
        defined: list[list[bool]] = []
        if is_predicate(it, tile):  # one bit an element, read through the spec's own predicate accessors
            for r in range(rows):
                drow = [it.call(PREDICATE_DEFINED, idx, r, c) is True for c in range(cols)]
                defined.append(drow)
                words.append([int(it.call(PREDICATE_READ, idx, r, c) is True) if d else 0
                              for c, d in enumerate(drow)])
            return tile, words, defined  # type: ignore[return-value]
        for r in range(rows):
            wrow: list[int] = []
            drow: list[bool] = []
            for c in range(cols):
                ok = it.call(contract.ELEMENT_DEFINED.name, idx, r, c) is True
                v = it.call(contract.READ_ELEMENT.name, idx, r, c) if ok else 0
                wrow.append(v.v if isinstance(v, Bits) else int(v))  # type: ignore[call-overload]
                drow.append(ok)
            words.append(wrow)
            defined.append(drow)
        return tile, words, defined  # type: ignore[return-value]
