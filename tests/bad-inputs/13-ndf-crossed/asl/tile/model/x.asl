// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
// NDF-BEGIN: PTO-X-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// First rule.
// NDF-BEGIN: PTO-X-002
// ndf: kind=contract level=L1 layer=tile status=accepted
// Second rule.
// NDF-END: PTO-X-001
// NDF-END: PTO-X-002
