// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-SEQUENCE-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT","PTO-B-IOT-BINDING-001"],"kind":"fault","summary":"B.IOT rejects unencodable fields, a missing Block and bindings after the terminator","pass_condition":"mask 0b0011 and SizeCode 11 are illegal instructions; no Block and a post-<last> binding are Fault_BundleControl","related_sources":["asl/block/model/state/bundle-state.asl"]}
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
    assert BlockIOT(1, 2, 1, TRUE, 0, 1) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_BundleControl;
    assert BlockStartVEC(0, 24) == BlockStatus_Executed;
    assert BlockIOT(1, 2, 3, TRUE, 0, 1) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert BlockIOT(1, 2, 1, TRUE, 0, 11) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert BlockIOT(1, 2, 1, TRUE, 0, 1) == BlockStatus_Executed;
    assert BlockIOT(1, 2, 1, TRUE, 0, 1) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_BundleControl;
    return 0;
end;
