// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DATR-APPLICABILITY-001","source":"asl/block/attributes/B.DATR.asl","requirements":["PTO-INST-BLOCK-B-DATR","PTO-BLOCK-COMMIT-PREFLIGHT-001"],"kind":"fault","summary":"Elementwise blocks accept only PadValue from B.DATR","pass_condition":"Sat=1 or a different DataType faults at BSTOP; a DataType equal to the BSTART type commits","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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

func RunWithDatr(data_type: integer, sat: integer) => CommandExecutionStatus
begin
    SetUpU64Sources();
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrWord(0, data_type, 0, 0, 0, sat, 0), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    return ExecuteCommandInstruction(BStopWord(), 32);
end;

func main() => integer
begin
    assert RunWithDatr(31, 1) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    assert !TileAllocated(0);
    assert RunWithDatr(16, 0) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    assert RunWithDatr(24, 0) == CommandExecution_Executed;
    assert ReadTileElement(0, 0, 1) == WordOfInteger(30);
    return 0;
end;
