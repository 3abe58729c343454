"""Output safety for a site: which of a mkdocs config's paths a site folder must keep clear of.

The rule itself is :mod:`specgen.outputs` (no mkdocs there); this module only
names the inputs of one build from its loaded mkdocs config: the spec root(s),
the config's folder, ``docs_dir``, the theme's ``custom_dir`` and the plugin's
``templates_dir``. ``specgen build`` checks its ``--out`` with them before it
takes the output's lock; the plugin checks ``site_dir`` the same way before
mkdocs cleans it (a plain ``mkdocs build``), and marks every site it wrote.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from ..outputs import Input, check_site_dir, write_marker
from .releases import parse_releases

CONFIG_KEY = "replace_site_dir"


def build_inputs(cfg: Any, roots: Iterable[Path] = ()) -> list[Input]:
    """The inputs of a build with this mkdocs config (``roots``: the spec roots given on the command line)."""
    base = Path(cfg.config_file_path or ".").resolve().parent
    plugin = cfg.plugins.get("specgen")
    pcfg = plugin.config if plugin is not None else None

    def near(value: Any) -> Path | None:
        if not value:
            return None
        p = Path(str(value))
        return p if p.is_absolute() else base / p

    found = [Input("the spec root", Path(r), True) for r in roots]
    if not found and pcfg is not None:
        found = [Input("the spec root", r, True) for r, _ in parse_releases(pcfg.releases or [], base)]
        if not found and near(pcfg.root) is not None:
            found = [Input("the spec root", near(pcfg.root), True)]  # type: ignore[arg-type]
    found.append(Input("the folder of the mkdocs config", base, False))
    for label, value in (("docs_dir", cfg.docs_dir), ("the theme's custom_dir", cfg.theme.custom_dir),
                         ("templates_dir", pcfg.templates_dir if pcfg is not None else None)):
        p = near(value)
        if p is not None:
            found.append(Input(label, p, True))
    return found


def check_build_output(out: Path, cfg: Any, roots: Iterable[Path] = (), force: bool = False) -> None:
    """``specgen build --out``: refuse an output the rule forbids (``force``: ``--force`` or the config key)."""
    plugin = cfg.plugins.get("specgen")
    force = force or bool(plugin is not None and plugin.config.get(CONFIG_KEY))
    check_site_dir(out, build_inputs(cfg, roots), force=force,
                   override=f"pass --force (or set {CONFIG_KEY}: true in the specgen plugin's config)")


def check_plugin_site_dir(cfg: Any, root: Path | None, force: bool) -> None:
    """A plain ``mkdocs build``: the same rule for ``site_dir``, before mkdocs cleans it."""
    check_site_dir(cfg.site_dir, build_inputs(cfg, [root] if root is not None else []), force=force,
                   override=f"set {CONFIG_KEY}: true in the specgen plugin's config", flag="site_dir")


def mark_site(site_dir: Path | str) -> None:
    """Mark a finished site as specgen's own, so the next build may replace it."""
    write_marker(site_dir)
