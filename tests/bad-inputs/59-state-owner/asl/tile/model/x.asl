// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}
// PTO-STATE: {"id":"PTO-STATE-X","classification":["x"],"scope":"core","owner":"PTO-TILE-MODEL-Y","members":["X"],"depends_on":[]}
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
