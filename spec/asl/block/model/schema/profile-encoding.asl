// PTO-UNIT: {"id":"PTO-BLOCK-MODEL-SCHEMA-PROFILE-ENCODING","surface":"block","classification":["model","schema","profile-encoding"],"depends_on":["PTO-ARCH-DATA-TYPES-INTEGER"],"catalog_projection":{"catalog":"command-forms","isa":"PTO Instruction Set Architecture","reviewed_encoding_overlaps":[],"schema_version":2,"surface":"command-and-boundary"}}
// Bit-level facts of the Block commands used by the sample: the PE
// participation modes of B.IOT and the 32-bit words of BSTART.TEPL, B.DATR,
// B.DIM, B.IOT and BSTOP, as spec/catalog/command-forms.json encodes them.
// ExecuteCommandInstruction takes these words (zero-extended to 64 bits,
// length 32); the builders below write a command's word from its field
// values, as a program's assembler does.

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
    => bits(64)
begin
    return Zeros{64} + (data_type * 0x8000000 + mode * 0x2000000 +
        function_code * 0x100000 + 0x19181);
end;

// The BSTART.TEPL word of a seven-bit Mode:Function selector.
pure func BStartWord(selector: integer, data_type: integer) => bits(64)
begin
    return BStartTEPLWord(selector DIVRM 32, selector MOD 32, data_type);
end;

// B.DATR: CMode[31:29], PadValueOrByteId[28:27], Sat[26], Canonicalize[25],
// DataType[24:20], RMode[17:15], Layout[11:7], fixed bits 0x1023 under mask
// 0x000c707f.
pure func BDatrWord(layout: integer, data_type: integer, pad: integer,
                    cmode: integer, rmode: integer, sat: integer,
                    canonicalize: integer) => bits(64)
begin
    return Zeros{64} + (cmode * 0x20000000 + pad * 0x8000000 +
        sat * 0x4000000 + canonicalize * 0x2000000 + data_type * 0x100000 +
        rmode * 0x8000 + layout * 0x80 + 0x1023);
end;

// B.DATR PadValue=<pad>: every other field neutral, DataType DTYPE_NONE.
pure func BDatrPadWord(pad: integer) => bits(64)
begin
    return BDatrWord(0, DTYPE_NONE_CODE, pad, 0, 0, 0, 0);
end;

// B.IOT with two sources and a destination: SrcTile1[31:26], SrcTile0[25:20],
// L[19], SizeCode[18:15], PEMode[11:9], DstTile[8:7]; fixed bits 0x4013 under
// mask 0x707f. pe_mask is the four mask digits read as a binary number and
// must be one of the eight encodable masks.
pure func BIOTWord(source0: integer, source1: integer, pe_mask: integer,
                   last: boolean, hand: integer, size_code: integer)
    => bits(64)
begin
    let pe_mode = PEModeOfMask(Zeros{4} + pe_mask);
    assert pe_mode >= 0;
    let l = if last then 1 else 0;
    return Zeros{64} + (source1 * 0x4000000 + source0 * 0x100000 +
        l * 0x80000 + size_code * 0x8000 + pe_mode * 0x200 + hand * 0x80 +
        0x4013);
end;

// B.DIM RegSrc, uimm17, ->LBn: uimm17[11:0] at bits 31:20, uimm17[16:12] at
// bits 11:7, RegSrc at 19:15, n at 14:12, fixed low bits 0x43.
pure func BDimWord(lb: integer, reg_src: integer, uimm17: integer) => bits(64)
begin
    return Zeros{64} + ((uimm17 MOD 0x1000) * 0x100000 + reg_src * 0x8000 +
        lb * 0x1000 + (uimm17 DIVRM 0x1000) * 0x80 + 0x43);
end;

pure func BStopWord() => bits(64)
begin
    return Zeros{64} + 1;
end;
