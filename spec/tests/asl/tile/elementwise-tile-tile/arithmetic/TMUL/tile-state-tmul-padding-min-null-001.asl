// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-PADDING-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL","PTO-TILE-PADDING-001"],"kind":"state-transition","summary":"TMUL pads with the S64 minimum when B.DATR selects Min and leaves padding undefined without B.DATR","pass_condition":"3*5 is 15 in both blocks; Min padding is defined 0x8000000000000000 and Null padding is undefined","related_sources":["asl/block/model/commit/bundle-commit.asl","asl/tile/model/definedness/elements.asl"]}
func SetUpSources()
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 2, 1, 1, TileDataType_S64,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(1, 0, 0, WordOfInteger(3));
    WriteTileElement(2, 0, 0, WordOfInteger(5));
end;

func main() => integer
begin
    SetUpSources();
    assert ExecuteCommandInstruction(BStartWord(2, 16), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    var d = BlockLastDestination();
    assert ReadTileElement(d, 0, 0) == WordOfInteger(15);
    assert TileElementDefined(d, 0, 1);
    assert ReadTileElement(d, 0, 1) == WordOfInteger(0x8000000000000000);

    SetUpSources();
    assert ExecuteCommandInstruction(BStartWord(2, 16), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    d = BlockLastDestination();
    assert ReadTileElement(d, 0, 0) == WordOfInteger(15);
    assert !TileElementDefined(d, 0, 1);
    assert !TileElementDefined(d, 7, 1);
    assert ReadTileElementRaw(d, 7, 1) == Zeros{64};
    return 0;
end;
