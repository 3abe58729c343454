// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DIM-DECODE-001","source":"asl/block/attributes/B.DIM.asl","requirements":["PTO-INST-BLOCK-B-DIM"],"kind":"decode-positive","summary":"B.DIM words split uimm17 across bits 31:20 and 11:7","pass_condition":"B.DIM zero, 2, ->LB0 is 0x00200043 and a word with uimm17 0x1ABCD decodes back to LB1, RegSrc 5 and 0x1ABCD","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    assert BDimWord(0, 0, 2) == Zeros{64} + 0x00200043;
    let word = BDimWord(1, 5, 0x1abcd);
    let form = DecodeCommandForm(word, 32);
    assert CommandHandlerOfForm(form) == CommandHandler_SetBundleDimension;
    assert BundleDimensionOfCommand(word) == 1;
    assert UInt(DecodeCommandOperandRaw(word, form, CommandField_RegSrc)) == 5;
    assert UInt(DecodeCommandOperandRaw(word, form, CommandField_uimm17)) ==
        0x1abcd;
    assert DecodeCommandForm(Zeros{64} + 0x00003043, 32) ==
        PTO_COMMAND_FORM_COUNT;
    return 0;
end;
