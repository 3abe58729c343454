// PTO-TEST: {"id":"PTO-AVS-ARCH-TILE-DATA-TYPES-CODES-001","source":"asl/arch/data-types/tile-data-types.asl","requirements":[],"kind":"static-invariant","summary":"The 25 TileDataType codes round-trip and the reserved codes are not types","pass_condition":"every assigned code maps to a type whose code is the same, exactly 25 codes are assigned, and widths match the names","related_sources":[]}
func main() => integer
begin
    var assigned = 0;
    for code = 0 to 31 do
        if TileDataTypeCodeAssigned(code) then
            assigned = assigned + 1;
            assert TileDataTypeCode(TileDataTypeOfCode(code)) == code;
        end;
    end;
    assert assigned == 25;
    assert !TileDataTypeCodeAssigned(15) && !TileDataTypeCodeAssigned(21);
    assert !TileDataTypeCodeAssigned(29) && !TileDataTypeCodeAssigned(DTYPE_NONE_CODE);
    assert TileDataTypeOfCode(5) == TileDataType_BF16;
    assert TileDataTypeOfCode(27) == TileDataType_U8;
    assert TileElementBits(TileDataType_HF32) == 32;
    assert TileElementBits(TileDataType_E4M3) == 8;
    assert TileElementBits(TileDataType_S4X2) == 4;
    assert TileDataTypeIsSigned(TileDataType_S16);
    assert TileDataTypeIsFloating(TileDataType_E8M0);
    return 0;
end;
