// PTO-INSTRUCTION: {"assembly":["TAND <bundle operands>"],"block":["BSTART.VEC TAND, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"catalog_indices":[3],"catalog_records":[{"arguments":[{"constant":"TileBinary_AND"},{"operand":"destination0"},{"operand":"source0"},{"operand":"source1"}],"command_mnemonic":"BSTART.TEPL","contract_status":"reviewed-complete","datr_contract":{"allowed_nonzero_fields":["PadValueOrByteId"],"pad_union":"pad-value"},"disposition":"accepted-direct-operation","effect_contract":"ExecuteTileBinary","family":"TEPL","fault_contract":"ExecuteTileInstruction","function":6,"legality_handler":"TileOperandsLegal_ExecuteTileBinary","mode":0,"name":"TAND","operands":[{"field":"destination0","role":"destination"},{"field":"source0","role":"source-left"},{"field":"source1","role":"source-right"}],"restart_contract":"CompleteBundleAtWithAcceptedApplicabilityRules","selector":"0x006","semantic_handler":"ExecuteTileBinary","state_effects":["operand:destination0:destination","operand:source0:source-left","operand:source1:source-right"]}],"classification":["elementwise-tile-tile","logical"],"contract":{"block_composition":["BSTART.VEC TAND, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"canonical_assembly":["TAND <bundle operands>"],"defaults":["LB0 supplies ValidCol and is required; an absent LB1 makes ValidRow one and an absent LB2 makes the physical Col equal to ValidCol.","Without B.DATR the PadValue is Null; B.DATR PadValue codes 0, 1, 2 and 3 select Zero, Max, Min and Null.","The destination physical Rows are derived as TSize bytes times eight divided by Col times the element width."],"encoding_class":"selector-encoded-block-operation","examples":["BSTART.VEC TAND, U8; B.DIM LB0=16; B.IOT T1, T2, mask=0b0001, <last>, ->U<1>; BSTOP"],"exceptions":["A missing or zero LB0, a zero LB1 or LB2, a binding count other than one, a missing <last>, an inapplicable B.DATR field, an unsupported DataType, undefined or mismatched sources, a non-row-major source, or a destination shape that does not fit TSize raises Fault_TileLegality with no effect.","A destination hand with no free register or a Local capacity overflow raises Fault_TileAllocation with no effect."],"field_contracts":{},"field_zero_meanings":{},"legality":["TAND is carried by BSTART.TEPL, spelled BSTART.VEC, with Mode 0 and Function 6; it has no standalone opcode.","The block holds exactly one B.IOT, which names two ordered Local sources, a destination hand with its SizeCode, and the <last> terminator.","DataType is one of S64, S32, S16, S8, U64, U32, U16, or U8.","Both sources are fully defined and row-major, and they agree with each other and with the new destination in physical shape, valid shape, DataType and PE_MASK.","A present B.DATR may set only PadValue; its DataType field is DTYPE_NONE or repeats the BSTART DataType and every other field is zero."],"memory_effects":["none"],"operands":[{"field":"destination0","role":"newly allocated Local destination"},{"field":"source0","role":"left bit pattern"},{"field":"source1","role":"right bit pattern"}],"ordering":["Both sources are read completely before the first destination element is written, so a source that is also the destination contributes its old values."],"standalone_opcode":false,"state_effects":["Each valid destination element is the bitwise AND of the element-width bits of the sources, stored zero-extended whatever the signedness.","Elements outside the valid region receive the selected PadValue; Zero, Max and Min padding is defined and Null padding is undefined.","The destination descriptor, its valid region and its padding become visible together; a rejected block changes nothing."]},"depends_on":["PTO-TILE-MODEL-EXECUTION-ELEMENTWISE","PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"engine":"VEC","id":"PTO-TILE-TAND","mnemonic":"TAND","summary":"Bitwise AND of corresponding elements of two Local Tiles into a new Local Tile.","surface":"tile"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-TAND-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TAND MUST be selected by TEPL Mode 0 Function 6, MUST admit only the
// eight integer DataTypes, and MUST write the bitwise AND of the
// element-width bits of each pair of valid source elements, zero-extended.
// Snapshot and padding MUST be those of [[PTO-TADD-CONTRACT-001]].
// NDF-END: PTO-TAND-CONTRACT-001
// DOC-BEGIN: decode
// TAND owns no opcode: BSTART.TEPL Mode 0 Function 6 selects it.
pure func InstructionContractOperation_TAND() => TileOperation
begin
    return TileOperation_TAND;
end;

pure func InstructionContractSelector_TAND() => integer
begin
    return TEPLSelector(0, 6);
end;
// DOC-END: decode
// DOC-BEGIN: operation
pure func InstructionContractDataTypeLegal_TAND(data_type: TileDataType)
    => boolean
begin
    return TileBinaryDataTypeSupported(TileBinary_AND, data_type);
end;

// Complete operand preflight; the Block commit raises Fault_TileLegality
// when this is FALSE and then writes nothing.
readonly func InstructionContractOperandsLegal_TAND(destination: TileIndex,
    source_left: TileIndex, source_right: TileIndex) => boolean
begin
    return TileOperandsLegal_ExecuteTileBinary(TileBinary_AND, destination,
        source_left, source_right);
end;

pure func InstructionContractHandler_TAND() => TileSemanticHandler
begin
    return TileHandler_ExecuteTileBinary;
end;

func InstructionContractExecute_TAND(destination: TileIndex,
    source_left: TileIndex, source_right: TileIndex)
begin
    ExecuteTileBinary(TileBinary_AND, destination, source_left,
        source_right);
end;
// DOC-END: operation
