// PTO-UNIT: {"id":"PTO-TILE-MODEL-NUMERIC-FP-HOOK","surface":"tile","classification":["model","numeric","fp-hook"],"depends_on":["PTO-TILE-MODEL-STATE-TYPES"]}
// The single numeric profile boundary of the elementwise family: the value
// of one floating element of ADD, SUB, MUL, MAX or MIN. A numeric profile
// supplies the implementation; the reference profile lives in
// asl/arch/profile/reference-profile.asl. An IEEE hardware profile replaces
// only this function and leaves every legality, padding and definedness
// rule unchanged.

// NDF-BEGIN: PTO-TEPL-FP-PROFILE-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// Every floating element result of the elementwise tile-tile family MUST be
// the value returned by TileFPBinaryElement of the selected numeric profile.
// The family MUST NOT record numeric status flags.
// NDF-END: PTO-TEPL-FP-PROFILE-001

impdef func TileFPBinaryElement(op: TileBinaryOperation,
    data_type: TileDataType, left: Word, right: Word) => Word
begin
    // Placeholder until a profile is selected: the left carrier unchanged.
    return left;
end;
