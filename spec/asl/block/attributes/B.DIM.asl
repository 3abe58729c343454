// PTO-INSTRUCTION: {"assembly":["B.DIM RegSrc, uimm17, ->LB0","B.DIM RegSrc, uimm17, ->LB1","B.DIM RegSrc, uimm17, ->LB2"],"block":[],"catalog_indices":[1,2,3],"catalog_records":[{"asm":"B.DIM RegSrc, uimm, ->LB0","constraints":[{"field":"RegSrc","operator":"one-of","values":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}],"encoding":[{"index":0,"mask":"0x0000707f","match":"0x00000043","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"RegSrc","pieces":[{"instruction_lsb":15,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"uimm17","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":12},{"instruction_lsb":7,"value_lsb":12,"width":5}],"signedness":"unsigned","width":17}],"form_id":"b_dim_32_27602ab68929","length_bits":32,"mnemonic":"B.DIM","semantic_family":"CMD","semantic_group":"Bundle Argument","semantic_handler":"SetBundleDimension","semantic_summary":"Sets loop bound LB0 of the open Block to the low sixteen bits of GPR[RegSrc] plus uimm17; each LB is written at most once.","status":"accepted"},{"asm":"B.DIM RegSrc, uimm, ->LB1","constraints":[{"field":"RegSrc","operator":"one-of","values":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}],"encoding":[{"index":0,"mask":"0x0000707f","match":"0x00001043","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"RegSrc","pieces":[{"instruction_lsb":15,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"uimm17","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":12},{"instruction_lsb":7,"value_lsb":12,"width":5}],"signedness":"unsigned","width":17}],"form_id":"b_dim_32_4191099a5f4d","length_bits":32,"mnemonic":"B.DIM","semantic_family":"CMD","semantic_group":"Bundle Argument","semantic_handler":"SetBundleDimension","semantic_summary":"Sets loop bound LB1 of the open Block to the low sixteen bits of GPR[RegSrc] plus uimm17; each LB is written at most once.","status":"accepted"},{"asm":"B.DIM RegSrc, uimm, ->LB2","constraints":[{"field":"RegSrc","operator":"one-of","values":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]}],"encoding":[{"index":0,"mask":"0x0000707f","match":"0x00002043","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"RegSrc","pieces":[{"instruction_lsb":15,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"uimm17","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":12},{"instruction_lsb":7,"value_lsb":12,"width":5}],"signedness":"unsigned","width":17}],"form_id":"b_dim_32_1caa1aa2944a","length_bits":32,"mnemonic":"B.DIM","semantic_family":"CMD","semantic_group":"Bundle Argument","semantic_handler":"SetBundleDimension","semantic_summary":"Sets loop bound LB2 of the open Block to the low sixteen bits of GPR[RegSrc] plus uimm17; each LB is written at most once.","status":"accepted"}],"classification":["attributes"],"contract":{"block_composition":["Header command of an open Block; each of LB0, LB1 and LB2 may be written once."],"canonical_assembly":["B.DIM RegSrc, uimm17, ->LB0","B.DIM RegSrc, uimm17, ->LB1","B.DIM RegSrc, uimm17, ->LB2"],"defaults":["The form selects the loop bound; RegSrc and uimm17 are always encoded and zero is an ordinary value."],"encoding_class":"standalone-encoded","examples":["B.DIM zero, 16, ->LB0","B.DIM zero, 2, ->LB1"],"exceptions":["RegSrc codes 24 to 31 raise Fault_IllegalInstruction before any effect.","B.DIM without an open Block, or a second write of the same loop bound, raises Fault_BundleControl and keeps the first value."],"field_contracts":{},"field_zero_meanings":{"RegSrc":"Code zero names the zero register.","uimm17":"Zero adds nothing to the register value."},"legality":["RegSrc is an absolute GPR code 0 to 23 in every B.DIM form.","The written value is the low sixteen bits of GPR[RegSrc] plus uimm17."],"memory_effects":["none"],"operands":[{"field":"RegSrc","role":"absolute GPR 0 to 23 added to the immediate"},{"field":"uimm17","role":"unsigned immediate added before truncation to sixteen bits"}],"ordering":["none"],"standalone_opcode":true,"state_effects":["Writes the selected loop bound of the open Block and marks it present.","The completed operation gives each loop bound its meaning; for the elementwise family LB0 is ValidCol, LB1 ValidRow and LB2 the physical Col."]},"depends_on":["PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"id":"PTO-BLOCK-B-DIM","mnemonic":"B.DIM","summary":"Sets one loop bound LB0, LB1 or LB2 of the open Block.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-B-DIM-ONCE-001
// ndf: kind=contract level=L1 layer=block status=accepted
// B.DIM MUST write the low sixteen bits of GPR[RegSrc] plus uimm17 to the
// selected loop bound of the open Block, and a second write of the same loop
// bound in one Block MUST raise Fault_BundleControl without changing it.
// NDF-END: PTO-B-DIM-ONCE-001
// DOC-BEGIN: decode
// The loop bound a B.DIM word writes: its form's bits 13:12.
pure func BundleDimensionOfCommand(instruction: bits(64)) => integer
begin
    return UInt(instruction[13:12]);
end;

// The sample models no general-purpose register file: every GPR reads as
// zero, so B.DIM writes uimm17 modulo 2^16.
pure func ReadScalarRegister(register: integer) => integer
begin
    return 0;
end;
// DOC-END: decode
// DOC-BEGIN: operation
// The command-form handler SetBundleDimension.
func SetBundleDimension(instruction: bits(64), form: integer)
    => CommandExecutionStatus
begin
    let lb = BundleDimensionOfCommand(instruction);
    if !_BundleActive || _BundleDimensionPresent[[lb]] then
        return RejectCommand(Fault_BundleControl);
    end;
    let value = ReadScalarRegister(UInt(DecodeCommandOperandRaw(instruction,
        form, CommandField_RegSrc))) + UInt(DecodeCommandOperandRaw(
        instruction, form, CommandField_uimm17));
    _BundleDimensions[[lb]] = value MOD 0x10000;
    _BundleDimensionPresent[[lb]] = TRUE;
    return CommandExecution_Executed;
end;
// DOC-END: operation
