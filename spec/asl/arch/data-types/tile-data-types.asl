// PTO-UNIT: {"id":"PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES","surface":"arch","classification":["data-types","tile-data-types"],"depends_on":["PTO-ARCH-DATA-TYPES-INTEGER"],"field_domains":[{"id":"PTO-FIELD-BLOCK-DATATYPE","width":5,"role":"Names the Tile element type selected by a typed Block start or by B.DATR.","zero_meaning":"Code zero is FP64; an encoded zero is never an absent or inherited type.","assigned":[{"value":0,"meaning":"FP64"},{"value":1,"meaning":"FP32"},{"value":2,"meaning":"TF32"},{"value":3,"meaning":"HF32"},{"value":4,"meaning":"FP16"},{"value":5,"meaning":"BF16"},{"value":6,"meaning":"HiF8"},{"value":7,"meaning":"E4M3"},{"value":8,"meaning":"E5M2"},{"value":9,"meaning":"E3M2"},{"value":10,"meaning":"E2M3"},{"value":11,"meaning":"E2M1X2"},{"value":12,"meaning":"E1M2X2"},{"value":13,"meaning":"E8M0"},{"value":14,"meaning":"HiF4X2"},{"value":16,"meaning":"S64"},{"value":17,"meaning":"S32"},{"value":18,"meaning":"S16"},{"value":19,"meaning":"S8"},{"value":20,"meaning":"S4X2"},{"value":24,"meaning":"U64"},{"value":25,"meaning":"U32"},{"value":26,"meaning":"U16"},{"value":27,"meaning":"U8"},{"value":28,"meaning":"U4X2"}],"reserved":[15,21,22,23,29,30,31],"rejection":"A reserved code in a typed Block start or B.DATR is an illegal instruction and has no effect; B.DATR alone additionally accepts code 31 as DTYPE_NONE."}]}
// Tile element data types and the descriptor enumerations that accompany
// them. The five-bit DataType field of BSTART.TEPL and B.DATR encodes a
// TileDataType with the code table below; code 31 is the B.DATR sentinel
// DTYPE_NONE, which names no type.

constant DTYPE_NONE_CODE = 31;

type TileHand of enumeration {
    TileHand_T,
    TileHand_U,
    TileHand_M,
    TileHand_N
};

type TileDataType of enumeration {
    TileDataType_FP64,
    TileDataType_FP32,
    TileDataType_TF32,
    TileDataType_HF32,
    TileDataType_FP16,
    TileDataType_BF16,
    TileDataType_HiF8,
    TileDataType_E4M3,
    TileDataType_E5M2,
    TileDataType_E3M2,
    TileDataType_E2M3,
    TileDataType_E2M1X2,
    TileDataType_E1M2X2,
    TileDataType_E8M0,
    TileDataType_HiF4X2,
    TileDataType_S64,
    TileDataType_S32,
    TileDataType_S16,
    TileDataType_S8,
    TileDataType_S4X2,
    TileDataType_U64,
    TileDataType_U32,
    TileDataType_U16,
    TileDataType_U8,
    TileDataType_U4X2
};

type TileLayout of enumeration {
    TileLayout_RowMajor,
    TileLayout_ColumnMajor,
    TileLayout_ZN,
    TileLayout_NZ,
    TileLayout_CUBE_M16,
    TileLayout_CUBE_M32,
    TileLayout_CUBE_N8,
    TileLayout_ImplementationDefined
};

type TileLocation of enumeration {
    TileLocation_Vector,
    TileLocation_Matrix,
    TileLocation_Memory,
    TileLocation_Any
};

type TilePadValue of enumeration {
    TilePad_Zero,
    TilePad_Max,
    TilePad_Min,
    TilePad_Null
};

// Codes 0..14, 16..20 and 24..28 are assigned; 15, 21..23 and 29..31 are not
// TileDataType codes.
pure func TileDataTypeCodeAssigned(code: integer) => boolean
begin
    return (0 <= code && code <= 14) || (16 <= code && code <= 20) ||
           (24 <= code && code <= 28);
end;

pure func TileDataTypeOfCode(code: integer) => TileDataType
begin
    assert TileDataTypeCodeAssigned(code);
    case code of
        when 0 => return TileDataType_FP64;
        when 1 => return TileDataType_FP32;
        when 2 => return TileDataType_TF32;
        when 3 => return TileDataType_HF32;
        when 4 => return TileDataType_FP16;
        when 5 => return TileDataType_BF16;
        when 6 => return TileDataType_HiF8;
        when 7 => return TileDataType_E4M3;
        when 8 => return TileDataType_E5M2;
        when 9 => return TileDataType_E3M2;
        when 10 => return TileDataType_E2M3;
        when 11 => return TileDataType_E2M1X2;
        when 12 => return TileDataType_E1M2X2;
        when 13 => return TileDataType_E8M0;
        when 14 => return TileDataType_HiF4X2;
        when 16 => return TileDataType_S64;
        when 17 => return TileDataType_S32;
        when 18 => return TileDataType_S16;
        when 19 => return TileDataType_S8;
        when 20 => return TileDataType_S4X2;
        when 24 => return TileDataType_U64;
        when 25 => return TileDataType_U32;
        when 26 => return TileDataType_U16;
        when 27 => return TileDataType_U8;
        otherwise => return TileDataType_U4X2;
    end;
end;

pure func TileDataTypeCode(data_type: TileDataType) => integer
begin
    case data_type of
        when TileDataType_FP64 => return 0;
        when TileDataType_FP32 => return 1;
        when TileDataType_TF32 => return 2;
        when TileDataType_HF32 => return 3;
        when TileDataType_FP16 => return 4;
        when TileDataType_BF16 => return 5;
        when TileDataType_HiF8 => return 6;
        when TileDataType_E4M3 => return 7;
        when TileDataType_E5M2 => return 8;
        when TileDataType_E3M2 => return 9;
        when TileDataType_E2M3 => return 10;
        when TileDataType_E2M1X2 => return 11;
        when TileDataType_E1M2X2 => return 12;
        when TileDataType_E8M0 => return 13;
        when TileDataType_HiF4X2 => return 14;
        when TileDataType_S64 => return 16;
        when TileDataType_S32 => return 17;
        when TileDataType_S16 => return 18;
        when TileDataType_S8 => return 19;
        when TileDataType_S4X2 => return 20;
        when TileDataType_U64 => return 24;
        when TileDataType_U32 => return 25;
        when TileDataType_U16 => return 26;
        when TileDataType_U8 => return 27;
        when TileDataType_U4X2 => return 28;
    end;
end;

// Architectural element width in bits. The packed X2 types hold two 4-bit
// values per byte; one element is one 4-bit value.
pure func TileElementBits(data_type: TileDataType) => integer
begin
    case data_type of
        when TileDataType_FP64, TileDataType_S64, TileDataType_U64 =>
            return 64;
        when TileDataType_FP32, TileDataType_TF32, TileDataType_HF32,
             TileDataType_S32, TileDataType_U32 =>
            return 32;
        when TileDataType_FP16, TileDataType_BF16, TileDataType_S16,
             TileDataType_U16 =>
            return 16;
        when TileDataType_E2M1X2, TileDataType_E1M2X2, TileDataType_HiF4X2,
             TileDataType_S4X2, TileDataType_U4X2 =>
            return 4;
        otherwise =>
            return 8;
    end;
end;

pure func TileDataTypeIsSigned(t: TileDataType) => boolean
begin
    case t of
        when TileDataType_S64, TileDataType_S32, TileDataType_S16,
             TileDataType_S8, TileDataType_S4X2 => return TRUE;
        otherwise => return FALSE;
    end;
end;

pure func TileDataTypeIsUnsigned(data_type: TileDataType) => boolean
begin
    case data_type of
        when TileDataType_U64, TileDataType_U32, TileDataType_U16,
             TileDataType_U8, TileDataType_U4X2 => return TRUE;
        otherwise => return FALSE;
    end;
end;

pure func TileDataTypeIsInteger(t: TileDataType) => boolean
begin
    return TileDataTypeIsSigned(t) || TileDataTypeIsUnsigned(t);
end;

pure func TileDataTypeIsFloating(t: TileDataType) => boolean
begin
    return !TileDataTypeIsInteger(t);
end;
