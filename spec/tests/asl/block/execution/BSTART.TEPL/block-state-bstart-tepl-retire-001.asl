// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-RETIRE-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL","PTO-BLOCK-BUNDLE-STATE-001"],"kind":"state-transition","summary":"A BSTART while a Block is open completes that Block first","pass_condition":"the first TADD block is committed by the next start, which opens a fresh Block with no dimension or binding","related_sources":["asl/block/model/state/bundle-state.asl","asl/block/model/commit/bundle-commit.asl"]}
func SetUpU64Sources()
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 2, 1, 2, TileDataType_U64,
            TileLayout_RowMajor, TileLocation_Any);
        WriteTileElement(index, 0, 0, WordOfInteger(index));
        WriteTileElement(index, 0, 1, WordOfInteger(10 * index));
    end;
end;

func main() => integer
begin
    SetUpU64Sources();
    assert ExecuteCommandInstruction(Zeros{64} + 0xc0019181, 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStartWord(2, 24), 32) == CommandExecution_Executed;
    assert BlockLastDestination() == 0;
    assert ReadTileElement(0, 0, 0) == WordOfInteger(3);
    assert ReadTileElement(0, 0, 1) == WordOfInteger(30);
    assert BlockBundleActive();
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    return 0;
end;
