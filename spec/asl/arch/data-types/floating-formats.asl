// PTO-UNIT: {"id":"PTO-ARCH-DATA-TYPES-FLOATING-FORMATS","surface":"arch","classification":["data-types","floating-formats"],"depends_on":["PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES"]}
// Bit-level classification of the floating element formats that the
// elementwise family admits: FP64, FP32, TF32, HF32, FP16, BF16, E4M3 and
// E5M2. Only the architectural low bits of the carrier Word are examined.
// TF32 and HF32 share the FP32 field positions; their unused low fraction
// bits must be zero for the encoding to be valid.

type FloatFields of record {
    negative: boolean,
    exponent_ones: boolean,
    exponent_zero: boolean,
    fraction_zero: boolean,
    quiet_bit: boolean
};

pure func FloatFieldsOf(data_type: TileDataType, value: Word) => FloatFields
begin
    case data_type of
        when TileDataType_FP64 =>
            return FloatFields {
                negative = value[63] == '1',
                exponent_ones = value[62:52] == Ones{11},
                exponent_zero = value[62:52] == Zeros{11},
                fraction_zero = value[51:0] == Zeros{52},
                quiet_bit = value[51] == '1'
            };
        when TileDataType_FP32, TileDataType_HF32, TileDataType_TF32 =>
            return FloatFields {
                negative = value[31] == '1',
                exponent_ones = value[30:23] == Ones{8},
                exponent_zero = value[30:23] == Zeros{8},
                fraction_zero = value[22:0] == Zeros{23},
                quiet_bit = value[22] == '1'
            };
        when TileDataType_FP16 =>
            return FloatFields {
                negative = value[15] == '1',
                exponent_ones = value[14:10] == Ones{5},
                exponent_zero = value[14:10] == Zeros{5},
                fraction_zero = value[9:0] == Zeros{10},
                quiet_bit = value[9] == '1'
            };
        when TileDataType_BF16 =>
            return FloatFields {
                negative = value[15] == '1',
                exponent_ones = value[14:7] == Ones{8},
                exponent_zero = value[14:7] == Zeros{8},
                fraction_zero = value[6:0] == Zeros{7},
                quiet_bit = value[6] == '1'
            };
        when TileDataType_E4M3 =>
            return FloatFields {
                negative = value[7] == '1',
                exponent_ones = value[6:3] == Ones{4},
                exponent_zero = value[6:3] == Zeros{4},
                fraction_zero = value[2:0] == Zeros{3},
                quiet_bit = value[2] == '1'
            };
        when TileDataType_E5M2 =>
            return FloatFields {
                negative = value[7] == '1',
                exponent_ones = value[6:2] == Ones{5},
                exponent_zero = value[6:2] == Zeros{5},
                fraction_zero = value[1:0] == Zeros{2},
                quiet_bit = value[1] == '1'
            };
        otherwise =>
            unreachable;
    end;
end;

// TF32 keeps ten fraction bits and HF32 eleven inside the FP32 layout.
pure func FloatEncodingValid(data_type: TileDataType, value: Word) => boolean
begin
    case data_type of
        when TileDataType_TF32 => return value[12:0] == Zeros{13};
        when TileDataType_HF32 => return value[11:0] == Zeros{12};
        otherwise => return TRUE;
    end;
end;

// E4M3 has no infinity: only S.1111.111 is NaN, and it is quiet.
pure func FloatIsNaN(data_type: TileDataType, value: Word) => boolean
begin
    if data_type == TileDataType_E4M3 then
        return value[6:0] == Ones{7};
    end;
    let fields = FloatFieldsOf(data_type, value);
    return fields.exponent_ones && !fields.fraction_zero;
end;

pure func FloatIsSignalingNaN(data_type: TileDataType, value: Word) => boolean
begin
    if data_type == TileDataType_E4M3 then
        return FALSE;
    end;
    return FloatIsNaN(data_type, value) &&
           !FloatFieldsOf(data_type, value).quiet_bit;
end;

pure func FloatIsZero(data_type: TileDataType, value: Word) => boolean
begin
    let fields = FloatFieldsOf(data_type, value);
    return fields.exponent_zero && fields.fraction_zero;
end;

pure func FloatIsNegativeZero(data_type: TileDataType, value: Word) => boolean
begin
    return FloatIsZero(data_type, value) &&
           FloatFieldsOf(data_type, value).negative;
end;

pure func FloatCanonicalNaN(data_type: TileDataType) => Word
begin
    case data_type of
        when TileDataType_FP64 => return WordOfInteger(0x7ff8000000000000);
        when TileDataType_FP32, TileDataType_HF32, TileDataType_TF32 =>
            return WordOfInteger(0x7fc00000);
        when TileDataType_FP16 => return WordOfInteger(0x7e00);
        when TileDataType_BF16 => return WordOfInteger(0x7fc0);
        when TileDataType_E4M3 => return WordOfInteger(0x7f);
        when TileDataType_E5M2 => return WordOfInteger(0x7e);
        otherwise => unreachable;
    end;
end;

// Unsigned integer of the element's architectural bits.
pure func FloatRawBits(data_type: TileDataType, value: Word) => integer
begin
    case TileElementBits(data_type) of
        when 64 => return UInt(value);
        when 32 => return UInt(value[31:0]);
        when 16 => return UInt(value[15:0]);
        otherwise => return UInt(value[7:0]);
    end;
end;

pure func FloatSignWeight(data_type: TileDataType) => integer
begin
    case TileElementBits(data_type) of
        when 64 => return 0x8000000000000000;
        when 32 => return 0x80000000;
        when 16 => return 0x8000;
        otherwise => return 0x80;
    end;
end;

// A key that increases with the numeric value of a non-NaN encoding:
// negative encodings are complemented, positive ones are offset past them.
pure func FloatOrderKey(data_type: TileDataType, value: Word) => integer
begin
    let raw = FloatRawBits(data_type, value);
    let weight = FloatSignWeight(data_type);
    if FloatFieldsOf(data_type, value).negative then
        return (2 * weight - 1) - raw;
    else
        return raw + weight;
    end;
end;
