// PTO-UNIT: {"id":"PTO-ARCH-PROFILE-REFERENCE-PROFILE","surface":"arch","classification":["profile","reference-profile"],"depends_on":["PTO-TILE-MODEL-NUMERIC-FP-HOOK","PTO-TILE-MODEL-EXECUTION-MINMAX"]}
// The deterministic reference numeric profile of the sample.
//
// Floating ADD, SUB and MUL are modelled on the raw carrier: the two 64-bit
// Words are added, subtracted or multiplied modulo 2^64 and the result is
// stored without narrowing, rounding, NaN handling or flags. This is a
// placeholder that makes every program deterministic; it is not IEEE 754
// arithmetic, and an implementation conforms to the floating values only
// under a profile that replaces TileFPBinaryElement (for example an IEEE
// round-to-nearest-even profile). MAX and MIN are selections and follow the
// ordering rules of asl/tile/model/execution/minmax.asl in every profile.

// NDF-BEGIN: PTO-PROFILE-REFERENCE-FP-001
// ndf: kind=contract level=L1 layer=architecture status=accepted
// Under the reference profile, floating ADD, SUB and MUL element results
// MUST be the modulo-2^64 sum, difference and product of the two carrier
// Words, and floating MAX and MIN MUST be TileFloatMinMax.
// NDF-END: PTO-PROFILE-REFERENCE-FP-001

implementation func TileFPBinaryElement(op: TileBinaryOperation,
    data_type: TileDataType, left: Word, right: Word) => Word
begin
    case op of
        when TileBinary_ADD => return left + right;
        when TileBinary_SUB => return left - right;
        when TileBinary_MUL => return WordOfInteger(UInt(left) * UInt(right));
        when TileBinary_MAX => return TileFloatMinMax(TRUE, data_type, left, right);
        when TileBinary_MIN => return TileFloatMinMax(FALSE, data_type, left, right);
        otherwise => unreachable;
    end;
end;
