// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-VEC-UNKNOWN-001","source":"asl/block/execution/BSTART.VEC.asl","requirements":["PTO-INST-BLOCK-BSTART-VEC"],"kind":"fault","summary":"BSTART.VEC rejects selectors that name no operation of the specification","pass_condition":"selectors 3, 5 and 31 report Fault_IllegalInstruction and leave no Block open","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert ExecuteCommandInstruction(BStartWord(3, 24), 32) == CommandExecution_Rejected;
    assert ExecuteCommandInstruction(BStartWord(5, 24), 32) == CommandExecution_Rejected;
    assert ExecuteCommandInstruction(BStartWord(31, 24), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert !BlockBundleActive();
    return 0;
end;
