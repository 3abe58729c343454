// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DIM-TRUNCATE-001","source":"asl/block/attributes/B.DIM.asl","requirements":["PTO-INST-BLOCK-B-DIM"],"kind":"boundary","summary":"B.DIM keeps the low sixteen bits of its value and rejects a RegSrc outside 0 to 23","pass_condition":"LB0 = 0x10002 commits ValidCol 2 and RegSrc 24 is an illegal instruction","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 24, 2), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 0x10002), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert TileValidColumns(BlockLastDestination()) == 2;
    assert ReadTileElement(BlockLastDestination(), 0, 1) == WordOfInteger(30);
    return 0;
end;
