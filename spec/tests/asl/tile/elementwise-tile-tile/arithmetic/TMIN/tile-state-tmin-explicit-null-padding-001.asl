// PTO-TEST: {"id":"PTO-AVS-TILE-TMIN-NULL-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMIN.asl","requirements":["PTO-INST-TILE-TMIN","PTO-TILE-PADDING-001"],"kind":"state-transition","summary":"An explicit PadValue Null leaves TMIN padding undefined like an omitted B.DATR","pass_condition":"the valid element is MIN(4, -6) = -6 and every padding element of the U-hand destination is undefined","related_sources":["asl/tile/model/definedness/elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 4, 8, 1, 1, TileDataType_S32,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(1, 0, 0, WordOfInteger(4));
    WriteTileElement(2, 0, 0, WordOfInteger(-6));
    assert ExecuteCommandInstruction(BStartWord(12, 17), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(3), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 8), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 1, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    assert d == 16;
    assert ReadTileElement(d, 0, 0) == WordOfInteger(-6);
    for row = 0 to 3 do
        for column = 0 to 7 do
            if row != 0 || column != 0 then
                assert !TileElementDefined(d, row, column);
            end;
        end;
    end;
    return 0;
end;
