"""Issue 37's probes: what a run holds, how deep it calls, real arithmetic, negative exponents and shifts.

Each probe is an AVS test added to a copy of the bundled spec and run by ``specgen test`` in a child
process whose address space is limited (``RLIMIT_AS``): a regression fails with the child's own
``MemoryError`` (or is killed by the timeout) instead of eating the machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from treecopy import copy_tree

from specgen.asl.conformance import result_key
from specgen.asl.memory import live
from specgen.asl.runkey import run_key
from specgen.asl.values import Bits
from specgen.loader import load_spec

HEADER = ('// PTO-TEST: {"id":"PTO-AVS-MEM-%s","source":"asl/arch/faults/architectural-faults.asl",'
          '"requirements":[],"kind":"state-transition","summary":"probe","pass_condition":"probe",'
          '"related_sources":[]}\n')
BIG = "(1 << 16777000)"  # an integer of 2 MiB, just under the default value budget

PROBES = {  # name: (body of main, helpers, expected status, a fragment of the message, the line it is at)
    # the issue's: 100,000 integers of 2 MiB kept in an array (5.9 GB, then MemoryError)
    "ARRAY": (f"    var a : array [[100000]] of integer;\n    for i = 0 to 99999 do\n        a[[i]] = {BIG} + i;\n"
              "    end;", "", "error", "memory budget: the run would hold", 6),
    # a recursion 15,000 deep holding one per frame (SystemError)
    "FRAMES": ("    let r = Hold(15000);", f"""
func Hold(n: integer) => integer
begin
    let x : integer = {BIG} + n;
    if n == 0 then return 0; end;
    return Hold(n - 1) + 1;
end;
""", "error", "memory budget: the run would hold", 10),
    # many values under the free size (no charge each): the look every window of steps finds them
    "SMALL": ("    var a : array [[16000000]] of integer;\n    for i = 0 to 15999999 do\n"
              "        a[[i]] = (1 << 60000) + i;\n    end;", "", "error", "memory budget: the run would hold", 5),
    # making and dropping big values for a long time (2 GB made, under the default limit) is not holding them
    "DROP": (f"    var x : integer = 0;\n    for i = 0 to 1000 do\n        x = {BIG} + i;\n    end;\n"
             "    assert x > 0;", "", "passed", "", 0),
    "DEEP": ("    let r = Deep(100000);", """
func Deep(n: integer) => integer
begin
    if n == 0 then return 0; end;
    return Deep(n - 1) + 1;
end;
""", "error", "call depth budget: 2,001 nested calls, over the limit of 2,000", 11),
    "SLICE": ("    let y : integer = 5;\n    let z = y[34359738368:0];", "", "error",
              "value budget: a slice would be 34,359,738,369 bits", 5),
    # real products are charged before they are computed: the loop ends by a budget, in seconds
    "REAL": ("    var r : real = 1.5;\n    for i = 1 to 60 do\n        r = r * r;\n    end;", "", "error", "budget", 6),
    "REALSUM": ("    var r : real = 1.5;\n    for i = 1 to 60 do\n        r = r * r + r / 3.0;\n    end;", "", "error",
                "budget", 6),
    "NEGPOW": ("    let x : integer = 2^(-1);\n    assert x * 2 == 1;", "", "error",
               "2 ^ -1: an integer power with a negative exponent", 4),
    "REALPOW": ("    let n : integer = -1;\n    let r : real = 2.0 ^ n;\n    assert r == 0.5;", "", "passed", "", 0),
    "NEGSHL": ("    let x : integer = 1 << -5;", "", "error", "1 << -5: a shift by a negative amount", 4),
    "NEGSHR": ("    let s : integer = -5;\n    let x : integer = 8 >> s;", "", "error",
               "8 >> -5: a shift by a negative amount", 5),
}
SMALL_LIMIT = 1 << 28  # 256 MiB: the probes that do not need the default stay small
DEFAULT_PROBES = ("ARRAY", "FRAMES")  # the figures, under the default limit
DEFAULT_RUN = (*DEFAULT_PROBES, "DROP")  # the probes run with the default budgets


@pytest.fixture(scope="module")
def probe_root(tmp_path_factory: pytest.TempPathFactory, bundled_root: Path) -> Path:
    root = copy_tree(bundled_root, tmp_path_factory.mktemp("mem") / "spec")
    d = root / "tests" / "asl" / "mem"
    d.mkdir()
    for name, (body, helpers, *_rest) in PROBES.items():
        (d / f"mem-{name.lower()}-001.asl").write_text(
            HEADER % name + f"func main() => integer\nbegin\n{body}\n    return 0;\nend;\n" + helpers, encoding="utf-8")
    return root


def limited_test(root: Path, *args: str, address_space: int = 3 << 30) -> subprocess.CompletedProcess:
    """``specgen test`` in a child whose address space is at most ``address_space`` bytes."""
    code = ("import resource, sys\n"
            "resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[1]), int(sys.argv[1])))\n"
            "from specgen.cli import main\n"
            "sys.exit(main(sys.argv[2:]))\n")
    return subprocess.run([sys.executable, "-c", code, str(address_space), "test", "--root", str(root), "--jobs", "1",
                           "--format", "json", *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def results(probe_root: Path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    small = [f"PTO-AVS-MEM-{n}" for n in PROBES if n not in DEFAULT_RUN]
    for extra in (["--max-memory", str(SMALL_LIMIT), "--max-steps", "2000000", *small],
                  [f"PTO-AVS-MEM-{n}" for n in DEFAULT_RUN]):
        proc = limited_test(probe_root, *extra)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        out.update({r["id"].removeprefix("PTO-AVS-MEM-"): r for r in json.loads(proc.stdout)["tests"]})
    return out


@pytest.mark.parametrize("name", sorted(PROBES))
def test_probe_is_one_located_finding(results: dict[str, dict], name: str) -> None:
    _body, _helpers, status, fragment, line = PROBES[name]
    r = results[name]
    assert r["status"] == status, r
    if status != "passed":
        assert fragment in r["message"], r["message"]
        assert r["location"].startswith(f"tests/asl/mem/mem-{name.lower()}-001.asl:{line}:"), r["location"]
        assert "internal evaluation error" not in r["message"] and "MemoryError" not in r["message"]


@pytest.mark.parametrize("name", DEFAULT_PROBES)
def test_the_default_limit_applies(results: dict[str, dict], name: str) -> None:
    assert results[name]["reason"] == "budget"
    assert "over the limit of 1,073,741,824 bytes ([specgen] max_memory_bytes, --max-memory)" in results[name]["message"]


def test_the_tree_sets_its_own_limit(probe_root: Path, tmp_path: Path) -> None:
    root = copy_tree(probe_root, tmp_path / "spec")
    with open(root / "specification.toml", "a", encoding="utf-8") as f:
        f.write("\n[specgen]\nmax_memory_bytes = 200000000\n")
    proc = limited_test(root, "PTO-AVS-MEM-ARRAY")
    r = json.loads(proc.stdout)["tests"][0]
    assert proc.returncode == 1 and "over the limit of 200,000,000 bytes" in r["message"], r


def test_live_counts_each_object_once() -> None:
    big = 1 << 7_500_000  # 1 MB: CPython keeps 30 bits in 4 bytes
    alone, _ = live([[big]])
    assert 1_000_000 < alone < 1_001_000
    shared, _ = live([[big] * 1000, {"x": big}, (big, Bits(big, 7_500_001))])
    assert shared < alone + 8 * 1000 + 2_000, "the same value held many times is held once"
    distinct, work = live([[big + i for i in range(10)]])
    assert distinct > 10_000_000 and work == 10 + 11, "ten references read, eleven objects counted"
    assert live([[lambda: big]])[0] < 200, "code is not a value of the run"


def test_results_are_keyed_by_the_memory_budget(bundled_root: Path) -> None:
    spec = load_spec(bundled_root)
    assert run_key(spec) == run_key(spec, max_memory=spec.config.max_memory_bytes)
    assert run_key(spec, max_memory=1 << 20) != run_key(spec)
    assert result_key("t.asl", "reference", 1, 2, 3) != result_key("t.asl", "reference", 1, 2, 4)
