// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-SEQUENCE-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT","PTO-B-IOT-BINDING-001"],"kind":"fault","summary":"B.IOT rejects a SizeCode outside its constraint, a missing Block and bindings after the terminator","pass_condition":"SizeCode 11 and 0 are illegal instructions; no Block and a post-<last> binding are Fault_BundleControl","related_sources":["asl/block/model/state/bundle-state.asl"]}
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
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 0), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 11), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    return 0;
end;
