// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTOP-ATOMIC-001","source":"asl/block/lifecycle/BSTOP.asl","requirements":["PTO-INST-BLOCK-BSTOP","PTO-BSTOP-COMMIT-001","PTO-ARCH-FAULT-REPORT-001"],"kind":"atomicity","summary":"A source shape mismatch found at BSTOP leaves every register and the Block unchanged","pass_condition":"the fault is Fault_TileLegality, the tentatively chosen T0 is unallocated again, both sources keep their values and the Block is still open","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(1, 128, 8, 2, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    ConfigureTile(2, 128, 4, 4, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    for index = 1 to 2 do
        WriteTileElement(index, 0, 0, WordOfInteger(40 + index));
        WriteTileElement(index, 0, 1, WordOfInteger(50 + index));
    end;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    assert !TileAllocated(0);
    assert ReadTileElement(1, 0, 1) == WordOfInteger(51);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(42);
    assert TileColumns(2) == 4;
    assert BlockBundleActive();
    return 0;
end;
