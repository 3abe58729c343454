// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-FP16-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL"],"kind":"execution","summary":"The documented FP16 TMUL example block allocates T0 and multiplies by zero","pass_condition":"the destination is T0 with 16 rows, 4 columns and a 2x4 valid region of +0 products, and its padding is undefined","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 16, 4, 2, 4, TileDataType_FP16,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    for row = 0 to 1 do
        for column = 0 to 3 do
            WriteTileElement(1, row, column, WordOfInteger(0x3c00 + column));
            WriteTileElement(2, row, column, Zeros{64});
        end;
    end;
    // BSTART.VEC TMUL, FP16; B.DIM LB0=4; B.DIM LB1=2;
    // B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP
    assert ExecuteCommandInstruction(BStartWord(2, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(1, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert BlockLastDestination() == 0;
    assert TileRows(0) == 16 && TileColumns(0) == 4;
    assert TileValidRows(0) == 2 && TileValidColumns(0) == 4;
    for row = 0 to 1 do
        for column = 0 to 3 do
            assert ReadTileElement(0, row, column) == Zeros{64};
        end;
    end;
    assert !TileElementDefined(0, 2, 0);
    assert !BlockBundleActive();
    return 0;
end;
