// PTO-TEST: {"id":"PTO-AVS-TILE-ALLOCATION-SHAPE-001","source":"asl/tile/model/state/allocation.asl","requirements":[],"kind":"execution","summary":"Capacity, size codes and derived rows follow the shape rules","pass_condition":"SizeCode 1 and 10 are 128 B and 64 KiB, rows derive from capacity, and illegal shapes are rejected","related_sources":[]}
func main() => integer
begin
    assert TileSizeCodeBytes(1) == 128 && TileSizeCodeBytes(10) == 65536;
    assert !LocalTileSizeCodeIsLegal(0) && !LocalTileSizeCodeIsLegal(11);
    assert DerivedTileRows(128, 4, TileDataType_U64) == 4;
    assert DerivedTileRows(128, 4, TileDataType_FP16) == 16;
    assert DerivedTileRows(128, 3, TileDataType_U8) == 0;
    assert !TileShapeIsLegal(128, 3, 1, 1, TileDataType_U8);
    assert !TileShapeIsLegal(128, 4, 5, 1, TileDataType_U64);
    assert TileShapeIsLegal(256, 8, 8, 8, TileDataType_S32);
    assert !TileCapacityIsLegal(192) && TileCapacityIsLegal(65536);
    assert TileCoreAllocationBytes('1111', 512) == 2048;
    ResetProfileState();
    ConfigureTileForMask(4, 512, 16, 8, 1, 1, TileDataType_S32,
        TileLayout_RowMajor, TileLocation_Any, '1100');
    assert CoreTileCapacityInUse() == 1024;
    ReleaseTile(4);
    assert CoreTileCapacityInUse() == 0;
    return 0;
end;
