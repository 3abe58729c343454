// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DIM-ONCE-001","source":"asl/block/attributes/B.DIM.asl","requirements":["PTO-INST-BLOCK-B-DIM","PTO-B-DIM-ONCE-001"],"kind":"state-transition","summary":"A second B.DIM of the same loop bound faults and keeps the first value","pass_condition":"LB0=2 survives a rejected LB0=1, so the committed destination has ValidCol 2","related_sources":["asl/block/model/state/bundle-state.asl"]}
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
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    assert ExecuteCommandInstruction(BDimWord(3, 0, 1), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert TileValidColumns(BlockLastDestination()) == 2;
    return 0;
end;
