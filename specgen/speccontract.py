"""The spec contract: every ASL name specgen expects a spec tree to define, and what specgen does with it.

specgen drives the spec's own ASL (programs through its command entry, AVS tests through the
ASL it generates from the catalogs). Whatever it calls from Python, reads as a global, or writes
into generated ASL is listed here once, with its purpose; callers name it from here
(``contract.RESET.name``), never as a literal of their own.

Three kinds of entries:

* **Program entries** (:data:`PROGRAMS`, :data:`SCALAR_PROGRAMS`): what the program executor
  needs to run a Block program at all (``specgen run``, checked and worked examples). Loading a
  tree checks them: an absent one is one ``spec-contract`` finding, and the examples and runs
  that need it are not derivable (their reason names it), never failed.
* **Capabilities** (:data:`CAPABILITIES`): what one feature of the executor or the worked-example
  generator reads (GPR inputs, memory, CUBE Tiles, operand facts, fast paths). A tree without
  one still runs programs; the feature says where it is used that the tree does not define the
  name (a ``RunError`` or a worked example's reason naming it). Not load-time findings: whether
  a tree needs, say, memory inputs is a question of its instructions, which the feature asks.
* **Generated-code names** (:data:`GENERATED`): the tree's names that the ASL specgen writes
  from the catalogs refers to, grouped by generator. Per-operation names that a catalog row
  declares (a ``legality_handler``, an argument constant) are the row's, not listed here; the
  check finds them by reading the generated text (``asl/contract_check.py``). A tree that lacks
  one gets one finding per absent name naming the generator and the catalog rows whose
  generated ASL needs it, and the AVS tests that reach it are ``not-derivable``.

A name with ``{op}`` is per operation (``InstructionContractOperandsLegal_{op}``): ``entry.of("TMUL")``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExpectedName:
    """One ASL name specgen expects: its kind (``function``, ``global``, ``type``, ``value``,
    ``constant``), what specgen does with it, and whether specgen's own generated ASL defines it."""

    name: str
    kind: str
    purpose: str
    generated: bool = False  # written by specgen from the catalogs (absent only when its catalog is)

    def of(self, op: str) -> str:
        """The per-operation name (``InstructionContractOperandsLegal_TMUL``)."""
        return self.name.format(op=op)

    def __str__(self) -> str:
        return self.name


def _e(name: str, kind: str, purpose: str, generated: bool = False) -> ExpectedName:
    return ExpectedName(name, kind, purpose, generated)


# -- the program executor: what running a program needs ----------------------------------------------
COMMAND_ENTRY = _e("ExecuteCommandInstruction", "function",
                   "runs one command word of a program (instruction, length_bits), as the spec's AVS tests drive "
                   "Blocks; every command but EXECUTE goes through it")
RESET = _e("ResetProfileState", "function", "resets the architectural state before every program and test")
CONFIGURE_TILE = _e("ConfigureTileForMask", "function",
                    "allocates and describes an input Tile of a program (row- or column-major storage)")
WRITE_ELEMENT = _e("WriteTileElement", "function", "writes an input Tile's elements (64-bit words)")
READ_ELEMENT = _e("ReadTileElement", "function", "reads a Tile's elements back after the run")
ELEMENT_DEFINED = _e("TileElementDefined", "function", "whether a read-back element is defined (the pad region)")
TILES = _e("_Tiles", "global", "the Tile registers' descriptors: which registers a run allocated, their shapes")
LAST_FAULT = _e("_LastFault", "global", "the fault a rejected command or Block raised")

PROGRAMS: tuple[ExpectedName, ...] = (COMMAND_ENTRY, RESET, CONFIGURE_TILE, WRITE_ELEMENT, READ_ELEMENT, ELEMENT_DEFINED,
                                TILES, LAST_FAULT)
"""Without any of these no program runs on the tree (checked on load)."""

SCALAR_ENTRY = _e("ExecuteScalarInstruction", "function",
                  "runs a scalar command of a program (instruction, length_bits), as tests/asl/scalar/** call it")
READ_GPR = _e("ReadGPR", "function", "reads the GPRs a scalar command wrote (Step.gprs, RunResult.gprs)")

SCALAR_PROGRAMS: tuple[ExpectedName, ...] = (SCALAR_ENTRY, READ_GPR)
"""Scalar commands in programs: checked on load when the scalar catalog declares forms."""

# -- capabilities: each feature names what it reads where it is used ---------------------------------
WRITE_PE_GPR = _e("WritePEGPR", "function", "sets a program's input GPRs in every PE's file (B.IOR operands)")
WRITE_GPR = _e("WriteGPR", "function", "sets input GPRs where the spec has no per-PE file")
STORE = _e("Store", "function", "writes the global memory a gather or load reads, before the program")
LOAD_UNSIGNED = _e("LoadUnsigned", "function", "reads global memory back after the program")
CONFIGURE_CUBE_TILE = _e("ConfigureCubeTileForMask", "function",
                         "allocates an input Tile in a layout whose storage the spec derives (CUBE layouts)")
CUBE_BYTES = _e("TileCubeRequiredBytes", "function",
                "the capacity a CUBE-layout input Tile needs; sizes a matrix Block's destination")
PREDICATE_DEFINED = _e("TilePredicateBitDefined", "function", "whether a predicate Tile's element bit is defined")
READ_PREDICATE = _e("ReadTilePredicateBit", "function", "reads a predicate Tile one bit an element")
SET_FAULT = _e("SetFault", "function",
               "where a fault is raised: hooked to record the ASL site; an EXECUTE line's FALSE legality calls it")
CLEAR_FAULT = _e("ClearFault", "function", "clears the fault state before an EXECUTE line")
READ_TPC = _e("ReadTPC", "function", "the command address SetFault takes (two-argument SetFault)")
OPERANDS_LEGAL = _e("InstructionContractOperandsLegal_{op}", "function",
                    "an EXECUTE line's legality predicate (tile-level contract entry)")
EXECUTE_CONTRACT = _e("InstructionContractExecute_{op}", "function",
                      "an EXECUTE line's effect (tile-level contract entry), on the named registers")
DATATYPE_LEGAL = _e("InstructionContractDataTypeLegal_{op}", "function",
                    "the DataTypes an instruction admits: worked examples and legality-prose-mismatch")
INDEX_TYPE_LEGAL = _e("InstructionContractIndexDataTypeLegal_{op}", "function",
                      "the DataType of an index operand (a gather's indices)")
TYPE_PAIR_LEGAL = _e("InstructionContractTypePairLegal_{op}", "function",
                     "the value/index DataType pairs an instruction admits")
TILE_OPERANDS_LEGAL = _e("TileOperandsLegal_{op}", "function",
                         "an operation's operand-legality predicate: its parameters name the operands, its text "
                         "states their types, extents, layouts and PE masks (worked examples read it)")
OPERAND_PRESENT = _e("TileOperandPresent", "function",
                     "which operand fields an operation binds (sources, destinations, scalars)", generated=True)
DATR_FIELD_APPLICABLE = _e("TileOperationDATRFieldApplicable", "function",
                           "which B.DATR fields an operation may set", generated=True)
GPR_SLOT = _e("BundleOperationGPRInputSlot", "function", "the B.IOR slot of an operation's scalar operand field")
GPR_COUNT = _e("BundleOperationGPRInputCount", "function", "how many GPRs an operation's B.IOR binds")
ACCUMULATOR_TYPE = _e("TileMatrixAccumulatorDataType", "function",
                      "the accumulator (and Bias) DataType of a matrix Block for its input type")
PE_MASK_OF_MODE = _e("PEMaskOfPEMode", "function",
                     "the PE mask a B.IOT PEMode code selects (any function whose name ends so); the assembler "
                     "inverts it")
BINARY_ELEMENT = _e("ExecuteTileBinary", "function", "the elementwise binary effect the fast path vectorises")
EMPTY_TILE_INFO = _e("EmptyTileInfo", "function", "the empty Tile descriptor the fast path memoises")
PADDING_WORD = _e("TilePaddingWord", "function", "the pad word the fast path writes (its ASL, called)")
BUNDLE_PAD_VALUE = _e("CurrentBundlePadValue", "function", "the Block's PadValue the fast path pads with")
IN_VALID_REGION = _e("TileInValidRegion", "function", "which elements the fast path computes (the valid region)")
FP_BINARY_ELEMENT = _e("TileFPBinaryElement", "function",
                       "the floating binary boundary the hardware-ieee profile replaces (bundled spec)")
TILE_LEGALITY_FAULT = _e("Fault_TileLegality", "value",
                         "the fault a FALSE legality predicate raises; its site is explained by the predicate's return")
DATATYPE_ENUM = _e("TileDataType", "type", "the DataTypes (vocabulary: names, codes, widths, kinds)")
PAD_ENUM = _e("TilePadValue", "type", "the PadValues B.DATR selects (vocabulary)")
CLASS_ENUM = _e("TileInstructionClass", "type", "the tile instruction classes (vocabulary, instruction-tile-class)")
MEMORY_AGENTS = _e("PTO_MODEL_MEMORY_AGENTS", "constant", "how many PEs' GPR files an input GPR is written to")
TILE_ELEMENTS = _e("PTO_MODEL_TILE_ELEMENTS", "constant",
                   "the model's element limit per Tile, which a run may raise (bench/bench_run.py)")
LAYOUT_ENUM = _e("TileLayout", "type", "the Tile layouts an input Tile of `specgen run` may take")
LOCATION_ENUM = _e("TileLocation", "type", "the Tile locations an input Tile of `specgen run` may take")

CAPABILITIES: tuple[ExpectedName, ...] = (
    WRITE_PE_GPR, WRITE_GPR, STORE, LOAD_UNSIGNED, CONFIGURE_CUBE_TILE, CUBE_BYTES, PREDICATE_DEFINED,
    READ_PREDICATE, SET_FAULT, CLEAR_FAULT, READ_TPC, OPERANDS_LEGAL, EXECUTE_CONTRACT, DATATYPE_LEGAL,
    INDEX_TYPE_LEGAL, TYPE_PAIR_LEGAL, TILE_OPERANDS_LEGAL, OPERAND_PRESENT, DATR_FIELD_APPLICABLE, GPR_SLOT,
    GPR_COUNT, ACCUMULATOR_TYPE, PE_MASK_OF_MODE, BINARY_ELEMENT, EMPTY_TILE_INFO, PADDING_WORD, BUNDLE_PAD_VALUE,
    IN_VALID_REGION, FP_BINARY_ELEMENT,
    MEMORY_AGENTS, TILE_ELEMENTS, TILE_LEGALITY_FAULT, DATATYPE_ENUM, PAD_ENUM, CLASS_ENUM, LAYOUT_ENUM, LOCATION_ENUM)


# -- names the generated ASL refers to, by generator ---------------------------------------------------
def _group(purpose: str, kind_names: str) -> tuple[ExpectedName, ...]:
    """``kind:Name kind:Name …`` with one purpose (the generator's)."""
    out = []
    for item in kind_names.split():
        kind, _, name = item.partition(":")
        out.append(ExpectedName(name, {"f": "function", "g": "global", "t": "type", "v": "value", "c": "constant"}[kind],
                          purpose))
    return tuple(out)


SCALAR_ATTEMPT = _group(
    "every scalar validation shard resets the state, sets operands, runs one word and checks the outcome",
    "f:ResetProfileState f:WriteTPC f:ReadTPC f:ClearFault f:ExecuteScalarInstruction v:ScalarExecution_Executed "
    "v:ScalarExecution_Rejected g:_LastFault v:Fault_None c:PTO_XLEN f:WriteGPR f:ReadGPR f:PushTemporaryQueue "
    "f:ReadTemporaryQueue")
AGU_SHARDS = _group(
    "the AGU validation shards check addresses, loads and stores, and faults taken before partial effects",
    "f:Store f:LoadTranslatedUnsigned f:StartMemoryEventCapture g:_MemoryEventCount f:SetCurrentACR f:CurrentACR "
    "f:PTOv0WriteContextRegister f:RecoverTrapContext g:_TrapContexts g:_FaultAddress v:Fault_DataAlignment "
    "v:Fault_DataPage v:Fault_IllegalInstruction")
BRU_SET_COMMIT = _group(
    "the BRU set-commit shards open a conditional Block and check what the command latched",
    "f:BeginBundle f:EnterBundleBody v:BundleKind_Standard v:BundleTransfer_Conditional g:_CommitArgument g:_BARG "
    "g:_BundleConditionSet")
BRU_JUMP = _group(
    "the BRU jump/link shards check the target and the link register",
    "g:_FaultAddress g:_ReturnAddress v:Fault_InstructionPC")
BRU_TARGET = ExpectedName("InstructionContractTarget_{op}", "function",
                    "the target a jump, link or branch computes from its base and immediate (per mnemonic): the "
                    "BRU shards compare the dispatch with it")
BRU_EVEN_TARGET = ExpectedName("InstructionContractRequiresEvenTarget_{op}", "function",
                         "whether a register jump faults on an odd target (per mnemonic)")
BRU_SIGNED_IMMEDIATE = ExpectedName("InstructionContractImmediateIsSigned_{op}", "function",
                              "whether a BRU form's immediate is signed (per mnemonic; read from the ASL when the "
                              "catalog field does not say)")
FSU_SHARDS = _group(
    "the FSU validation shards check results, flags and reserved types",
    "f:NormalizeScalarFPResult f:NormalizeScalarIntegerResult t:NumericStatusFlags f:RecordNumericStatusFlags "
    "g:_SystemRegisters v:Fault_IllegalInstruction")
CANONICAL_SCALAR = _group(
    "the canonical scalar sweep decodes and runs every form's canonical word",
    "f:ScalarHandlerWritesTPC v:Fault_IllegalInstruction")
CANONICAL_SYS = _group(
    "the canonical SYS sweeps run system requests and register transfers in a system Block",
    "f:BeginBundle f:EnterBundleBody v:BundleKind_System v:BundleTransfer_Fallthrough f:CurrentACR f:SetCurrentACR "
    "f:PTOv0WriteContextRegister f:ReadSystemRegisterAddress f:WriteSystemRegisterAddress f:RecoverTrapContext "
    "g:_TrapContexts v:Fault_IllegalInstruction")
CANONICAL_COMMANDS = _group(
    "the canonical command sweep runs every command form's canonical word",
    "f:ResetProfileState f:ClearFault f:ExecuteCommandInstruction v:CommandExecution_Executed g:_LastFault "
    "v:Fault_None")
CANONICAL_DECODERS = _group(
    "the FP helper and decoder sweeps check rounding-mode and flag helpers",
    "f:ResetProfileState f:ResolveScalarFPActiveRoundingMode f:ScalarFPActiveRoundingMode "
    "f:ScalarFPFixedConversionRoundingMode t:ScalarFPFlags f:ScalarFPRecordFlags g:_SystemRegisters "
    "v:NumericRound_RNE v:NumericRound_RTZ v:NumericRound_RTP v:NumericRound_RTM v:NumericRound_RNA")
CANONICAL_SYSREGS = _group(
    "the system-register sweep checks every register's reset value and access",
    "f:ResetProfileState f:ClearFault f:ReadSystemRegisterAddress f:WriteSystemRegisterAddress f:SetCurrentACR "
    "g:_LastFault v:Fault_None v:Fault_IllegalInstruction c:PTO_XLEN")
TILE_DISPATCH = _group(
    "the generated tile dispatch checks an operation's operands and runs its handler",
    "f:SetFault f:ReadTPC g:_LastFault v:Fault_None v:Fault_IllegalInstruction v:Fault_TileLegality "
    "t:TileExecutionStatus v:TileExecution_Executed v:TileExecution_Rejected t:TileInstructionOperands "
    "t:NumericApplicabilityRuleSet v:NumericApplicabilityRules_None f:ResolveTileNumericExecutionControl "
    "f:TileSourceContentsDefined c:PTO_XLEN f:BeginArchitecturalInstructionAttempt")
TILE_TABLES = _group(
    "the generated tile tables name each operation's class, engine and TEPL alias",
    "t:TileInstructionClass t:TileExecutionEngine t:TileTEPLAssemblyAlias v:TileTEPLAlias_TEPL")
COMMAND_DECODER = _group(
    "the generated command decoder classifies each BSTART form's Block kind, operation class and transfer",
    "t:BundleKind t:BundleOperationClass t:BundleTransfer")
SCALAR_DECODER = _group(
    "the generated scalar decoder reads selectors and address-update modes",
    "f:ScalarDecodedSelector f:ScalarDestinationSelectorLegal f:ScalarSourceSelectorLegal t:AddressUpdateMode "
    "v:AddressUpdate_None v:AddressUpdate_PreIndex v:AddressUpdate_PostIndex")
SYSTEM_REGISTERS = _group(
    "the generated system-register table classifies each register's access",
    "t:SystemRegisterAccess v:SystemRegisterAccess_Unknown v:SystemRegisterAccess_ReadOnly "
    "v:SystemRegisterAccess_ReadWrite v:SystemRegisterAccess_WriteOnly")

GENERATED: dict[str, tuple[ExpectedName, ...]] = {
    "scalar attempts": SCALAR_ATTEMPT, "AGU shards": AGU_SHARDS, "BRU set-commit shards": BRU_SET_COMMIT,
    "BRU jump shards": BRU_JUMP + (BRU_TARGET, BRU_EVEN_TARGET), "BRU branch shards": (BRU_TARGET,),
    "FSU shards": FSU_SHARDS, "canonical scalar sweep": CANONICAL_SCALAR, "canonical SYS sweeps": CANONICAL_SYS,
    "canonical command sweep": CANONICAL_COMMANDS, "canonical decoder sweeps": CANONICAL_DECODERS,
    "system-register sweep": CANONICAL_SYSREGS, "tile dispatch": TILE_DISPATCH, "tile tables": TILE_TABLES,
    "command decoder": COMMAND_DECODER, "scalar decoder": SCALAR_DECODER, "system-register table": SYSTEM_REGISTERS,
}
"""The tree names each generator's ASL refers to (besides the names its catalog rows declare)."""


def purpose_of(name: str) -> tuple[str, str] | None:
    """(kind, purpose) of a listed name, per-operation ones matched by their prefix; None when unlisted."""
    for entry in (*PROGRAMS, *SCALAR_PROGRAMS, *CAPABILITIES, *(e for g in GENERATED.values() for e in g)):
        head = entry.name.split("{", 1)[0]
        if entry.name == name or ("{" in entry.name and name.startswith(head) and len(name) > len(head)):
            return entry.kind, entry.purpose
    return None


__all__ = ["CAPABILITIES", "GENERATED", "PROGRAMS", "SCALAR_PROGRAMS", "ExpectedName", "purpose_of"]
