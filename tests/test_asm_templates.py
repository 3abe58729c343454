"""Every form whose catalog template can be read assembles from decode's text back to its word.

For each form (scalar forms, command forms, tile operations and their sub-forms)
random legal field values are encoded, the word is decoded, the decoded
form's canonical text (:func:`disassemble_form`) is assembled again
(:func:`assemble_text`) and must give the same word. Forms no text can select
alone are listed by :func:`unassemblable` with the reason, and must be few.
"""

from __future__ import annotations

import collections
import io
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specgen.cli import main
from specgen.encoding.asm import AsmError
from specgen.encoding.asm_template import assemble_text, disassemble_form, first_legal_values, unassemblable
from specgen.encoding.decode import decode
from specgen.encoding.from_spec import spec_encodings
from specgen.encoding.model import Encoding, EncodingSet
from specgen.graph import SpecGraph
from specgen.loader import load_spec

_SETUPS: dict[Path, tuple[EncodingSet, list[Encoding], dict[str, str]]] = {}


def _setup(root: Path) -> tuple[EncodingSet, list[Encoding], dict[str, str]]:
    if root not in _SETUPS:
        es = spec_encodings(SpecGraph.build(load_spec(root)))
        assert es is not None
        skipped = unassemblable(es)
        forms = [e for e in es if e.kind != "reservation" and e.form_id not in skipped]
        _SETUPS[root] = (es, forms, skipped)
    return _SETUPS[root]


def _roundtrip(root: Path, data: st.DataObject) -> None:
    es, forms, _ = _setup(root)
    e = data.draw(st.sampled_from(forms))
    values: dict[str, int] = {}
    for f in e.free_fields:
        cons = e.constraints_for(f.name)
        width = max(f.value_width, f.width)
        lo, hi = (-(1 << (f.value_width - 1)), (1 << (f.value_width - 1)) - 1) if f.signed else (0, (1 << width) - 1)
        values[f.name] = data.draw(st.integers(lo, hi).filter(
            lambda v, f=f, cs=cons: f.representable(v) and all(c.allows(v) for c in cs)))
    word = e.encode(values)
    (m,) = [m for m in decode(es, word, e.width) if m.encoding is e]
    assert {k: m.values[k] for k in values} == values
    text = disassemble_form(e, m.values, es)
    again = assemble_text(es, text)
    assert again.word == word, (text, again.encoding.form_id, e.form_id)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_template_asm_inverts_decode_bundled(bundled_root: Path, data: st.DataObject) -> None:
    _roundtrip(bundled_root, data)


@pytest.mark.corpus
@pytest.mark.parametrize("release", ["pto-spec-0.58.3", "pto-spec-0.58.0"])
def test_template_asm_inverts_decode_corpus(corpus_root: Path, release: str) -> None:
    root = corpus_root.parent / release

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def prop(data: st.DataObject) -> None:
        _roundtrip(root, data)

    prop()


@pytest.mark.corpus
@pytest.mark.parametrize("release", ["pto-spec-0.58.3", "pto-spec-0.58.0"])
def test_every_scalar_form_is_assemblable_and_few_are_not(corpus_root: Path, release: str) -> None:
    es, forms, skipped = _setup(corpus_root.parent / release)
    scalar = [e for e in es if e.kind == "scalar-form"]
    assert scalar and all(e in forms for e in scalar)
    for e in es:  # every form once, with its fields all zero but the constraints' first value
        if e in forms:
            word = e.encode(first_legal_values(e))
            (m,) = [m for m in decode(es, word, e.width) if m.encoding is e]
            assert assemble_text(es, disassemble_form(e, m.values, es)).word == word, e.form_id
    print(f"{release}: unassemblable {len(skipped)}: {skipped}")
    assert not skipped, skipped


@pytest.mark.corpus
def test_scalar_words_from_the_catalog(corpus_root: Path) -> None:
    es, _, _ = _setup(corpus_root.parent / "pto-spec-0.58.3")
    a = assemble_text(es, "addi [R1], 5, ->R2")
    assert a.values["SrcL"] == 1 and a.values[next(n for n in a.values if n.startswith("uimm"))] == 5
    assert a.values["RegDst"] == 2
    with pytest.raises(AsmError, match="does not fit"):
        assemble_text(es, "ADDI R1, 99999999999, R2")
    with pytest.raises(AsmError, match="not a register this spec gives a code"):
        assemble_text(es, "addi a0, 5, ->a1")  # ABI names: the spec lists them without codes
    with pytest.raises(AsmError, match="no encodable form"):
        assemble_text(es, "NOSUCHOP x1")
    out, err = io.StringIO(), io.StringIO()
    assert main(["asm", "--root", str(corpus_root.parent / "pto-spec-0.58.3"), "addi R1, 5, ->R2"], out=out, err=err) == 0, err.getvalue()
    word = out.getvalue().split()[0]
    assert word == a.hex()
    dec = io.StringIO()
    assert main(["decode", "--root", str(corpus_root.parent / "pto-spec-0.58.3"), word], out=dec, err=err) == 0
    assert "ADDI" in dec.getvalue().upper()


@pytest.mark.corpus
def test_cli_template_errors_are_findings(corpus_root: Path) -> None:
    root = str(corpus_root.parent / "pto-spec-0.58.3")
    for text, expect in (("B.CATR 1", "takes 6 operands"), ("addi R1, 5", "takes 3 operands"),
                         ("BSTART.VEC TMUL, DataType", "cannot assemble"),
                         ("nosuchop x1, x2", "unknown command")):
        err = io.StringIO()
        assert main(["asm", "--root", root, text], out=io.StringIO(), err=err) == 1, text
        assert expect in err.getvalue() and "Traceback" not in err.getvalue(), err.getvalue()
    out = io.StringIO()
    assert main(["asm", "--root", root, "B.CATR 1, 0, 0, 0, 0, 0"], out=out, err=io.StringIO()) == 0
    assert "form b_catr" in out.getvalue().lower()
    out = io.StringIO()
    assert main(["asm", "--root", root, "BSTART.STD RET"], out=out, err=io.StringIO()) == 0
    assert "form bstart_std" in out.getvalue().lower()


def _prose_code(es: EncodingSet, mnemonic: str, field: str, option: str) -> int:
    """The code the record's own defaults sentence gives ``option`` (read here independently of asm_names)."""
    import re
    (enc,) = [e for e in es.by_mnemonic(mnemonic) if e.kind == "scalar-form"]
    for line in enc.assembly_prose:
        m = re.search(rf"{field}=([01]+) selects \{option}\b", line)
        if m:
            return int(m.group(1), 2)
    raise AssertionError(f"{mnemonic}: no sentence names {option}")


@pytest.mark.corpus
def test_the_spec_assembly_syntax(corpus_root: Path) -> None:
    """Registers, operand suffixes, shifts and flag options as the spec's templates and examples write them."""
    es, _, _ = _setup(corpus_root.parent / "pto-spec-0.58.3")
    a = assemble_text(es, "add t#1, u#1.neg<<1, ->u")  # a contract example of ADD
    assert a.values["SrcL"] == 24 and a.values["SrcR"] == 28 and a.values["RegDst"] == 30
    assert a.values["shamt"] == 1 and a.values["SrcRType"] == _prose_code(es, "ADD", "SrcRType", ".neg")
    plain = assemble_text(es, "add zero, R5, ->t")
    assert plain.values["SrcRType"] == 0b11 and plain.values["SrcR"] == 5 and plain.values["RegDst"] == 31
    assert disassemble_form(plain.encoding, plain.values, es) == "ADD zero, R5, ->t"
    lw = assemble_text(es, "lw.add.aqrl [t#1], u#1, ->t")
    assert (lw.values["aq"], lw.values["rl"], lw.values["far"]) == (1, 1, 0)
    assert assemble_text(es, "lw.add.f [t#1], u#1, ->t").values["far"] == 1
    assert disassemble_form(lw.encoding, lw.values, es) == "LW.ADD.AQRL [t#1], u#1, ->t"
    with pytest.raises(AsmError, match="options are"):
        assemble_text(es, "lw.add.xy [t#1], u#1, ->t")
    with pytest.raises(AsmError, match=r"\.bogus is not one of"):
        assemble_text(es, "add t#1, u#1.bogus, ->u")


@pytest.mark.corpus
def test_variant_rows_are_written_as_the_spec_sketches_them(corpus_root: Path) -> None:
    """A catalog variant written with its base row's template is selected by ``[NAME form]``; every one round-trips."""
    for release in ("pto-spec-0.58.3", "pto-spec-0.58.0"):
        es, forms, _ = _setup(corpus_root.parent / release)
        rows = [e for e in es if e.variant and e.kind == "command-form"
                and (es.by_form_id(e.base_form_id) or e).assembly == e.assembly]
        assert rows, release
        for e in rows:
            word = e.encode(first_legal_values(e))
            text = disassemble_form(e, e.decode_fields(word), es)
            assert text.endswith(f" [{e.variant} form]"), text
            assert e in forms and assemble_text(es, text).word == word, text
        with pytest.raises(AsmError, match="no variant"):
            assemble_text(es, disassemble_form(rows[0], rows[0].decode_fields(rows[0].encode({})), es)
                          .rsplit(" [", 1)[0] + " [NOSUCH form]")


# The ABI register names the spec's B.IOR decision lists ("zero/sp/a0..a7/ra/s0..s8/x0..x3") without a code for each
_ABI = re.compile(r"^(sp|ra|a[0-7]|s[0-8]|x[0-3])$")


@pytest.mark.corpus
def test_the_spec_contract_examples_assemble(corpus_root: Path) -> None:
    """Every concrete example a 0.58.3 scalar record gives assembles and round-trips through decode, except the
    three kinds the spec gives no codes for: ABI register names, the ``.{T}`` type suffix, letter operands (M, N)."""
    root = corpus_root.parent / "pto-spec-0.58.3"
    es, _, _ = _setup(root)
    spec = load_spec(root)
    done, left = 0, collections.Counter()
    for u in spec.units:
        c = u.instruction.contract if u.instruction is not None else None
        if c is None or u.surface != "scalar":
            continue
        fields = {f.name.lower() for e in es.by_mnemonic(u.instruction.mnemonic) for f in e.fields}
        templates = [e.assembly for e in es.by_mnemonic(u.instruction.mnemonic)]
        for ex in c.examples:
            ops = ex.split(None, 1)[1] if " " in ex else ""
            words = {w.lower() for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", ops)}
            if ex in c.canonical_assembly or "{" in ex or "<" in ex.replace("<<", "") or words & (fields | {
                    "srcl", "srcr", "simm", "uimm", "rd", "dst0", "dst1", "symbol", "label"}):
                continue  # a template, not a concrete example
            try:
                a = assemble_text(es, ex)
            except AsmError:
                if any(_ABI.match(w) for w in words):
                    left["ABI register name"] += 1
                elif any(".{" in t for t in templates):
                    left["type suffix"] += 1
                elif any(re.search(r",\s*[A-Z]\s*,", t) for t in templates):
                    left["letter operand"] += 1
                else:
                    raise
                continue
            (m,) = [m for m in decode(es, a.word, a.width) if m.encoding is a.encoding]
            assert assemble_text(es, disassemble_form(a.encoding, m.values, es)).word == a.word, ex
            done += 1
    print(f"contract examples: {done} assemble and round-trip; not assembled: {dict(left)}")
    assert done >= 150 and set(left) <= {"ABI register name", "type suffix", "letter operand"}


_PIECES = ["add", "lw.add", "lw.add.aqrl", "BSTART.TMOV", "B.IOR", "BSTART.VEC", "TADD", "addi", "c.addi", "hl.divw",
           "t#1", "u#4", "t#9", "R5", "R99", "zero", "a0", "x1", "->", "->t", "->u", "[", "]", "[R3]", ",", ".sw",
           ".neg", ".bogus", "<<", "<<3", "<<-1", "=", "SrcRType=2", "far=1", "0x", "-5", "99999999999999", "{", "}",
           "[TMOV.L2S.INSERT form]", "[NOSUCH form]", "form", ";", "\n", "#", " ", "U8", "FP16", "mask=0b0001"]


@pytest.mark.corpus
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(_PIECES), max_size=9), noise=st.text(max_size=6))
def test_any_text_is_a_word_or_one_asm_error(corpus_root: Path, words: list[str], noise: str) -> None:
    """Whatever is typed, the template assembler gives a word that decodes to the same form, or an AsmError."""
    es, _, _ = _setup(corpus_root.parent / "pto-spec-0.58.3")
    text = " ".join(words[:1]) + " " + ", ".join(words[1:]) + noise
    try:
        a = assemble_text(es, text)
    except AsmError:
        return
    assert any(m.encoding is a.encoding for m in decode(es, a.word, a.width)), text
