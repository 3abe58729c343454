"""What the plugin, the build and the server all read: the mkdocs config and the generated files.

``specgen build`` and ``specgen serve`` load the same ``mkdocs.yml`` with the
spec root put into the plugin's config; both write generated pages as
:class:`PageFile`.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.config import load_config

from . import engine
from mkdocs.structure.files import File

from ..bundled import BundledMissing, NoRoot, config_root, mkdocs_config

ROOT_ENV = "SPECGEN_SITE_ROOT"  # ``specgen serve --root``: the plugin reads it on every config load


class SiteInputError(ValueError):
    """The spec root or the mkdocs config named on the command line is not there (a usage error)."""


def default_config() -> Path:
    """The bundled mkdocs.yml (material + the plugin, docs_dir ``site/``), checkout or installed package."""
    try:
        return mkdocs_config()
    except BundledMissing as e:  # a broken install: a usage error with the fix, not a traceback
        raise SiteInputError(str(e)) from e


def check_inputs(root: Path | None, config_file: Path) -> None:
    """Refuse a missing spec root or config before anything is built or served."""
    if root is not None and not Path(root).is_dir():
        raise SiteInputError(f"spec root {root} is not a directory")
    if not config_file.is_file():
        raise SiteInputError(f"no mkdocs config at {config_file}")


def load_mkdocs_config(config_file: Path, root: Path | None, site_dir: Path | None, strict: bool,
                       dev_addr: str | None = None) -> Any:
    """The mkdocs config with the specgen plugin reading ``root`` (None: the config's own ``root``).

    A bad value (``lang: fr``, an unknown key, a theme that is not installed) is a
    :class:`SiteInputError` naming the file and each error mkdocs found, never a traceback.
    """
    from mkdocs.exceptions import MkDocsException

    kwargs: dict[str, Any] = {"config_file": str(config_file), "strict": strict}
    if site_dir is not None:
        kwargs["site_dir"] = str(site_dir)
    if dev_addr is not None:
        kwargs["dev_addr"] = dev_addr
    errors = _Errors()
    mk_log = engine.logger()  # "mkdocs", or "properdocs" under ProperDocs
    mk_log.addHandler(errors)
    try:
        cfg = load_config(**kwargs)
    except (MkDocsException, OSError, ValueError) as e:
        found = "; ".join(errors.messages) or str(e)
        raise SiteInputError(f"configuration error in {config_file}: {found}") from e
    finally:
        mk_log.removeHandler(errors)
    plugin = cfg.plugins.get("specgen")
    if plugin is None:
        raise SiteInputError(f"{config_file} does not enable the specgen plugin (add '- specgen' under plugins:)")
    if root is not None:  # absolute, not resolved: a root named through a link keeps its examples beside it
        plugin.config.root = str(root.absolute())
    elif not plugin.config.releases:  # the plugin's own rule, settled once so the output guard sees it too
        try:
            plugin.config.root = str(config_root(plugin.config.root, config_file).absolute())
        except NoRoot as e:
            raise SiteInputError(str(e)) from e
    return cfg


class _Errors(logging.Handler):
    """The errors mkdocs logs while it validates a config (its exception only counts them)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


class PageFile(File):
    """A generated page that a dirty build (``specgen serve``) rewrites only when its HTML changed.

    mkdocs' dirty mode asks each file ``is_modified()``; in-memory files always
    say yes, which would re-template every page. The plugin knows better: it
    compares each page's rendered content with what it handed mkdocs last time.
    """

    changed: bool = True
    _modified: bool | None = None

    def is_modified(self) -> bool:
        if self._modified is None:  # mkdocs asks twice per page (read, then write)
            self._modified = self.changed or not os.path.isfile(self.abs_dest_path)
        return self._modified

    def rewrite(self, markdown: str) -> None:
        """Give the page new content for a rebuild that does not make new File objects."""
        self.content_string = markdown
        self.changed, self._modified = True, None
