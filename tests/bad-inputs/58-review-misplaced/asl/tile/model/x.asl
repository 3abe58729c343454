// PTO-UNIT: {"id":"PTO-TILE-MODEL-X","surface":"tile","classification":["model"],"depends_on":[]}
// PTO-REVIEW: {"review_method":"formal-definition-read","outcome":"AMBIGUOUS","reviewed_fields":["assembly","encoding","defaults","operation","state","memory","ordering","faults","reserved"]}
// A tiny model unit.
func X() => integer
begin
    return 0;
end;
