// PTO-UNIT: {"id":"PTO-TILE-MODEL-EXECUTION-ELEMENTWISE","surface":"tile","classification":["model","execution","elementwise"],"depends_on":["PTO-TILE-MODEL-LEGALITY-BINARY-OPERANDS","PTO-TILE-MODEL-NUMERIC-INTEGER-ELEMENTS","PTO-TILE-MODEL-NUMERIC-FP-HOOK","PTO-TILE-MODEL-EXECUTION-MINMAX","PTO-BLOCK-MODEL-STATE-BUNDLE-STATE"]}
// The effect of the elementwise tile-tile family.

// NDF-BEGIN: PTO-TEPL-SNAPSHOT-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// An elementwise tile-tile operation MUST read both sources in full before
// it writes any destination element, so a destination that names a source
// register sees only pre-operation values. The valid region, its
// definedness and the padding MUST become visible together.
// NDF-END: PTO-TEPL-SNAPSHOT-001

// One element: integers use the wrap rules, floats go through the profile.
func TileBinaryElement(op: TileBinaryOperation, data_type: TileDataType,
                       left: Word, right: Word) => Word
begin
    if TileDataTypeIsInteger(data_type) then
        return TileIntegerBinaryElement(op, data_type, left, right);
    end;
    return TileFPBinaryElement(op, data_type, left, right);
end;

// Preconditions are TileOperandsLegal_ExecuteTileBinary; the Block commit
// establishes them before calling. The destination is built in a local copy
// and published with one assignment.
func ExecuteTileBinary(op: TileBinaryOperation,
    destination: TileIndex, source_left: TileIndex, source_right: TileIndex)
begin
    let left = _Tiles[[source_left]];
    let right = _Tiles[[source_right]];
    assert left.allocated && right.allocated;
    assert _Tiles[[destination]].allocated;
    var result = _Tiles[[destination]];
    for row = 0 to left.valid_rows - 1 do
        for column = 0 to left.valid_columns - 1 do
            let position = TileElementPosition(left, row, column);
            result.payload[[position]] = TileBinaryElement(op,
                left.data_type, left.payload[[position]],
                right.payload[[position]]);
        end;
    end;
    result = TileWithValidRegionDefined(result);
    result = TileWithPadding(result, CurrentBundlePadValue());
    _Tiles[[destination]] = result;
end;
