"""Which MkDocs-compatible engine runs the site: MkDocs 1.x, ProperDocs, or Zensical.

- **mkdocs** (the default): the plugin inside ``mkdocs build``/``mkdocs serve``.
- **properdocs**: ProperDocs, the maintained fork of MkDocs 1.x, runs the same plugin unchanged: it
  loads plugins and themes from the ``mkdocs.*`` entry points and, once :func:`activate` has imported
  its ``properdocs.replacement``, every ``import mkdocs…`` (ours, material's) gets the ProperDocs module.
  That has to happen before anything imports mkdocs, so a process that already did cannot switch
  (:class:`EngineError`; the command line then runs the build in a fresh interpreter). Like the
  ``properdocs`` command, the legacy ``mkdocs`` logger is made a child of ``properdocs``'s, so the
  plugin's warnings count in strict mode.
- **zensical**: no plugins at all; the site is exported as a plain project (:mod:`specgen.site.export`)
  and ``zensical build`` renders it (:mod:`specgen.site.zensical`).
"""

from __future__ import annotations

import logging
import sys

ENGINES = ("mkdocs", "properdocs", "zensical")


class EngineError(RuntimeError):
    """The engine cannot run (it is not installed)."""


class ImportedFirst(EngineError):
    """mkdocs itself is already imported in this process: ProperDocs cannot take its place any more."""


def activate(engine: str) -> None:
    """Make ``engine`` the one ``import mkdocs`` reaches in this process (a no-op for mkdocs and zensical)."""
    if engine != "properdocs":
        return
    loaded = sys.modules.get("mkdocs")
    if loaded is not None and loaded.__name__ != "properdocs":
        raise ImportedFirst("mkdocs is already imported in this process; ProperDocs must be chosen before it")
    try:
        import properdocs.replacement  # noqa: F401  (redirects mkdocs.* imports to properdocs.*)
    except ImportError as e:
        raise EngineError(f"ProperDocs is not installed ({e}); pip install properdocs") from e
    legacy = logging.getLogger("mkdocs")
    legacy.parent = logging.getLogger("properdocs")
    legacy.propagate = True


def logger() -> logging.Logger:
    """The running engine's top logger (``mkdocs`` or ``properdocs``): where its warnings are counted."""
    import mkdocs
    return logging.getLogger(mkdocs.__name__)
