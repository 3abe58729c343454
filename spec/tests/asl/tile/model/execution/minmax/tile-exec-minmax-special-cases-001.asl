// PTO-TEST: {"id":"PTO-AVS-TILE-MINMAX-SPECIAL-001","source":"asl/tile/model/execution/minmax.asl","requirements":[],"kind":"execution","summary":"Floating selections resolve NaN and zero cases before ordering","pass_condition":"E5M2 two-NaN gives 0x7e, E4M3 NaN yields the other operand, FP64 -0 MIN +0 gives -0, ties return the left carrier","related_sources":[]}
func main() => integer
begin
    assert TileFloatMinMax(TRUE, TileDataType_E5M2, WordOfInteger(0x7f),
        WordOfInteger(0xfd)) == WordOfInteger(0x7e);
    assert TileFloatMinMax(FALSE, TileDataType_E4M3, WordOfInteger(0x7f),
        WordOfInteger(0x38)) == WordOfInteger(0x38);
    assert TileFloatMinMax(FALSE, TileDataType_FP64, Zeros{64},
        WordOfInteger(0x8000000000000000)) == WordOfInteger(0x8000000000000000);
    assert TileFloatMinMax(TRUE, TileDataType_FP32, WordOfInteger(0x13f800000),
        WordOfInteger(0x3f800000)) == WordOfInteger(0x13f800000);
    assert TileFloatMinMax(FALSE, TileDataType_FP32, WordOfInteger(0xff800000),
        WordOfInteger(0x3f800000)) == WordOfInteger(0xff800000);
    return 0;
end;
