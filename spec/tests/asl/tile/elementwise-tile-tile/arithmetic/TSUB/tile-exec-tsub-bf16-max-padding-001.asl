// PTO-TEST: {"id":"PTO-AVS-TILE-TSUB-BF16-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TSUB.asl","requirements":["PTO-INST-TILE-TSUB","PTO-TILE-PADDING-001"],"kind":"execution","summary":"BF16 TSUB of a zero subtrahend with Max padding","pass_condition":"1.0 - 0 and -3.5 - 0 keep the left carriers and padding is the defined BF16 largest finite 0x7f7f","related_sources":["asl/tile/model/definedness/elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 8, 1, 2, TileDataType_BF16,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(1, 0, 0, WordOfInteger(0x3f80));
    WriteTileElement(1, 0, 1, WordOfInteger(0xc060));
    WriteTileElement(2, 0, 0, Zeros{64});
    WriteTileElement(2, 0, 1, Zeros{64});
    assert ExecuteCommandInstruction(BStartWord(1, 5), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 8), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    assert ReadTileElement(d, 0, 0) == WordOfInteger(0x3f80);
    assert ReadTileElement(d, 0, 1) == WordOfInteger(0xc060);
    assert TileElementDefined(d, 0, 2);
    assert ReadTileElement(d, 0, 2) == WordOfInteger(0x7f7f);
    assert ReadTileElement(d, 7, 7) == WordOfInteger(0x7f7f);
    return 0;
end;
