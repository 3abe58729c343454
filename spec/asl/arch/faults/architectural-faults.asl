// PTO-UNIT: {"id":"PTO-ARCH-FAULTS-ARCHITECTURAL-FAULTS","surface":"arch","classification":["faults","architectural-faults"],"depends_on":["PTO-ARCH-DATA-TYPES-INTEGER"]}
// PTO-STATE: {"id":"PTO-STATE-ARCH-FAULT","classification":["arch","fault"],"scope":"core","owner":"PTO-ARCH-FAULTS-ARCHITECTURAL-FAULTS","members":["_LastFault","_LastFaultAddress"],"depends_on":[]}

// NDF-BEGIN: PTO-ARCH-FAULT-REPORT-001
// ndf: kind=contract level=L1 layer=architecture status=accepted
// A rejected command MUST record exactly one fault kind in
// [[PTO-STATE-ARCH-FAULT]] and MUST leave every Tile register, every
// allocation and the Block state as they were before the command.
// NDF-END: PTO-ARCH-FAULT-REPORT-001

type PTOFault of enumeration {
    Fault_None,
    Fault_IllegalInstruction,
    Fault_BundleControl,
    Fault_TileLegality,
    Fault_TileAllocation
};

var _LastFault : PTOFault;
// The command address (ReadTPC) of the command that raised _LastFault.
var _LastFaultAddress : bits(PTO_XLEN);

func SetFault(kind: PTOFault, address: bits(PTO_XLEN))
begin
    _LastFault = kind;
    _LastFaultAddress = address;
end;

func ClearFault()
begin
    _LastFault = Fault_None;
end;

readonly func LastFault() => PTOFault
begin
    return _LastFault;
end;
