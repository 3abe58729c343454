// PTO-TEST: {"id":"PTO-AVS-TILE-ELEMENTS-DEFINEDNESS-001","source":"asl/tile/model/definedness/elements.asl","requirements":["PTO-TILE-PADDING-001"],"kind":"state-transition","summary":"Element writes track definedness and padding carriers follow the DataType","pass_condition":"contents become defined only when the whole valid region is written, column-major positions differ from row-major, and pad words match their types","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(0, 128, 4, 4, 2, 2, TileDataType_U64, TileLayout_ColumnMajor,
        TileLocation_Any);
    assert !TileContentsDefined(0);
    WriteTileElement(0, 0, 0, WordOfInteger(1));
    WriteTileElement(0, 0, 1, WordOfInteger(2));
    WriteTileElement(0, 1, 0, WordOfInteger(3));
    assert !TileContentsDefined(0);
    WriteTileElement(0, 1, 1, WordOfInteger(4));
    assert TileContentsDefined(0);
    assert _Tiles[[0]].payload[[4]] == WordOfInteger(2);
    assert ReadTileElement(0, 1, 0) == WordOfInteger(3);
    assert !TileElementDefined(0, 3, 3);
    assert TilePaddingWord(TilePad_Max, TileDataType_FP16) == WordOfInteger(0x7bff);
    assert TilePaddingWord(TilePad_Min, TileDataType_FP32) == WordOfInteger(0xff7fffff);
    assert TilePaddingWord(TilePad_Min, TileDataType_S8) == WordOfInteger(0x80);
    assert TilePaddingWord(TilePad_Max, TileDataType_U64) == Ones{64};
    assert TilePaddingWord(TilePad_Null, TileDataType_S32) == Zeros{64};
    return 0;
end;
