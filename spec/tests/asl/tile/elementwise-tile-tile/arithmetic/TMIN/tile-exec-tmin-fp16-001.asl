// PTO-TEST: {"id":"PTO-AVS-TILE-TMIN-FP16-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMIN.asl","requirements":["PTO-INST-TILE-TMIN"],"kind":"execution","summary":"FP16 TMIN picks -0 for mixed zeros, the smaller value otherwise, and the number beside a NaN","pass_condition":"MIN(+0, -0) is 0x8000, MIN(1.0, -2.0) is 0xC000 and MIN(NaN, 2.0) is 0x4000 in one 1x3 block","related_sources":["asl/tile/model/execution/minmax.asl","asl/block/model/commit/bundle-commit.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 8, 1, 3, TileDataType_FP16,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(1, 0, 0, Zeros{64});
    WriteTileElement(2, 0, 0, WordOfInteger(0x8000));
    WriteTileElement(1, 0, 1, WordOfInteger(0x3c00));
    WriteTileElement(2, 0, 1, WordOfInteger(0xc000));
    WriteTileElement(1, 0, 2, WordOfInteger(0x7e00));
    WriteTileElement(2, 0, 2, WordOfInteger(0x4000));
    assert ExecuteCommandInstruction(BStartWord(12, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 3), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 8), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 2, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    assert d == 32;
    assert ReadTileElement(d, 0, 0) == WordOfInteger(0x8000);
    assert ReadTileElement(d, 0, 1) == WordOfInteger(0xc000);
    assert ReadTileElement(d, 0, 2) == WordOfInteger(0x4000);
    return 0;
end;
