// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING","surface":"block","classification":["model","schema","profile-encoding"],"depends_on":["PTO-ARCH-DATA-TYPES-INTEGER"],"catalog_projection":{"catalog":"command-forms","isa":"PTO Instruction Set Architecture","reviewed_encoding_overlaps":[],"schema_version":2,"surface":"command-and-boundary"}}
// Bit-level facts of the Block commands used by the sample: the PE
// participation modes of B.IOT and the 32-bit words of BSTART.TEPL, B.IOT,
// B.DIM and BSTOP. The Block entry points take decoded field values; these
// helpers tie those values to the encodings in spec/catalog/command-forms.json.

// B.IOT PEMode (3 bits) selects one of eight fixed four-PE masks; the other
// eight four-bit masks cannot be encoded. The mask is written as the four
// binary digits of the B.IOT mask= operand.
pure func PEMaskOfPEMode(mode: integer) => bits(4)
begin
    case mode of
        when 0 => return '0000';
        when 1 => return '1000';
        when 2 => return '0100';
        when 3 => return '0010';
        when 4 => return '0001';
        when 5 => return '1100';
        when 6 => return '1110';
        otherwise => return '1111';
    end;
end;

// The PEMode that encodes mask, or -1 when no PEMode produces it.
pure func PEModeOfMask(mask: bits(4)) => integer
begin
    for mode = 0 to 7 do
        if PEMaskOfPEMode(mode) == mask then
            return mode;
        end;
    end;
    return -1;
end;

// TEPL selector: Mode in bits 6:5 and Function in bits 4:0.
pure func TEPLSelector(mode: integer, function_code: integer) => integer
begin
    return mode * 32 + function_code;
end;

// BSTART.TEPL: DataType[31:27], Mode[26:25], Function[24:20], and the fixed
// low twenty bits 0x19181.
pure func BStartTEPLWord(mode: integer, function_code: integer, data_type: integer)
    => bits(32)
begin
    return Zeros{32} + (data_type * 0x8000000 + mode * 0x2000000 +
        function_code * 0x100000 + 0x19181);
end;

// Returns (matched, Mode, Function, DataType) for a 32-bit word.
pure func DecodeBStartTEPL(word: bits(32)) => (boolean, integer, integer, integer)
begin
    if word[19:0] != '00011001000110000001' then
        return (FALSE, 0, 0, 0);
    end;
    return (TRUE, UInt(word[26:25]), UInt(word[24:20]), UInt(word[31:27]));
end;

// B.IOT with two sources and a destination: SrcTile1[31:26], SrcTile0[25:20],
// L[19], SizeCode[18:15], PEMode[11:9], DstTile[8:7]; fixed bits 0x4013 under
// mask 0x707f.
pure func BIOTWord(source0: integer, source1: integer, last: boolean,
                   size_code: integer, pe_mode: integer, hand: integer)
    => bits(32)
begin
    let l = if last then 1 else 0;
    return Zeros{32} + (source1 * 0x4000000 + source0 * 0x100000 +
        l * 0x80000 + size_code * 0x8000 + pe_mode * 0x200 + hand * 0x80 +
        0x4013);
end;

// B.DIM RegSrc, uimm17, ->LBn: uimm17[11:0] at bits 31:20, uimm17[16:12] at
// bits 11:7, RegSrc at 19:15, n at 14:12, fixed low bits 0x43.
pure func BDimWord(lb: integer, reg_src: integer, uimm17: integer) => bits(32)
begin
    return Zeros{32} + ((uimm17 MOD 0x1000) * 0x100000 + reg_src * 0x8000 +
        lb * 0x1000 + (uimm17 DIVRM 0x1000) * 0x80 + 0x43);
end;

pure func BStopWord() => bits(32)
begin
    return Zeros{32} + 1;
end;
