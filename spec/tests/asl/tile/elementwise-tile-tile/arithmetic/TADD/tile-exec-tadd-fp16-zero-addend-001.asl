// PTO-TEST: {"id":"PTO-AVS-TILE-TADD-FP16-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","requirements":["PTO-INST-TILE-TADD","PTO-TEPL-FP-PROFILE-001"],"kind":"execution","summary":"FP16 TADD with a zero right addend returns the left elements in every profile","pass_condition":"each FP16 left element plus +0 is the left element and the valid region is defined","related_sources":["asl/tile/model/numeric/fp-hook.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 16, 4, 1, 3, TileDataType_FP16,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(1, 0, 0, WordOfInteger(0x3c00));
    WriteTileElement(1, 0, 1, WordOfInteger(0xc500));
    WriteTileElement(1, 0, 2, WordOfInteger(0x7bff));
    for column = 0 to 2 do
        WriteTileElement(2, 0, column, Zeros{64});
    end;
    assert ExecuteCommandInstruction(BStartWord(0, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 3), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    assert TileDataTypeOf(d) == TileDataType_FP16;
    assert ReadTileElement(d, 0, 0) == WordOfInteger(0x3c00);
    assert ReadTileElement(d, 0, 1) == WordOfInteger(0xc500);
    assert ReadTileElement(d, 0, 2) == WordOfInteger(0x7bff);
    assert !TileElementDefined(d, 0, 3);
    return 0;
end;
