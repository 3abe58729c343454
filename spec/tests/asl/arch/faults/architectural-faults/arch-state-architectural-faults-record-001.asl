// PTO-TEST: {"id":"PTO-AVS-ARCH-FAULTS-RECORD-001","source":"asl/arch/faults/architectural-faults.asl","requirements":["PTO-ARCH-FAULT-REPORT-001"],"kind":"state-transition","summary":"The last fault is recorded and cleared by the next accepted command","pass_condition":"a rejected BSTOP records Fault_BundleControl and the next accepted start clears it and advances the command address by four bytes; a fault records its command address","related_sources":["asl/block/lifecycle/BSTOP.asl"]}
func main() => integer
begin
    ResetProfileState();
    assert LastFault() == Fault_None;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert LastFault() == Fault_BundleControl;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert LastFault() == Fault_None;
    assert ReadTPC() == Zeros{64} + 4;
    SetFault(Fault_TileAllocation, ReadTPC());
    assert LastFault() == Fault_TileAllocation;
    assert _LastFaultAddress == Zeros{64} + 4;
    ClearFault();
    assert LastFault() == Fault_None;
    return 0;
end;
