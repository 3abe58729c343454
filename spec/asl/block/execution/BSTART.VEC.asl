// PTO-INSTRUCTION: {"alias_engine":"VEC","alias_of":"BSTART.TEPL","assembly":["BSTART.VEC TileOp, DataType"],"block":[],"catalog_indices":[],"catalog_records":[],"classification":["execution"],"contract":{"block_composition":["TileOp names a VEC operation; its Mode:Function selector and DataType are encoded exactly as BSTART.TEPL.","The Block it opens follows the header, binding and completion rules of BSTART.TEPL."],"canonical_assembly":["BSTART.VEC TileOp, DataType"],"defaults":["The alias adds no field and no default to BSTART.TEPL."],"encoding_class":"encoding-alias","examples":["BSTART.VEC TADD, FP32","BSTART.VEC TMUL, FP16"],"exceptions":["An unknown TileOp or an operation that does not run on VEC has no BSTART.VEC word; a reserved DataType raises Fault_IllegalInstruction before any effect."],"field_contracts":{"DataType":{"ref":"PTO-FIELD-BLOCK-DATATYPE"}},"field_zero_meanings":{},"legality":["TileOp is one of TADD, TSUB, TMUL, TAND, TOR, TXOR, TMAX and TMIN, all of which run on VEC.","The encoded word is the BSTART.TEPL word of the operation's Mode, Function and the DataType."],"memory_effects":["none"],"operands":[{"field":"TileOp","role":"VEC operation mnemonic resolved to its Mode:Function selector"},{"field":"DataType","role":"Tile element type of the Block"}],"ordering":["Alias resolution precedes every BSTART.TEPL check."],"standalone_opcode":false,"state_effects":["Exactly the Block state of BSTART.TEPL with the resolved selector; the alias has no state of its own."]},"depends_on":["PTO-BLOCK-BSTART-TEPL"],"id":"PTO-BLOCK-BSTART-VEC","mnemonic":"BSTART.VEC","summary":"Canonical spelling of BSTART.TEPL for an operation that runs on the VEC engine.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-BSTART-VEC-ALIAS-001
// ndf: kind=contract level=L1 layer=block status=accepted
// BSTART.VEC MUST denote the BSTART.TEPL word of the named VEC operation and
// MUST NOT denote a word for an operation whose engine is not VEC.
// NDF-END: PTO-BSTART-VEC-ALIAS-001
// DOC-BEGIN: decode
pure func InstructionContractAliasEngine_BSTART_VEC()
    => TileExecutionEngine
begin
    return TileEngine_VEC;
end;
// DOC-END: decode
// DOC-BEGIN: operation
// BSTART.VEC TileOp, DataType assembles to the BSTART.TEPL word of TileOp's
// selector, and only for an operation that runs on VEC.
pure func InstructionContractAliasAccepts_BSTART_VEC(operation: TileOperation)
    => boolean
begin
    return TileOperationEngine(operation) ==
        InstructionContractAliasEngine_BSTART_VEC();
end;
// DOC-END: operation
