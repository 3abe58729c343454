// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-CARRIER-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL","PTO-BSTART-TEPL-CARRIER-001"],"kind":"decode-positive","summary":"BSTART.TEPL words place DataType, Mode and Function around the fixed 0x19181","pass_condition":"TADD U64 is 0xC0019181, TMUL U64 0xC0219181, TMUL S32 0x88219181, and decoding returns the fields","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    assert BStartTEPLWord(0, 0, 24) == Zeros{32} + 0xc0019181;
    assert BStartTEPLWord(0, 2, 24) == Zeros{32} + 0xc0219181;
    assert BStartTEPLWord(0, 2, 17) == Zeros{32} + 0x88219181;
    let (matched, mode, function_code, data_type) =
        DecodeBStartTEPL(Zeros{32} + 0x28b19181);
    assert matched && mode == 0 && function_code == 11 && data_type == 5;
    let (other, -, -, -) = DecodeBStartTEPL(Zeros{32} + 0xc0011181);
    assert !other;
    assert InstructionContractSelector_TMIN() == 12;
    return 0;
end;
