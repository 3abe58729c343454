"""Scratch copies of spec trees for tests that mutate them (a module of its own: two conftests exist)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path


def copy_tree(src: Path, dst: Path) -> Path:
    """Copy a spec tree into a scratch directory, writable (the corpus has no write bits)."""
    shutil.copytree(src, dst, symlinks=True)
    for d, dirs, files in os.walk(dst):
        for name in dirs + files:
            p = Path(d) / name
            if not p.is_symlink():
                p.chmod(p.stat().st_mode | stat.S_IWUSR)
    Path(dst).chmod(Path(dst).stat().st_mode | stat.S_IWUSR)
    return dst
