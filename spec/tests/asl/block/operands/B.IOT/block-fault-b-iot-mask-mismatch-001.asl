// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-IOT-MASK-001","source":"asl/block/operands/B.IOT.asl","requirements":["PTO-INST-BLOCK-B-IOT"],"kind":"fault","summary":"The binding PE mask must equal the allocation mask of both sources","pass_condition":"mask 0b1111 over sources allocated on mask 0001 faults with Fault_TileLegality and allocates nothing","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
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
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 15, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    assert !TileAllocated(0);
    return 0;
end;
