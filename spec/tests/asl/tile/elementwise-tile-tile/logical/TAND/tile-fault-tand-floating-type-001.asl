// PTO-TEST: {"id":"PTO-AVS-TILE-TAND-FLOAT-001","source":"asl/tile/elementwise-tile-tile/logical/TAND.asl","requirements":["PTO-INST-TILE-TAND","PTO-TEPL-BINARY-LEGALITY-001"],"kind":"fault","summary":"A TAND block on FP16 faults at BSTOP before any allocation","pass_condition":"BSTOP returns Faulted with Fault_TileLegality, hand U stays unallocated and the block stays open","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 8, 1, 1, TileDataType_FP16,
            TileLayout_RowMajor, TileLocation_Any);
        WriteTileElement(index, 0, 0, WordOfInteger(0x3c00));
    end;
    assert !InstructionContractDataTypeLegal_TAND(TileDataType_FP16);
    assert ExecuteCommandInstruction(BStartWord(6, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 8), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 1, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    for slot = 16 to 31 do
        assert !TileAllocated(slot);
    end;
    assert BlockBundleActive();
    return 0;
end;
