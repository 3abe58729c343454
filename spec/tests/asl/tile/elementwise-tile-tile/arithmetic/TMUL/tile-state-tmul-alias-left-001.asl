// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-ALIAS-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL","PTO-TEPL-SNAPSHOT-001"],"kind":"state-transition","summary":"TMUL reads the left source in full before writing it as the destination","pass_condition":"T0 = T0 * T1 gives 21 and 55 from the pre-operation values 3, 5 and 7, 11","related_sources":["asl/tile/model/execution/elementwise.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(0, 128, 4, 4, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    ConfigureTile(1, 128, 4, 4, 1, 2, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    WriteTileElement(0, 0, 0, WordOfInteger(3));
    WriteTileElement(0, 0, 1, WordOfInteger(5));
    WriteTileElement(1, 0, 0, WordOfInteger(7));
    WriteTileElement(1, 0, 1, WordOfInteger(11));
    assert InstructionContractOperandsLegal_TMUL(0, 0, 1);
    InstructionContractExecute_TMUL(0, 0, 1);
    assert ReadTileElement(0, 0, 0) == WordOfInteger(21);
    assert ReadTileElement(0, 0, 1) == WordOfInteger(55);
    return 0;
end;
