// PTO-TEST: {"id":"PTO-AVS-TILE-TADD-MISSING-LB0-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","requirements":["PTO-INST-TILE-TADD","PTO-BLOCK-COMMIT-PREFLIGHT-001"],"kind":"fault","summary":"A TADD block without LB0 faults at BSTOP with no effect","pass_condition":"BSTOP reports Fault_TileLegality, no destination register is allocated, the sources keep their values and the block stays open","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(1, 128, 8, 2, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    ConfigureTile(2, 128, 8, 2, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    WriteTileElement(1, 0, 0, WordOfInteger(3));
    WriteTileElement(1, 0, 1, WordOfInteger(4));
    WriteTileElement(2, 0, 0, WordOfInteger(5));
    WriteTileElement(2, 0, 1, WordOfInteger(6));
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    assert !TileAllocated(0);
    assert ReadTileElement(1, 0, 0) == WordOfInteger(3);
    assert ReadTileElement(2, 0, 1) == WordOfInteger(6);
    assert BlockBundleActive();
    assert !BlockLastDestinationValid();
    return 0;
end;
