// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DATR-APPLICABILITY-001","source":"asl/block/attributes/B.DATR.asl","requirements":["PTO-INST-BLOCK-B-DATR","PTO-BLOCK-COMMIT-PREFLIGHT-001"],"kind":"fault","summary":"Elementwise blocks accept only PadValue from B.DATR","pass_condition":"Sat=1 or a different DataType faults at BSTOP; a DataType equal to the BSTART type commits","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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

func RunWithDatr(data_type: integer, sat: integer) => BlockStatus
begin
    SetUpU64Sources();
    assert BlockStartVEC(0, 24) == BlockStatus_Executed;
    assert BlockDatr(0, data_type, 0, 0, 0, sat, 0) == BlockStatus_Executed;
    assert BlockDim(0, 2) == BlockStatus_Executed;
    assert BlockIOT(1, 2, 1, TRUE, 0, 1) == BlockStatus_Executed;
    return BlockStop();
end;

func main() => integer
begin
    assert RunWithDatr(31, 1) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_TileLegality;
    assert !TileAllocated(0);
    assert RunWithDatr(16, 0) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_TileLegality;
    assert RunWithDatr(24, 0) == BlockStatus_Executed;
    assert ReadTileElement(0, 0, 1) == WordOfInteger(30);
    return 0;
end;
