// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
