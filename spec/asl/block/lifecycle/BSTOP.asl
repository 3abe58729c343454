// PTO-INSTRUCTION: {"assembly":["BSTOP"],"block":[],"catalog_indices":[6],"catalog_records":[{"asm":"BSTOP","constraints":[],"encoding":[{"index":0,"mask":"0xffffffff","match":"0x00000001","width_bits":32}],"encoding_kind":"L32","fields":[],"form_id":"bstop_32_d25b09fdd59c","length_bits":32,"mnemonic":"BSTOP","semantic_family":"CMD","semantic_group":"Bundle Split","semantic_handler":"ExecuteBundleStop","semantic_summary":"Completes the open Block: runs its operation and publishes its results, or faults with no effect.","status":"accepted"}],"classification":["lifecycle"],"contract":{"block_composition":["none"],"canonical_assembly":["BSTOP"],"defaults":["BSTOP has no operand field."],"encoding_class":"standalone-encoded","examples":["BSTOP"],"exceptions":["BSTOP without an open Block raises Fault_BundleControl.","A schema, attribute, DataType, shape, allocation or operand check that fails raises its fault with no effect and leaves the Block open."],"field_contracts":{},"field_zero_meanings":{},"legality":["The only encoding is the 32-bit word 0x00000001."],"memory_effects":["none; the operations of this specification touch only Tile registers."],"operands":[],"ordering":["Every completion check precedes the first Tile write; the destination becomes visible in one step, after which the Block state is cleared."],"standalone_opcode":true,"state_effects":["Allocates the destination register, writes its valid region and padding, and clears the Block state.","An all-zero PE mask completes the Block with no Tile effect."]},"depends_on":["PTO-BLOCK-MODEL-COMMIT-BUNDLE-COMMIT"],"id":"PTO-BLOCK-BSTOP","mnemonic":"BSTOP","summary":"Completes the open Block: runs its operation and publishes its results.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-BSTOP-COMMIT-001
// ndf: kind=contract level=L1 layer=block status=accepted
// BSTOP MUST complete the open Block by [[PTO-BLOCK-COMMIT-PREFLIGHT-001]].
// On success it MUST clear [[PTO-STATE-BLOCK-BUNDLE]]; on a fault it MUST
// leave that state and every Tile register unchanged.
// NDF-END: PTO-BSTOP-COMMIT-001
// DOC-BEGIN: decode
pure func InstructionContractMatches_BSTOP(word: bits(64)) => boolean
begin
    return word == BStopWord();
end;
// DOC-END: decode
// DOC-BEGIN: operation
// The command-form handler ExecuteBundleStop. When it executes, the
// destination register is BlockLastDestination() (unless every PE mask was
// zero).
func ExecuteBundleStop(instruction: bits(64), form: integer)
    => CommandExecutionStatus
begin
    if !_BundleActive then
        return RejectCommand(Fault_BundleControl);
    end;
    return CompleteBundleAtWithAcceptedApplicabilityRules();
end;
// DOC-END: operation
