"""Building the site: the spec loaded and gated, pages rendered, a finished site swapped into place.

:func:`build_site` is ``specgen build`` without its command line: mkdocs in
strict mode with the specgen plugin, writing into the build's own temporary
directory beside the output, under the output's lock, swapped into place only
when mkdocs succeeded, so a failed, killed or concurrent build leaves the
previous site untouched (:mod:`specgen.site.publish`). The other
functions are the plugin's work, step by step (its event methods call them).
"""

from __future__ import annotations

import gzip
import html
import io
import logging
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

from ..cache import RecordCache
from ..graph import SpecGraph
from ..render import BrokenLinks, Page, ReleaseSite, RenderCache, RenderOptions, render_site
from . import engine
from .budget import page_budget
from .guard import check_build_output, mark_site
from .inputs import PageFile, check_inputs, load_mkdocs_config
from .prepare import (ASSET_URIS, ASSETS, BuildFailed, BuildResult, LoadTimes, PrepareError,  # noqa: F401
                      Progress, SuitePlan, not_rendered, prepare)
from .publish import TMP_PREFIX, Notice, PublishError, claim, describe, swap_in  # noqa: F401  (TMP_PREFIX: tests)
from .releases import Graphs, Release, order, release_name, write_root
from .stats import BuildStats

log = logging.getLogger("mkdocs.plugins.specgen")
STAGES = ("config", "load", "examples", "tests", "render", "mkdocs", "swap")


# ------------------------------------------------------------------ the plugin's steps
def load_graph(root: Path, records: RecordCache | None, stage: Progress,
               suite: SuitePlan = SuitePlan()) -> tuple[SpecGraph, LoadTimes]:
    """:func:`specgen.site.prepare.prepare` for the plugin: a spec that cannot be built stops mkdocs
    (before it cleans ``site_dir``, so even a plain ``mkdocs build`` leaves the previous output in place)."""
    try:
        return prepare(root, records, stage, suite)
    except PrepareError as e:
        raise PluginError(str(e)) from e


def render_pages(graph: SpecGraph, options: RenderOptions, cache: RenderCache, stage: Progress,
                 releases: ReleaseSite | None = None, budget: int | None = None,
                 results_later: bool = False) -> list[Page]:
    """Render the loaded graph, reusing the cache's unchanged pages; a broken link fails the build.

    ``results_later``: a server's spec rebuild, which renders the pages an edit changed through their own
    inputs first (:func:`~specgen.render.core.render_site`; ``cache.owed`` names the rest).

    A page body over the budget (:func:`page_budget`) is a warning naming it (a strict build fails).
    """
    stage("render")
    try:
        pages = render_site(graph, options, cache, releases=releases, results_later=results_later)
    except BrokenLinks as e:
        raise PluginError(f"specgen: broken links between generated pages: {e}") from e
    limit, source = page_budget(graph, budget)
    for p in pages:  # characters first: encoding every page would cost a serve rebuild
        if len(p.content) * 4 > limit and len(p.content.encode()) > limit:
            log.warning("specgen: %s is %d bytes, over the page budget of %d (%s)",
                        p.url, len(p.content.encode()), limit, source)
    return pages


def page_stats(pages: list[Page], cache: RenderCache, changed: dict[str, bool], times: LoadTimes,
               render_s: float, measure: bool) -> BuildStats:
    """What ``specgen build`` reports (``measure``: encode every page to find the largest)."""
    kinds: dict[str, int] = {}
    for p in pages:
        kinds[p.kind.name] = kinds.get(p.kind.name, 0) + 1
    stats = BuildStats(pages=len(pages), kinds=kinds, rendered=cache.rendered, changed=sum(changed.values()),
                       reused=cache.reused, load_s=times.load_s, examples_s=times.examples_s, render_s=render_s,
                       worked_s=times.worked_s, worked=[times.worked] if times.worked else [],
                       worked_rerun=times.worked_rerun, tests_s=times.tests_s,
                       tests=[times.tests] if times.tests else [], tests_rerun=times.tests_rerun)
    if measure:  # encoding every page to measure it costs a serve rebuild 0.1 s
        stats.largest = max(((len(p.content.encode()), p.url) for p in pages), default=(0, ""))
    log.info("specgen: %d pages (%d rendered, %d unchanged) in %.1f s; worked examples re-ran: %d%s; %s",
             len(pages), cache.rendered, cache.reused, time.perf_counter() - times.started, times.worked_rerun,
             f", {len(times.worked_pending)} running in the background" if times.worked_pending else "",
             times.tests or "AVS tests: not run")
    return stats


def add_pages(files: Files, config: Any, pages: list[Page], changed: dict[str, bool]) -> dict[str, str]:
    """Put the generated pages and the specgen assets into mkdocs' files; each page's URL in the site."""
    urls: dict[str, str] = {}
    for p in pages:
        existing = files.get_file_from_path(p.url)
        if existing is not None:
            log.warning("specgen: %s exists in docs_dir and is replaced by the generated page", p.url)
            files.remove(existing)
        f = PageFile.generated(config, p.url, content=p.markdown)
        f.inclusion = InclusionLevel.NOT_IN_NAV  # reached through index pages: not an "omitted from nav" page
        f.changed = changed[p.url]
        urls[p.url] = f.url
        files.append(f)
    for uri in ASSET_URIS:
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, content=(ASSETS / uri.rsplit("/", 1)[-1]).read_bytes()))
    return urls


def drop_pages(files: Files, uris: Sequence[str]) -> None:
    """Leave these hand pages out of the site (``specgen_pages`` in a site that is not specgen's own)."""
    for uri in uris:
        found = files.get_file_from_path(uri)
        if found is not None:
            files.remove(found)


def toc_tokens(toc: tuple[tuple[int, str, str], ...]) -> list[dict[str, Any]]:
    """A page's headings as mkdocs' toc tokens (h3 under the h2 before it)."""
    out: list[dict[str, Any]] = []
    for level, ident, text in toc:
        tok = {"level": level, "id": ident, "name": html.escape(text), "children": []}
        if level > 2 and out:
            out[-1]["children"].append(tok)
        else:
            out.append(tok)
    return out


def write_sitemap(site: Path, site_url: str | None) -> int:
    """``sitemap.xml`` (and its gzip) listing every page of the site; the number of pages.

    mkdocs' own lists only pages with an absolute URL, so a site without ``site_url`` got an empty
    ``<urlset>``, and it never listed the generated pages outside the nav. Locations are absolute under
    ``site_url``, else relative to the sitemap (a crawler needs the former; a reader of the file can use
    both). No ``<lastmod>``: the output does not depend on the build date."""
    base = (site_url or "").rstrip("/")
    urls: list[str] = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        top = rel.split("/", 1)[0]
        if top in ("assets", "search") or path.name in ("404.html", "not-found.html") or rel.startswith("."):
            continue
        rel = rel[: -len("index.html")] if path.name == "index.html" else rel
        urls.append(f"{base}/{rel}" if base else (rel or "./"))
    body = "".join(f"  <url><loc>{html.escape(u)}</loc></url>\n" for u in urls)
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + body + "</urlset>\n")
    (site / "sitemap.xml").write_text(text, encoding="utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", filename="", mtime=0) as gz:
        gz.write(text.encode("utf-8"))
    (site / "sitemap.xml.gz").write_bytes(buf.getvalue())
    return len(urls)


# ------------------------------------------------------------------ the atomic build
class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def build_site(root: Path | None, out_dir: Path, config_file: Path, jobs: int = 1,
               progress: Progress | None = None, releases: Sequence[Path] = (),
               notice: Notice | None = None, page_budget: int | None = None, force: bool = False,
               run_tests: bool = True) -> BuildResult:
    """Build the site into ``out_dir`` atomically and strictly.

    ``releases`` (two or more spec roots, ``root`` ignored) builds one site with
    a directory per release and a release switcher (:mod:`specgen.site.releases`).
    Raises :class:`~specgen.site.inputs.SiteInputError` for a missing root or
    config and :class:`BuildFailed` when mkdocs stopped or ``out_dir`` cannot be
    written (``out_dir`` untouched). ``notice`` gets the one line said while
    waiting for another build of ``out_dir`` (:mod:`specgen.site.publish`). ``page_budget`` (bytes)
    overrides the config's and the tree's page budget (:func:`page_budget`).
    ``run_tests=False`` skips the AVS suite (the pages say so).
    An ``out_dir`` the output-safety rule refuses raises
    :class:`~specgen.outputs.OutputRefused` before anything is built
    (``force``: replace a non-empty folder specgen did not write; :mod:`specgen.site.guard`).
    """
    stage = progress or (lambda name: None)
    stage("config")
    given, out_dir = out_dir, out_dir.resolve()
    for r in releases or [root]:
        check_inputs(r, config_file)
    checked = load_mkdocs_config(config_file, root, None, strict=True)  # a bad value is a usage error, before any work
    check_build_output(given, checked, releases or ([root] if root is not None else []), force)
    if len(releases) == 1:
        root, releases = releases[0], ()

    suite = SuitePlan("build" if run_tests else "skip", max(1, jobs))

    def one(tmp: Path) -> BuildStats:
        cfg = load_mkdocs_config(config_file, root, tmp, strict=True)
        plugin = _start(cfg, progress, jobs, page_budget=page_budget, run_tests=run_tests)
        _mkdocs_build(cfg)
        return _with_gaps(plugin)

    graphs = Graphs(lambda r: load_graph(r, None, stage, suite))
    named: list[Release] = []
    if releases:  # names first: two releases of one name are a usage error, before anything is built
        from mkdocs.exceptions import MkDocsException
        try:
            named = order([Release(r.resolve(), release_name(graphs.get(r)[0])) for r in releases])
        except MkDocsException as e:  # a root that does not load, or a contradicted example
            raise BuildFailed(str(e), []) from e

    def several(tmp: Path) -> BuildStats:
        total = BuildStats()
        for rel in named:
            cfg = load_mkdocs_config(config_file, rel.root, tmp / rel.name, strict=True)
            cfg.plugins["specgen"].config.releases = [{"root": str(r.root), "name": r.name} for r in named]
            cfg.plugins["specgen"].config.release = rel.name
            plugin = _start(cfg, progress, jobs, graphs, page_budget, run_tests)
            _mkdocs_build(cfg)
            total = total.merged(_with_gaps(plugin))
        write_root(tmp, named)
        total.releases = [r.name for r in named]
        return total

    return _atomic(out_dir, several if releases else one, stage, notice)


def _with_gaps(plugin: Any) -> BuildStats:
    """The plugin's stats plus what its graph could not render (nothing degrades silently)."""
    stats: BuildStats = plugin.stats
    if plugin.graph is not None:
        stats.not_rendered = not_rendered(plugin.graph)
    return stats


def _start(cfg: Any, progress: Progress | None, jobs: int, graphs: Graphs | None = None,
           page_budget: int | None = None, run_tests: bool = True) -> Any:
    plugin = cfg.plugins["specgen"]
    if page_budget is not None:
        plugin.config.page_budget = page_budget
    plugin.progress = progress
    plugin.config.jobs = max(1, jobs)
    plugin.config.run_tests = run_tests and plugin.config.run_tests
    plugin.graphs = graphs
    cfg.plugins.on_startup(command="build", dirty=False)
    return plugin


def _mkdocs_build(cfg: Any) -> None:
    from mkdocs.commands.build import build
    build(cfg)


def _atomic(out_dir: Path, work: Callable[[Path], BuildStats], stage: Progress,
            notice: Notice | None = None) -> BuildResult:
    """Run ``work`` into this build's own temporary directory under the output's lock; swap it in only when it succeeded."""
    from mkdocs.exceptions import MkDocsException

    counter = _Counter()
    mk_log = engine.logger()  # "mkdocs", or "properdocs" under ProperDocs
    mk_log.addHandler(counter)
    quiet = _quiet_info(mk_log)
    t0 = time.perf_counter()
    failure: str | None = None
    stats = BuildStats()
    try:
        with claim(out_dir, notice) as tmp:
            t0 = time.perf_counter()  # the summary's total is the build's, not the wait for another build
            try:
                stats = work(tmp)
                mark_site(tmp)  # specgen's own: the next build may replace it
                stage("swap")
                swap_in(tmp, out_dir)
            except (MkDocsException, ValueError) as e:
                failure = str(e)
                if failure.startswith("Aborted with") and counter.records:  # mkdocs' Abort: the plugin error is logged
                    failure = "mkdocs stopped on the error(s) below; the previous site is unchanged"
            except OSError as e:  # disk full, a folder that cannot be written
                failure = describe(e, out_dir)
            except Exception as e:  # a plugin or theme error must not leave a traceback or a half site
                failure = f"{type(e).__name__}: {e}"
    except PublishError as e:  # the output cannot be locked or written: nothing was built
        failure = str(e)
    finally:
        mk_log.removeHandler(counter)
        quiet()
    if failure is not None:
        raise BuildFailed(failure, counter.records)
    return BuildResult(out_dir, stats, time.perf_counter() - t0, counter.records)


def _quiet_info(mk_log: logging.Logger) -> Callable[[], Any]:
    """mkdocs logs every page at INFO through its own handler; keep warnings only."""
    handlers = [h for h in mk_log.handlers if not isinstance(h, _Counter)]
    if not handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        mk_log.addHandler(handler)
        mk_log.setLevel(logging.INFO)
        return lambda: mk_log.removeHandler(handler)
    old = [(h, h.level) for h in handlers]
    for h in handlers:
        h.setLevel(max(h.level, logging.WARNING))
    return lambda: [h.setLevel(lvl) for h, lvl in old]
