"""The site as a plain docs project for any MkDocs-compatible engine: generated pages, navigation, assets.

Zensical (the Material team's successor to MkDocs) reads ``mkdocs.yml`` but runs no MkDocs plugin, so the
specgen plugin cannot add pages there. The renderer does not need mkdocs: :func:`export` renders every
page with it and writes a project that needs no plugin at all:

- ``docs/``: the hand pages of the config's ``docs_dir`` (without ``specgen_pages`` in another tree's
  site), one Markdown file per generated page (front matter with its title and description, then its
  HTML as one raw block that Markdown passes through untouched) and specgen's CSS and JavaScript;
- ``mkdocs.yml``: the site name, the theme (material; Zensical's ``variant: classic``, which looks like
  it), the navigation the plugin would supply (each language a tree), the assets, ``toc``, ``attr_list``
  and ``md_in_html``. It is JSON, which is YAML, so nothing here needs a YAML writer.

``zensical build -f OUT/mkdocs.yml`` renders it (so does ``mkdocs build``); ``specgen build --engine
zensical`` does both steps and publishes the result like any build (:mod:`specgen.site.zensical`).
Nothing in this module imports mkdocs: the settings are read from ``mkdocs.yml`` with PyYAML, checked
here, and the same keys mean the same as in the plugin (``site/plugin.md``).
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from ..bundled import NoRoot, config_root
from ..outputs import Input, OutputRefused, check_site_dir
from ..graph import SpecGraph
from ..render import Page, RenderOptions, render_site
from ..render.i18n import LANGUAGES
from .budget import byte_size, page_budget
from .language import LANGUAGE_NAMES, THEME_LANGUAGE, hand_title, language_of, language_section
from .prepare import ASSET_URIS, ASSETS, PrepareError, Progress, SuitePlan, not_rendered, own_site, prepare
from .stats import BuildStats

MARKER = ".specgen-export"  # in an exported project: a later export may replace it, nothing else
MARKDOWN_EXTENSIONS = [{"toc": {"permalink": True}}, "attr_list", "md_in_html"]


class ExportError(ValueError):
    """A config the export cannot use, or a spec that cannot be built; the message names the key or file."""


class TargetError(ExportError):
    """The output folder holds something other than an earlier export: it is never overwritten."""


@dataclass(frozen=True)
class ExportSettings:
    """What the export takes from ``mkdocs.yml`` (theme, site name, hand pages and the specgen plugin's keys)."""

    root: Path
    site_name: str
    langs: tuple[str, ...]  # the main language first
    names: dict[str, str] = field(default_factory=dict)  # site title per language
    site_description: str = ""
    docs_dir: Path | None = None
    specgen_pages: tuple[str, ...] = ()
    source_url: str | None = None
    commit: str | None = None
    templates_dir: Path | None = None
    theme: dict[str, Any] = field(default_factory=dict)  # palette, features, font as the config gives them
    config_dir: Path | None = None  # the folder of the mkdocs.yml read (an output must not replace it)
    page_budget: int | None = None  # the plugin's ``page_budget`` (or ``--page-budget``); None: the tree's or 1 MiB
    run_tests: bool = True  # the plugin's ``run_tests`` (``--skip-tests``: False): the pages say the suite was skipped

    def with_budget(self, budget: int | None) -> ExportSettings:
        """``--page-budget`` over the config's ``page_budget`` (None keeps the config's)."""
        return self if budget is None else replace(self, page_budget=budget)


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader that reads mkdocs.yml's ``!ENV`` and ``!!python/name:`` tags as plain values
    (the export needs neither: they configure Markdown extensions and plugins it does not run)."""


def _any_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_Loader.add_multi_constructor("!", _any_tag)
_Loader.add_multi_constructor("tag:yaml.org,2002:python/", _any_tag)


def _plugin_config(cfg: dict[str, Any], where: Path) -> dict[str, Any]:
    for item in cfg.get("plugins") or []:
        if item == "specgen":
            return {}
        if isinstance(item, dict) and "specgen" in item:
            return _options(item["specgen"], where)
    if isinstance(cfg.get("plugins"), dict) and "specgen" in cfg["plugins"]:
        return _options(cfg["plugins"]["specgen"], where)
    raise ExportError(f"{where} does not enable the specgen plugin (add '- specgen' under plugins:)")


def _options(value: Any, where: Path) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ExportError(f"{where}: the specgen plugin's options must be a mapping, got {value!r}")
    return dict(value)


def _langs(plugin: dict[str, Any], theme: dict[str, Any], extra: dict[str, Any], where: Path) -> tuple[str, ...]:
    declared = [x for x in (language_of(theme.get("language")), language_of(theme.get("locale")),
                            *(language_of(a.get("lang")) for a in extra.get("alternate") or [] if isinstance(a, dict)))
                if x is not None]
    declared = list(dict.fromkeys(declared)) or ["en"]
    given = plugin.get("lang")
    if given is None:
        langs = declared
    else:
        items = [x.strip() for x in given.split(",")] if isinstance(given, str) else given
        if not isinstance(items, list) or not items or any(x not in LANGUAGES for x in items) or len(set(items)) < len(items):
            raise ExportError(f"{where}: plugin 'specgen' option 'lang': expected languages of "
                              f"{', '.join(sorted(LANGUAGES))} (e.g. lang: [en, zh]), got {given!r}")
        langs = list(items)
    main = next((x for x in declared if x in langs), langs[0])
    return (main, *(x for x in langs if x != main))


def read_settings(config_file: Path, root: Path | None = None) -> ExportSettings:
    """The export's settings from ``config_file``; ``root`` overrides the plugin's ``root:`` as in ``build``."""
    try:
        cfg = yaml.load(config_file.read_text(encoding="utf-8"), Loader=_Loader) or {}
    except (OSError, UnicodeDecodeError) as e:
        raise ExportError(f"cannot read {config_file}: {getattr(e, 'strerror', None) or e}") from None
    except yaml.YAMLError as e:
        raise ExportError(f"configuration error in {config_file}: {e}") from None
    if not isinstance(cfg, dict):
        raise ExportError(f"configuration error in {config_file}: not a mapping")
    plugin = _plugin_config(cfg, config_file)
    if plugin.get("releases"):
        raise ExportError(f"{config_file}: 'releases' (a site of several releases) is built by the mkdocs plugin "
                          "only; export one release at a time with --root")
    base = config_file.resolve().parent
    theme = cfg.get("theme") if isinstance(cfg.get("theme"), dict) else {"name": cfg.get("theme") or "material"}
    extra = cfg.get("extra") if isinstance(cfg.get("extra"), dict) else {}
    names = plugin.get("site_name") or {}
    if not isinstance(names, dict) or any(k not in LANGUAGES or not isinstance(v, str) for k, v in names.items()):
        raise ExportError(f"{config_file}: plugin 'specgen' option 'site_name': expected a mapping of language "
                          f"to title (e.g. {{zh: 规范}}), got {names!r}")
    pages = plugin.get("specgen_pages") or []
    if not isinstance(pages, list) or not all(isinstance(p, str) for p in pages):
        raise ExportError(f"{config_file}: plugin 'specgen' option 'specgen_pages': expected a list of pages")
    try:
        budget = None if plugin.get("page_budget") is None else byte_size(plugin["page_budget"])
    except ValueError as e:
        raise ExportError(f"{config_file}: plugin 'specgen' option 'page_budget': {e}") from None
    docs = base / str(cfg.get("docs_dir") or "docs")
    templates = plugin.get("templates_dir")
    langs = _langs(plugin, theme, extra, config_file)  # a bad key is named before a missing tree
    try:  # as the plugin finds it: root:, else $SPECGEN_ROOT, else the nearest specification.toml
        root = Path(root) if root is not None else config_root(plugin.get("root"), config_file)
    except NoRoot as e:
        raise ExportError(str(e)) from None
    return ExportSettings(
        root=root,
        site_name=str(cfg.get("site_name") or "Specification"), langs=langs,
        names={str(k): str(v) for k, v in names.items()}, site_description=str(cfg.get("site_description") or ""),
        docs_dir=docs if docs.is_dir() else None, specgen_pages=tuple(pages),
        source_url=plugin.get("source_url"), commit=plugin.get("commit"),
        templates_dir=base / templates if templates else None,
        theme={k: theme[k] for k in ("palette", "features", "font", "logo", "favicon") if k in theme},
        config_dir=base, page_budget=budget, run_tests=bool(plugin.get("run_tests", True)))


def output_inputs(settings: ExportSettings) -> list[Input]:
    """What an export or a Zensical build reads, for the output-safety rule (:mod:`specgen.outputs`): the
    same inputs :mod:`specgen.site.guard` names for a MkDocs build, taken from the settings, not from mkdocs."""
    found = [Input("the spec root", settings.root, True)]
    if settings.config_dir is not None:
        found.append(Input("the folder of the mkdocs config", settings.config_dir, False))
    found += [Input(label, p, True) for label, p in (("docs_dir", settings.docs_dir),
                                                     ("templates_dir", settings.templates_dir)) if p is not None]
    return found


@dataclass
class ExportResult:
    pages: int
    kinds: dict[str, int]
    stats: BuildStats


def export(settings: ExportSettings, out: Path, jobs: int = 1, stage: Progress | None = None) -> ExportResult:
    """Write the project into ``out`` (an empty or absent folder, or an earlier export, which is replaced);
    raises :class:`ExportError` when the spec cannot be built or ``out`` holds something else."""
    tell = stage or (lambda name: None)
    try:  # never the spec root, the config's folder or a checkout, nor inside what the export reads
        check_site_dir(out, output_inputs(settings), force=True, flag="--out")
    except OutputRefused as e:
        raise TargetError(str(e)) from e
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARKER).is_file())):
        raise TargetError(f"{out} exists and is not an earlier export (no {MARKER}); give an empty or new folder")
    if not settings.root.is_dir():
        raise ExportError(f"spec root {settings.root} is not a directory")
    try:
        graph, times = prepare(settings.root, None, tell, SuitePlan("build" if settings.run_tests else "skip", max(1, jobs)))
    except PrepareError as e:
        raise ExportError(str(e)) from e
    tell("render")
    t0 = time.perf_counter()
    langs = tuple(sorted(settings.langs, key=list(LANGUAGES).index))
    pages = render_site(graph, RenderOptions(langs=langs, source_url=settings.source_url, commit=settings.commit,
                                             templates_dir=settings.templates_dir, jobs=jobs))
    render_s = time.perf_counter() - t0
    over_budget(graph, pages, settings.page_budget)
    tell("write")
    if out.exists():
        shutil.rmtree(out)
    docs = out / "docs"
    docs.mkdir(parents=True)
    hand = _copy_hand_pages(settings, docs)
    for p in pages:
        dest = docs / p.url
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(page_markdown(p.title, p.description, p.content, p.kind.searchable), encoding="utf-8")
    for uri in ASSET_URIS:
        (docs / uri).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ASSETS / uri.rsplit("/", 1)[-1], docs / uri)
    by_lang = {lang: [p for p in pages if p.url.startswith(lang + "/")] for lang in settings.langs}
    nav = _nav(hand, [language_section(lang, by_lang[lang], True) for lang in settings.langs if by_lang[lang]])
    (out / "mkdocs.yml").write_text(project_config(settings, nav), encoding="utf-8")
    (out / MARKER).write_text("written by specgen export; a later export replaces this folder\n", encoding="utf-8")
    kinds: dict[str, int] = {}
    for p in pages:
        kinds[p.kind.name] = kinds.get(p.kind.name, 0) + 1
    stats = BuildStats(pages=len(pages), kinds=kinds, rendered=len(pages),
                       largest=max(((len(p.content.encode()), p.url) for p in pages), default=(0, "")),
                       load_s=times.load_s, examples_s=times.examples_s, render_s=render_s, worked_s=times.worked_s,
                       worked=[times.worked] if times.worked else [], worked_rerun=times.worked_rerun,
                       tests_s=times.tests_s, tests=[times.tests] if times.tests else [],
                       tests_rerun=times.tests_rerun, not_rendered=not_rendered(graph))
    return ExportResult(len(pages), kinds, stats)


def over_budget(graph: SpecGraph, pages: list[Page], option: int | None) -> None:
    """A page body over the page budget stops the export before anything is written, as it fails the strict
    MkDocs build (:func:`specgen.site.budget.page_budget`: the option, else the tree's, else 1 MiB)."""
    limit, source = page_budget(graph, option)
    over = [(len(p.content.encode()), p.url) for p in pages if len(p.content) * 4 > limit
            and len(p.content.encode()) > limit]
    if over:
        raise ExportError("specgen: " + "; ".join(f"{url} is {n} bytes" for n, url in over[:10])
                          + (f" (and {len(over) - 10} more)" if len(over) > 10 else "")
                          + f", over the page budget of {limit} ({source})")


def page_markdown(title: str, description: str, content: str, searchable: bool) -> str:
    """A generated page as Markdown: front matter (JSON strings are YAML strings), then the HTML as one raw
    block inside a ``<div>`` (``markdown="0"`` keeps ``md_in_html`` out of it)."""
    front = [f"title: {json.dumps(title, ensure_ascii=False)}"]
    if description:
        front.append(f"description: {json.dumps(description, ensure_ascii=False)}")
    if not searchable:
        front.append("search:\n  exclude: true")
    return "---\n" + "\n".join(front) + "\n---\n\n<div class=\"specgen-page\" markdown=\"0\">\n" + content + "\n</div>\n"


def _copy_hand_pages(settings: ExportSettings, docs: Path) -> dict[str, str | None]:
    """The config's hand pages (``specgen_pages`` only in specgen's own site); their nav titles by path."""
    titles: dict[str, str | None] = {}
    if settings.docs_dir is None:
        return titles
    skip = set() if own_site(settings.root) else set(settings.specgen_pages)
    for src in sorted(settings.docs_dir.rglob("*")):
        rel = src.relative_to(settings.docs_dir).as_posix()
        if not src.is_file() or rel in skip or any(part.startswith(".") for part in rel.split("/")):
            continue
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, docs / rel)
        if rel.endswith(".md"):
            titles[rel] = hand_title(src.read_text(encoding="utf-8", errors="replace"))
    return titles


def _nav(hand: dict[str, str | None], sections: list[dict[str, Any]]) -> list[Any]:
    """The home page, the languages, then the other hand pages (top-level ones first, then by path)."""
    def item(rel: str) -> Any:
        return {hand[rel]: rel} if hand.get(rel) else rel
    home = [item(r) for r in hand if r == "index.md"]
    rest = [item(r) for r in sorted(hand, key=lambda r: (r.count("/"), r)) if r != "index.md"]
    return home + sections + rest


def project_config(settings: ExportSettings, nav: list[Any]) -> str:
    """The exported ``mkdocs.yml`` (as JSON) that Zensical, MkDocs or ProperDocs build as it is."""
    main = settings.langs[0]
    theme: dict[str, Any] = {"name": "material", "variant": "classic", "language": THEME_LANGUAGE.get(main, main),
                             **settings.theme}
    features = [f for f in theme.get("features") or [] if isinstance(f, str)]
    theme["features"] = [*features, *(f for f in ("navigation.indexes", "navigation.prune") if f not in features)]
    cfg: dict[str, Any] = {
        "site_name": settings.names.get(main, settings.site_name),
        **({"site_description": settings.site_description} if settings.site_description else {}),
        "docs_dir": "docs", "site_dir": "site", "use_directory_urls": False, "theme": theme,
        "extra_css": [u for u in ASSET_URIS if u.endswith(".css")],
        "extra_javascript": [u for u in ASSET_URIS if u.endswith(".js")],
        "markdown_extensions": MARKDOWN_EXTENSIONS, "nav": nav,
    }
    head = ("# Written by `specgen export` from the spec tree and mkdocs.yml; build with `zensical build -f this`\n"
            "# (or `mkdocs build -f this`). JSON is YAML. Languages: "
            + ", ".join(f"{LANGUAGE_NAMES.get(x, x)} ({x}/)" for x in settings.langs) + "\n")
    return head + json.dumps(cfg, ensure_ascii=False, indent=1) + "\n"


def nav_pages(nav: list[Any]) -> list[str]:
    """Every page a nav lists (for tests and checks)."""
    out: list[str] = []
    for x in nav:
        if isinstance(x, str):
            out.append(x)
        elif isinstance(x, dict):
            for v in x.values():
                out.extend(nav_pages(v) if isinstance(v, list) else [v])
    return out
