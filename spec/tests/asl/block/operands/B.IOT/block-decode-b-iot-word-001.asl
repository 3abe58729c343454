// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-DECODE-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT"],"kind":"decode-positive","summary":"B.IOT words and PE modes follow the two-source destination form","pass_condition":"sources 1 and 2 with PEMode 111, L and SizeCode 1 to hand T is 0x0818CE13 and mask 0b0001 is PEMode 100","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    let word = BIOTWord(1, 2, TRUE, 1, 7, 0);
    assert word == Zeros{32} + 0x0818ce13;
    assert InstructionContractMatches_B_IOT(word);
    assert !InstructionContractMatches_B_IOT(BStopWord());
    assert PEModeOfMask('0001') == 4;
    assert PEMaskOfPEMode(1) == '1000';
    assert PEModeOfMask('0011') == -1;
    return 0;
end;
