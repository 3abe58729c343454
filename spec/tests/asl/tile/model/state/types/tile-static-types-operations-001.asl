// PTO-TEST: {"id":"PTO-AVS-TILE-TYPES-OPERATIONS-001","source":"asl/tile/model/state/types.asl","requirements":[],"kind":"static-invariant","summary":"Each Tile operation has one selector and the shared binary handler","pass_condition":"the eight operations map to distinct selectors that decode back to them","related_sources":["asl/tile/model/dispatch/elementwise-tile-tile.asl"]}
func main() => integer
begin
    var seen = 0;
    for selector = 0 to 31 do
        let index = DecodeTileOperation(TileDecode_TEPL, Zeros{12} + selector);
        if index != PTO_TILE_OPERATION_COUNT then
            let operation = TileOperationOfIndex(index);
            seen = seen + 1;
            assert TileOperationSelector(operation) == selector;
            assert TileOperationHandler(operation) == TileHandler_ExecuteTileBinary;
        end;
    end;
    assert seen == 8;
    return 0;
end;
