// PTO-UNIT: {"id":"PTO-TILE-MODEL-NUMERIC-INTEGER-ELEMENTS","surface":"tile","classification":["model","numeric","integer-elements"],"depends_on":["PTO-TILE-MODEL-STATE-TYPES"]}
// Integer element arithmetic. Only the low element-width bits of a carrier
// participate. Arithmetic wraps modulo 2^width (never saturates); a signed
// result is stored sign-extended to 64 bits and an unsigned one
// zero-extended. Bitwise results are stored zero-extended for every type.

// NDF-BEGIN: PTO-TEPL-INTEGER-WRAP-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// Integer ADD, SUB and MUL MUST produce the low element-width bits of the
// exact result, stored sign-extended for S types and zero-extended for U
// types. Integer MAX and MIN MUST compare signed or unsigned values as the
// type says and MUST return the left operand on a tie.
// NDF-END: PTO-TEPL-INTEGER-WRAP-001

pure func TileIntegerExtend(value: Word, data_type: TileDataType) => Word
begin
    case data_type of
        when TileDataType_S64, TileDataType_U64 => return value;
        when TileDataType_S32 => return SignExtend{64}(value[31:0]);
        when TileDataType_S16 => return SignExtend{64}(value[15:0]);
        when TileDataType_S8 => return SignExtend{64}(value[7:0]);
        when TileDataType_U32 => return ZeroExtend{64}(value[31:0]);
        when TileDataType_U16 => return ZeroExtend{64}(value[15:0]);
        when TileDataType_U8 => return ZeroExtend{64}(value[7:0]);
        otherwise => unreachable;
    end;
end;

pure func TileZeroExtendElement(value: Word, data_type: TileDataType) => Word
begin
    case TileElementBits(data_type) of
        when 8 => return ZeroExtend{PTO_XLEN}(value[7:0]);
        when 16 => return ZeroExtend{PTO_XLEN}(value[15:0]);
        when 32 => return ZeroExtend{PTO_XLEN}(value[31:0]);
        otherwise => return value;
    end;
end;

pure func TileIntegerBinaryElement(op: TileBinaryOperation,
    data_type: TileDataType, left: Word, right: Word) => Word
begin
    let a = TileIntegerExtend(left, data_type);
    let b = TileIntegerExtend(right, data_type);
    let signed = TileDataTypeIsSigned(data_type);
    case op of
        when TileBinary_ADD =>
            return TileIntegerExtend(a + b, data_type);
        when TileBinary_SUB =>
            return TileIntegerExtend(a - b, data_type);
        when TileBinary_MUL =>
            return TileIntegerExtend(WordOfInteger(UInt(a) * UInt(b)),
                data_type);
        when TileBinary_MAX =>
            if signed then
                return if SInt(a) >= SInt(b) then a else b;
            end;
            return if UInt(a) >= UInt(b) then a else b;
        when TileBinary_MIN =>
            if signed then
                return if SInt(a) <= SInt(b) then a else b;
            end;
            return if UInt(a) <= UInt(b) then a else b;
        when TileBinary_AND =>
            return TileZeroExtendElement(left AND right, data_type);
        when TileBinary_OR =>
            return TileZeroExtendElement(left OR right, data_type);
        when TileBinary_XOR =>
            return TileZeroExtendElement(left XOR right, data_type);
    end;
end;
