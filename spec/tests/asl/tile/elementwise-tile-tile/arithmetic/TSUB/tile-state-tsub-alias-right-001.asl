// PTO-TEST: {"id":"PTO-AVS-TILE-TSUB-ALIAS-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TSUB.asl","requirements":["PTO-INST-TILE-TSUB","PTO-TEPL-SNAPSHOT-001"],"kind":"state-transition","summary":"TSUB reads the right source in full before writing it as the destination","pass_condition":"T1 = T0 - T1 gives 10-1 and 20-2 from the pre-operation values","related_sources":["asl/tile/model/execution/elementwise.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(0, 128, 8, 2, 1, 2, TileDataType_S64, TileLayout_RowMajor,
        TileLocation_Any);
    ConfigureTile(1, 128, 8, 2, 1, 2, TileDataType_S64, TileLayout_RowMajor,
        TileLocation_Any);
    WriteTileElement(0, 0, 0, WordOfInteger(10));
    WriteTileElement(0, 0, 1, WordOfInteger(20));
    WriteTileElement(1, 0, 0, WordOfInteger(1));
    WriteTileElement(1, 0, 1, WordOfInteger(2));
    assert InstructionContractOperandsLegal_TSUB(1, 0, 1);
    InstructionContractExecute_TSUB(1, 0, 1);
    assert ReadTileElement(1, 0, 0) == WordOfInteger(9);
    assert ReadTileElement(1, 0, 1) == WordOfInteger(18);
    assert ReadTileElement(0, 0, 1) == WordOfInteger(20);
    return 0;
end;
