// PTO-TEST: {"id":"PTO-AVS-TILE-TSUB-ORDER-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TSUB.asl","requirements":["PTO-INST-TILE-TSUB","PTO-TEPL-INTEGER-WRAP-001"],"kind":"execution","summary":"TSUB subtracts right from left and wraps unsigned differences","pass_condition":"U64 19-7 is 12 and U8 3-5 is stored as 254 zero-extended","related_sources":["asl/tile/model/numeric/integer-elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 16, 1, 1, 1, TileDataType_U64,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(19));
    WriteTileElement(1, 0, 0, WordOfInteger(7));
    assert InstructionContractOperandsLegal_TSUB(2, 0, 1);
    InstructionContractExecute_TSUB(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(12);

    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 16, 8, 1, 1, TileDataType_U8,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(3));
    WriteTileElement(1, 0, 0, WordOfInteger(5));
    InstructionContractExecute_TSUB(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(254);
    return 0;
end;
