// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-DISPATCH-COMMANDS","surface":"block","classification":["model","dispatch","commands"],"depends_on":["PTO-BLOCK-BSTART-TEPL","PTO-BLOCK-B-DATR","PTO-BLOCK-B-DIM","PTO-BLOCK-B-IOT","PTO-BLOCK-BSTOP"]}
// The one way a Block program runs: each command word goes to
// ExecuteCommandInstruction, which decodes it by the command-form catalog
// (spec/catalog/command-forms.json: DecodeCommandForm, CommandFormOperandsLegal,
// CommandHandlerOfForm and the field decoders are generated from it) and
// runs the function its form's semantic_handler names.

// NDF-BEGIN: PTO-BLOCK-COMMAND-DISPATCH-001
// ndf: kind=contract level=L1 layer=block status=accepted
// A command word MUST be decoded by its form in the command-form catalog. A
// word that matches no form, or whose fields break the form's constraints,
// MUST raise Fault_IllegalInstruction before any effect; otherwise the
// command MUST have exactly the effect of the handler its form names, and an
// executed command MUST advance the command address by its length in bytes.
// NDF-END: PTO-BLOCK-COMMAND-DISPATCH-001

func ExecuteDecodedBundleCommand(instruction: bits(64), form: integer)
    => CommandExecutionStatus
begin
    case CommandHandlerOfForm(form) of
        when CommandHandler_ExecuteBundleStart =>
            return ExecuteBundleStart(instruction, form);
        when CommandHandler_SetBundleDataAttributes =>
            return SetBundleDataAttributes(instruction, form);
        when CommandHandler_SetBundleDimension =>
            return SetBundleDimension(instruction, form);
        when CommandHandler_BindBundleTileIO =>
            return BindBundleTileIO(instruction, form);
        when CommandHandler_ExecuteBundleStop =>
            return ExecuteBundleStop(instruction, form);
        otherwise =>
            return RejectCommand(Fault_IllegalInstruction);
    end;
end;

// Execute one command word of length_bits bits (every form of the sample is
// 32 bits long). Rejected: the fault is in _LastFault and nothing changed.
func ExecuteCommandInstruction(instruction: bits(64), length_bits: integer)
    => CommandExecutionStatus
begin
    ClearFault();
    let form = DecodeCommandForm(instruction, length_bits);
    if form == PTO_COMMAND_FORM_COUNT ||
       !CommandFormOperandsLegal(instruction, form) then
        return RejectCommand(Fault_IllegalInstruction);
    end;
    let status = ExecuteDecodedBundleCommand(instruction, form);
    if status == CommandExecution_Executed then
        _CommandAddress = _CommandAddress + (length_bits DIV 8);
    end;
    return status;
end;
