// PTO-TEST: {"id":"PTO-AVS-ARCH-RESET-001","source":"asl/arch/profile/reset.asl","requirements":[],"kind":"state-transition","summary":"ResetProfileState frees every Tile, closes the Block and clears the fault","pass_condition":"after reset T3 is unallocated, no Block is open and the last fault is Fault_None","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    ConfigureTile(3, 128, 16, 1, 1, 1, TileDataType_U64, TileLayout_RowMajor,
        TileLocation_Any);
    WriteTileElement(3, 0, 0, WordOfInteger(9));
    assert ExecuteCommandInstruction(BStartWord(0, 24), 32) == CommandExecution_Executed;
    SetFault(Fault_TileLegality, ReadTPC());
    ResetProfileState();
    assert !TileAllocated(3);
    assert !TileElementDefined(3, 0, 0);
    assert !BlockBundleActive();
    assert LastFault() == Fault_None;
    assert CoreTileCapacityInUse() == 0;
    assert ReadTPC() == Zeros{64};
    return 0;
end;
