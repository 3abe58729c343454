// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
// NDF-BEGIN: PTO-X-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// X MUST return zero.
// NDF-END: PTO-X-001
