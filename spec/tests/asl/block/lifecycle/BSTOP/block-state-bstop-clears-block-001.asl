// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTOP-CLEAR-001","source":"asl/block/lifecycle/BSTOP.asl","requirements":["PTO-INST-BLOCK-BSTOP","PTO-BLOCK-BUNDLE-STATE-001"],"kind":"state-transition","summary":"A successful BSTOP clears the Block so the next BSTOP has nothing to complete","pass_condition":"after a committed TADD the Block is closed, Null padding is back in force, and a second BSTOP faults","related_sources":["asl/block/model/state/bundle-state.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 16, 1, 1, 1, TileDataType_U64,
            TileLayout_RowMajor, TileLocation_Any);
        WriteTileElement(index, 0, 0, WordOfInteger(index));
    end;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(0), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 3, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert BlockLastDestination() == 48;
    assert ReadTileElement(48, 0, 0) == WordOfInteger(3);
    assert ReadTileElement(48, 15, 0) == Zeros{64};
    assert !BlockBundleActive();
    assert CurrentBundlePadValue() == TilePad_Null;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    return 0;
end;
