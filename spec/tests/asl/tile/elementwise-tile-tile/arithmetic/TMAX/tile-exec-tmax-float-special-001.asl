// PTO-TEST: {"id":"PTO-AVS-TILE-TMAX-FLOAT-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMAX.asl","requirements":["PTO-INST-TILE-TMAX"],"kind":"execution","summary":"Floating TMAX resolves NaNs and signed zeros before ordering","pass_condition":"FP32 qNaN vs 1.0 gives 1.0, two NaNs give 0x7fc00000, FP16 -0 vs +0 gives +0, -0 vs -0 gives -0, and BF16 -2.0 vs -1.0 gives -1.0","related_sources":["asl/tile/model/execution/minmax.asl"]}
func RunPair(data_type: TileDataType, columns: integer, left: integer,
             right: integer) => Word
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, (128 * 8) DIV (columns * TileElementBits(data_type)),
            columns, 1, 1, data_type, TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(left));
    WriteTileElement(1, 0, 0, WordOfInteger(right));
    assert InstructionContractOperandsLegal_TMAX(2, 0, 1);
    InstructionContractExecute_TMAX(2, 0, 1);
    return ReadTileElement(2, 0, 0);
end;

func main() => integer
begin
    assert RunPair(TileDataType_FP32, 4, 0x7fc00001, 0x3f800000) ==
        WordOfInteger(0x3f800000);
    assert RunPair(TileDataType_FP32, 4, 0x7f800001, 0xffc00000) ==
        WordOfInteger(0x7fc00000);
    assert RunPair(TileDataType_FP16, 8, 0x8000, 0x0000) == Zeros{64};
    assert RunPair(TileDataType_FP16, 8, 0x8000, 0x8000) == WordOfInteger(0x8000);
    assert RunPair(TileDataType_BF16, 8, 0xc000, 0xbf80) == WordOfInteger(0xbf80);
    assert RunPair(TileDataType_FP16, 8, 0x3c00, 0x3c00) == WordOfInteger(0x3c00);
    return 0;
end;
