"""Where the default templates are, in a checkout and in an installed wheel.

The project layout keeps ``templates/`` at the repository top level (the one
source of truth). ``specgen/templates`` is a committed symlink to it, so the
existing package-data glob ``templates/**/*`` puts real copies of the files
into the wheel (setuptools follows the link when it copies package data) and
an installed package finds them beside this module. A checkout without
symlink support (git ``core.symlinks=false`` leaves a small text file) falls
back to the top-level directory.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent.parent  # the specgen package


def templates_root() -> Path:
    """The directory holding ``pages/``, ``assets/`` and ``theme/``."""
    for candidate in (_PKG / "templates", _PKG.parent / "templates"):
        if (candidate / "pages").is_dir():
            return candidate.resolve()
    raise FileNotFoundError(f"specgen's templates are missing: neither {_PKG / 'templates'} nor "
                            f"{_PKG.parent / 'templates'} has pages/; reinstall specgen")
