// PTO-UNIT: {"id":"PTO-TILE-MODEL-STATE-LOCAL-REGISTERS","surface":"tile","classification":["model","state","local-registers"],"depends_on":["PTO-TILE-MODEL-STATE-TYPES","PTO-ARCH-DATA-TYPES-INTEGER"]}
// PTO-STATE: {"id":"PTO-STATE-TILE-LOCAL","classification":["tile","local-registers"],"scope":"core","owner":"PTO-TILE-MODEL-STATE-LOCAL-REGISTERS","members":["_Tiles","_TileAllocationMasks"],"depends_on":[]}

// NDF-BEGIN: PTO-TILE-LOCAL-STATE-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// The 64 Local Tile registers T0..T15, U0..U15, M0..M15 and N0..N15 and the
// four-PE participation mask of each allocation MUST be exactly the state
// [[PTO-STATE-TILE-LOCAL]]. Register k of hand h has TileIndex 16*h + k.
// NDF-END: PTO-TILE-LOCAL-STATE-001

var _Tiles : array [[64]] of TileInfo;
var _TileAllocationMasks : array [[64]] of bits(4);

// A descriptor with no allocation and no defined element.
pure func EmptyTileInfo() => TileInfo
begin
    var tile : TileInfo;
    tile.allocated = FALSE;
    tile.capacity_bytes = 0;
    tile.rows = 0;
    tile.columns = 0;
    tile.valid_rows = 0;
    tile.valid_columns = 0;
    tile.data_type = TileDataType_U64;
    tile.layout = TileLayout_RowMajor;
    tile.location = TileLocation_Any;
    tile.contents_defined = FALSE;
    tile.defined_valid_count = 0;
    for element = 0 to PTO_MODEL_TILE_ELEMENTS - 1 do
        tile.defined[[element]] = FALSE;
        tile.payload[[element]] = Zeros{PTO_XLEN};
    end;
    return tile;
end;

func ResetTileState()
begin
    let empty = EmptyTileInfo();
    for index = 0 to PTO_TILE_REGISTER_COUNT - 1 do
        _Tiles[[index]] = empty;
        _TileAllocationMasks[[index]] = Zeros{4};
    end;
end;
