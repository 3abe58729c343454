"""Where the bundled sample spec, the default mkdocs config and the templates are, checkout or wheel.

The repository keeps ``spec/``, ``site/`` (the hand-written pages),
``templates/`` and ``mkdocs.yml`` at its top level, the one source of truth.
``specgen/sample/`` holds committed symlinks to the four, and
``specgen/templates`` one to ``templates/``; setuptools follows them when it
copies package data, so the wheel carries real copies and an installed
package (no checkout beside it) finds everything under its own directory. In
a checkout the top level is used directly, so paths in findings stay the
familiar ``spec/...``. The CLI's defaults and the renderer's templates come
from here, nowhere else.
"""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent  # the specgen package
_CHECKOUT = _PKG.parent  # the repository in a checkout; site-packages when installed


class BundledMissing(FileNotFoundError):
    """The installation lacks the bundled sample: a broken install, not a user error to work around."""


def _has_sample(d: Path) -> bool:
    return (d / "mkdocs.yml").is_file() and (d / "spec").is_dir() and (d / "site").is_dir()


def sample_dir() -> Path:
    """The directory holding ``mkdocs.yml`` with ``spec/``, ``site/`` and ``templates/`` beside it.

    The checkout's top level wins only when it is one (``pyproject.toml``
    there): an installed package's parent is site-packages, where a stray
    ``spec/`` must not be taken for the sample.
    """
    if (_CHECKOUT / "pyproject.toml").is_file() and _has_sample(_CHECKOUT):
        return _CHECKOUT
    if _has_sample(_PKG / "sample"):
        return _PKG / "sample"
    raise BundledMissing(f"specgen's bundled sample is missing: neither {_CHECKOUT} nor {_PKG / 'sample'} holds "
                         "mkdocs.yml, spec/ and site/; reinstall specgen")


def spec_root() -> Path:
    """The bundled sample spec (what ``--root`` means when it is left out)."""
    return sample_dir() / "spec"


def mkdocs_config() -> Path:
    """The default ``mkdocs.yml`` (material + the specgen plugin, ``docs_dir: site``)."""
    return sample_dir() / "mkdocs.yml"


def templates_dir() -> Path:
    """The directory holding the templates' ``pages/``, ``assets/`` and ``theme/``.

    The package's own ``templates`` (a symlink in a checkout, real files in a
    wheel) first; a checkout without symlink support (git
    ``core.symlinks=false`` leaves a small text file) falls back to the top level.
    """
    for candidate in (_PKG / "templates", _CHECKOUT / "templates"):
        if (candidate / "pages").is_dir():
            return candidate.resolve()
    raise BundledMissing(f"specgen's templates are missing: neither {_PKG / 'templates'} nor "
                         f"{_CHECKOUT / 'templates'} has pages/; reinstall specgen")
