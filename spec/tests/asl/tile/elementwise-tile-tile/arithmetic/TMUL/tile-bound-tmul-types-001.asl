// PTO-TEST: {"id":"PTO-AVS-TILE-TMUL-TYPES-001","source":"asl/tile/elementwise-tile-tile/arithmetic/TMUL.asl","requirements":["PTO-INST-TILE-TMUL","PTO-TEPL-BINARY-LEGALITY-001"],"kind":"boundary","summary":"TMUL admits exactly the sixteen VEC arithmetic types","pass_condition":"FP16, BF16, S8 and U64 are legal, HiF8, E8M0 and U4X2 are not, and a HiF8 block faults at BSTOP with no destination","related_sources":["asl/tile/model/legality/binary-operands.asl"]}
func Admits(code: integer) => boolean
begin
    return InstructionContractDataTypeLegal_TMUL(TileDataTypeOfCode(code));
end;

func main() => integer
begin
    // FP16, BF16, S8 and U64 are admitted; HiF8, E8M0 and U4X2 are not.
    assert Admits(4) && Admits(5) && Admits(19) && Admits(24);
    assert !Admits(6) && !Admits(13) && !Admits(28);
    var count = 0;
    for code = 0 to 28 do
        if TileDataTypeCodeAssigned(code) &&
           InstructionContractDataTypeLegal_TMUL(TileDataTypeOfCode(code)) then
            count = count + 1;
        end;
    end;
    assert count == 16;

    ResetProfileState();
    for index = 1 to 2 do
        ConfigureTile(index, 128, 16, 8, 1, 1, TileDataType_HiF8,
            TileLayout_RowMajor, TileLocation_Any);
        WriteTileElement(index, 0, 0, WordOfInteger(1));
    end;
    assert ExecuteCommandInstruction(BStartWord(2, 6), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(0, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BDimWord(2, 0, 8), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BIOTWord(1, 2, 1, TRUE, 0, 1), 32) == CommandExecution_Executed;
    assert ExecuteCommandInstruction(BStopWord(), 32) == CommandExecution_Rejected;
    assert BlockLastFault() == Fault_TileLegality;
    assert !TileAllocated(0);
    return 0;
end;
