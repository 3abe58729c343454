// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-VEC-UNKNOWN-001","source":"asl/block/execution/BSTART.VEC.asl","requirements":["PTO-INST-BLOCK-BSTART-VEC"],"kind":"fault","summary":"BSTART.VEC rejects selectors that name no operation of the specification","pass_condition":"selectors 3, 5 and 128 report Fault_IllegalInstruction and leave no Block open","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert BlockStartVEC(3, 24) == BlockStatus_Faulted;
    assert BlockStartVEC(5, 24) == BlockStatus_Faulted;
    assert BlockStartVEC(128, 24) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert !BlockBundleActive();
    return 0;
end;
