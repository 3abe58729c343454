// PTO-TEST: {"id":"PTO-AVS-TILE-INTEGER-ELEMENTS-001","source":"asl/tile/model/numeric/integer-elements.asl","requirements":["PTO-TEPL-INTEGER-WRAP-001"],"kind":"execution","summary":"Integer element results wrap and extend by signedness","pass_condition":"S16 0x7fff+1 is sign-extended 0x8000, U16 0xffff*0xffff keeps 0x0001, and high carrier bits are ignored","related_sources":[]}
func main() => integer
begin
    assert TileIntegerBinaryElement(TileBinary_ADD, TileDataType_S16,
        WordOfInteger(0x7fff), WordOfInteger(1)) == WordOfInteger(-32768);
    assert TileIntegerBinaryElement(TileBinary_MUL, TileDataType_U16,
        WordOfInteger(0xffff), WordOfInteger(0xffff)) == WordOfInteger(1);
    assert TileIntegerBinaryElement(TileBinary_ADD, TileDataType_U8,
        WordOfInteger(0x1ff), WordOfInteger(1)) == Zeros{64};
    assert TileIntegerBinaryElement(TileBinary_MUL, TileDataType_S64,
        WordOfInteger(-3), WordOfInteger(5)) == WordOfInteger(-15);
    assert TileIntegerBinaryElement(TileBinary_MIN, TileDataType_S32,
        WordOfInteger(0x80000000), WordOfInteger(1)) == WordOfInteger(-2147483648);
    assert TileIntegerBinaryElement(TileBinary_XOR, TileDataType_S32,
        WordOfInteger(-1), Zeros{64}) == WordOfInteger(0xffffffff);
    return 0;
end;
