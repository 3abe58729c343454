// PTO-TEST: {"id":"PTO-AVS-TILE-TADD-INTEGER-WRAP-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TADD.asl","requirements":["PTO-INST-TILE-TADD","PTO-TEPL-INTEGER-WRAP-001"],"kind":"execution","summary":"TADD sums U64 elements and wraps S8 sums to the element width","pass_condition":"U64 7+5 and 9+2 give 12 and 11; S8 127+1 is stored as the sign-extended -128","related_sources":["asl/tile/model/numeric/integer-elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 4, 4, 1, 2, TileDataType_U64,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(7));
    WriteTileElement(0, 0, 1, WordOfInteger(9));
    WriteTileElement(1, 0, 0, WordOfInteger(5));
    WriteTileElement(1, 0, 1, WordOfInteger(2));
    assert InstructionContractOperandsLegal_TADD(2, 0, 1);
    InstructionContractExecute_TADD(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(12);
    assert ReadTileElement(2, 0, 1) == WordOfInteger(11);

    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 16, 8, 1, 1, TileDataType_S8,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(127));
    WriteTileElement(1, 0, 0, WordOfInteger(1));
    InstructionContractExecute_TADD(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(-128);
    return 0;
end;
