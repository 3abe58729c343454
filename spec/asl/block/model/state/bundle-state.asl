// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","surface":"block","classification":["model","state","bundle-state"],"depends_on":["PTO-TILE-MODEL-STATE-TYPES","PTO-ARCH-FAULTS-ARCHITECTURAL-FAULTS"]}
// PTO-STATE: {"id":"PTO-STATE-BLOCK-BUNDLE","classification":["block","bundle"],"scope":"bundle","owner":"PTO-BLOCK-MODEL-STATE-BUNDLE-STATE","members":["_CommandAddress","_BundleActive","_BundleTileCode","_BundleOperationIndex","_BundleOperation","_BundleDataTypeCode","_BundleDimensions","_BundleDimensionPresent","_BundleDataAttributesPresent","_BundleDataAttributes","_BundleTileBindings","_BundleTileBindingCount","_BundleLastDestination","_BundleLastDestinationValid"],"depends_on":["PTO-STATE-TILE-LOCAL"]}

// NDF-BEGIN: PTO-BLOCK-BUNDLE-STATE-001
// ndf: kind=contract level=L1 layer=block status=accepted
// A typed Block start MUST open [[PTO-STATE-BLOCK-BUNDLE]] with the selected
// operation and DataType and no dimension, attribute or binding. Header
// commands MUST only add to that state, and a successful commit MUST clear
// it. No header command may change a Tile register.
// NDF-END: PTO-BLOCK-BUNDLE-STATE-001

// Result of ExecuteCommandInstruction. A Rejected command had no effect and
// its fault kind is in _LastFault.
type CommandExecutionStatus of enumeration {
    CommandExecution_Executed,
    CommandExecution_Rejected
};

// Encoded B.DATR fields, kept as their integer codes.
type BundleDataAttributes of record {
    layout: integer,
    data_type: integer,
    pad: integer,
    cmode: integer,
    rmode: integer,
    sat: integer,
    canonicalize: integer
};

// One B.IOT: two ordered sources, the PE mask, the terminator flag, and the
// destination hand (0 T, 1 U, 2 M, 3 N) with its SizeCode.
type BundleTileBinding of record {
    source_left: TileIndex,
    source_right: TileIndex,
    pe_mask: bits(4),
    last: boolean,
    destination_hand: integer,
    size_code: integer
};

// Address of the next command (TPC): each executed command advances it by
// its length in bytes.
var _CommandAddress : bits(PTO_XLEN);
var _BundleActive : boolean;
// The Mode:Function code of the Block start and the index of the operation
// it selects in the tile-operations catalog.
var _BundleTileCode : bits(12);
var _BundleOperationIndex : integer;
var _BundleOperation : TileOperation;
var _BundleDataTypeCode : integer;
var _BundleDimensions : array [[PTO_BUNDLE_DIMENSION_COUNT]] of integer;
var _BundleDimensionPresent : array [[PTO_BUNDLE_DIMENSION_COUNT]] of boolean;
var _BundleDataAttributesPresent : boolean;
var _BundleDataAttributes : BundleDataAttributes;
var _BundleTileBindings : array [[PTO_BUNDLE_TILE_BINDING_COUNT]] of BundleTileBinding;
var _BundleTileBindingCount : integer;
var _BundleLastDestination : TileIndex;
var _BundleLastDestinationValid : boolean;

func ClearBundleState()
begin
    _BundleActive = FALSE;
    _BundleTileCode = Zeros{12};
    _BundleOperationIndex = 0;
    _BundleOperation = TileOperation_TADD;
    _BundleDataTypeCode = 0;
    for lb = 0 to PTO_BUNDLE_DIMENSION_COUNT - 1 do
        _BundleDimensions[[lb]] = 0;
        _BundleDimensionPresent[[lb]] = FALSE;
    end;
    _BundleDataAttributesPresent = FALSE;
    _BundleDataAttributes = BundleDataAttributes {
        layout = 0, data_type = DTYPE_NONE_CODE, pad = 0, cmode = 0,
        rmode = 0, sat = 0, canonicalize = 0
    };
    for binding = 0 to PTO_BUNDLE_TILE_BINDING_COUNT - 1 do
        _BundleTileBindings[[binding]] = BundleTileBinding {
            source_left = 0, source_right = 0, pe_mask = Zeros{4},
            last = FALSE, destination_hand = 0, size_code = 0
        };
    end;
    _BundleTileBindingCount = 0;
end;

func ResetBundleState()
begin
    ClearBundleState();
    _CommandAddress = Zeros{PTO_XLEN};
    _BundleLastDestination = 0;
    _BundleLastDestinationValid = FALSE;
end;

// Without B.DATR the PadValue is Null; with it, codes 0..3 select Zero,
// Max, Min and Null.
readonly func CurrentBundlePadValue() => TilePadValue
begin
    if !_BundleDataAttributesPresent then
        return TilePad_Null;
    end;
    case _BundleDataAttributes.pad of
        when 0 => return TilePad_Zero;
        when 1 => return TilePad_Max;
        when 2 => return TilePad_Min;
        otherwise => return TilePad_Null;
    end;
end;

readonly func ReadTPC() => bits(PTO_XLEN)
begin
    return _CommandAddress;
end;

// Record kind at the current command and reject the command.
func RejectCommand(kind: PTOFault) => CommandExecutionStatus
begin
    SetFault(kind, ReadTPC());
    return CommandExecution_Rejected;
end;

readonly func BlockLastFault() => PTOFault
begin
    return _LastFault;
end;

readonly func BlockBundleActive() => boolean
begin
    return _BundleActive;
end;

// The register the last successful commit allocated and wrote.
readonly func BlockLastDestination() => TileIndex
begin
    assert _BundleLastDestinationValid;
    return _BundleLastDestination;
end;

readonly func BlockLastDestinationValid() => boolean
begin
    return _BundleLastDestinationValid;
end;
