// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-COMMIT-BUNDLE-COMMIT","surface":"block","classification":["model","commit","bundle-commit"],"depends_on":["PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","PTO-TILE-MODEL-DISPATCH-ELEMENTWISE-TILE-TILE","PTO-TILE-MODEL-STATE-ALLOCATION"]}
// Completion of an open elementwise Block: the whole preflight, then the
// operation, then the destination becomes visible in one step.

// NDF-BEGIN: PTO-BLOCK-COMMIT-PREFLIGHT-001
// ndf: kind=contract level=L1 layer=block status=accepted
// Block completion MUST evaluate, in order, the binding schema, the B.DATR
// applicability, the DataType, the destination shape and allocation, the PE
// masks and the operand legality, and MUST raise the first failing check's
// fault with no Tile register, allocation or Block state changed. Only when
// every check passes may the operation write the new destination.
// NDF-END: PTO-BLOCK-COMMIT-PREFLIGHT-001

// B.DIM meanings of the closed binary schema: LB0 is ValidCol and required;
// LB1 is ValidRow (default 1); LB2 is the physical Col (default ValidCol).
readonly func BundleDimensionOr(lb: integer, fallback: integer) => integer
begin
    if _BundleDimensionPresent[[lb]] then
        return _BundleDimensions[[lb]];
    end;
    return fallback;
end;

readonly func BundleBindingSchemaLegal() => boolean
begin
    if _BundleTileBindingCount != 1 || !_BundleTileBindings[[0]].last then
        return FALSE;
    end;
    if !_BundleDimensionPresent[[0]] || _BundleDimensions[[0]] < 1 then
        return FALSE;
    end;
    for lb = 1 to 2 do
        if _BundleDimensionPresent[[lb]] && _BundleDimensions[[lb]] < 1 then
            return FALSE;
        end;
    end;
    return TRUE;
end;

// Only PadValue may differ from its neutral encoding for this family.
// DataType must be DTYPE_NONE or repeat the BSTART DataType.
readonly func BundleDataAttributesApplicable() => boolean
begin
    if !_BundleDataAttributesPresent then
        return TRUE;
    end;
    let datr = _BundleDataAttributes;
    return datr.layout == 0 && datr.cmode == 0 && datr.rmode == 0 &&
           datr.sat == 0 && datr.canonicalize == 0 &&
           (datr.data_type == DTYPE_NONE_CODE ||
            datr.data_type == _BundleDataTypeCode);
end;

readonly func BundleAllMasksZero() => boolean
begin
    if _BundleTileBindingCount == 0 then
        return FALSE;
    end;
    for binding = 0 to _BundleTileBindingCount - 1 do
        if _BundleTileBindings[[binding]].pe_mask != Zeros{4} then
            return FALSE;
        end;
    end;
    return TRUE;
end;

// Lowest unallocated register of hand, or -1 when the hand is full.
readonly func FirstFreeTileInHand(hand: integer) => integer
begin
    for slot = 0 to PTO_TILE_HAND_SIZE - 1 do
        let index = hand * PTO_TILE_HAND_SIZE + slot;
        if !_Tiles[[index]].allocated then
            return index;
        end;
    end;
    return -1;
end;

func CommitBundle() => CommandExecutionStatus
begin
    // A zero participation mask turns the block into a no-op.
    if BundleAllMasksZero() then
        ClearBundleState();
        _BundleLastDestinationValid = FALSE;
        return CommandExecution_Executed;
    end;
    if !BundleBindingSchemaLegal() || !BundleDataAttributesApplicable() then
        return RejectCommand(Fault_TileLegality);
    end;
    let operation = _BundleOperation;
    let data_type = TileDataTypeOfCode(_BundleDataTypeCode);
    if !TileOperationDataTypeLegal(operation, data_type) then
        return RejectCommand(Fault_TileLegality);
    end;

    let binding = _BundleTileBindings[[0]];
    let valid_columns = _BundleDimensions[[0]];
    let valid_rows = BundleDimensionOr(1, 1);
    let columns = BundleDimensionOr(2, valid_columns);
    let capacity = TileSizeCodeBytes(binding.size_code);
    if !TileShapeIsLegal(capacity, columns, valid_rows, valid_columns,
           data_type) then
        return RejectCommand(Fault_TileLegality);
    end;
    let free = FirstFreeTileInHand(binding.destination_hand);
    if free < 0 || !TileFitsModel(capacity, columns, data_type) ||
       CoreTileCapacityInUse() +
           TileCoreAllocationBytes(binding.pe_mask, capacity) >
           PTO_TILE_CAPACITY_BYTES then
        return RejectCommand(Fault_TileAllocation);
    end;
    if _TileAllocationMasks[[binding.source_left]] != binding.pe_mask ||
       _TileAllocationMasks[[binding.source_right]] != binding.pe_mask then
        return RejectCommand(Fault_TileLegality);
    end;

    // Install the destination tentatively so the operation's legality
    // handler sees the complete operand set; restore the saved register if
    // the tile execution rejects the operation.
    let destination = free as TileIndex;
    let saved_tile = _Tiles[[destination]];
    let saved_mask = _TileAllocationMasks[[destination]];
    InstallTileDescriptor(destination, capacity, columns, valid_rows,
        valid_columns, data_type, TileLayout_RowMajor, TileLocation_Vector,
        binding.pe_mask);
    let operands = TileInstructionOperands {
        destination0 = destination,
        source0 = binding.source_left,
        source1 = binding.source_right
    };
    // The tile execution of the tile-operations catalog: the record's
    // legality handler, then its semantic handler.
    let (status, -) = ExecuteTileInstructionWithoutTimeWithAcceptedApplicabilityRules(
            NumericApplicabilityRules_None, TileDecode_TEPL, _BundleTileCode,
            operands);
    if status != TileExecution_Executed then
        _Tiles[[destination]] = saved_tile;
        _TileAllocationMasks[[destination]] = saved_mask;
        return CommandExecution_Rejected;
    end;
    ClearBundleState();
    _BundleLastDestination = destination;
    _BundleLastDestinationValid = TRUE;
    return CommandExecution_Executed;
end;

// Catalog restart-contract name of the commit used by BSTOP and by a BSTART
// that retires an open predecessor.
func CompleteBundleAtWithAcceptedApplicabilityRules() => CommandExecutionStatus
begin
    return CommitBundle();
end;
