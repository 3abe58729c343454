// PTO-TEST: {"id":"PTO-AVS-TILE-HOSTILE-001","source":"asl/tile/model/hostile.asl","requirements":["PTO-HOSTILE-001"],"kind":"execution","summary":"Shows <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) {{ 7*7 }} {% raw %} as text","pass_condition":"main returns 0 <img src=x onerror=alert(1)>","related_sources":[]}
func main() => integer
begin
    assert Hostile() == 49;
    return 0;
end;
