// PTO-TEST: {"id":"PTO-AVS-ARCH-REFERENCE-PROFILE-001","source":"asl/arch/profile/reference-profile.asl","requirements":["PTO-PROFILE-REFERENCE-FP-001"],"kind":"execution","summary":"The FP hook agrees with IEEE arithmetic on zero operands and selections","pass_condition":"x + 0, x - 0 and x * 0 give x, x and 0, and MAX/MIN select by value","related_sources":["asl/tile/model/numeric/fp-hook.asl"]}
func main() => integer
begin
    let x = WordOfInteger(0x3fc00000);
    assert TileFPBinaryElement(TileBinary_ADD, TileDataType_FP32, x, Zeros{64}) == x;
    assert TileFPBinaryElement(TileBinary_SUB, TileDataType_FP32, x, Zeros{64}) == x;
    assert TileFPBinaryElement(TileBinary_MUL, TileDataType_FP32, x, Zeros{64}) == Zeros{64};
    assert TileFPBinaryElement(TileBinary_MAX, TileDataType_FP32, x,
        WordOfInteger(0x40000000)) == WordOfInteger(0x40000000);
    assert TileFPBinaryElement(TileBinary_MIN, TileDataType_FP64,
        WordOfInteger(0xbff0000000000000), WordOfInteger(0x3ff0000000000000)) ==
        WordOfInteger(0xbff0000000000000);
    return 0;
end;
