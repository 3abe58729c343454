// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-TEPL-ILLEGAL-001","source":"asl/block/execution/BSTART.TEPL.asl","requirements":["PTO-INST-BLOCK-BSTART-TEPL"],"kind":"fault","summary":"Reserved DataTypes, unassigned selectors and a mismatched engine spelling are illegal instructions","pass_condition":"each start reports Fault_IllegalInstruction and no Block opens","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert BlockStartTEPL(BLOCK_SPELLING_TEPL, 0, 15) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert BlockStartTEPL(BLOCK_SPELLING_TEPL, 0, 31) == BlockStatus_Faulted;
    assert BlockStartTEPL(BLOCK_SPELLING_TEPL, 5, 24) == BlockStatus_Faulted;
    assert BlockStartTEPL(BLOCK_SPELLING_SFU, 0, 24) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert !BlockBundleActive();
    assert BlockStartTEPLWord(Zeros{32} + 0x00000001) == BlockStatus_Faulted;
    assert !BlockBundleActive();
    assert BlockStartTEPL(BLOCK_SPELLING_TEPL, 2, 4) == BlockStatus_Executed;
    assert BlockLastFault() == Fault_None;
    assert BlockBundleActive();
    return 0;
end;
