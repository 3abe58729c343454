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

It also says which tree a command reads when none is named, the way git finds
a repository (:func:`find_root`): the nearest ``specification.toml`` from a
folder upward. The sample is never a fallback: it is read only when named, by
the keyword :data:`SAMPLE` (``--root sample``), so a CI step in the wrong
folder fails instead of checking the sample (issue 41).
"""

from __future__ import annotations

import os
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


SAMPLE = "sample"  # ``--root sample`` / ``SPECGEN_ROOT=sample`` / ``root: sample``: the bundled sample spec
ROOT_VAR = "SPECGEN_ROOT"  # the root of every command that is given no ``--root``
TREE_MARKER = "specification.toml"


class NoRoot(LookupError):
    """No tree named and none found above the starting folder; ``str()`` is the one line saying where specgen
    looked (a usage error: exit 2)."""


def named_root(value: str | os.PathLike[str], base: Path | None = None) -> Path:
    """The root a user named: a path (relative to ``base`` when given), or the bundled sample for the keyword
    :data:`SAMPLE` when no file of that name exists there (then the path is meant: ``./sample`` names it too)."""
    p = Path(value)
    if base is not None and not p.is_absolute():
        p = base / p
    if os.fspath(value) == SAMPLE and not os.path.lexists(p):
        return spec_root()
    return p


def find_root(start: Path) -> Path | None:
    """The nearest folder from ``start`` upward that holds a ``specification.toml`` (absolute, links kept)."""
    here = Path(os.path.abspath(start))
    for d in (here, *here.parents):
        if (d / TREE_MARKER).is_file():
            return d
    return None


def resolve_root(given: str | os.PathLike[str] | None, start: Path | None = None) -> Path:
    """``given`` (a ``--root``), else ``$SPECGEN_ROOT``, else the nearest ``specification.toml`` from ``start``
    (the working directory) upward; :class:`NoRoot` naming where it looked when there is none."""
    if given is not None and os.fspath(given) != "":
        return named_root(given)
    env = os.environ.get(ROOT_VAR)
    if env:
        return named_root(env)
    here = Path(os.path.abspath(start if start is not None else os.getcwd()))
    found = find_root(here)
    if found is None:
        raise NoRoot(f"no spec tree: no --root given, ${ROOT_VAR} is not set, and no {TREE_MARKER} in {here} or any "
                     f"folder above it; pass --root DIR (--root {SAMPLE} for the bundled sample)")
    return found


def config_root(value: str | None, config_file: Path) -> Path:
    """The spec root of the plugin in ``config_file``: its explicit ``root:`` (relative to the config's folder;
    ``sample``: the bundled sample), else ``$SPECGEN_ROOT``, else the nearest ``specification.toml`` from the
    config's folder upward; :class:`NoRoot` naming where it looked. The explicit key wins over the environment:
    a project that names its tree means it (issue 41)."""
    base = Path(os.path.abspath(config_file)).parent
    if value:
        return named_root(value, base)
    env = os.environ.get(ROOT_VAR)
    if env:
        return named_root(env)
    found = find_root(base)
    if found is None:
        raise NoRoot(f"no spec tree for {config_file}: the specgen plugin has no root:, ${ROOT_VAR} is not set, and "
                     f"no {TREE_MARKER} in {base} or any folder above it; set root: in the plugin's config "
                     f"(root: {SAMPLE} for the bundled sample)")
    return found


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
