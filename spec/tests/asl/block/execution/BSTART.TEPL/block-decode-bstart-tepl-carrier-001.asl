// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-CARRIER-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL","PTO-BSTART-TEPL-CARRIER-001"],"kind":"decode-positive","summary":"BSTART.TEPL words place DataType, Mode and Function around the fixed 0x19181","pass_condition":"TADD U64 is 0xC0019181, TMUL U64 0xC0219181, TMUL S32 0x88219181, and decoding returns the fields","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    assert BStartTEPLWord(0, 0, 24) == Zeros{64} + 0xc0019181;
    assert BStartTEPLWord(0, 2, 24) == Zeros{64} + 0xc0219181;
    assert BStartTEPLWord(0, 2, 17) == Zeros{64} + 0x88219181;
    let word = Zeros{64} + 0x28b19181;
    let form = DecodeCommandForm(word, 32);
    assert CommandHandlerOfForm(form) == CommandHandler_ExecuteBundleStart;
    assert UInt(CommandTileCodeOfForm(word, form)) == 11;
    assert UInt(CommandTileDataTypeOfForm(word, form)) == 5;
    assert TileOperationOfIndex(BundleStartOperationIndex(word, form)) ==
        TileOperation_TMAX;
    assert DecodeCommandForm(Zeros{64} + 0xc0011181, 32) ==
        PTO_COMMAND_FORM_COUNT;
    assert InstructionContractSelector_TMIN() == 12;
    return 0;
end;
