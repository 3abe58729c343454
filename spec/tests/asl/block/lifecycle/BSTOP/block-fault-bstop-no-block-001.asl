// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTOP-NO-BLOCK-001","source":"asl/block/lifecycle/BSTOP.asl","requirements":["PTO-INST-BLOCK-BSTOP"],"kind":"fault","summary":"BSTOP without an open Block is a Block control fault","pass_condition":"BSTOP is rejected with Fault_BundleControl and the word 0x00000001 decodes as BSTOP","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    assert CommandHandlerOfForm(DecodeCommandForm(Zeros{64} + 1, 32)) ==
        CommandHandler_ExecuteBundleStop;
    return 0;
end;
