// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-ZERO-MASK-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT","PTO-B-IOT-BINDING-001"],"kind":"execution","summary":"A binding with an all-zero PE mask makes the Block a no-op","pass_condition":"BSTOP succeeds without LB0, allocates nothing and reports no destination","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 0, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert !BlockLastDestinationValid();
    assert !TileAllocated(0);
    assert !BlockBundleActive();
    return 0;
end;
