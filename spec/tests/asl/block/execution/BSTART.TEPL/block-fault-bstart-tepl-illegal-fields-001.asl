// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-ILLEGAL-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL"],"kind":"fault","summary":"Reserved DataTypes, unassigned selectors and words of no form are illegal instructions","pass_condition":"each start reports Fault_IllegalInstruction and no Block opens","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert ExecuteCommandInstruction(BStartWord(0, 15), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BStartWord(0, 31), 32) == CommandExecution_Rejected;
    assert ExecuteCommandInstruction(BStartWord(5, 24), 32) == CommandExecution_Rejected;
    assert ExecuteCommandInstruction(BStartWord(13, 24), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert !BlockBundleActive();
    assert ExecuteCommandInstruction(Zeros{64} + 0x00000003, 32) == CommandExecution_Rejected;
    assert !BlockBundleActive();
    assert ExecuteCommandInstruction(BStartWord(2, 4), 32) == CommandExecution_Executed;
    assert BlockLastFault() == Fault_None;
    assert BlockBundleActive();
    return 0;
end;
