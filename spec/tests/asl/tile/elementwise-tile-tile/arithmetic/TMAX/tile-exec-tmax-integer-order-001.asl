// PTO-TEST: {"id":"PTO-AVS-TILE-TMAX-INTEGER-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMAX.asl","requirements":["PTO-INST-TILE-TMAX","PTO-TEPL-INTEGER-WRAP-001"],"kind":"execution","summary":"TMAX orders signed and unsigned integers by their type","pass_condition":"S8 MAX(0xFF, 1) is 1 and U8 MAX(0xFF, 1) is 0xFF; S16 MAX(-5, -9) is -5 sign-extended","related_sources":["asl/tile/model/numeric/integer-elements.asl"]}
func ConfigureOneByOne(data_type: TileDataType, columns: integer)
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, (128 * 8) DIV (columns * TileElementBits(data_type)),
            columns, 1, 1, data_type, TileLayout_RowMajor, TileLocation_Any);
    end;
end;

func main() => integer
begin
    ConfigureOneByOne(TileDataType_S8, 8);
    WriteTileElement(0, 0, 0, WordOfInteger(0xff));
    WriteTileElement(1, 0, 0, WordOfInteger(1));
    InstructionContractExecute_TMAX(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(1);

    ConfigureOneByOne(TileDataType_U8, 8);
    WriteTileElement(0, 0, 0, WordOfInteger(0xff));
    WriteTileElement(1, 0, 0, WordOfInteger(1));
    InstructionContractExecute_TMAX(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(0xff);

    ConfigureOneByOne(TileDataType_S16, 8);
    WriteTileElement(0, 0, 0, WordOfInteger(0xfffb));
    WriteTileElement(1, 0, 0, WordOfInteger(0xfff7));
    InstructionContractExecute_TMAX(2, 0, 1);
    assert ReadTileElement(2, 0, 0) == WordOfInteger(-5);
    return 0;
end;
