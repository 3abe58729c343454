"""A worked example no input assignment runs names the spec's ASL line that refused it (issue 39, item 1).

The generator's trials record each fault as the executor describes it; where a legality predicate's
``return FALSE`` (or an assert) decided it, the entry's reason is ``refused`` with that line and function,
and the build's summary line counts such entries.
"""

from __future__ import annotations

from pathlib import Path

from specgen.diagnostics import Sentence
from specgen.examples.runfile import parse_loose_example
from specgen.executor.executor import executor_for
from specgen.graph import SpecGraph
from specgen.loader import load_spec
from specgen.program.reader import parse_program
from specgen.vocabulary import VOCABULARY
from specgen.worked.composition import Reason
from specgen.worked.entry import Attempt, WorkedEntry, WorkedSuite
from specgen.worked.generator import refusal

REJECTED = Path(__file__).resolve().parents[1] / "spec/examples/tile/elementwise-tile-tile/logical/TXOR/fp32-rejected.json"


def test_a_refused_run_names_the_predicate_line(bundled_root: Path) -> None:
    graph = SpecGraph.build(load_spec(bundled_root))
    vocabulary = VOCABULARY(graph)
    example = parse_loose_example(REJECTED.read_text(encoding="utf-8"), vocabulary)
    program = parse_program(example.program_text, vocabulary, any_form=True)
    run = executor_for(graph, "reference").run(program, example.inputs(vocabulary))
    assert run.fault is not None
    said = run.fault.describe()
    site = refusal(said)
    assert site is not None, said
    path, line = site[0].split(":")[:2]
    text = (bundled_root / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert "return" in text or "assert" in text, text  # the line that decided, in the spec's own ASL
    assert site[1] and site[1] in said
    wrapped = Sentence("worked.problem.fault_sources", f"{said} (sources row)", fault=said)
    assert refusal(wrapped) == site  # a fault another sentence carries is found inside it
    assert refusal(Sentence("worked.problem.parse", "the generated program does not parse")) is None
    assert refusal("cannot run") is None


def test_the_summary_counts_refused_entries() -> None:
    refused = WorkedEntry("TX", "asl/x.asl", 1, reason=Reason("refused", (("function", "F"), ("site", "a.asl:3:5"),
                                                                          ("attempts", "2"), ("problem", "p"))),
                          attempts=[Attempt("S32", "", True, "p")])
    other = WorkedEntry("TY", "asl/y.asl", 1, reason=Reason("spelling", (("command", "BSTART.X"),)))
    suite = WorkedSuite({"TX": refused, "TY": other}, ["TX", "TY"])
    assert suite.refused == 1
    assert suite.summary().endswith("; 1 refused at an ASL line their page names")
    assert "refused" not in WorkedSuite({"TY": other}, ["TY"]).summary()
    assert "F refused it at a.asl:3:5" in refused.reason.english()


def test_a_bstart_naming_its_operation_by_number_is_written_with_the_values_its_form_fixes() -> None:
    """0.58.0's development trees spell a tile Block ``BSTART.TEPL Mode, Function, DataType``: the operation's
    own form fixes Mode and Function (issue 39's sweep: 88 of 109 worked examples did not parse without)."""
    from types import SimpleNamespace

    from specgen.worked.composition import read_template
    from specgen.worked.planstate import spelling_of

    def form(mnemonic: str, assembly: str, **fixed: int | None) -> SimpleNamespace:
        return SimpleNamespace(mnemonic=mnemonic, kind="tile-operation", assembly=assembly,
                               fields=[SimpleNamespace(name=k, fixed_value=v) for k, v in fixed.items()])

    class Forms:
        def __init__(self, *forms: SimpleNamespace) -> None:
            self.forms = forms

        def by_mnemonic(self, name: str) -> list[SimpleNamespace]:
            return [f for f in self.forms if f.mnemonic == name]

    tpl = read_template(["BSTART.TEPL TCVT, DataType", "B.IOT", "BSTOP"], ("FP32", "S32"))
    numbered = Forms(form("TCVT", "BSTART.TEPL Mode, Function, DataType", Mode=0, Function=27, DataType=None))
    assert spelling_of(numbered, tpl, "TCVT") == ("BSTART.TEPL", "0, 27")  # type: ignore[arg-type]
    free = Forms(form("TCVT", "BSTART.TEPL Mode, Function, DataType", Mode=None, Function=27, DataType=None))
    assert spelling_of(free, tpl, "TCVT") != ("BSTART.TEPL", "0, 27")  # type: ignore[arg-type]
