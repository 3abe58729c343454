// PTO-TEST: {"id":"PTO-AVS-TILE-TXOR-U32-001","source":"asl/tile/elementwise-tile-tile/logical/TXOR.asl","requirements":["PTO-INST-TILE-TXOR","PTO-TILE-PADDING-001"],"kind":"execution","summary":"The documented U32 TXOR example block with Max padding","pass_condition":"0xFFFF0000 XOR 0x0F0F0F0F is 0xF0F00F0F and padding is the defined U32 maximum","related_sources":["asl/block/model/commit/bundle-commit.asl","asl/tile/model/definedness/elements.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 4, 1, 2, TileDataType_U32,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(1, 0, 0, WordOfInteger(0xffff0000));
    WriteTileElement(1, 0, 1, WordOfInteger(7));
    WriteTileElement(2, 0, 0, WordOfInteger(0x0f0f0f0f));
    WriteTileElement(2, 0, 1, WordOfInteger(7));
    // BSTART.VEC TXOR, U32; B.DATR PadValue=Max; B.DIM LB0=2; B.DIM LB2=4;
    // B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP
    assert ExecuteCommandInstruction(BStartWord(8, 25), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDatrPadWord(1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 4), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    let d = BlockLastDestination();
    assert ReadTileElement(d, 0, 0) == WordOfInteger(0xf0f00f0f);
    assert ReadTileElement(d, 0, 1) == Zeros{64};
    assert ReadTileElement(d, 0, 3) == WordOfInteger(0xffffffff);
    assert ReadTileElement(d, 7, 0) == WordOfInteger(0xffffffff);
    return 0;
end;
