// PTO-TEST: {"id":"PTO-AVS-TILE-FP-HOOK-001","source":"asl/tile/model/numeric/fp-hook.asl","requirements":["PTO-TEPL-FP-PROFILE-001"],"kind":"execution","summary":"Floating elements go through the selected profile hook, integers do not","pass_condition":"a floating MAX returns the larger right operand instead of the placeholder left carrier, and an integer ADD bypasses the hook","related_sources":["asl/arch/profile/reference-profile.asl"]}
func main() => integer
begin
    assert TileBinaryElement(TileBinary_MAX, TileDataType_BF16,
        WordOfInteger(0x3f80), WordOfInteger(0x4000)) == WordOfInteger(0x4000);
    assert TileBinaryElement(TileBinary_ADD, TileDataType_U32,
        WordOfInteger(0xffffffff), WordOfInteger(2)) == WordOfInteger(1);
    return 0;
end;
