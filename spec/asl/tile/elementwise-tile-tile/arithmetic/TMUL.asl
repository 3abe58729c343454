// PTO-INSTRUCTION: {"assembly":["TMUL <bundle operands>"],"block":["BSTART.VEC TMUL, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"catalog_indices":[2],"catalog_records":[{"arguments":[{"constant":"TileBinary_MUL"},{"operand":"destination0"},{"operand":"source0"},{"operand":"source1"}],"command_mnemonic":"BSTART.TEPL","contract_status":"reviewed-complete","datr_contract":{"allowed_nonzero_fields":["PadValueOrByteId"],"pad_union":"pad-value"},"disposition":"accepted-direct-operation","effect_contract":"ExecuteTileBinary","family":"TEPL","fault_contract":"ExecuteTileInstruction","function":2,"legality_handler":"TileOperandsLegal_ExecuteTileBinary","mode":0,"name":"TMUL","operands":[{"field":"destination0","role":"destination"},{"field":"source0","role":"source-left"},{"field":"source1","role":"source-right"}],"restart_contract":"CompleteBundleAtWithAcceptedApplicabilityRules","selector":"0x002","semantic_handler":"ExecuteTileBinary","state_effects":["operand:destination0:destination","operand:source0:source-left","operand:source1:source-right"]}],"classification":["elementwise-tile-tile","arithmetic"],"contract":{"block_composition":["BSTART.VEC TMUL, DataType","B.DATR PadValue (optional)","B.DIM LB0=ValidCol","B.DIM LB1=ValidRow (optional)","B.DIM LB2=Col (optional)","B.IOT SrcLeft, SrcRight, mask=PE_MASK, <last>, ->DstTile<TSize>","BSTOP"],"canonical_assembly":["TMUL <bundle operands>"],"defaults":["LB0 supplies ValidCol and is required; an absent LB1 makes ValidRow one and an absent LB2 makes the physical Col equal to ValidCol.","Without B.DATR the PadValue is Null; B.DATR PadValue codes 0, 1, 2 and 3 select Zero, Max, Min and Null.","The destination physical Rows are derived as TSize bytes times eight divided by Col times the element width."],"encoding_class":"selector-encoded-block-operation","examples":["BSTART.VEC TMUL, FP16; B.DIM LB0=4; B.DIM LB1=2; B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP","BSTART.TEPL 0, 2, FP16; B.DATR PadValue=Zero; B.DIM LB0=4; B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP"],"exceptions":["A missing or zero LB0, a zero LB1 or LB2, a binding count other than one, a missing <last>, an inapplicable B.DATR field, an unsupported DataType, undefined or mismatched sources, a non-row-major source, or a destination shape that does not fit TSize raises Fault_TileLegality with no effect.","A destination hand with no free register or a Local capacity overflow raises Fault_TileAllocation with no effect."],"field_contracts":{},"field_zero_meanings":{},"legality":["TMUL is carried by BSTART.TEPL, spelled BSTART.VEC, with Mode 0 and Function 2; it has no standalone opcode.","The block holds exactly one B.IOT, which names two ordered Local sources, a destination hand with its SizeCode, and the <last> terminator.","DataType is one of FP64, FP32, TF32, HF32, FP16, BF16, E4M3, E5M2, S64, S32, S16, S8, U64, U32, U16, or U8.","Both sources are fully defined and row-major, and they agree with each other and with the new destination in physical shape, valid shape, DataType and PE_MASK.","A present B.DATR may set only PadValue; its DataType field is DTYPE_NONE or repeats the BSTART DataType and every other field is zero."],"memory_effects":["none"],"operands":[{"field":"destination0","role":"newly allocated Local destination"},{"field":"source0","role":"left factor"},{"field":"source1","role":"right factor"}],"ordering":["Both sources are read completely before the first destination element is written, so a source that is also the destination contributes its old values."],"standalone_opcode":false,"state_effects":["Each valid destination element is the product of the corresponding source elements: integers keep the low element-width bits of the exact product, floating types take the numeric profile's result.","Elements outside the valid region receive the selected PadValue; Zero, Max and Min padding is defined and Null padding is undefined.","The destination descriptor, its valid region and its padding become visible together; a rejected block changes nothing."]},"depends_on":["PTO-TILE-MODEL-EXECUTION-ELEMENTWISE","PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"engine":"VEC","id":"PTO-TILE-TMUL","mnemonic":"TMUL","summary":"Multiply corresponding elements of two Local Tiles into a new Local Tile.","surface":"tile"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-TMUL-CONTRACT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// TMUL MUST be selected by TEPL Mode 0 Function 2 and MUST write the
// product of each pair of valid source elements. An integer product keeps
// its low element-width bits; a floating product is the value of the
// selected numeric profile. Legality, snapshot and padding MUST be those of
// [[PTO-TADD-CONTRACT-001]].
// NDF-END: PTO-TMUL-CONTRACT-001
// DOC-BEGIN: decode
// TMUL owns no opcode: BSTART.TEPL Mode 0 Function 2 selects it.
pure func InstructionContractOperation_TMUL() => TileOperation
begin
    return TileOperation_TMUL;
end;

pure func InstructionContractSelector_TMUL() => integer
begin
    return TEPLSelector(0, 2);
end;
// DOC-END: decode
// DOC-BEGIN: operation
pure func InstructionContractDataTypeLegal_TMUL(data_type: TileDataType)
    => boolean
begin
    return TileBinaryDataTypeSupported(TileBinary_MUL, data_type);
end;

// Complete operand preflight; the Block commit raises Fault_TileLegality
// when this is FALSE and then writes nothing.
readonly func InstructionContractOperandsLegal_TMUL(destination: TileIndex,
    source_left: TileIndex, source_right: TileIndex) => boolean
begin
    return TileOperandsLegal_ExecuteTileBinary(TileBinary_MUL, destination,
        source_left, source_right);
end;

pure func InstructionContractHandler_TMUL() => TileSemanticHandler
begin
    return TileHandler_ExecuteTileBinary;
end;

func InstructionContractExecute_TMUL(destination: TileIndex,
    source_left: TileIndex, source_right: TileIndex)
begin
    ExecuteTileBinary(TileBinary_MUL, destination, source_left,
        source_right);
end;
// DOC-END: operation
