// PTO-UNIT: {id: PTO-TILE-MODEL-X, surface: tile}
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
