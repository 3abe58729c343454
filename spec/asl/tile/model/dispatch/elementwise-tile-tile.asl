// PTO-UNIT: {"id":"PTO-TILE-MODEL-DISPATCH-ELEMENTWISE-TILE-TILE","surface":"tile","classification":["model","dispatch","elementwise-tile-tile"],"depends_on":["PTO-TILE-TADD","PTO-TILE-TSUB","PTO-TILE-TMUL","PTO-TILE-TAND","PTO-TILE-TOR","PTO-TILE-TXOR","PTO-TILE-TMAX","PTO-TILE-TMIN","PTO-BLOCK-MODEL-STATE-BUNDLE-STATE"],"catalog_projection":{"catalog":"tile-operations","isa":"PTO Instruction Set Architecture","rejected_review_only_codes":{"CUBE":[],"TEPL":[],"TLSU":[]},"reserved":{"cube_functions_without_named_alias":[],"tepl_selector_ranges":[["0x005","0x005"],["0x00E","0x00E"],["0x018","0x019"],["0x01D","0x01F"]],"tlsu_functions":[]},"schema_version":3,"deleted_names":[],"rejected_names":[]}}
// Selector decode and per-operation dispatch for the TEPL Mode 0
// elementwise tile-tile operations of the sample. Each arm calls the
// contract functions of the owning instruction unit, so the Block commit
// executes exactly what the instruction pages document.

// NDF-BEGIN: PTO-TEPL-SELECTOR-001
// ndf: kind=contract level=L1 layer=tile status=accepted
// BSTART.TEPL Mode 0 MUST select TADD, TSUB, TMUL, TAND, TOR, TXOR, TMAX and
// TMIN with Function 0, 1, 2, 6, 7, 8, 11 and 12. Every other selector is
// outside this specification and MUST be rejected as an illegal instruction
// before any effect.
// NDF-END: PTO-TEPL-SELECTOR-001

// Returns (assigned, operation) for a seven-bit Mode:Function selector.
pure func TileOperationOfSelector(selector: integer) => (boolean, TileOperation)
begin
    case selector of
        when 0 => return (TRUE, TileOperation_TADD);
        when 1 => return (TRUE, TileOperation_TSUB);
        when 2 => return (TRUE, TileOperation_TMUL);
        when 6 => return (TRUE, TileOperation_TAND);
        when 7 => return (TRUE, TileOperation_TOR);
        when 8 => return (TRUE, TileOperation_TXOR);
        when 11 => return (TRUE, TileOperation_TMAX);
        when 12 => return (TRUE, TileOperation_TMIN);
        otherwise => return (FALSE, TileOperation_TADD);
    end;
end;

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

readonly func TileOperationOperandsLegal(operation: TileOperation,
    destination: TileIndex, source_left: TileIndex, source_right: TileIndex)
    => boolean
begin
    case operation of
        when TileOperation_TADD =>
            return InstructionContractOperandsLegal_TADD(destination,
                source_left, source_right);
        when TileOperation_TSUB =>
            return InstructionContractOperandsLegal_TSUB(destination,
                source_left, source_right);
        when TileOperation_TMUL =>
            return InstructionContractOperandsLegal_TMUL(destination,
                source_left, source_right);
        when TileOperation_TAND =>
            return InstructionContractOperandsLegal_TAND(destination,
                source_left, source_right);
        when TileOperation_TOR =>
            return InstructionContractOperandsLegal_TOR(destination,
                source_left, source_right);
        when TileOperation_TXOR =>
            return InstructionContractOperandsLegal_TXOR(destination,
                source_left, source_right);
        when TileOperation_TMAX =>
            return InstructionContractOperandsLegal_TMAX(destination,
                source_left, source_right);
        when TileOperation_TMIN =>
            return InstructionContractOperandsLegal_TMIN(destination,
                source_left, source_right);
    end;
end;

func TileOperationExecute(operation: TileOperation, destination: TileIndex,
                          source_left: TileIndex, source_right: TileIndex)
begin
    case operation of
        when TileOperation_TADD =>
            InstructionContractExecute_TADD(destination, source_left,
                source_right);
        when TileOperation_TSUB =>
            InstructionContractExecute_TSUB(destination, source_left,
                source_right);
        when TileOperation_TMUL =>
            InstructionContractExecute_TMUL(destination, source_left,
                source_right);
        when TileOperation_TAND =>
            InstructionContractExecute_TAND(destination, source_left,
                source_right);
        when TileOperation_TOR =>
            InstructionContractExecute_TOR(destination, source_left,
                source_right);
        when TileOperation_TXOR =>
            InstructionContractExecute_TXOR(destination, source_left,
                source_right);
        when TileOperation_TMAX =>
            InstructionContractExecute_TMAX(destination, source_left,
                source_right);
        when TileOperation_TMIN =>
            InstructionContractExecute_TMIN(destination, source_left,
                source_right);
    end;
end;

// Tile-level execution with the family's fault contract: reject with
// Fault_TileLegality and no effect, or execute. The Block commit reaches the
// same predicates after it has resolved the destination.
func ExecuteTileInstruction(operation: TileOperation, destination: TileIndex,
                            source_left: TileIndex, source_right: TileIndex)
    => BlockStatus
begin
    ClearFault();
    if !TileOperationDataTypeLegal(operation,
           _Tiles[[source_left]].data_type) ||
       !TileOperationOperandsLegal(operation, destination, source_left,
           source_right) then
        return BlockFault(Fault_TileLegality);
    end;
    TileOperationExecute(operation, destination, source_left, source_right);
    return BlockStatus_Executed;
end;
