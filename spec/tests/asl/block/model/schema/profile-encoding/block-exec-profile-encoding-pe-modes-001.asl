// PTO-TEST: {"id":"PTO-AVS-BLOCK-PROFILE-ENCODING-001","source":"asl/block/model/schema/profile-encoding.asl","requirements":[],"kind":"execution","summary":"The eight PE modes decode to eight distinct masks that encode back","pass_condition":"every PEMode round-trips through its mask, exactly eight masks are encodable, and BSTOP is the word 1","related_sources":[]}
func main() => integer
begin
    for mode = 0 to 7 do
        assert PEModeOfMask(PEMaskOfPEMode(mode)) == mode;
    end;
    var encodable = 0;
    for value = 0 to 15 do
        if PEModeOfMask(Zeros{4} + value) >= 0 then
            encodable = encodable + 1;
        end;
    end;
    assert encodable == 8;
    assert TEPLSelector(1, 3) == 35;
    assert BStopWord() == Zeros{64} + 1;
    return 0;
end;
