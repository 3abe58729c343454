// PTO-TEST: {"id":"PTO-AVS-BLOCK-B-DIM-DECODE-001","source":"asl/block/attributes/B.DIM.asl","requirements":["PTO-INST-BLOCK-B-DIM"],"kind":"decode-positive","summary":"B.DIM words split uimm17 across bits 31:20 and 11:7","pass_condition":"B.DIM zero, 2, ->LB0 is 0x00200043 and a word with uimm17 0x1ABCD decodes back to LB1, RegSrc 5 and 0x1ABCD","related_sources":["asl/block/model/schema/profile-encoding.asl"]}
func main() => integer
begin
    assert BDimWord(0, 0, 2) == Zeros{32} + 0x00200043;
    let word = BDimWord(1, 5, 0x1abcd);
    let (matched, lb, reg_src, uimm17) = DecodeBDim(word);
    assert matched && lb == 1 && reg_src == 5 && uimm17 == 0x1abcd;
    let (other, -, -, -) = DecodeBDim(Zeros{32} + 0x00003043);
    assert !other;
    return 0;
end;
