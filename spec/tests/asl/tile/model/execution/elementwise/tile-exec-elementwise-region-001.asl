// PTO-TEST: {"id":"PTO-AVS-TILE-ELEMENTWISE-REGION-001","source":"asl/tile/model/execution/elementwise.asl","requirements":["PTO-TEPL-SNAPSHOT-001"],"kind":"execution","summary":"ExecuteTileBinary computes only the valid region and pads the rest","pass_condition":"a 2x2 valid region of a 4x4 S32 destination is computed and, without B.DATR, the other twelve elements are undefined","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 8, 4, 2, 2, TileDataType_S32,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    for row = 0 to 1 do
        for column = 0 to 1 do
            WriteTileElement(0, row, column, WordOfInteger(row));
            WriteTileElement(1, row, column, WordOfInteger(column));
        end;
    end;
    ExecuteTileBinary(TileBinary_SUB, 2, 0, 1);
    assert ReadTileElement(2, 1, 0) == WordOfInteger(1);
    assert ReadTileElement(2, 0, 1) == WordOfInteger(-1);
    assert TileContentsDefined(2);
    var undefined = 0;
    for row = 0 to 7 do
        for column = 0 to 3 do
            if !TileElementDefined(2, row, column) then
                undefined = undefined + 1;
            end;
        end;
    end;
    assert undefined == 28;
    return 0;
end;
