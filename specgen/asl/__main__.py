"""``python -m specgen.asl [--root DIR] [SELECTOR…] [--jobs N] [--format …] [--profile …]``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .runner import main_test


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m specgen.asl", description="run AVS tests")
    ap.add_argument("selectors", nargs="*")
    ap.add_argument("--root", default=".")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--format", default="text", choices=["text", "json", "junit"])
    ap.add_argument("--profile", default="reference")
    ns = ap.parse_args(argv)
    return main_test(Path(ns.root), ns.selectors, ns.jobs, ns.format, ns.profile, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
