// PTO-UNIT: {"id":"PTO-TILE-MODEL-LEGALITY-BINARY-OPERANDS","surface":"tile","classification":["model","legality","binary-operands"],"depends_on":["PTO-TILE-MODEL-DEFINEDNESS-ELEMENTS","PTO-ARCH-DATA-TYPES-FLOATING-FORMATS"]}
// Legality predicates of the closed elementwise tile-tile family. Every
// predicate is side-effect free; a FALSE result is turned into
// Fault_TileLegality by the Block commit before any Tile is written.

// NDF-BEGIN: PTO-TEPL-BINARY-LEGALITY-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// An elementwise tile-tile operation MUST be rejected unless both sources
// and the destination are legal row-major descriptors with one physical
// shape, one valid shape and one DataType, both sources are fully defined,
// and the DataType belongs to the set admitted for the operation.
// NDF-END: PTO-TEPL-BINARY-LEGALITY-001

// ADD, SUB, MUL, MAX and MIN: the sixteen types of the VEC arithmetic set.
pure func TileVecArithmeticDataTypeSupported(data_type: TileDataType)
    => boolean
begin
    case data_type of
        when TileDataType_FP64, TileDataType_FP32,
             TileDataType_TF32, TileDataType_HF32,
             TileDataType_FP16, TileDataType_BF16,
             TileDataType_E4M3, TileDataType_E5M2 => return TRUE;
        when TileDataType_S64, TileDataType_S32,
             TileDataType_S16, TileDataType_S8,
             TileDataType_U64, TileDataType_U32,
             TileDataType_U16, TileDataType_U8 => return TRUE;
        otherwise => return FALSE;
    end;
end;

// AND, OR and XOR: the eight integer types.
pure func TileVecIntegerDataTypeSupported(data_type: TileDataType)
    => boolean
begin
    case data_type of
        when TileDataType_S64, TileDataType_S32, TileDataType_S16,
             TileDataType_S8, TileDataType_U64, TileDataType_U32,
             TileDataType_U16, TileDataType_U8 => return TRUE;
        otherwise => return FALSE;
    end;
end;

pure func TileBinaryDataTypeSupported(op: TileBinaryOperation,
                                      data_type: TileDataType) => boolean
begin
    case op of
        when TileBinary_AND, TileBinary_OR, TileBinary_XOR =>
            return TileVecIntegerDataTypeSupported(data_type);
        otherwise =>
            return TileVecArithmeticDataTypeSupported(data_type);
    end;
end;

readonly func TileDescriptorLegal(i: TileIndex) => boolean
begin
    let tile = _Tiles[[i]];
    return tile.allocated &&
           TileShapeIsLegal(tile.capacity_bytes, tile.columns,
               tile.valid_rows, tile.valid_columns, tile.data_type) &&
           tile.rows == DerivedTileRows(tile.capacity_bytes, tile.columns,
               tile.data_type) &&
           (tile.layout == TileLayout_RowMajor ||
            tile.layout == TileLayout_ColumnMajor);
end;

readonly func TileShapeAndTypeMatch(left: TileIndex, right: TileIndex)
    => boolean
begin
    let a = _Tiles[[left]];
    let b = _Tiles[[right]];
    if !TileDescriptorLegal(left) || !TileDescriptorLegal(right) then
        return FALSE;
    end;
    return a.rows == b.rows && a.columns == b.columns &&
           a.valid_rows == b.valid_rows &&
           a.valid_columns == b.valid_columns &&
           a.layout == b.layout && a.data_type == b.data_type;
end;

readonly func TileSourceContentsDefined(i: TileIndex) => boolean
begin
    return _Tiles[[i]].contents_defined && TileDescriptorLegal(i);
end;

// TF32 and HF32 carriers must keep their unused fraction bits zero before a
// floating MAX or MIN may order them.
readonly func TileSourceEncodingsValid(i: TileIndex) => boolean
begin
    let tile = _Tiles[[i]];
    for row = 0 to tile.valid_rows - 1 do
        for column = 0 to tile.valid_columns - 1 do
            if !FloatEncodingValid(tile.data_type,
                   tile.payload[[TileElementPosition(tile, row, column)]]) then
                return FALSE;
            end;
        end;
    end;
    return TRUE;
end;

readonly func TileOperandsLegal_ExecuteTileBinary(op: TileBinaryOperation,
    destination: TileIndex, source_left: TileIndex, source_right: TileIndex)
    => boolean
begin
    if !TileShapeAndTypeMatch(source_left, source_right) ||
       !TileShapeAndTypeMatch(destination, source_left) then
        return FALSE;
    end;
    let data_type = _Tiles[[source_left]].data_type;
    if !TileSourceContentsDefined(source_left) ||
       !TileSourceContentsDefined(source_right) ||
       !TileBinaryDataTypeSupported(op, data_type) ||
       _Tiles[[source_left]].layout != TileLayout_RowMajor then
        return FALSE;
    end;
    if (op == TileBinary_MAX || op == TileBinary_MIN) &&
       TileDataTypeIsFloating(data_type) then
        return TileSourceEncodingsValid(source_left) &&
               TileSourceEncodingsValid(source_right);
    end;
    return TRUE;
end;
