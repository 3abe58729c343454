// PTO-UNIT: {"id":"PTO-TILE-MODEL-STATE-ALLOCATION","surface":"tile","classification":["model","state","allocation"],"depends_on":["PTO-TILE-MODEL-STATE-LOCAL-REGISTERS"]}
// Capacity, shape derivation and allocation of Local Tile registers.

// A Local Tile occupies 128 bytes to 64 KiB per participating PE, in whole
// 128-byte cells.
pure func TileCapacityIsLegal(capacity_bytes: integer) => boolean
begin
    return capacity_bytes >= 128 && capacity_bytes MOD 128 == 0 &&
           capacity_bytes <= PTO_TILE_MAX_ALLOCATION_BYTES;
end;

// B.IOT SizeCode n selects 128 * 2^(n-1) bytes per PE; 1..10 are legal.
pure func LocalTileSizeCodeIsLegal(size_code: integer) => boolean
begin
    return 1 <= size_code && size_code <= 10;
end;

pure func TileSizeCodeBytes(size_code: integer) => integer
begin
    assert LocalTileSizeCodeIsLegal(size_code);
    var bytes = 128;
    for step = 2 to size_code do
        bytes = bytes * 2;
    end;
    return bytes;
end;

pure func IsPowerOfTwo(value: integer) => boolean
begin
    var remaining = value;
    if remaining < 1 then
        return FALSE;
    end;
    while remaining MOD 2 == 0 do
        remaining = remaining DIV 2;
    end;
    return remaining == 1;
end;

// Physical rows follow from capacity, columns and element width; zero when
// the columns do not divide the capacity exactly.
pure func DerivedTileRows(capacity_bytes: integer, columns: integer,
                          data_type: TileDataType) => integer
begin
    let row_bits = columns * TileElementBits(data_type);
    if columns < 1 || (capacity_bytes * 8) MOD row_bits != 0 then
        return 0;
    end;
    return (capacity_bytes * 8) DIV row_bits;
end;

// Shape rule shared by explicit configuration and Block destinations.
pure func TileShapeIsLegal(capacity_bytes: integer, columns: integer,
                           valid_rows: integer, valid_columns: integer,
                           data_type: TileDataType) => boolean
begin
    if !TileCapacityIsLegal(capacity_bytes) || !IsPowerOfTwo(columns) then
        return FALSE;
    end;
    let derived = DerivedTileRows(capacity_bytes, columns, data_type);
    return derived >= 1 && 1 <= valid_rows && valid_rows <= derived &&
           1 <= valid_columns && valid_columns <= columns;
end;

// The sample model stores at most PTO_MODEL_TILE_ELEMENTS words per Tile.
pure func TileFitsModel(capacity_bytes: integer, columns: integer,
                        data_type: TileDataType) => boolean
begin
    return DerivedTileRows(capacity_bytes, columns, data_type) * columns <=
           PTO_MODEL_TILE_ELEMENTS;
end;

pure func PEMaskPopulation(mask: bits(4)) => integer
begin
    var count = 0;
    for pe = 0 to 3 do
        if mask[pe] == '1' then
            count = count + 1;
        end;
    end;
    return count;
end;

pure func TileCoreAllocationBytes(mask: bits(4), capacity_bytes: integer)
    => integer
begin
    return PEMaskPopulation(mask) * capacity_bytes;
end;

readonly func CoreTileCapacityInUse() => integer
begin
    var total = 0;
    for index = 0 to PTO_TILE_REGISTER_COUNT - 1 do
        if _Tiles[[index]].allocated then
            total = total + TileCoreAllocationBytes(
                _TileAllocationMasks[[index]], _Tiles[[index]].capacity_bytes);
        end;
    end;
    return total;
end;

// Install a fresh descriptor. The payload keeps no defined element: a
// producer must write the Tile before an operation may read it.
func InstallTileDescriptor(index: TileIndex, capacity_bytes: integer,
                           columns: integer, valid_rows: integer,
                           valid_columns: integer, data_type: TileDataType,
                           layout: TileLayout, location: TileLocation,
                           mask: bits(4))
begin
    var tile = EmptyTileInfo();
    tile.allocated = TRUE;
    tile.capacity_bytes = capacity_bytes;
    tile.data_type = data_type;
    tile.columns = columns;
    tile.rows = DerivedTileRows(capacity_bytes, columns, tile.data_type);
    tile.valid_rows = valid_rows;
    tile.valid_columns = valid_columns;
    tile.layout = layout;
    tile.location = location;
    _Tiles[[index]] = tile;
    _TileAllocationMasks[[index]] = mask;
end;

// Test and environment entry point: allocate Tile index with an explicit
// descriptor on the PEs of mask. rows must equal the derived row count.
func ConfigureTileForMask(index: TileIndex, capacity_bytes: integer,
                          rows: integer, columns: integer,
                          valid_rows: integer, valid_columns: integer,
                          data_type: TileDataType, layout: TileLayout,
                          location: TileLocation, mask: bits(4))
begin
    assert mask != Zeros{4};
    assert layout == TileLayout_RowMajor || layout == TileLayout_ColumnMajor;
    assert TileShapeIsLegal(capacity_bytes, columns, valid_rows,
        valid_columns, data_type);
    assert rows == DerivedTileRows(capacity_bytes, columns, data_type);
    assert TileFitsModel(capacity_bytes, columns, data_type);
    InstallTileDescriptor(index, capacity_bytes, columns, valid_rows,
        valid_columns, data_type, layout, location, mask);
end;

// The common case: one participating PE, mask '0001'.
func ConfigureTile(index: TileIndex, capacity_bytes: integer,
                   rows: integer, columns: integer,
                   valid_rows: integer, valid_columns: integer,
                   data_type: TileDataType, layout: TileLayout,
                   location: TileLocation)
begin
    ConfigureTileForMask(index, capacity_bytes, rows, columns, valid_rows,
        valid_columns, data_type, layout, location, '0001');
end;

func ReleaseTile(index: TileIndex)
begin
    _Tiles[[index]] = EmptyTileInfo();
    _TileAllocationMasks[[index]] = Zeros{4};
end;
