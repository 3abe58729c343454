// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-HAND-FULL-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT"],"kind":"fault","summary":"A destination hand without a free register faults with Fault_TileAllocation","pass_condition":"with U0..U15 allocated a block naming hand U faults and changes no register","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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
    for index = 16 to 31 do
        ConfigureTile(index, 128, 16, 1, 1, 1, TileDataType_U64,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 1, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileAllocation;
    assert TileColumns(16) == 1;
    return 0;
end;
