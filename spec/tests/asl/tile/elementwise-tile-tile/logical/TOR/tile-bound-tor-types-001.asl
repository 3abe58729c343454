// PTO-TEST: {"id":"PTO-AVS-TILE-TOR-TYPES-001","source":"asl/tile/elementwise-tile-tile/logical/TOR.asl","requirements":["PTO-INST-TILE-TOR"],"kind":"boundary","summary":"TOR admits exactly the eight integer types","pass_condition":"the eight S and U types of 8 to 64 bits are legal and every floating or packed type is not","related_sources":["asl/tile/model/legality/binary-operands.asl"]}
func main() => integer
begin
    var count = 0;
    for code = 0 to 28 do
        if TileDataTypeCodeAssigned(code) then
            let data_type = TileDataTypeOfCode(code);
            if InstructionContractDataTypeLegal_TOR(data_type) then
                count = count + 1;
                assert TileDataTypeIsInteger(data_type);
                assert TileElementBits(data_type) >= 8;
            end;
        end;
    end;
    assert count == 8;
    let packed = InstructionContractDataTypeLegal_TOR(TileDataType_S4X2);
    let floating = InstructionContractDataTypeLegal_TOR(TileDataType_FP32);
    assert !packed && !floating;
    return 0;
end;
