// PTO-INSTRUCTION: {"assembly":["BSTART.TEPL Mode, Function, DataType"],"block":[],"catalog_indices":[5],"catalog_records":[{"accepted_assembly_mnemonics":["BSTART.TEPL","BSTART.VEC","BSTART.SFU"],"asm":"BSTART.TEPL Mode, Function, DataType","canonical_assembly_by_engine":{"SFU":"BSTART.SFU","VEC":"BSTART.VEC"},"carrier_mnemonic":"BSTART.TEPL","constraints":[{"field":"DataType","operator":"one-of","values":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,24,25,26,27,28]}],"encoding":[{"index":0,"mask":"0x000fffff","match":"0x00019181","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"DataType","pieces":[{"instruction_lsb":27,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"Mode","pieces":[{"instruction_lsb":25,"value_lsb":0,"width":2}],"signedness":"encoding-defined","width":2},{"name":"Function","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5}],"form_id":"bstart_tepl_32_d022db6dacb3","length_bits":32,"mnemonic":"BSTART.TEPL","semantic_family":"CMD","semantic_group":"Bundle Split","semantic_handler":"ExecuteBundleStart","semantic_summary":"Retires any open Block, then opens a Tile-element Block whose operation is the Mode:Function selector and whose element type is DataType.","status":"accepted"}],"classification":["execution"],"contract":{"block_composition":["BSTART.TEPL starts every Tile-element Block of the sample; the header commands B.DATR and B.DIM and the binding B.IOT follow it, and BSTOP completes it.","Canonical assembly spells the carrier BSTART.VEC or BSTART.SFU after the engine of the selected operation; BSTART.TEPL remains accepted input."],"canonical_assembly":["BSTART.TEPL Mode, Function, DataType"],"defaults":["Every field is encoded; no field takes a default."],"encoding_class":"standalone-encoded","examples":["BSTART.TEPL 0, 2, FP16","BSTART.TEPL 0, 11, S32"],"exceptions":["A reserved DataType code or a selector that names no operation of this specification raises Fault_IllegalInstruction before any effect; an engine spelling that does not match the operation has no word.","When an open Block is retired first, a fault of that completion is reported instead and no new Block opens."],"field_contracts":{"DataType":{"ref":"PTO-FIELD-BLOCK-DATATYPE"}},"field_zero_meanings":{"DataType":"Code zero selects FP64.","Function":"Function zero with Mode zero selects TADD.","Mode":"Mode zero is the elementwise tile-tile selector page."},"legality":["The selector is Mode times 32 plus Function; Mode occupies selector bits 6:5 and Function bits 4:0.","DataType is one of the 25 assigned TileDataType codes; 15, 21 to 23 and 29 to 31 are reserved.","Only the selectors assigned to TADD, TSUB, TMUL, TAND, TOR, TXOR, TMAX and TMIN are accepted by this specification."],"memory_effects":["none"],"operands":[{"field":"DataType","role":"Tile element type of the Block"},{"field":"Mode","role":"selector page"},{"field":"Function","role":"operation within the selector page"}],"ordering":["Field, selector and engine checks precede retirement of an open Block; retirement precedes the new Block state."],"standalone_opcode":true,"state_effects":["Opens the Block state with the operation and DataType and no dimension, attribute or binding.","The operation runs only when the Block completes at BSTOP or at the next BSTART."]},"depends_on":["PTO-BLOCK-MODEL-COMMIT-BUNDLE-COMMIT","PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"id":"PTO-BLOCK-BSTART-TEPL","mnemonic":"BSTART.TEPL","summary":"Opens a Tile-element Block whose operation is chosen by a Mode:Function selector and whose element type is DataType.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-BSTART-TEPL-CARRIER-001
// ndf: kind=contract level=L1 layer=block status=accepted
// BSTART.TEPL MUST match the 32-bit pattern 0x00019181 under mask 0x000fffff,
// MUST take DataType from bits 31:27, Mode from 26:25 and Function from 24:20,
// and MUST open [[PTO-STATE-BLOCK-BUNDLE]] only after every field and
// selector check has passed.
// NDF-END: PTO-BSTART-TEPL-CARRIER-001
// DOC-BEGIN: decode
// The tile operation a Block start word selects: the index of the record
// whose Mode:Function code it carries in the tile-operations catalog, or
// PTO_TILE_OPERATION_COUNT when no record has that code.
pure func BundleStartOperationIndex(instruction: bits(64), form: integer)
    => integer
begin
    return DecodeTileOperation(TileDecode_TEPL,
        CommandTileCodeOfForm(instruction, form));
end;
// DOC-END: decode
// DOC-BEGIN: operation
// The command-form handler ExecuteBundleStart: retire an open Block, then
// open the Block of the selected operation and DataType.
func ExecuteBundleStart(instruction: bits(64), form: integer)
    => CommandExecutionStatus
begin
    let index = BundleStartOperationIndex(instruction, form);
    let data_type = UInt(CommandTileDataTypeOfForm(instruction, form));
    if index == PTO_TILE_OPERATION_COUNT ||
       !TileDataTypeCodeAssigned(data_type) then
        return RejectCommand(Fault_IllegalInstruction);
    end;
    if _BundleActive then
        if CompleteBundleAtWithAcceptedApplicabilityRules() ==
           CommandExecution_Rejected then
            return CommandExecution_Rejected;
        end;
    end;
    ClearBundleState();
    _BundleActive = TRUE;
    _BundleTileCode = CommandTileCodeOfForm(instruction, form);
    _BundleOperationIndex = index;
    _BundleOperation = TileOperationOfIndex(index);
    _BundleDataTypeCode = data_type;
    return CommandExecution_Executed;
end;
// DOC-END: operation
