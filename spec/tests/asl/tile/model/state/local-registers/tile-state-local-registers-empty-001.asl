// PTO-TEST: {"id":"PTO-AVS-TILE-LOCAL-REGISTERS-001","source":"asl/tile/model/state/local-registers.asl","requirements":["PTO-TILE-LOCAL-STATE-001"],"kind":"state-transition","summary":"Reset leaves all 64 Local Tile registers unallocated with empty masks","pass_condition":"every register of every hand is unallocated and configuring N15 touches only register 63","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 63 do
        assert !TileAllocated(index);
        assert _TileAllocationMasks[[index]] == Zeros{4};
    end;
    ConfigureTile(63, 256, 32, 1, 1, 1, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    assert TileAllocated(63) && !TileAllocated(62);
    assert _TileAllocationMasks[[63]] == '0001';
    return 0;
end;
