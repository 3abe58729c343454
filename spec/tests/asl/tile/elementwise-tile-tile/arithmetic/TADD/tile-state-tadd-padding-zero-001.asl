// PTO-TEST: {"id":"PTO-AVS-TILE-TADD-PADDING-ZERO-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","requirements":["PTO-INST-TILE-TADD","PTO-TILE-PADDING-001"],"kind":"state-transition","summary":"A TADD block with PadValue Zero publishes the sums and defined zero padding","pass_condition":"the 1x2 valid region holds 12 and 11 and every padding element of the 8x2 destination is defined zero","related_sources":["asl/block/model/commit/bundle-commit.asl","asl/tile/model/definedness/elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(1, 128, 8, 2, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    ConfigureTile(2, 128, 8, 2, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    WriteTileElement(1, 0, 0, WordOfInteger(7));
    WriteTileElement(1, 0, 1, WordOfInteger(9));
    WriteTileElement(2, 0, 0, WordOfInteger(5));
    WriteTileElement(2, 0, 1, WordOfInteger(2));
    // BSTART.VEC TADD, U64; B.DATR PadValue=Zero; B.DIM LB0=2;
    // B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(0), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    assert d == 0;
    assert TileRows(d) == 8 && TileColumns(d) == 2;
    assert TileValidRows(d) == 1 && TileValidColumns(d) == 2;
    assert ReadTileElement(d, 0, 0) == WordOfInteger(12);
    assert ReadTileElement(d, 0, 1) == WordOfInteger(11);
    for row = 1 to 7 do
        for column = 0 to 1 do
            assert TileElementDefined(d, row, column);
            assert ReadTileElement(d, row, column) == Zeros{64};
        end;
    end;
    return 0;
end;
