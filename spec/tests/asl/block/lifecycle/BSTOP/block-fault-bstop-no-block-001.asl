// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTOP-NO-BLOCK-001","source":"asl/block/lifecycle/BSTOP.asl","requirements":["PTO-INST-BLOCK-BSTOP"],"kind":"fault","summary":"BSTOP without an open Block is a Block control fault","pass_condition":"BSTOP returns Faulted with Fault_BundleControl and the word 0x00000001 decodes as BSTOP","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert BlockStop() == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_BundleControl;
    assert InstructionContractMatches_BSTOP(Zeros{32} + 1);
    return 0;
end;
