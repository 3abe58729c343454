"""The renderer: spec graph in, pages out. No mkdocs here.

``render_site`` plans every page, skips the ones whose inputs did not change
since the previous call with the same :class:`RenderCache`, renders the rest
with Jinja2 (autoescape on for every template, spec text is data and never a
template), and checks that every internal link it wrote has a target.
"""

from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import jinja2
from markupsafe import escape

from ..workspace import Workspace, current, memoised
from ..bundled import templates_dir
from ..diff import SpecDiff
from ..graph import SpecGraph
from ..workers import forked_worker
from .i18n import LANGUAGES, Messages, catalogs_digest
from .links import Linker
from .examples import example_results
from .plan_query import plan_pages
from .kinds import KINDS, plan_site
from ..asl.revision import record_part
from .pages import ALL, Ctx, ReleaseSite, site_data
from .plan import RECORD_OF, PageKind, PagePlan
from .searchtext import globals_for_templates
from .symbols import SYMBOLS
from .xref import SYMBOLS_OF

DEFAULT_TEMPLATES = templates_dir() / "pages"
_HEADING = re.compile(r'<h([2-3]) id="([^"]+)"[^>]*>(.*?)<a class="headerlink"', re.S)
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class RenderOptions:
    """How pages are rendered; every field is part of each page's cache key."""

    langs: tuple[str, ...] = ("en", "zh")
    source_url: str | None = None  # e.g. https://host/org/repo/blob/{commit}/{path}#L{start}-L{end}
    commit: str | None = None
    templates_dir: Path | None = None
    directory_urls: bool = False
    examples: bool = True  # run the spec's examples (once per graph) and show what this build verified
    jobs: int = 1  # worker processes (fork) when many pages need rendering; output is identical

    def key(self) -> str:
        return repr((self.langs, self.source_url, self.commit, str(self.templates_dir or ""),
                     self.directory_urls, self.examples))


@dataclass
class Page:
    """One generated page: where it goes, what it shows, and what it was made from."""

    url: str  # docs-relative source URI, e.g. ``en/tile/elementwise-tile-tile/arithmetic/TMUL.md``
    title: str
    kind: PageKind
    lang: str
    content: str  # the page body as HTML (all spec text escaped)
    depends_on: frozenset[str]  # root-relative spec paths ("*" = the whole tree)
    links: frozenset[str]  # the generated pages this one links to
    toc: tuple[tuple[int, str, str], ...] = ()  # (level, id, plain text)
    examples: tuple[tuple[str, str, str], ...] = ()  # (anchor, example id, status) per shown example
    key: str = ""
    description: str = ""  # one plain-text sentence for ``<meta name="description">`` (search engines)

    @property
    def markdown(self) -> str:
        """The stub mkdocs reads: the title only; the plugin swaps in :attr:`content`."""
        title = str(escape(self.title))
        title = re.sub(r"([\\`*_{}\[\]()#+.!|-])", r"\\\1", title)
        return f"# {title}\n"


@dataclass
class RenderCache:
    """Pages by URI with the key they were rendered under; reused while the key matches.

    What a page's key is made of (each dependency's digest, the fixed part, the part its kind adds) is held
    as inputs of the workspace under the cache's own prefix (``render:<holder>:``): a call asks which of them
    changed since the revision of its last call (:meth:`~specgen.workspace.Workspace.changed_since`) and
    computes the keys only of the pages that read one."""

    pages: dict[str, Page] = field(default_factory=dict)
    rendered: int = 0  # pages actually rendered by the last call
    reused: int = 0
    plan: list[PagePlan] | None = None  # the last call's plan (a query of the workspace: :mod:`.plan_query`)
    planned: bool = True  # whether the last call planned the pages (False: the last revision's plan held)
    owed: frozenset[str] = frozenset()  # pages the last call left as they were for the next one (``results_later``)
    holder: int = field(default_factory=lambda: next(_HOLDERS))
    workspace: Workspace | None = None  # the workspace its inputs are in
    revision: int = 0  # that workspace's revision after the last whole call (0: every key is computed)

    def bind(self) -> tuple[Workspace, str]:
        """The workspace to keep the inputs in (the current one) and their prefix; inputs in another workspace
        count for nothing, and they go with the cache."""
        ws = current()
        prefix = f"render:{self.holder}:"
        if self.workspace is not ws:
            self.workspace, self.revision = ws, 0
            ws.hold(self, prefix)
        return ws, prefix


_HOLDERS = itertools.count(1)


class BrokenLinks(Exception):
    def __init__(self, broken: list[tuple[str, str]]) -> None:
        self.broken = broken
        super().__init__("; ".join(f"{a} -> {b}" for a, b in broken[:10]))


@memoised(maxsize=8)
def environment(templates_dir: Path | None) -> jinja2.Environment:
    """Jinja2 with autoescape everywhere; a user directory overrides templates by name.

    One environment per directory for the life of the process, so a serve
    rebuild does not compile every template again; Jinja's ``auto_reload``
    (on by default) still recompiles a template whose file changed.
    """
    loaders: list[jinja2.BaseLoader] = []
    if templates_dir is not None:
        loaders.append(jinja2.FileSystemLoader(str(templates_dir)))
    loaders.append(jinja2.FileSystemLoader(str(DEFAULT_TEMPLATES)))
    env = jinja2.Environment(loader=jinja2.ChoiceLoader(loaders), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters["short"] = lambda s: str(s)[:12]
    env.globals.update(globals_for_templates())
    return env


def templates_digest(templates_dir: Path | None) -> str:
    h = hashlib.sha256()
    for d in [templates_dir, DEFAULT_TEMPLATES]:
        if d is None or not Path(d).is_dir():
            continue
        for p in sorted(Path(d).rglob("*.html")):
            h.update(str(p.relative_to(d)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _page_key(plan: PagePlan, files: dict[str, str], tree_digest: str, fixed: str, extra: str = "",
              parts: dict[str, bytes] | None = None) -> str:
    """``parts`` memoises each dependency's encoded ``path\0sha\n`` across the pages of one render."""
    h = hashlib.sha256(fixed.encode())
    h.update(plan.uri.encode() + b"\0" + plan.kind.name.encode() + b"\0" + extra.encode())
    if ALL in plan.deps:
        h.update(b"*" + tree_digest.encode())
    else:
        parts = {} if parts is None else parts
        for d in sorted(plan.deps):
            part = parts.get(d)
            if part is None:
                part = parts[d] = d.encode() + b"\0" + files.get(d, "-").encode() + b"\n"
            h.update(part)
    return h.hexdigest()


def _changed_inputs(cache: RenderCache, fixed: str, files: dict[str, str], extras: dict[str, str],
                    whole: bool, same_plan: bool) -> tuple[set[str] | None, set[str], frozenset[str]]:
    """Set the call's key parts as the cache's workspace inputs; the dependency names whose digest changed
    since its last call (None: every key must be computed), the pages whose kind's part changed, and the
    pages the last call owed. ``whole``: this call renders every page of the plan."""
    owed, cache.owed = cache.owed, frozenset()
    if not whole:
        cache.revision = 0  # until a whole call: the next one computes every key
        return None, set(), owed
    ws, prefix = cache.bind()
    last = cache.revision
    cache.revision = 0  # until every page of this call is rendered
    ws.set_input(prefix + "fixed", fixed)
    ws.set_inputs({prefix + "dep:" + k: v for k, v in files.items()}, prefix=prefix + "dep:")
    ws.set_inputs({prefix + "extra:" + k: v for k, v in extras.items()}, prefix=prefix + "extra:")
    changed = ws.changed_under((prefix + "fixed", prefix + "dep:", prefix + "extra:"), last)
    if not same_plan or not last or changed[prefix + "fixed"]:
        return None, set(), owed
    return changed[prefix + "dep:"], changed[prefix + "extra:"], owed


def part_digests(graph: SpecGraph) -> dict[str, str]:
    """The digests of the parts of files pages depend on (``#symbols:``, ``#record:``), by dependency name."""
    table = SYMBOLS(graph)
    out = {SYMBOLS_OF + p: d for p, d in table.digest_of_unit.items()}
    out.update({RECORD_OF + u.path: record_part(graph, u.path) for u in graph.spec.units})
    return out


def _toc(html: str) -> tuple[tuple[int, str, str], ...]:
    out = []
    for m in _HEADING.finditer(html):
        text = _TAGS.sub("", m.group(3)).strip()
        import html as _h
        out.append((int(m.group(1)), m.group(2), _h.unescape(text)))
    return tuple(out)


def render_site(graph: SpecGraph, options: RenderOptions | None = None,
                cache: RenderCache | None = None, only: Callable[[PagePlan], bool] | None = None,
                changes: SpecDiff | None = None, releases: ReleaseSite | None = None,
                results_later: bool = False) -> list[Page]:
    """Every page of the site, in plan order; raises :class:`BrokenLinks` on a dangling link.

    ``only`` renders a subset (tests, previews); links are still checked against the whole plan.
    ``releases`` (a multi-release site) places this release among the others: its changes since the
    previous one (the changes page, each instruction's section; also given alone as ``changes``) and,
    on an older release, the banner that links each page's counterpart in the newest.

    ``results_later`` (a server's rebuild): what an author waits for is the edit itself. A helper edit
    changes two pages' own inputs but turns hundreds to "running" (a verdict, a coverage figure, a
    neighbour's fact: the part their kind adds to the key), and rendering all of them first kept the
    edited page waiting 4-8 s on 0.58.3. When some page's own inputs changed, the pages whose inputs
    did not are left as they were and named in ``cache.owed``; the caller renders them in the rebuild
    it asks for at once, where they are all there is to do. No page is older for it than it was
    before: while one rebuild rendered everything, every page stayed as it was until the end.
    """
    options = options or RenderOptions()
    if releases is not None and changes is None:
        changes = releases.changes
    for lang in options.langs:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    cache = cache if cache is not None else RenderCache()
    plans, cache.planned = plan_pages(
        graph, options.langs, not options.source_url,
        None if changes is None and releases is None else
        lambda: plan_site(graph, options.langs, local_sources=not options.source_url, changes=changes is not None))
    same_plan = cache.plan is plans  # this cache's last call had this very plan (kept, or planned again equal)
    cache.plan = plans
    uris = frozenset(p.uri for p in plans)
    if only is not None:
        plans = [p for p in plans if only(p)]
    digests = {name: digest for kind in KINDS for name, digest in kind.digests}
    files = {**graph.spec.files, **{name: digest(graph) for name, digest in digests.items()},
             **part_digests(graph)}
    fixed = "|".join([options.key(), templates_digest(options.templates_dir), catalogs_digest(),
                      hashlib.sha256("\n".join(sorted(uris)).encode()).hexdigest()]
                     + ([hashlib.sha256(repr(changes.to_json()).encode()).hexdigest()] if changes else [])
                     + ([releases.key()] if releases is not None else []))
    tree_digest = hashlib.sha256("\n".join(f"{k}\0{v}" for k, v in sorted(files.items())).encode()).hexdigest()
    cache.rendered = cache.reused = 0
    # example results depend on the whole ASL (the interpreter runs it), so they key the page themselves
    results = example_results(graph) if options.examples else {}
    extras = {plan.uri: plan.kind.key(graph, plan, results) if plan.kind.key is not None else "" for plan in plans}
    todo: list[tuple[PagePlan, str]] = []
    later: list[tuple[PagePlan, str]] = []  # pages whose own inputs did not change (``results_later``)
    parts: dict[str, bytes] = {}
    # with the kept plan and the same fixed part, a page none of whose dependencies changed digest and
    # whose kind's part is the same keeps its key: it is not hashed again (most pages of a server's rebuild)
    changed, moved, owed = _changed_inputs(cache, fixed, files, extras, only is None, same_plan)
    for plan in plans:
        old = cache.pages.get(plan.uri)
        same_inputs = (changed is not None and old is not None and ALL not in plan.deps
                       and plan.deps.isdisjoint(changed))
        if same_inputs and plan.uri not in moved and plan.uri not in owed:
            continue
        key = _page_key(plan, files, tree_digest, fixed, extras[plan.uri], parts)
        if old is None or old.key != key:
            (later if same_inputs and results_later else todo).append((plan, key))
    cache.owed = frozenset()
    if later and todo and only is None:  # the next call computes their key again
        cache.owed = frozenset(plan.uri for plan, _ in later)
    else:
        todo.extend(later)
    if todo:
        data = site_data(graph)
        data.uris = uris
        data.examples = results
        data.changes = changes
        data.releases = releases
        # a rebuild (the cache holds the last pages: a server) forks only for many pages: forking the
        # server's process costs more than rendering a few hundred pages in it
        # a page's dependency set is its plan's and its links are the site's own URI strings, not copies (what
        # came back from a worker was pickled, a linker makes each link anew): on 0.58.3, 200,000 link strings
        # and 4,606 dependency sets held once
        own = {u: u for u in uris}
        for (plan, _), page in zip(todo, _render_many(data, todo, options, 1000 if cache.pages else 200)):
            page.url, page.depends_on = plan.uri, plan.deps
            page.links = frozenset(own.get(u, u) for u in page.links)
            cache.pages[page.url] = page
    cache.rendered = len(todo)
    cache.reused = len(plans) - len(todo)
    pages = [cache.pages[p.uri] for p in plans]
    cache.revision = cache.workspace.revision if only is None and cache.workspace is not None else 0
    for stale in (set(cache.pages) - uris) if only is None else ():
        del cache.pages[stale]
    broken = sorted({(p.url, target) for p in pages for target in p.links if target not in uris})
    if broken:
        raise BrokenLinks(broken)
    return pages


_WORK: tuple[Any, RenderOptions] | None = None  # what forked workers inherit


def _work_chunk(chunk: list[tuple[PagePlan, str]]) -> list[Page]:
    assert _WORK is not None
    data, options = _WORK
    env = environment(options.templates_dir)
    return [_render_one(env, data, plan, options, key) for plan, key in chunk]


def _render_many(data: Any, todo: list[tuple[PagePlan, str]], options: RenderOptions,
                 min_pool: int = 200) -> list[Page]:
    """Render in plan order; with ``jobs > 1`` and at least ``min_pool`` pages split the work over forked processes."""
    global _WORK
    jobs = max(1, options.jobs)
    if jobs == 1 or len(todo) < min_pool or "fork" not in multiprocessing.get_all_start_methods():
        env = environment(options.templates_dir)
        return [_render_one(env, data, plan, options, key) for plan, key in todo]
    # the templates compiled here, once: the workers inherit them, and a server's later small
    # rebuilds (rendered in this process) do not compile them on the author's first edit
    env = environment(options.templates_dir)
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)
    # interleave so every worker gets a mix of big and small pages; reassemble by position
    chunks = [todo[i::jobs * 4] for i in range(jobs * 4)]
    _WORK = (data, options)
    try:
        with multiprocessing.get_context("fork").Pool(jobs, initializer=forked_worker) as pool:
            results = pool.map(_work_chunk, chunks)
    finally:
        _WORK = None
    by_uri = {p.url: p for chunk in results for p in chunk}
    return [by_uri[plan.uri] for plan, _ in todo]


def narrow(html: str) -> str:
    """``html`` with its non-ASCII characters as numeric character references, when they are rare (the output
    grows by at most 1 %): the dashes, arrows and signs of an English page.

    CPython holds a string at the width of its widest character, so one "—" doubled a page in memory: the
    4,606 page bodies of 0.58.3 held 326 MB where their text is 163 MB, most of a corpus build's 1 GB peak.
    A reference is the same character to a browser, in text and in attributes (page bodies have no script,
    style or textarea, where it would not be) and to the search entries (:mod:`specgen.site.searchentries`
    parses the HTML). A page with many (a Chinese page) keeps its characters: its source stays readable.
    """
    if html.isascii():
        return html
    refs = html.encode("ascii", "xmlcharrefreplace")
    return refs.decode("ascii") if len(refs) <= len(html) * 1.01 else html


def _render_one(env: jinja2.Environment, data: Any, plan: PagePlan, options: RenderOptions, key: str) -> Page:
    t = Messages(plan.lang or options.langs[0])
    linker = Linker(plan.uri, options.directory_urls)
    cx = Ctx(data, plan, t, linker, options.source_url, options.commit, options.langs)
    kind = plan.kind
    ctx = kind.context(cx, plan)
    html = narrow(env.get_template(kind.template).render(**ctx))
    title = str(ctx.get("title") or plan.title or t("kind." + kind.name.split("-")[0]))
    examples = tuple((e["anchor"], e["id"], e["status"]) for e in ctx.get("examples", ()))
    summary = ctx.get("summary")
    site = data.graph.spec.config.name or t("site.title")
    description = (f"{title}: {summary}" if isinstance(summary, str) and summary.strip()
                   else ("" if title == site else f"{title} — ") + t("meta.description", site=site))
    return Page(url=plan.uri, title=title, kind=kind, lang=plan.lang, content=html,
                depends_on=plan.deps, links=frozenset(linker.targets), toc=_toc(html),
                examples=examples, key=key, description=" ".join(description.split()))

