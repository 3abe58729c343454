// PTO-TEST: {"id":"PTO-AVS-BLOCK-BUNDLE-COMMIT-DEFAULTS-001","source":"asl/block/model/commit/bundle-commit.asl","requirements":["PTO-BLOCK-COMMIT-PREFLIGHT-001"],"kind":"execution","summary":"Completion derives the destination shape from LB0, LB1 and LB2 with their defaults","pass_condition":"LB0 only gives 1 x ValidCol with Col = ValidCol; an explicit LB2 widens the physical Col; a zero LB1 is illegal","related_sources":[]}
func Sources(columns: integer, valid_rows: integer, valid_columns: integer)
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 32 DIVRM columns, columns, valid_rows,
            valid_columns, TileDataType_S32, TileLayout_RowMajor,
            TileLocation_Any);
        for row = 0 to valid_rows - 1 do
            for column = 0 to valid_columns - 1 do
                WriteTileElement(index, row, column, WordOfInteger(index));
            end;
        end;
    end;
end;

func main() => integer
begin
    Sources(2, 1, 2);
    assert ExecuteCommandInstruction(BStartWord(0, 17), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert TileColumns(0) == 2 && TileRows(0) == 16 && TileValidRows(0) == 1;

    Sources(8, 2, 3);
    assert ExecuteCommandInstruction(BStartWord(0, 17), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 3), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(1, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 8), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    assert TileColumns(0) == 8 && TileRows(0) == 4;
    assert ReadTileElement(0, 1, 2) == WordOfInteger(3);

    Sources(2, 1, 2);
    assert ExecuteCommandInstruction(BStartWord(0, 17), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(1, 0, 0), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert LastFault() == Fault_TileLegality;
    return 0;
end;
