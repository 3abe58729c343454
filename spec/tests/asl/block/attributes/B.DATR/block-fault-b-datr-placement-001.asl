// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DATR-PLACEMENT-001","source":"asl/block/attributes/B.DATR.asl","requirements":["PTO-INST-BLOCK-B-DATR","PTO-B-DATR-ATTRIBUTES-001"],"kind":"fault","summary":"B.DATR is rejected outside a Block, twice, after a binding, or with reserved codes","pass_condition":"placement errors report Fault_BundleControl and reserved DataType, CMode or Layout codes report Fault_IllegalInstruction","related_sources":["asl/block/model/state/bundle-state.asl"]}
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
    assert BlockDatrPad(0) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_BundleControl;
    assert BlockStartVEC(0, 24) == BlockStatus_Executed;
    assert BlockDatr(0, 15, 0, 0, 0, 0, 0) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert BlockDatr(0, 31, 0, 6, 0, 0, 0) == BlockStatus_Faulted;
    assert BlockDatr(2, 31, 0, 0, 0, 0, 0) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert BlockDatrPad(1) == BlockStatus_Executed;
    assert BlockDatrPad(2) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_BundleControl;
    assert CurrentBundlePadValue() == TilePad_Max;

    SetUpU64Sources();
    assert BlockStartVEC(0, 24) == BlockStatus_Executed;
    assert BlockIOT(1, 2, 1, TRUE, 0, 1) == BlockStatus_Executed;
    assert BlockDatrPad(0) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_BundleControl;
    return 0;
end;
