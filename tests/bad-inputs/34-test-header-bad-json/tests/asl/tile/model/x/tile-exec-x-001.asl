// PTO-TEST: {"id":"PTO-AVS-TILE-X-001","source":"asl/tile/model/x.asl","requirements":[],"kind":"execution","summary":"X returns zero","pass_condition":"main returns 0","
func main() => integer
begin
    assert X() == 0;
    return 0;
end;
