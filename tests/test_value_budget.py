"""Issue 24's unbounded-value and width probes: one located finding each, never a hang or a MemoryError.

Each probe is an AVS test added to a copy of the bundled spec and run through
``specgen test`` as a user runs it. The loops run with a small step budget
(``--max-steps``) so the suite stays fast; what is asserted is that they end
with a budget error at their line, which the charge per KiB makes happen.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from treecopy import copy_tree

from specgen.asl.budget import ACTIVE, FREE_BITS, ValueBudgetExceeded, produce
from specgen.asl.stdlib import b_replicate
from specgen.asl.values import Bits
from specgen.cli import main

HEADER = ('// PTO-TEST: {"id":"PTO-AVS-PROBE-%s","source":"asl/arch/faults/architectural-faults.asl",'
          '"requirements":[],"kind":"state-transition","summary":"probe","pass_condition":"probe",'
          '"related_sources":[]}\n')

PROBES = {  # name: (body of main, expected status, a fragment of the message, the line it is at)
    "SHL": ("    let x : integer = 1 << 10000000000;", "error", "value budget: a left shift would be 10,000,000,001 bits", 4),
    "POW": ("    let x : integer = 2^(2^40);", "error", "value budget: a power would be 1,099,511,627,777 bits", 4),
    "REP": ("    let x = Replicate(Ones{64}, 100000000);", "error", "Replicate of 100,000,000 copies", 4),
    # squaring charges words x words before it multiplies: the steps run out first, or the value limit
    "SQUARE": ("    var x : integer = 3;\n    for i = 0 to 40 do\n        x = x * x;\n    end;", "error", "budget", 6),
    "ARRAY": ("    var a : array [[100000000]] of integer;", "error", "an array of 100,000,000 elements", 4),
    "BITSN": ("    let n : integer = 1 << 30;\n    var x : bits(n);", "error", "a bits(N) value would be", 5),
    "STRING": ('    var s : string = "abcdefgh";\n    for i = 0 to 40 do\n        s = s ++ s;\n    end;', "error",
               "a concatenation would be", 6),
    "WIDTH": ("    var x : bits(8) = Zeros{8};\n    x = Zeros{16};", "error", "'x' is declared bits(8), given a bits(16)", 5),
    "BIND": ("    let n : integer = 100;\n    let x : bits(4) = Zeros{n};", "error",
             "'x' is declared bits(4), given a bits(100)", 5),
    "NEG": ("    assert Len(Zeros{-3}) == -3;", "error", "Zeros{-3}: a bitvector width cannot be negative", 4),
    "PARAM": ("    let n : integer = 16;\n    let r = F8(Zeros{n});", "error", "argument 'x' of F8 is declared bits(8)", 5),
    "RETURN": ("    let x = G8(16);", "error", "the result of G8 is declared bits(8), given a bits(16)", 15),  # G8's return
    "REPOK": ("    let x = Replicate(Ones{64}, 16000);\n    assert Len(x) == 1024000 && IsOnes(x);", "passed", "", 0),
    "DYNAMIC": ("    let x = H8(16);\n    let z : bits(8) = Zeros{4} ++ Zeros{4};", "passed", "", 0),
    # loops over big values end by the step budget (one step per KiB touched), at the loop's statement
    "ADDLOOP": ("    var x : integer = 1 << 1000000;\n    for i = 0 to 100000000 do\n        x = x + 1;\n    end;",
                "error", "step budget of 2000000 exceeded", 6),
    "CMPLOOP": ("    let x : integer = 1 << 1000000;\n    var y : integer = 0;\n    while x != y looplimit 1000000000 do\n"
                "        y = 0;\n    end;", "error", "step budget of 2000000 exceeded", 6),
    "DIVLOOP": ("    let x : integer = 1 << 1000000;\n    var y : integer = 0;\n    for i = 0 to 100000000 do\n"
                "        y = x DIVRM ((1 << 500000) + i);\n    end;", "error", "step budget of 2000000 exceeded", 7),
}
HELPERS = """
func F8(x: bits(8)) => integer
begin
    return 1;
end;

func G8(n: integer) => bits(8)
begin
    return Zeros{n};
end;

func H8(n: integer) => bits(8)
begin
    var y : bits(n);
    return Zeros{8};
end;
"""


@pytest.fixture(scope="module")
def probe_root(tmp_path_factory: pytest.TempPathFactory, bundled_root: Path) -> Path:
    root = copy_tree(bundled_root, tmp_path_factory.mktemp("probes") / "spec")
    d = root / "tests" / "asl" / "probe"
    d.mkdir()
    for name, (body, *_rest) in PROBES.items():
        (d / f"probe-{name.lower()}-001.asl").write_text(
            HEADER % name + f"func main() => integer\nbegin\n{body}\n    return 0;\nend;\n" + HELPERS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def results(probe_root: Path) -> dict[str, dict]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["test", "--root", str(probe_root), "--jobs", "1", "--max-steps", "2000000", "--format", "json",
                 "probe/"], out, err)
    assert code == 1, err.getvalue()
    return {r["id"].removeprefix("PTO-AVS-PROBE-"): r for r in json.loads(out.getvalue())["tests"]}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_probe_is_one_located_finding(results: dict[str, dict], name: str) -> None:
    _body, status, fragment, line = PROBES[name]
    r = results[name]
    assert r["status"] == status, r
    if status != "passed":
        assert fragment in r["message"], r["message"]
        assert r["location"].startswith(f"tests/asl/probe/probe-{name.lower()}-001.asl:{line}:"), r["location"]
        assert "MemoryError" not in r["message"] and "internal evaluation error" not in r["message"]


def test_the_big_probes_stay_small_in_a_process(probe_root: Path) -> None:
    """The issue's three probes in one process: a few hundred MB at most (peak RSS of the child).

    The peak is the child's own VmHWM, not ``ru_maxrss``: Linux carries ``ru_maxrss`` across exec, so
    a child of a large pytest worker would report the worker's memory, not its own.
    """
    code = ("import sys\nfrom specgen.cli import main\n"
            "rc = main(['test', '--root', sys.argv[1], '--jobs', '1', "
            "'PTO-AVS-PROBE-SHL', 'PTO-AVS-PROBE-POW', 'PTO-AVS-PROBE-REP'])\n"
            "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
            "print('PEAK-KIB', hwm)\nsys.exit(rc)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(probe_root)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1 and "3 error" in proc.stdout, proc.stdout + proc.stderr
    peak_kib = int(proc.stdout.rsplit("PEAK-KIB", 1)[1].split()[0])
    assert peak_kib < 400 * 1024, f"peak RSS {peak_kib} KiB"


def test_value_limit_is_configurable(probe_root: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["test", "--root", str(probe_root), "--jobs", "1", "--max-value-bits", "1000000", "--format", "json",
                 "PTO-AVS-PROBE-REPOK"], out, err)
    r = json.loads(out.getvalue())["tests"][0]
    assert code == 1 and r["status"] == "error" and "over the limit of 1,000,000 bits" in r["message"], r


def test_replicate_is_linear_and_exact() -> None:
    for width, count in ((1, 0), (0, 5), (3, 1), (3, 7), (64, 1000)):
        x = Bits((1 << width) - 1 if width else 0, width)
        want = int(format(x.v, f"0{width}b") * count or "0", 2) if width else 0
        assert b_replicate((), (x, count)) == Bits(want, width * count)
    assert b_replicate((12,), (Bits(0b101, 3),)) == Bits(0b101101101101, 12)


def test_produce_refuses_before_allocating() -> None:
    saved = (ACTIVE.value_bits, ACTIVE.steps, ACTIVE.max_steps)
    ACTIVE.value_bits, ACTIVE.steps, ACTIVE.max_steps = 1 << 20, [10**9], 10**9
    try:
        with pytest.raises(ValueBudgetExceeded, match="over the limit of 1,048,576 bits"):
            produce((1 << 20) + 1, "a test value")
        produce(FREE_BITS, "a small value")
        assert ACTIVE.steps[0] == 10**9  # values up to FREE_BITS cost nothing extra
        produce(1 << 20, "a big value")
        assert ACTIVE.steps[0] == 10**9 - ((1 << 20) >> 13)  # one step per KiB
    finally:
        ACTIVE.value_bits, ACTIVE.steps, ACTIVE.max_steps = saved
