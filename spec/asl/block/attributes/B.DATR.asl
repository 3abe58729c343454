// PTO-INSTRUCTION: {"assembly":["B.DATR {layout, datatype, padvalue_or_byteid, cmode, rmode, sat, canonicalize}"],"block":[],"catalog_indices":[0],"catalog_records":[{"asm":"B.DATR {layout, datatype, padvalue_or_byteid, cmode, rmode, sat, canonicalize}","constraints":[{"field":"CMode","operator":"one-of","values":[0,1,2,3,4,5]},{"field":"DataType","operator":"one-of","values":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,24,25,26,27,28,31]},{"field":"Layout","operator":"one-of","values":[0,1,3,4,6,8,9,17,18,20,21,22,23,24,25,26,27,28,30]}],"encoding":[{"index":0,"mask":"0x000c707f","match":"0x00001023","width_bits":32}],"encoding_kind":"L32","fields":[{"name":"CMode","pieces":[{"instruction_lsb":29,"value_lsb":0,"width":3}],"signedness":"encoding-defined","width":3},{"name":"PadValueOrByteId","pieces":[{"instruction_lsb":27,"value_lsb":0,"width":2}],"signedness":"encoding-defined","width":2},{"name":"Sat","pieces":[{"instruction_lsb":26,"value_lsb":0,"width":1}],"signedness":"encoding-defined","width":1},{"name":"Canonicalize","pieces":[{"instruction_lsb":25,"value_lsb":0,"width":1}],"signedness":"encoding-defined","width":1},{"name":"DataType","pieces":[{"instruction_lsb":20,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5},{"name":"RMode","pieces":[{"instruction_lsb":15,"value_lsb":0,"width":3}],"signedness":"encoding-defined","width":3},{"name":"Layout","pieces":[{"instruction_lsb":7,"value_lsb":0,"width":5}],"signedness":"encoding-defined","width":5}],"form_id":"b_datr_32_c161a042ff38","length_bits":32,"mnemonic":"B.DATR","semantic_family":"CMD","semantic_group":"Bundle Data Attribute","semantic_handler":"SetBundleDataAttributes","semantic_summary":"Records the optional data attributes of the open Block: layout, data type, padding or byte id, comparison, rounding, saturation and canonicalization.","status":"accepted"}],"classification":["attributes"],"contract":{"block_composition":["Optional header command of an open Block, at most once and before the first B.IOT."],"canonical_assembly":["B.DATR {layout, datatype, padvalue_or_byteid, cmode, rmode, sat, canonicalize}"],"defaults":["Without B.DATR a padding operation uses Null padding and the Block keeps the BSTART DataType.","With B.DATR every field is encoded: DataType 31 (DTYPE_NONE) keeps the BSTART DataType, and PadValue zero is Zero padding."],"encoding_class":"standalone-encoded","examples":["B.DATR {NORM, DTYPE_NONE, Max, EQ, Default, 0, 0}","B.DATR PadValue=Min"],"exceptions":["A reserved DataType or CMode code or an unassigned Layout code raises Fault_IllegalInstruction before any effect.","B.DATR without an open Block, a second B.DATR, or a B.DATR after a B.IOT raises Fault_BundleControl.","A field that the completed operation does not accept raises Fault_TileLegality at completion."],"field_contracts":{"CMode":{"ref":"PTO-FIELD-BLOCK-CMODE"},"DataType":{"ref":"PTO-FIELD-BLOCK-DATATYPE"},"PadValueOrByteId":{"ref":"PTO-FIELD-BLOCK-PADVALUE-OR-BYTEID"}},"field_zero_meanings":{"CMode":"EQ","Canonicalize":"disabled","DataType":"FP64; DTYPE_NONE is code 31","Layout":"NORM","PadValueOrByteId":"Zero padding or ByteId zero","RMode":"the operation's default rounding","Sat":"disabled"},"legality":["B.DATR appears at most once, after the Block start and before the first B.IOT.","DataType is one of the 25 TileDataType codes or 31 (DTYPE_NONE).","CMode codes 0 to 5 are EQ, NE, LT, GT, LE and GE; 6 and 7 are reserved.","Layout codes 0, 1, 3, 4, 6, 8, 9, 17, 18, 20, 21 to 28 and 30 are assigned."],"memory_effects":["none"],"operands":[{"field":"Layout","role":"data layout selector"},{"field":"DataType","role":"element type override or DTYPE_NONE"},{"field":"PadValueOrByteId","role":"padding value or byte id"},{"field":"CMode","role":"comparison relation"},{"field":"RMode","role":"rounding selector"},{"field":"Sat","role":"saturation enable"},{"field":"Canonicalize","role":"canonicalization enable"}],"ordering":["none"],"standalone_opcode":true,"state_effects":["Records the attributes in the open Block and marks B.DATR present; no Tile register changes."]},"depends_on":["PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES"],"field_domains":[{"assigned":[{"meaning":"Zero-or-ByteId0","value":0},{"meaning":"Max-or-ByteId1","value":1},{"meaning":"Min-or-ByteId2","value":2},{"meaning":"Null-or-ByteId3","value":3}],"id":"PTO-FIELD-BLOCK-PADVALUE-OR-BYTEID","rejection":"Every code is assigned; the completed operation decides whether the field is a PadValue, a ByteId or must be zero.","reserved":[],"role":"Holds the PadValue of padding operations or the ByteId of byte-selecting operations.","width":2,"zero_meaning":"Code zero is Zero padding for a padding operation and ByteId zero for a byte-selecting one."},{"assigned":[{"meaning":"EQ","value":0},{"meaning":"NE","value":1},{"meaning":"LT","value":2},{"meaning":"GT","value":3},{"meaning":"LE","value":4},{"meaning":"GE","value":5}],"id":"PTO-FIELD-BLOCK-CMODE","rejection":"Codes 6 and 7 are reserved and raise Fault_IllegalInstruction before any effect.","reserved":[6,7],"role":"Selects the comparison relation of comparing operations.","width":3,"zero_meaning":"Code zero is the equality relation."}],"id":"PTO-BLOCK-B-DATR","mnemonic":"B.DATR","summary":"Records the optional data attributes of the open Block.","surface":"block"}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"FORMAL-COMPLETE","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// NDF-BEGIN: PTO-B-DATR-ATTRIBUTES-001
// ndf: kind=contract level=L1 layer=block status=accepted
// B.DATR MUST record its encoded fields in the open Block exactly once and
// before the first binding. Its presence MUST be distinguishable from every
// encoded value, and whether a field applies MUST be decided by the
// completed operation.
// NDF-END: PTO-B-DATR-ATTRIBUTES-001
// DOC-BEGIN: decode
// The seven fields of a B.DATR word, as their codes; the form's catalog
// constraints have already rejected reserved DataType, CMode and Layout codes.
pure func BundleDataAttributesOfCommand(instruction: bits(64), form: integer)
    => BundleDataAttributes
begin
    return BundleDataAttributes {
        layout = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_Layout)),
        data_type = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_DataType)),
        pad = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_PadValueOrByteId)),
        cmode = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_CMode)),
        rmode = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_RMode)),
        sat = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_Sat)),
        canonicalize = UInt(DecodeCommandOperandRaw(instruction, form,
            CommandField_Canonicalize))
    };
end;
// DOC-END: decode
// DOC-BEGIN: operation
// The command-form handler SetBundleDataAttributes.
func SetBundleDataAttributes(instruction: bits(64), form: integer)
    => CommandExecutionStatus
begin
    if !_BundleActive || _BundleDataAttributesPresent ||
       _BundleTileBindingCount > 0 then
        return RejectCommand(Fault_BundleControl);
    end;
    _BundleDataAttributes = BundleDataAttributesOfCommand(instruction, form);
    _BundleDataAttributesPresent = TRUE;
    return CommandExecution_Executed;
end;
// DOC-END: operation
