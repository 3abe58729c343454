// PTO-UNIT: {"id":"PTO-TILE-MODEL-EXECUTION-MINMAX","surface":"tile","classification":["model","execution","minmax"],"depends_on":["PTO-ARCH-DATA-TYPES-FLOATING-FORMATS","PTO-TILE-MODEL-STATE-TYPES"]}
// Floating MAX and MIN select one operand; they never round. Special cases
// come first: two NaNs give the canonical NaN of the type, one NaN gives the
// other operand, a pair of zeros gives +0 for MAX unless both are -0, and -0
// for MIN when either is -0. Otherwise the larger (MAX) or smaller (MIN)
// value wins and a tie returns the left operand. The selected carrier is
// returned whole.

pure func TileFloatMinMax(maximum: boolean, data_type: TileDataType,
                          left: Word, right: Word) => Word
begin
    let left_nan = FloatIsNaN(data_type, left);
    let right_nan = FloatIsNaN(data_type, right);
    if left_nan && right_nan then
        return FloatCanonicalNaN(data_type);
    elsif left_nan then
        return right;
    elsif right_nan then
        return left;
    end;
    if FloatIsZero(data_type, left) && FloatIsZero(data_type, right) then
        let left_negative = FloatIsNegativeZero(data_type, left);
        let right_negative = FloatIsNegativeZero(data_type, right);
        if maximum then
            if left_negative && right_negative then
                return left;
            end;
            return Zeros{PTO_XLEN};
        elsif left_negative then
            return left;
        elsif right_negative then
            return right;
        end;
        return Zeros{PTO_XLEN};
    end;
    let left_key = FloatOrderKey(data_type, left);
    let right_key = FloatOrderKey(data_type, right);
    if maximum then
        return if left_key >= right_key then left else right;
    end;
    return if left_key <= right_key then left else right;
end;
