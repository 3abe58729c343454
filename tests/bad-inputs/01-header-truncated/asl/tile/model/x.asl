// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","clas
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
