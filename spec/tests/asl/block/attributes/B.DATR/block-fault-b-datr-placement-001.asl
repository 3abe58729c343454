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
    assert ExecuteCommandInstruction(BDatrPadWord(0), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrWord(0, 15, 0, 0, 0, 0, 0), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BDatrWord(0, 31, 0, 6, 0, 0, 0), 32) == CommandExecution_Rejected;
    assert ExecuteCommandInstruction(BDatrWord(2, 31, 0, 0, 0, 0, 0), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert ExecuteCommandInstruction(BDatrPadWord(1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(2), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    assert CurrentBundlePadValue() == TilePad_Max;

    SetUpU64Sources();
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(0), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_BundleControl;
    return 0;
end;
