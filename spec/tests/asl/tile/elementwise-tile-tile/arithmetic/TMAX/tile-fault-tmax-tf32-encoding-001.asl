// PTO-TEST: {"id":"PTO-AVS-TILE-TMAX-ENCODING-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMAX.asl","requirements":["PTO-INST-TILE-TMAX","PTO-TEPL-BINARY-LEGALITY-001"],"kind":"fault","summary":"Floating TMAX rejects a TF32 source whose unused fraction bits are set","pass_condition":"the operand predicate is FALSE and the tile execution faults with Fault_TileLegality leaving the destination undefined","related_sources":["asl/tile/model/legality/binary-operands.asl"]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 8, 4, 1, 1, TileDataType_TF32,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(0x3f800001));
    WriteTileElement(1, 0, 0, WordOfInteger(0x3f800000));
    assert !InstructionContractOperandsLegal_TMAX(2, 0, 1);
    let (status, -) = ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(
            NumericApplicabilityRules_None, TileDecode_TEPL,
            Zeros{12} + InstructionContractSelector_TMAX(),
            TileInstructionOperands {
                destination0 = 2, source0 = 0, source1 = 1
            });
    assert status == TileExecution_Rejected;
    assert LastFault() == Fault_TileLegality;
    assert !TileContentsDefined(2);
    assert InstructionContractOperandsLegal_TADD(2, 0, 1);
    return 0;
end;
