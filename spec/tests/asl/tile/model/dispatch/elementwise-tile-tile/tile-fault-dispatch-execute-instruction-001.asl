// PTO-TEST: {"id":"PTO-AVS-TILE-DISPATCH-001","source":"asl/tile/model/dispatch/elementwise-tile-tile.asl","requirements":["PTO-TEPL-SELECTOR-001"],"kind":"fault","summary":"The tile execution of the catalog rejects illegal operands with no effect and executes legal ones","pass_condition":"TOR on FP32 faults with the destination untouched; TADD on the same tiles executes; an unassigned selector is an illegal instruction","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    for index = 0 to 2 do
        ConfigureTile(index, 128, 8, 4, 1, 1, TileDataType_FP32,
            TileLayout_RowMajor, TileLocation_Any);
    end;
    WriteTileElement(0, 0, 0, WordOfInteger(0x3f800000));
    WriteTileElement(1, 0, 0, Zeros{64});
    let operands = TileInstructionOperands {
        destination0 = 2, source0 = 0, source1 = 1
    };
    let (rejected, -) = ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(
            NumericApplicabilityRules_None, TileDecode_TEPL,
            Zeros{12} + InstructionContractSelector_TOR(), operands);
    assert rejected == TileExecution_Rejected;
    assert LastFault() == Fault_TileLegality;
    assert !TileElementDefined(2, 0, 0);
    ClearFault();
    let (executed, -) = ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(
            NumericApplicabilityRules_None, TileDecode_TEPL,
            Zeros{12} + InstructionContractSelector_TADD(), operands);
    assert executed == TileExecution_Executed;
    assert ReadTileElement(2, 0, 0) == WordOfInteger(0x3f800000);
    assert DecodeTileOperation(TileDecode_TEPL, Zeros{12} + 13) ==
        PTO_TILE_OPERATION_COUNT;
    return 0;
end;
