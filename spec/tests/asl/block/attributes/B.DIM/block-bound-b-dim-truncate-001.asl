// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DIM-TRUNCATE-001","source":"asl/block/attributes/B.DIM.asl","requirements":["PTO-INST-BLOCK-B-DIM"],"kind":"boundary","summary":"B.DIM keeps the low sixteen bits of its value and rejects values beyond uimm17","pass_condition":"LB0 = 0x10002 commits ValidCol 2 and 0x20000 is an illegal instruction","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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
    assert BlockStartVEC(0, 24) == BlockStatus_Executed;
    assert BlockDim(0, 0x20000) == BlockStatus_Faulted;
    assert BlockLastFault() == Fault_IllegalInstruction;
    assert BlockDim(0, 0x10002) == BlockStatus_Executed;
    assert BlockIOT(1, 2, 1, TRUE, 0, 1) == BlockStatus_Executed;
    assert BlockStop() == BlockStatus_Executed;
    assert TileValidColumns(BlockLastDestination()) == 2;
    assert ReadTileElement(BlockLastDestination(), 0, 1) == WordOfInteger(30);
    return 0;
end;
