"""The step budget: an endless loop anywhere in spec code ends as a located failure, never a hang.

Each case uses a small budget (``--max-steps`` or ``[specgen] max_steps``) so
it ends in well under a second of interpretation; the default budget is sized
from the real suite (docs-internal/asl-interpreter.md).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from specgen.asl import ASLError, Interpreter, parse_source
from specgen.cli import main
from specgen.loader import load_spec
from specgen.loader.config import DEFAULT_MAX_STEPS

SPIN = """
func Spin(n: integer) => integer
begin
    var x : integer = 0;
    while TRUE do
        x = x + n;
    end;
    return x;
end;

func Count(n: integer) => integer
begin
    var total : integer = 0;
    for i = 1 to n do
        total = total + 1;
    end;
    return total;
end;
"""


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def _interp(max_steps: int) -> Interpreter:
    return Interpreter(modules=[parse_source(SPIN, "spin.asl")], max_steps=max_steps)


def test_endless_while_fails_at_the_loop_with_the_stack() -> None:
    it = _interp(5000)
    with pytest.raises(ASLError) as exc:
        it.call("Spin", 1)
    e = exc.value
    assert e.kind == "budget"
    assert str(e) == "spin.asl:5:5: step budget of 5000 exceeded"
    assert [name for name, _ in e.asl_stack] == ["Spin"]


def test_the_budget_counts_loop_iterations_and_calls_and_reset_refills_it() -> None:
    it = _interp(1000)
    assert it.call("Count", 500) == 500
    assert it.steps_used == 501  # one call + 500 iterations
    it.reset()
    it.load_module(parse_source(SPIN, "spin.asl"))
    assert it.call("Count", 998) == 998  # a fresh budget per run
    it.reset()
    it.load_module(parse_source(SPIN, "spin.asl"))
    with pytest.raises(ASLError, match=r"spin\.asl:14:5: step budget of 1000 exceeded"):
        it.call("Count", 10 ** 12)  # a bounded but endless-in-practice loop ends too


def test_max_steps_is_read_from_specification_toml(bundled_copy: Path) -> None:
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text() + "\n[specgen]\nmax_steps = 12345\n")
    assert load_spec(bundled_copy).config.max_steps == 12345
    toml.write_text(toml.read_text().replace("12345", '"lots"'))
    spec = load_spec(bundled_copy)
    assert spec.config.max_steps == DEFAULT_MAX_STEPS
    assert any(f.rule == "config-invalid" and "max_steps" in f.message for f in spec.findings)


def _add_spinning_test(root: Path) -> Path:
    path = root / "tests/asl/arch/profile/spin-001.asl"
    header = {"id": "PTO-AVS-SPIN-001", "source": "asl/arch/profile/reset.asl", "requirements": [],
              "kind": "state-transition", "summary": "spins", "pass_condition": "never",
              "related_sources": []}
    path.write_text("// PTO-TEST: " + json.dumps(header) + "\nfunc main() => integer\nbegin\n"
                    "    while TRUE do\n        pass;\n    end;\n    return 0;\nend;\n")
    return path


def test_an_endless_avs_test_is_an_error_at_its_line(bundled_copy: Path) -> None:
    _add_spinning_test(bundled_copy)
    rc, out, _ = _cli("test", "--root", str(bundled_copy), "--jobs", "1", "--max-steps", "20000",
                      "--format", "json", "spin-001", "reset-clears")
    assert rc == 1
    tests = {t["id"]: t for t in json.loads(out)["tests"]}
    spin = tests["PTO-AVS-SPIN-001"]
    assert (spin["status"], spin["reason"]) == ("error", "budget")
    assert spin["message"] == "step budget of 20000 exceeded"
    assert spin["location"] == "tests/asl/arch/profile/spin-001.asl:4:5"
    assert tests["PTO-AVS-ARCH-RESET-001"]["status"] == "passed"  # the budget is per test


def _spin_in(path: Path, func_header: str) -> int:
    """Insert an endless loop as the first statement of the function ``func_header`` opens."""
    lines = path.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(func_header))
    begin = next(i for i in range(at, len(lines)) if lines[i].strip() == "begin")
    lines.insert(begin + 1, "    while TRUE do pass; end;")
    path.write_text("\n".join(lines))
    return begin + 2


def test_an_endless_legality_predicate_is_a_check_error_at_its_line(bundled_copy: Path) -> None:
    tadd = bundled_copy / "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"
    line = _spin_in(tadd, "pure func InstructionContractDataTypeLegal_TADD")
    toml = bundled_copy / "specification.toml"
    toml.write_text(toml.read_text() + "\n[specgen]\nmax_steps = 20000\n")
    rc, out, _ = _cli("check", "--root", str(bundled_copy))
    assert rc == 1
    assert re.search(rf"TADD\.asl:{line}(:5)?:.*step budget of 20000 exceeded", out), out


def test_an_endless_loop_on_an_examples_path_fails_the_run(bundled_copy: Path) -> None:
    reset = bundled_copy / "asl/arch/profile/reset.asl"
    line = _spin_in(reset, "func ResetProfileState()")
    example = bundled_copy / "examples/tile/elementwise-tile-tile/arithmetic/TADD/s32-wraps.json"
    rc, _, err = _cli("run", "--root", str(bundled_copy), "--max-steps", "20000", str(example))
    assert rc == 1
    assert f"asl/arch/profile/reset.asl:{line}:5: step budget of 20000 exceeded" in err
