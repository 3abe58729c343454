// PTO-UNIT: ["PTO-TILE-MODEL-X","tile"]
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
