// PTO-TEST: {"id":"PTO-AVS-BLOCK-BSTART-VEC-ALIAS-001","source":"asl/block/execution/BSTART.VEC.asl","requirements":["PTO-INST-BLOCK-BSTART-VEC","PTO-BSTART-VEC-ALIAS-001"],"kind":"execution","summary":"BSTART.VEC TMUL, U64 behaves exactly as the BSTART.TEPL word 0xC0219181","pass_condition":"both spellings produce the products 2 and 200 in a new T register","related_sources":["asl/block/model/commit/bundle-commit.asl"]}
func SetUpU64Sources()
begin
    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 8, 2, 1, 2, TileDataType_U64,
            TileLayout_RowMajor, TileLocation_Any);
        WriteTileElement(index, 0, 0, WordOfInteger(index));
        WriteTileElement(index, 0, 1, WordOfInteger(10 * index));
    end;
end;

func RunBlock(use_alias: boolean) => TileIndex
begin
    SetUpU64Sources();
    if use_alias then
        assert ExecuteCommandInstruction(BStartWord(InstructionContractSelector_TMUL(), 24), 32) ==
            CommandExecution_Executed;
    else
        assert ExecuteCommandInstruction(Zeros{64} + 0xc0219181, 32) ==
            CommandExecution_Executed;
    end;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 2), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Executed;
    return BlockLastDestination();
end;

func main() => integer
begin
    for pass = 0 to 1 do
        let d = RunBlock(pass == 0);
        assert d == 0;
        assert ReadTileElement(d, 0, 0) == WordOfInteger(2);
        assert ReadTileElement(d, 0, 1) == WordOfInteger(200);
    end;
    let engine = InstructionContractAliasEngine_BSTART_VEC();
    assert engine == TileEngine_VEC;
    return 0;
end;
