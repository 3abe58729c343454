"""The Block program parser: every accepted form, every error kind (with line/col), sketches."""

from __future__ import annotations

from pathlib import Path

import pytest

from specgen.loader import load_spec
from specgen.program.reader import Program, ProgramError
from specgen.program.reader import parse_program as parse_with
from specgen.program.statements import COMMANDS
from specgen.program.syntax import FORMS
from specgen.vocabulary import vocabulary_of

VOCABULARY = vocabulary_of(load_spec(Path(__file__).resolve().parents[1] / "spec"))


def parse_program(text: str, path: str = "<program>") -> Program:
    """Read ``text`` with the bundled spec's DataType, PadValue and CMODE names."""
    return parse_with(text, VOCABULARY, path)


TMUL = "BSTART.VEC TMUL, FP16; B.DIM LB0=4; B.DIM LB1=2; B.IOT T1, T2, mask=0b0001, <last>, ->T<1>; BSTOP"


def test_one_line_program_decodes_every_field() -> None:
    p = parse_program(TMUL)
    assert [s.mnemonic for s in p.statements] == ["BSTART.VEC", "B.DIM", "B.DIM", "B.IOT", "BSTOP"]
    assert p.statements[0].fields == {"operation": "TMUL", "data_type": 4}
    assert p.statements[1].fields == {"lb": 0, "value": 4}
    assert p.statements[3].fields == {"source_left": 1, "source_right": 2, "last": True, "pe_mask": 1,
                                      "destination_hand": 0, "size_code": 1}
    assert p.statements[3].text == "B.IOT T1, T2, mask=0b0001, <last>, ->T<1>"
    assert p.is_block and not p.is_sketch


def test_multiline_with_comments_and_other_forms() -> None:
    text = ("# header comment\n"
            "bstart.tepl 0, 11, S32   // lower case is accepted\n"
            "B.DATR {NORM, DTYPE_NONE, Max, EQ, Default, 0, 0}\n"
            "B.DIM zero, 64, ->LB2\n"
            "B.DIM LB0=0x10\n"
            "B.IOT U0, 35, mask=1111, <last>, ->M<2>\n"
            "BSTOP\n")
    p = parse_program(text)
    st = p.statements
    assert [s.line for s in st] == [2, 3, 4, 5, 6, 7]
    assert st[0].fields == {"mode": 0, "function": 11, "data_type": 17}
    assert st[1].fields == {"layout": 0, "data_type": 31, "pad": 1, "cmode": 0, "rmode": 0, "sat": 0,
                            "canonicalize": 0}
    assert st[2].fields == {"lb": 2, "value": 64}
    assert st[3].fields == {"lb": 0, "value": 16}
    assert st[4].fields["source_left"] == 16 and st[4].fields["source_right"] == 35
    assert st[4].fields["pe_mask"] == 0b1111 and st[4].fields["destination_hand"] == 2


@pytest.mark.parametrize("pad,code", [("Zero", 0), ("Max", 1), ("Min", 2), ("Null", 3), ("0b10", 2), ("3", 3)])
def test_padvalue_spellings(pad: str, code: int) -> None:
    p = parse_program(f"B.DATR PadValue={pad}")
    assert p.statements[0].fields == {"pad": code}


def test_corpus_tmul_example_is_a_sketch_naming_each_placeholder() -> None:
    p = parse_program("BSTART.VEC TMUL, U64; B.DIM LB0=ValidCol; B.IOT SrcLeft, SrcRight, mask=PE_MASK, "
                      "<last>, ->DstTile<TSize>; BSTOP")
    assert p.is_sketch
    assert [s.text for s in p.sketch] == ["ValidCol", "SrcLeft", "SrcRight", "PE_MASK", "DstTile<TSize>"]
    assert p.sketch_reason == "sketch: symbolic operands ValidCol, SrcLeft, SrcRight, PE_MASK, DstTile<TSize>"
    assert p.sketch[0].col == len("BSTART.VEC TMUL, U64; B.DIM LB0=") + 1


def test_symbolic_datatype_and_optional_annotation_are_sketches() -> None:
    p = parse_program("BSTART.VEC TMUL, DataType\nB.DATR PadValue (optional)\nBSTOP")
    assert [s.text for s in p.sketch] == ["DataType", "(optional)", "PadValue"]
    assert p.sketch[1].line == 2


def _err(text: str) -> ProgramError:
    with pytest.raises(ProgramError) as info:
        parse_program(text, path="prog.s")
    return info.value


def test_every_command_of_the_syntax_has_one_reader() -> None:
    # the dispatch is a table, not a method name built from the mnemonic: a command added to FORMS
    # without its reader (or a reader left for a removed command) fails here, not at some program's parse
    assert set(COMMANDS) == set(FORMS)


def test_error_unknown_command() -> None:
    e = _err("BSTART.VEC TADD, S32\nB.IOS a0, a1")
    assert (e.kind, e.line, e.col, e.token) == ("unknown-command", 2, 1, "B.IOS")
    assert "unknown command 'B.IOS'" in e.message and "BSTOP" in e.expected
    assert str(e).startswith("prog.s:2:1: ")


def test_error_unexpected_character() -> None:
    e = _err("BSTART.VEC TADD, S32; B.DIM LB0=4 $")
    assert (e.kind, e.line, e.col, e.token) == ("character", 1, 35, "$")


def test_error_expected_token() -> None:
    e = _err("BSTART.VEC TADD S32")
    assert (e.kind, e.line, e.col, e.token) == ("syntax", 1, 17, "S32")
    assert "expected ',' before the DataType, found 'S32'" in e.message
    assert "BSTART.VEC TileOp, DataType" in e.message


def test_error_trailing_operand() -> None:
    e = _err("B.DIM LB0=4 4")
    assert (e.kind, e.col, e.token) == ("syntax", 13, "4")
    assert "expected end of statement" in e.message


def test_error_value_out_of_range() -> None:
    e = _err("BSTART.TEPL 4, 0, S32")
    assert (e.kind, e.col, e.token) == ("range", 13, "4")
    assert "Mode 4 is out of range 0..3" in e.message


def test_error_register_out_of_range() -> None:
    e = _err("B.IOT T16, T2, mask=0b0001, <last>, ->T<1>")
    assert (e.kind, e.col) == ("range", 7)
    assert "tile register T16 does not exist" in e.message


def test_error_missing_mask_operand() -> None:
    e = _err("B.IOT T1, T2, <last>, ->T<1>")
    assert e.kind == "missing-operand" and e.line == 1
    assert "mask=" in e.expected


def test_error_missing_destination() -> None:
    e = _err("B.IOT mask=0b0001, <last>")  # sources only is a form (MSCATTER's); nothing at all is not
    assert e.kind == "missing-operand"
    assert "->T<SizeCode>" in e.expected


def test_error_bad_mask_value() -> None:
    e = _err("B.IOT T1, T2, mask=7, <last>, ->T<1>")
    assert (e.kind, e.col, e.token) == ("bad-value", 20, "7")
    assert "not four binary digits" in e.message


def test_error_destination_names_a_register() -> None:
    e = _err("B.IOT T1, T2, mask=0b0001, <last>, ->T0<1>")
    assert (e.kind, e.col, e.token) == ("bad-value", 38, "T0")
    assert "names a hand" in e.message


def test_error_unterminated_annotation() -> None:
    e = _err("BSTART.VEC TADD, S32\nB.DATR PadValue (optional")
    assert (e.kind, e.line) == ("unterminated", 2)
    assert "unterminated annotation '(' opened at 2:17" in e.message


def test_error_empty_program() -> None:
    e = _err("  # nothing but a comment\n\n")
    assert (e.kind, e.line) == ("empty", 3)


def test_error_statement_starting_with_punctuation() -> None:
    e = _err("BSTOP; , BSTOP")
    assert (e.kind, e.col, e.token) == ("syntax", 8, ",")


def test_errors_never_escape_as_other_exceptions() -> None:
    for junk in ["B.IOT", "B.DATR {", "B.DATR {NORM,", "B.DIM", "B.DIM zero", "BSTART.TEPL", "B.IOT T1,",
                 "B.IOT T1, T2, mask=", "B.IOT T1, T2, mask=0b1, <", "B.IOT T1, T2, mask=0b1, ->T<",
                 "B.DATR PadValue=Huge", "B.DIM LB7=1", "0x10", "B.DIM LB0=999999"]:
        with pytest.raises(ProgramError):
            parse_program(junk)


def test_execute_names_its_destination_so_it_may_alias_a_source() -> None:
    p = parse_program("EXECUTE TMUL T0, T0, T1\nexecute tadd u2, 17, U3  // lower case and numbers")
    assert [s.mnemonic for s in p.statements] == ["EXECUTE", "EXECUTE"]
    assert p.statements[0].fields == {"operation": "TMUL", "destination": 0, "source_left": 0, "source_right": 1}
    assert p.statements[1].fields == {"operation": "TADD", "destination": 18, "source_left": 17,
                                      "source_right": 19}
    assert p.statements[0].text == "EXECUTE TMUL T0, T0, T1"
    assert not p.is_block and not p.is_sketch


@pytest.mark.parametrize("text, kind, col, words", [
    ("EXECUTE TMUL T0, T0", "missing-operand", 20, ["EXECUTE TMUL", "found 2", "missing the right source"]),
    ("EXECUTE TMUL T0", "missing-operand", 16, ["found 1", "missing the left source"]),
    ("EXECUTE TMUL T0, T0, T1, T2", "syntax", 26, ["EXECUTE TMUL takes three tile registers", "found 4"]),
    ("EXECUTE TMUL T0, T0, T1,", "syntax", 25, ["trailing ','"]),
    ("EXECUTE T0, T0, T1", "missing-operand", 9, ["found the register T0", "EXECUTE TMUL T0, T0, T1"]),
    ("EXECUTE", "missing-operand", 8, ["an instruction mnemonic"]),
    ("EXECUTE TMUL T0 T0 T1", "syntax", 17, ["',' before the left source", "found 'T0'"]),
    ("EXECUTE TMUL T0, T0, T16", "range", 22, ["T16 does not exist"]),
])
def test_execute_operand_errors(text: str, kind: str, col: int, words: list[str]) -> None:
    e = _err(text)
    assert (e.kind, e.line, e.col) == (kind, 1, col)
    for w in words:
        assert w in e.message, (w, e.message)
