// PTO-TEST: {"id":"PTO-AVS-TILE-BINARY-OPERANDS-001","source":"asl/tile/model/legality/binary-operands.asl","requirements":["PTO-TEPL-BINARY-LEGALITY-001"],"kind":"boundary","summary":"Operand legality requires defined, matching, row-major sources","pass_condition":"a column-major set, an undefined right source and a DataType mismatch are each illegal; the matching set is legal","related_sources":[]}
func Prepare(layout: TileLayout, right_type: TileDataType, write_right: boolean)
begin
    ResetProfileState();
    ConfigureTile(0, 128, 2, 8, 1, 1, TileDataType_U64, layout, TileLocation_Any);
    ConfigureTile(1, 128, 2, 8, 1, 1, right_type, layout, TileLocation_Any);
    ConfigureTile(2, 128, 2, 8, 1, 1, TileDataType_U64, layout, TileLocation_Any);
    WriteTileElement(0, 0, 0, WordOfInteger(1));
    if write_right then
        WriteTileElement(1, 0, 0, WordOfInteger(2));
    end;
end;

func AddLegal() => boolean
begin
    return TileOperandsLegal_ExecuteTileBinary(TileBinary_ADD, 2, 0, 1);
end;

func main() => integer
begin
    Prepare(TileLayout_RowMajor, TileDataType_U64, TRUE);
    assert AddLegal();
    Prepare(TileLayout_ColumnMajor, TileDataType_U64, TRUE);
    assert !AddLegal();
    Prepare(TileLayout_RowMajor, TileDataType_U64, FALSE);
    assert !AddLegal();
    Prepare(TileLayout_RowMajor, TileDataType_S64, TRUE);
    assert !AddLegal();
    assert !TileBinaryDataTypeSupported(TileBinary_XOR, TileDataType_FP64);
    assert TileBinaryDataTypeSupported(TileBinary_MIN, TileDataType_E5M2);
    return 0;
end;
