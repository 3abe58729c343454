// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-DECODE-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT"],"kind":"decode-positive","summary":"B.IOT words and PE modes follow the two-source destination form of the command-form catalog","pass_condition":"sources 1 and 2 with PEMode 111, L and SizeCode 1 to hand T is 0x0818CE13 and mask 0b0001 is PEMode 100","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    let word = BIOTWord(1, 2, 15, TRUE, 0, 1);
    assert word == Zeros{64} + 0x0818ce13;
    let form = DecodeCommandForm(word, 32);
    assert CommandHandlerOfForm(form) == CommandHandler_BindBundleTileIO;
    let binding = BundleTileBindingOfCommand(word, form);
    assert binding.source_left == 1 && binding.source_right == 2;
    assert binding.pe_mask == '1111' && binding.last;
    assert binding.destination_hand == 0 && binding.size_code == 1;
    assert CommandHandlerOfForm(DecodeCommandForm(BStopWord(), 32)) ==
        CommandHandler_ExecuteBundleStop;
    assert PEModeOfMask('0001') == 4;
    assert PEMaskOfPEMode(1) == '1000';
    assert PEModeOfMask('0011') == -1;
    return 0;
end;
