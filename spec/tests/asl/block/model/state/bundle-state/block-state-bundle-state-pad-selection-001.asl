// PTO-TEST: {"id":"PTO-AVS-BLOCK-BUNDLE-STATE-PAD-001","source":"asl/block/model/state/bundle-state.asl","requirements":["PTO-BLOCK-BUNDLE-STATE-001"],"kind":"state-transition","summary":"The pad value is Null without B.DATR and follows the B.DATR code otherwise","pass_condition":"each PadValue code selects Zero, Max, Min or Null and a new start forgets the previous attributes","related_sources":[]}
func main() => integer
begin
    ResetProfileState();
    assert CurrentBundlePadValue() == TilePad_Null;
    for pad = 0 to 3 do
        ResetProfileState();
        assert ExecuteCommandInstruction(BStartWord(2, 24), 32) == CommandExecution_Executed;
        assert ExecuteCommandInstruction(BDatrPadWord(pad), 32) == CommandExecution_Executed;
        case pad of
            when 0 => assert CurrentBundlePadValue() == TilePad_Zero;
            when 1 => assert CurrentBundlePadValue() == TilePad_Max;
            when 2 => assert CurrentBundlePadValue() == TilePad_Min;
            otherwise => assert CurrentBundlePadValue() == TilePad_Null;
        end;
    end;
    ClearBundleState();
    assert !BlockBundleActive();
    assert CurrentBundlePadValue() == TilePad_Null;
    return 0;
end;
