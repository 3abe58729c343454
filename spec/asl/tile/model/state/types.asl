// PTO-UNIT: {"id":"PTO-TILE-MODEL-STATE-TYPES","surface":"tile","classification":["model","state","types"],"depends_on":["PTO-ARCH-DATA-TYPES-TILE-DATA-TYPES"]}
// Operation identities and the Tile register descriptor.

// The element operation a TEPL elementwise instruction applies.
type TileBinaryOperation of enumeration {
    TileBinary_ADD,
    TileBinary_SUB,
    TileBinary_MUL,
    TileBinary_MAX,
    TileBinary_MIN,
    TileBinary_AND,
    TileBinary_OR,
    TileBinary_XOR
};

// The Tile instructions this sample specification defines.
type TileOperation of enumeration {
    TileOperation_TADD,
    TileOperation_TSUB,
    TileOperation_TMUL,
    TileOperation_TAND,
    TileOperation_TOR,
    TileOperation_TXOR,
    TileOperation_TMAX,
    TileOperation_TMIN
};

type TileSemanticHandler of enumeration {
    TileHandler_ExecuteTileBinary
};

// Operands of one tile operation, by the field names of the tile-operations
// catalog (its records' "operand" arguments).
type TileInstructionOperands of record {
    destination0: TileIndex,
    source0: TileIndex,
    source1: TileIndex
};

// Result of the tile execution the catalog dispatches: Rejected leaves the
// fault in _LastFault and no Tile register changed.
type TileExecutionStatus of enumeration {
    TileExecution_Executed,
    TileExecution_Rejected
};

// The sample has one numeric profile and applies no applicability rules.
type NumericApplicabilityRuleSet of enumeration {
    NumericApplicabilityRules_None
};

type TileExecutionEngine of enumeration {
    TileEngine_VEC,
    TileEngine_SFU,
    TileEngine_CUBE,
    TileEngine_TLSU
};

// Payload words and definedness flags, indexed by storage position.
type TilePayload of array [[PTO_MODEL_TILE_ELEMENTS]] of bits(64);
type TileDefinedMask of array [[PTO_MODEL_TILE_ELEMENTS]] of boolean;

// One Local Tile register. rows and columns are the physical shape;
// valid_rows and valid_columns bound the region an operation computes.
// defined holds one flag per stored element; contents_defined is TRUE when
// every element of the valid region is defined.
type TileInfo of record {
    allocated: boolean,
    capacity_bytes: integer,
    rows: integer,
    columns: integer,
    valid_rows: integer,
    valid_columns: integer,
    data_type: TileDataType,
    layout: TileLayout,
    location: TileLocation,
    contents_defined: boolean,
    defined_valid_count: integer,
    defined: TileDefinedMask,
    payload: TilePayload
};
