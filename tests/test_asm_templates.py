"""Every form whose catalog template can be read assembles from decode's text back to its word.

For each form (scalar forms, command forms, tile operations and their sub-forms)
random legal field values are encoded, the word is decoded, the decoded
form's canonical text (:func:`disassemble_form`) is assembled again
(:func:`assemble_text`) and must give the same word. Forms no text can select
alone are listed by :func:`unassemblable` with the reason, and must be few.
"""

from __future__ import annotations

import io
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
    text = disassemble_form(e, m.values)
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
            assert assemble_text(es, disassemble_form(e, m.values)).word == word, e.form_id
    print(f"{release}: unassemblable {len(skipped)}: {skipped}")
    assert len(skipped) <= 6, skipped


@pytest.mark.corpus
def test_scalar_words_from_the_catalog(corpus_root: Path) -> None:
    es, _, _ = _setup(corpus_root.parent / "pto-spec-0.58.3")
    a = assemble_text(es, "addi [x1], 5, ->x2")
    assert a.values["SrcL"] == 1 and a.values[next(n for n in a.values if n.startswith("uimm"))] == 5
    assert a.values["RegDst"] == 2
    with pytest.raises(AsmError, match="does not fit"):
        assemble_text(es, "ADDI x1, 99999999999, x2")
    with pytest.raises(AsmError, match="no encodable form"):
        assemble_text(es, "NOSUCHOP x1")
    out, err = io.StringIO(), io.StringIO()
    assert main(["asm", "--root", str(corpus_root.parent / "pto-spec-0.58.3"), "addi x1, 5, ->x2"], out=out, err=err) == 0, err.getvalue()
    word = out.getvalue().split()[0]
    assert word == a.hex()
    dec = io.StringIO()
    assert main(["decode", "--root", str(corpus_root.parent / "pto-spec-0.58.3"), word], out=dec, err=err) == 0
    assert "ADDI" in dec.getvalue().upper()


@pytest.mark.corpus
def test_cli_template_errors_are_findings(corpus_root: Path) -> None:
    root = str(corpus_root.parent / "pto-spec-0.58.3")
    for text, expect in (("B.CATR 1", "takes 6 operands"), ("addi x1, 5", "takes 3 operands"),
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
