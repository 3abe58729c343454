// PTO-INSTRUCTION: {"assembly":["B.IOT SrcTile0, SrcTile1, mask=PE_MASK, <last>, ->DstTile<SizeCode>"],"block":[],"catalog_indices":[4],"catalog_records":[{"asm":"B.IOT SrcTile0, SrcTile1, mask=PE_MASK, <last>, ->DstTile<SizeCode>","constraints":[{"field":"SizeCode","operator":"one-of","values":[1,2,3,4,5,6,7,8,9,10]},{"field":"PEMode","operator":"one-of","values":[0,1,2,3,4,5,6,7]},{"field":"DstTile","operator":"one-of","values":[0,1,2,3]}],"encoding":[{"index":0,"mask":"0x0000707f","match":"0x00004013","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"SrcTile1","pieces":[{"instruction_lsb":26,"value_lsb":0,"width":6}],"signedness":"encoding-defined","width":6},{"name":"SrcTile0","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":6}],"signedness":"encoding-defined","width":6},{"name":"L","pieces":[{"instruction_lsb":19,"value_lsb":0,"width":1}],"signedness":"encoding-defined","width":1},{"name":"SizeCode","pieces":[{"instruction_lsb":15,"value_lsb":0,"width":4}],"signedness":"encoding-defined","width":4},{"name":"PEMode","pieces":[{"instruction_lsb":9,"value_lsb":0,"width":3}],"signedness":"encoding-defined","width":3},{"name":"DstTile","pieces":[{"instruction_lsb":7,"value_lsb":0,"width":2}],"signedness":"encoding-defined","width":2}],"form_id":"b_iot_32_8b8bce6bffe8","length_bits":32,"mnemonic":"B.IOT","semantic_family":"CMD","semantic_group":"Bundle Input & Output","semantic_handler":"BindBundleTileIO","semantic_summary":"Binds two ordered Local source Tiles and a destination hand with its size to the open Block under one PE participation mask; L ends the binding sequence.","status":"accepted"}],"classification":["operands"],"contract":{"block_composition":["Binding command of an open Block after its header commands; the binding that carries <last> ends the sequence."],"canonical_assembly":["B.IOT SrcTile0, SrcTile1, mask=PE_MASK, <last>, ->DstTile<SizeCode>"],"defaults":["Every field is encoded; L zero leaves the binding sequence open."],"encoding_class":"standalone-encoded","examples":["B.IOT T1, T2, mask=0b0001, <last>, ->T<1>","B.IOT U0, U3, mask=0b1111, <last>, ->M<2>"],"exceptions":["A SizeCode outside 1 to 10 raises Fault_IllegalInstruction before any effect.","B.IOT without an open Block or after a binding that carried <last> raises Fault_BundleControl.","A fifth binding in one Block raises Fault_TileLegality."],"field_contracts":{},"field_zero_meanings":{"DstTile":"Hand T.","L":"The binding sequence stays open.","PEMode":"No PE participates and the Block completes as a no-op.","SizeCode":"Not a destination size; reserved in this form.","SrcTile0":"Register T0.","SrcTile1":"Register T0."},"legality":["SrcTile0 and SrcTile1 are absolute Tile register numbers 0 to 63.","PEMode selects one of the masks 0000, 1000, 0100, 0010, 0001, 1100, 1110 and 1111.","DstTile names the hand T, U, M or N; SizeCode 1 to 10 gives 128 times 2 to the power SizeCode minus 1 bytes per PE."],"memory_effects":["none"],"operands":[{"field":"SrcTile0","role":"left Local source"},{"field":"SrcTile1","role":"right Local source"},{"field":"L","role":"binding sequence terminator"},{"field":"SizeCode","role":"destination capacity per PE"},{"field":"PEMode","role":"participation mask selector"},{"field":"DstTile","role":"destination hand"}],"ordering":["none"],"standalone_opcode":true,"state_effects":["Appends one binding to the open Block; the destination register is chosen and written only when the Block completes."]},"depends_on":["PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING"],"id":"PTO-BLOCK-B-IOT","mnemonic":"B.IOT","summary":"Binds two Local source Tiles and a destination hand with its size to the open Block.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-B-IOT-BINDING-001
// ndf: kind=contract level=L1 layer=block status=accepted
// B.IOT MUST append one binding to the open Block and MUST NOT change any
// Tile register. The destination MUST be the lowest unallocated register of
// the named hand at completion. A binding sequence MUST end exactly once,
// with L, and an all-zero PE mask MUST make the Block a no-op.
// NDF-END: PTO-B-IOT-BINDING-001
// DOC-BEGIN: decode
// The binding a B.IOT word describes: sources are absolute TileIndex values,
// the PE mask comes from PEMode, DstTile is the hand (0 T, 1 U, 2 M, 3 N).
pure func BundleTileBindingOfCommand(instruction: bits(64), form: integer)
    => BundleTileBinding
begin
    return BundleTileBinding {
        source_left = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_SrcTile0)) as TileIndex,
        source_right = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_SrcTile1)) as TileIndex,
        pe_mask = PEMaskOfPEMode(UInt(DecodeCommandOperandRaw(instruction,
            form, CommandField_PEMode))),
        last = DecodeCommandOperandRaw(instruction, form, CommandField_L)[0]
            == '1',
        destination_hand = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_DstTile)),
        size_code = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_SizeCode))
    };
end;
// DOC-END: decode
// DOC-BEGIN: operation
// The command-form handler BindBundleTileIO.
func BindBundleTileIO(instruction: bits(64), form: integer)
    => CommandExecutionStatus
begin
    if !_BundleActive then
        return RejectCommand(Fault_BundleControl);
    end;
    for binding = 0 to _BundleTileBindingCount - 1 do
        if _BundleTileBindings[[binding]].last then
            return RejectCommand(Fault_BundleControl);
        end;
    end;
    if _BundleTileBindingCount >= PTO_BUNDLE_TILE_BINDING_COUNT then
        return RejectCommand(Fault_TileLegality);
    end;
    _BundleTileBindings[[_BundleTileBindingCount]] =
        BundleTileBindingOfCommand(instruction, form);
    _BundleTileBindingCount = _BundleTileBindingCount + 1;
    return CommandExecution_Executed;
end;
// DOC-END: operation
