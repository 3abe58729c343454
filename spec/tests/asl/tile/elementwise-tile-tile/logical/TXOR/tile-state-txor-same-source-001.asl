// PTO-TEST: {"id":"PTO-AVS-TILE-TXOR-SELF-001","source":"asl/tile/elementwise-tile-tile/logical/TXOR.asl","requirements":["PTO-INST-TILE-TXOR","PTO-TEPL-SNAPSHOT-001"],"kind":"state-transition","summary":"TXOR of a Tile with itself into itself clears it","pass_condition":"every valid element of T5 becomes zero after T5 = T5 XOR T5","related_sources":["asl/tile/model/execution/elementwise.asl"]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(5, 128, 8, 8, 2, 3, TileDataType_S16, TileLayout_RowMajor,
        TileLocation_Any);
    for row = 0 to 1 do
        for column = 0 to 2 do
            WriteTileElement(5, row, column, WordOfInteger(-(row + column + 1)));
        end;
    end;
    assert InstructionContractOperandsLegal_TXOR(5, 5, 5);
    InstructionContractExecute_TXOR(5, 5, 5);
    for row = 0 to 1 do
        for column = 0 to 2 do
            assert ReadTileElement(5, row, column) == Zeros{64};
        end;
    end;
    return 0;
end;
