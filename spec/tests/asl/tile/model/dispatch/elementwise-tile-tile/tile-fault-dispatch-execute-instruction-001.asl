// PTO-TEST: {"id":"PTO-AVS-TILE-DISPATCH-001","source":"asl/tile/model/dispatch/elementwise-tile-tile.asl","requirements":["PTO-TEPL-SELECTOR-001"],"kind":"fault","summary":"ExecuteTileInstruction rejects illegal operands with no effect and executes legal ones","pass_condition":"TOR on FP32 faults with the destination untouched; TADD on the same tiles executes","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 8, 4, 1, 1, TileDataType_FP32,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(0x3f800000));
    WriteTileElement(1, 0, 0, Zeros{64});
    assert ExecuteTileInstruction(TileOperation_TOR, 2, 0, 1) == BlockStatus_Faulted;
    assert LastFault() == Fault_TileLegality;
    assert !TileElementDefined(2, 0, 0);
    assert ExecuteTileInstruction(TileOperation_TADD, 2, 0, 1) == BlockStatus_Executed;
    assert ReadTileElement(2, 0, 0) == WordOfInteger(0x3f800000);
    let (assigned, -) = TileOperationOfSelector(13);
    assert !assigned;
    return 0;
end;
