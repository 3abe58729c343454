// PTO-UNIT: {"id":"PTO-TILE-MODEL-DEFINEDNESS-ELEMENTS","surface":"tile","classification":["model","definedness","elements"],"depends_on":["PTO-TILE-MODEL-STATE-ALLOCATION"]}
// Element addressing, per-element definedness and physical padding.

// NDF-BEGIN: PTO-TILE-PADDING-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// After an elementwise operation publishes its valid region, every physical
// element outside that region MUST hold the selected PadValue for the
// destination DataType. Zero, Max and Min padding MUST be defined; Null
// padding MUST leave those elements undefined.
// NDF-END: PTO-TILE-PADDING-001

// Storage position of (row, column). Row-major and column-major are the two
// generic layouts of the sample model.
pure func TileElementPosition(tile: TileInfo, row: integer, column: integer)
    => integer
begin
    assert 0 <= row && row < tile.rows;
    assert 0 <= column && column < tile.columns;
    if tile.layout == TileLayout_ColumnMajor then
        return column * tile.rows + row;
    end;
    return row * tile.columns + column;
end;

pure func TileInValidRegion(tile: TileInfo, row: integer, column: integer)
    => boolean
begin
    return row < tile.valid_rows && column < tile.valid_columns;
end;

// Store value at (row, column) and mark it defined, keeping the count of
// defined valid elements and contents_defined current.
pure func TileInfoWithElement(tile: TileInfo, row: integer, column: integer,
                              value: Word, defined: boolean) => TileInfo
begin
    var result = tile;
    let position = TileElementPosition(tile, row, column);
    let counted = TileInValidRegion(tile, row, column);
    if counted && result.defined[[position]] && !defined then
        result.defined_valid_count = result.defined_valid_count - 1;
    elsif counted && !result.defined[[position]] && defined then
        result.defined_valid_count = result.defined_valid_count + 1;
    end;
    result.payload[[position]] = value;
    result.defined[[position]] = defined;
    result.contents_defined =
        result.defined_valid_count == result.valid_rows * result.valid_columns;
    return result;
end;

func WriteTileElement(index: TileIndex, row: integer, column: integer,
                      value: Word)
begin
    assert _Tiles[[index]].allocated;
    _Tiles[[index]] = TileInfoWithElement(_Tiles[[index]], row, column,
        value, TRUE);
end;

readonly func TileElementDefined(index: TileIndex, row: integer,
                                 column: integer) => boolean
begin
    let tile = _Tiles[[index]];
    if !tile.allocated || row < 0 || row >= tile.rows || column < 0 ||
       column >= tile.columns then
        return FALSE;
    end;
    return tile.defined[[TileElementPosition(tile, row, column)]];
end;

// Reading an undefined element is not an architectural operation.
readonly func ReadTileElement(index: TileIndex, row: integer,
                              column: integer) => Word
begin
    assert TileElementDefined(index, row, column);
    let tile = _Tiles[[index]];
    return tile.payload[[TileElementPosition(tile, row, column)]];
end;

// Observation helper for executors: the stored carrier whether or not the
// element is defined (Null padding stores zero).
readonly func ReadTileElementRaw(index: TileIndex, row: integer,
                                 column: integer) => Word
begin
    let tile = _Tiles[[index]];
    assert tile.allocated;
    return tile.payload[[TileElementPosition(tile, row, column)]];
end;

readonly func TileContentsDefined(index: TileIndex) => boolean
begin
    return _Tiles[[index]].allocated && _Tiles[[index]].contents_defined;
end;

readonly func TileAllocated(index: TileIndex) => boolean
begin
    return _Tiles[[index]].allocated;
end;

readonly func TileRows(index: TileIndex) => integer
begin
    return _Tiles[[index]].rows;
end;

readonly func TileColumns(index: TileIndex) => integer
begin
    return _Tiles[[index]].columns;
end;

readonly func TileValidRows(index: TileIndex) => integer
begin
    return _Tiles[[index]].valid_rows;
end;

readonly func TileValidColumns(index: TileIndex) => integer
begin
    return _Tiles[[index]].valid_columns;
end;

readonly func TileDataTypeOf(index: TileIndex) => TileDataType
begin
    return _Tiles[[index]].data_type;
end;

// Padding carrier per DataType: the largest and smallest finite value for
// floating types, the integer extremes otherwise. Signed minima are stored
// zero-extended, as are all other padding carriers.
pure func TilePaddingWord(pad: TilePadValue, data_type: TileDataType) => Word
begin
    if pad == TilePad_Zero || pad == TilePad_Null then
        return Zeros{PTO_XLEN};
    elsif pad == TilePad_Max then
        case data_type of
            when TileDataType_FP64 => return WordOfInteger(0x7fefffffffffffff);
            when TileDataType_FP32 => return WordOfInteger(0x7f7fffff);
            when TileDataType_TF32 => return WordOfInteger(0x7f7fe000);
            when TileDataType_HF32 => return WordOfInteger(0x7f7ff000);
            when TileDataType_FP16 => return WordOfInteger(0x7bff);
            when TileDataType_BF16 => return WordOfInteger(0x7f7f);
            when TileDataType_E4M3 => return WordOfInteger(0x7e);
            when TileDataType_E5M2 => return WordOfInteger(0x7b);
            when TileDataType_S64 => return WordOfInteger(0x7fffffffffffffff);
            when TileDataType_S32 => return WordOfInteger(0x7fffffff);
            when TileDataType_S16 => return WordOfInteger(0x7fff);
            when TileDataType_S8 => return WordOfInteger(0x7f);
            when TileDataType_U32 => return WordOfInteger(0xffffffff);
            when TileDataType_U16 => return WordOfInteger(0xffff);
            when TileDataType_U8 => return WordOfInteger(0xff);
            otherwise => return Ones{PTO_XLEN};
        end;
    else
        case data_type of
            when TileDataType_FP64 => return WordOfInteger(0xffefffffffffffff);
            when TileDataType_FP32 => return WordOfInteger(0xff7fffff);
            when TileDataType_TF32 => return WordOfInteger(0xff7fe000);
            when TileDataType_HF32 => return WordOfInteger(0xff7ff000);
            when TileDataType_FP16 => return WordOfInteger(0xfbff);
            when TileDataType_BF16 => return WordOfInteger(0xff7f);
            when TileDataType_E4M3 => return WordOfInteger(0xfe);
            when TileDataType_E5M2 => return WordOfInteger(0xfb);
            when TileDataType_S32 => return WordOfInteger(0x80000000);
            when TileDataType_S16 => return WordOfInteger(0x8000);
            when TileDataType_S8 => return WordOfInteger(0x80);
            when TileDataType_U64, TileDataType_U32, TileDataType_U16,
                 TileDataType_U8, TileDataType_U4X2 => return Zeros{PTO_XLEN};
            otherwise => return WordOfInteger(0x8000000000000000);
        end;
    end;
end;

// Mark the whole valid region defined (its values were just written).
pure func TileWithValidRegionDefined(tile: TileInfo) => TileInfo
begin
    var result = tile;
    for row = 0 to tile.valid_rows - 1 do
        for column = 0 to tile.valid_columns - 1 do
            result.defined[[TileElementPosition(tile, row, column)]] = TRUE;
        end;
    end;
    result.defined_valid_count = tile.valid_rows * tile.valid_columns;
    result.contents_defined = TRUE;
    return result;
end;

// Fill every physical element outside the valid region with the padding
// carrier; Null padding stores zero and leaves the element undefined.
pure func TileWithPadding(tile: TileInfo, pad: TilePadValue) => TileInfo
begin
    var result = tile;
    let padding = TilePaddingWord(pad, tile.data_type);
    let defined = pad != TilePad_Null;
    for row = 0 to tile.rows - 1 do
        for column = 0 to tile.columns - 1 do
            if !TileInValidRegion(tile, row, column) then
                let position = TileElementPosition(tile, row, column);
                result.payload[[position]] = padding;
                result.defined[[position]] = defined;
            end;
        end;
    end;
    return result;
end;
