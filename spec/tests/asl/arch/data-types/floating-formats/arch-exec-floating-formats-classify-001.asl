// PTO-TEST: {"id":"PTO-AVS-ARCH-FLOATING-FORMATS-001","source":"asl/arch/data-types/floating-formats.asl","requirements":[],"kind":"execution","summary":"Floating classification recognises NaNs, zeros and the E4M3 special case","pass_condition":"quiet and signalling NaNs, signed zeros, canonical NaNs, TF32 validity and order keys all match their encodings","related_sources":[]}
func main() => integer
begin
    assert FloatIsNaN(TileDataType_FP32, WordOfInteger(0x7fc00000));
    assert FloatIsSignalingNaN(TileDataType_FP32, WordOfInteger(0x7f800001));
    assert !FloatIsNaN(TileDataType_FP32, WordOfInteger(0x7f800000));
    assert FloatIsNaN(TileDataType_E4M3, WordOfInteger(0xff));
    assert !FloatIsNaN(TileDataType_E4M3, WordOfInteger(0x7e));
    assert FloatIsNaN(TileDataType_E5M2, WordOfInteger(0x7d));
    assert FloatIsNegativeZero(TileDataType_BF16, WordOfInteger(0x8000));
    assert FloatIsZero(TileDataType_FP64, Zeros{64});
    assert FloatCanonicalNaN(TileDataType_FP16) == WordOfInteger(0x7e00);
    assert !FloatEncodingValid(TileDataType_TF32, WordOfInteger(0x3f801000));
    assert FloatEncodingValid(TileDataType_TF32, WordOfInteger(0x3f802000));
    assert FloatOrderKey(TileDataType_FP16, WordOfInteger(0xc000)) <
           FloatOrderKey(TileDataType_FP16, WordOfInteger(0xbc00));
    assert FloatOrderKey(TileDataType_FP16, WordOfInteger(0x8000)) <
           FloatOrderKey(TileDataType_FP16, WordOfInteger(0x0000));
    return 0;
end;
