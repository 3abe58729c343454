// PTO-UNIT: {"id":"PTO-ARCH-PROFILE-RESET","surface":"arch","classification":["profile","reset"],"depends_on":["PTO-TILE-MODEL-STATE-LOCAL-REGISTERS","PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","PTO-ARCH-FAULTS-ARCHITECTURAL-FAULTS"]}
// Explicit reference reset: every Tile register unallocated with no defined
// element, no open Block, and no recorded fault. Tests and executors call it
// before building initial state.

func ResetProfileState()
begin
    ResetTileState();
    ResetBundleState();
    ClearFault();
    _LastFaultAddress = Zeros{PTO_XLEN};
end;
