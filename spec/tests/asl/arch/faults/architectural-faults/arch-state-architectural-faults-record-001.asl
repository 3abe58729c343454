// PTO-TEST: {"id":"PTO-AVS-ARCH-FAULTS-RECORD-001","source":"asl/arch/faults/architectural-faults.asl","requirements":["PTO-ARCH-FAULT-REPORT-001"],"kind":"state-transition","summary":"The last fault is recorded and cleared by the next accepted command","pass_condition":"a rejected BSTOP records Fault_BundleControl and the next accepted start clears it","related_sources":["asl/block/lifecycle/BSTOP.asl"]}
func main() => integer
begin
    ResetProfileState();
    assert LastFault() == Fault_None;
    assert BlockStop() == BlockStatus_Faulted;
    assert LastFault() == Fault_BundleControl;
    assert BlockStartVEC(0, 24) == BlockStatus_Executed;
    assert LastFault() == Fault_None;
    SetFault(Fault_TileAllocation);
    assert LastFault() == Fault_TileAllocation;
    ClearFault();
    assert LastFault() == Fault_None;
    return 0;
end;
