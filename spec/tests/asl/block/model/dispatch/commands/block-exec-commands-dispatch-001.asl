// PTO-TEST: {"id":"PTO-AVS-BLOCK-COMMANDS-DISPATCH-001","source":"asl/block/model/dispatch/commands.asl","requirements":["PTO-BLOCK-COMMAND-DISPATCH-001"],"kind":"execution","summary":"Command words are decoded by the command-form catalog and run the handler of their form","pass_condition":"a word of no form, a B.DATR with a reserved CMode and a 16-bit length are illegal instructions with no effect; the six words of a TADD Block execute, advance the command address by 24 bytes and write T0","related_sources":["asl/block/model/state/bundle-state.asl","asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 4, 1, 2, TileDataType_S32,
            TileLayout_RowMajor, TileLocation_Any);
        WriteTileElement(index, 0, 0, WordOfInteger(index));
        WriteTileElement(index, 0, 1, WordOfInteger(-3));
    end;
    assert ExecuteCommandInstruction(Zeros{64} + 0x0000007f, 32) ==
        CommandExecution_Rejected;
    assert LastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BStartWord(0, 17), 16) ==
        CommandExecution_Rejected;
    assert !BlockBundleActive();
    assert ReadTPC() == Zeros{64};
    // BSTART.VEC TADD, S32; B.DATR {NORM, DTYPE_NONE, Zero, 7, ...} is rejected
    assert ExecuteCommandInstruction(BStartWord(0, 17), 32) ==
        CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrWord(0, 31, 0, 7, 0, 0, 0), 32) ==
        CommandExecution_Rejected;
    assert LastFault() == Fault_IllegalInstruction;
    assert !_BundleDataAttributesPresent;
    // B.DATR PadValue=Zero; B.DIM LB0=2; B.DIM LB2=4;
    // B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP
    assert ExecuteCommandInstruction(BDatrPadWord(0), 32) ==
        CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) ==
        CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 4), 32) ==
        CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) ==
        CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) ==
        CommandExecution_Executed;
    assert ReadTPC() == Zeros{64} + 24;
    assert BlockLastDestination() == 0;
    assert ReadTileElement(0, 0, 0) == WordOfInteger(3);
    assert ReadTileElement(0, 0, 1) == WordOfInteger(-6);
    assert ReadTileElement(0, 0, 2) == Zeros{64};
    assert TileElementDefined(0, 0, 3);
    return 0;
end;
