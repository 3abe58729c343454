"""What every bench command shares: a stage in a fresh interpreter, the time format, the table of rows
beside their anchors, the growth exponent. Its own module so ``targets`` and ``scale`` need not import
``__main__`` (which imports them)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"


def as_installed() -> None:
    """Measure specgen as a user runs it: ``pip install`` compiles the package's bytecode, so no start
    compiles a module. A machine that sets ``PYTHONDONTWRITEBYTECODE`` (as this one's sandbox does) would
    otherwise compile all of specgen on every start (a quarter of a second of a warm ``specgen run``).
    The package's bytecode is written once here and every child process inherits the setting."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "specgen")], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_stage(name: str, **args: Any) -> dict[str, Any]:
    """One stage in a fresh interpreter; its JSON result (``na`` when it could not run)."""
    r = subprocess.run([sys.executable, "-m", "bench.stages", name, json.dumps(args)], cwd=REPO,
                       capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("BENCH-RESULT "):
            return json.loads(line.removeprefix("BENCH-RESULT "))
    tail = (r.stderr or r.stdout).strip().splitlines()[-1:] or ["no output"]
    return {"na": f"failed (exit {r.returncode}): {tail[0][:200]}"}


def fmt_s(x: float | None) -> str:
    return "n/a" if x is None else (f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s")


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str, str, str]] = []

    def add(self, stage: str, res: dict[str, Any], anchor_name: str = "", anchor: dict[str, Any] | None = None,
            note: str = "") -> None:
        if "na" in res:
            self.rows.append((stage, res["na"], "", "", "", ""))
            return
        mem = max(res.get("rss_mb", 0.0), res.get("child_rss_mb", 0.0))
        a_wall = anchor.get("wall") if anchor and "na" not in anchor else None
        ratio = f"{res['wall'] / a_wall:.2f}x" if a_wall else ""
        self.rows.append((stage, fmt_s(res["wall"]), f"{mem:.0f} MiB",
                          f"{anchor_name} {fmt_s(a_wall)}" if anchor_name else "", ratio, note))

    def print(self) -> None:
        head = ("stage", "wall", "peak RSS", "anchor (same run)", "ratio", "notes")
        widths = [max(len(r[i]) for r in [head, *self.rows]) for i in range(6)]
        for r in [head, tuple("-" * w for w in widths), *self.rows]:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        sys.stdout.flush()


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log y on log x: the growth exponent."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    den = sum((a - mx) ** 2 for a in lx)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / den if den else float("nan")
