// PTO-TEST: {"id":"PTO-AVS-TILE-TOR-S64-001","source":"asl/tile/elementwise-tile-tile/logical/TOR.asl","requirements":["PTO-INST-TILE-TOR"],"kind":"execution","summary":"The documented S64 TOR example block ORs full 64-bit words","pass_condition":"every element of the 4x2 valid region is the OR of the sources and the padding rows are undefined","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 2, 4, 2, TileDataType_S64,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    for row = 0 to 3 do
        for column = 0 to 1 do
            WriteTileElement(1, row, column, WordOfInteger(-256));
            WriteTileElement(2, row, column, WordOfInteger(row * 16 + column));
        end;
    end;
    // BSTART.VEC TOR, S64; B.DIM LB0=2; B.DIM LB1=4;
    // B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP
    assert ExecuteCommandInstruction(BStartWord(7, 16), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(1, 0, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    for row = 0 to 3 do
        for column = 0 to 1 do
            assert ReadTileElement(d, row, column) ==
                WordOfInteger(-256 + row * 16 + column);
        end;
    end;
    assert !TileElementDefined(d, 4, 0);
    return 0;
end;
