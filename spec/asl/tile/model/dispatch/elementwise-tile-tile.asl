// PTO-UNIT: {"id":"PTO-TILE-MODEL-DISPATCH-ELEMENTWISE-TILE-TILE","surface":"tile","classification":["model","dispatch","elementwise-tile-tile"],"depends_on":["PTO-TILE-TADD","PTO-TILE-TSUB","PTO-TILE-TMUL","PTO-TILE-TAND","PTO-TILE-TOR","PTO-TILE-TXOR","PTO-TILE-TMAX","PTO-TILE-TMIN","PTO-BLOCK-MODEL-STATE-BUNDLE-STATE"],"catalog_projection":{"catalog":"tile-operations","isa":"PTO Instruction Set Architecture","rejected_review_only_codes":{"CUBE":[],"TEPL":[],"TLSU":[]},"reserved":{"cube_functions_without_named_alias":[],"tepl_selector_ranges":[["0x005","0x005"],["0x00E","0x00E"],["0x018","0x019"],["0x01D","0x01F"]],"tlsu_functions":[]},"schema_version":3,"deleted_names":[],"rejected_names":[]}}
// The TEPL Mode 0 elementwise tile-tile operations of the sample. The
// selector decode (DecodeTileOperation) and the per-operation tile execution
// (legality handler, then semantic handler) are generated from this unit's
// catalog, spec/catalog/tile-operations.json; the functions below give the
// Block commit each operation's DataType set and tie an operation to the
// contract functions of its instruction unit.

// NDF-BEGIN: PTO-TEPL-SELECTOR-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// BSTART.TEPL Mode 0 MUST select TADD, TSUB, TMUL, TAND, TOR, TXOR, TMAX and
// TMIN with Function 0, 1, 2, 6, 7, 8, 11 and 12. Every other selector is
// outside this specification and MUST be rejected as an illegal instruction
// before any effect.
// NDF-END: PTO-TEPL-SELECTOR-001

pure func TileOperationSelector(operation: TileOperation) => integer
begin
    case operation of
        when TileOperation_TADD => return 0;
        when TileOperation_TSUB => return 1;
        when TileOperation_TMUL => return 2;
        when TileOperation_TAND => return 6;
        when TileOperation_TOR => return 7;
        when TileOperation_TXOR => return 8;
        when TileOperation_TMAX => return 11;
        when TileOperation_TMIN => return 12;
    end;
end;

// Every operation of the sample runs on the VEC engine.
pure func TileOperationEngine(operation: TileOperation) => TileExecutionEngine
begin
    return TileEngine_VEC;
end;

readonly func TileOperationHandler(operation: TileOperation) => TileSemanticHandler
begin
    case operation of
        when TileOperation_TADD => return InstructionContractHandler_TADD();
        when TileOperation_TSUB => return InstructionContractHandler_TSUB();
        when TileOperation_TMUL => return InstructionContractHandler_TMUL();
        when TileOperation_TAND => return InstructionContractHandler_TAND();
        when TileOperation_TOR => return InstructionContractHandler_TOR();
        when TileOperation_TXOR => return InstructionContractHandler_TXOR();
        when TileOperation_TMAX => return InstructionContractHandler_TMAX();
        when TileOperation_TMIN => return InstructionContractHandler_TMIN();
    end;
end;

pure func TileOperationDataTypeLegal(operation: TileOperation,
                                     data_type: TileDataType) => boolean
begin
    case operation of
        when TileOperation_TADD =>
            return InstructionContractDataTypeLegal_TADD(data_type);
        when TileOperation_TSUB =>
            return InstructionContractDataTypeLegal_TSUB(data_type);
        when TileOperation_TMUL =>
            return InstructionContractDataTypeLegal_TMUL(data_type);
        when TileOperation_TAND =>
            return InstructionContractDataTypeLegal_TAND(data_type);
        when TileOperation_TOR =>
            return InstructionContractDataTypeLegal_TOR(data_type);
        when TileOperation_TXOR =>
            return InstructionContractDataTypeLegal_TXOR(data_type);
        when TileOperation_TMAX =>
            return InstructionContractDataTypeLegal_TMAX(data_type);
        when TileOperation_TMIN =>
            return InstructionContractDataTypeLegal_TMIN(data_type);
    end;
end;
