// PTO-TEST: {"id":"PTO-AVS-ARCH-INTEGER-WORD-001","source":"asl/arch/data-types/integer.asl","requirements":[],"kind":"execution","summary":"WordOfInteger reduces integers modulo 2^64","pass_condition":"-1 is all ones, 2^64 + 5 is 5 and the Tile register count is 64","related_sources":[]}
func main() => integer
begin
    assert WordOfInteger(-1) == Ones{64};
    assert WordOfInteger(0x10000000000000005) == Zeros{64} + 5;
    assert UInt(WordOfInteger(0xffffffffffffffff)) == 0xffffffffffffffff;
    assert PTO_TILE_REGISTER_COUNT == 64 && PTO_XLEN == 64;
    return 0;
end;
