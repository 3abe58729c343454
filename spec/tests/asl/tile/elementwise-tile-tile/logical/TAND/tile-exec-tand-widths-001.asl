// PTO-TEST: {"id":"PTO-AVS-TILE-TAND-WIDTHS-001","source":"asl/tile/elementwise-tile-tile/logical/TAND.asl","requirements":["PTO-INST-TILE-TAND"],"kind":"execution","summary":"TAND combines element-width bits and stores them zero-extended","pass_condition":"U8 0xF0 AND 0x3C is 0x30 and S8 0xFF AND 0x81 is 0x81 without sign extension","related_sources":["asl/tile/model/numeric/integer-elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 16, 8, 1, 1, TileDataType_U8,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(0xf0));
    WriteTileElement(1, 0, 0, WordOfInteger(0x3c));
    InstructionContractExecute_TAND(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(0x30);

    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 16, 8, 1, 1, TileDataType_S8,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(-1));
    WriteTileElement(1, 0, 0, WordOfInteger(0x81));
    assert InstructionContractOperandsLegal_TAND(2, 0, 1);
    InstructionContractExecute_TAND(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(0x81);
    return 0;
end;
