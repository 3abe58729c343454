"""What every way of building a site does first, with no site engine imported: load the spec, gate on its
examples, run the worked examples and the AVS suite (:mod:`specgen.asl.conformance`), and say what the site
could not show.

The mkdocs plugin (:mod:`specgen.site.build`) and the export for other engines
(:mod:`specgen.site.export`) both start here, so a spec that cannot be built stops every engine with the
same message, and the page assets are one list.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..asl.conformance import CONFORMANCE, Conformance, conformance
from ..bundled import BundledMissing, spec_root
from ..cache import RecordCache
from ..graph import SpecGraph
from ..loader import UNUSABLE_RULES, RootError, load_spec, unusable_findings
from ..render import example_failures, failures_message
from ..render.core import DEFAULT_TEMPLATES
from ..worked.generator import worked_examples
from ..worked.pending import valid_only
from .stats import BuildStats

log = logging.getLogger("mkdocs.plugins.specgen")  # a name, not an import: mkdocs shows it, others ignore it
ASSETS = DEFAULT_TEMPLATES.parent / "assets"
ASSET_URIS = ("assets/specgen/specgen.css", "assets/specgen/specgen.js", "assets/specgen/specgen-site.js",
              "assets/specgen/specgen-code.css", "assets/specgen/specgen-code.js",
              "assets/specgen/specgen-instr.css", "assets/specgen/specgen-instr.js")
Progress = Callable[[str], None]


def own_site(root: Path | None) -> bool:
    """Whether ``root`` is specgen's bundled sample: only its site carries the ``specgen_pages`` (the pages
    about specgen itself), never the site of another tree built with the same config."""
    try:
        return root is not None and root.resolve() == spec_root().resolve()
    except BundledMissing:
        return False


class BuildFailed(Exception):
    """The engine (or the plugin, or the theme) stopped; the previous site is unchanged.

    ``warnings`` are the messages mkdocs logged at WARNING or above during the build.
    """

    def __init__(self, reason: str, warnings: list[logging.LogRecord]) -> None:
        super().__init__(reason)
        self.warnings = warnings


@dataclass
class BuildResult:
    out_dir: Path
    stats: BuildStats
    elapsed: float
    warnings: list[logging.LogRecord] = field(default_factory=list)


class PrepareError(ValueError):
    """The spec cannot be built into a site (unusable files, a contradicted example); the message says which."""


@dataclass(frozen=True)
class SuitePlan:
    """How a build treats the AVS suite: ``build`` runs what has no valid result, ``background`` leaves it
    pending for the server to run (:mod:`specgen.site.liveresults`), ``skip`` runs nothing (pages say so)."""

    mode: str = "build"
    jobs: int = 1


@dataclass(frozen=True)
class LoadTimes:
    """When loading started and what the load, the examples and the suite cost (``specgen build`` reports them)."""

    started: float = 0.0  # ``time.perf_counter()``
    load_s: float = 0.0
    examples_s: float = 0.0
    worked_s: float = 0.0
    worked: str = ""  # the worked-example coverage line (specgen.worked.generator)
    worked_rerun: int = 0
    tests_s: float = 0.0
    tests: str = ""  # the suite's summary line (specgen.asl.conformance)
    tests_rerun: int = 0
    conformance: Conformance | None = None
    worked_pending: tuple[str, ...] = ()  # mnemonics whose worked example runs in a server's background


def prepare(root: Path, records: RecordCache | None, stage: Progress,
            suite: SuitePlan = SuitePlan()) -> tuple[SpecGraph, LoadTimes]:
    """Load the spec, gate on its examples, measure the suite; a contradicted example result stops the build
    here (:class:`PrepareError`)."""
    t0 = time.perf_counter()
    stage("load")
    try:
        spec = load_spec(root, cache=records)
    except RootError as e:
        raise PrepareError(f"specgen: {e}") from e
    # bytes and sizes anywhere; JSON syntax where the pages would silently lose what it holds (a
    # catalog's encodings, a checked example); an unreadable evidence view is said on its pages
    cfg = spec.config
    unusable = [f for f in unusable_findings(spec.findings) if f.rule in UNUSABLE_RULES
                or f.path.startswith((f"{cfg.json_root}/catalog/", f"{cfg.example_root}/"))]
    if unusable:  # a page would show replacement characters or miss the file: say which file instead
        raise PrepareError("specgen: " + "; ".join(f.format() for f in unusable[:10])
                          + (f" (and {len(unusable) - 10} more)" if len(unusable) > 10 else "")
                          + "; fix the file(s), then rebuild ('specgen validate' lists every problem)")
    graph = SpecGraph.build(spec)
    if spec.errors:
        log.info("specgen: the spec has %d loader error(s); run 'specgen validate --root %s'",
                 len(spec.errors), root)
    t1 = time.perf_counter()
    stage("examples")
    failures = example_failures(graph)
    t2 = time.perf_counter()
    if failures:
        raise PrepareError("specgen: " + failures_message(failures))
    # every instruction page's worked example, reused while its reads hold; a server runs the rest in the
    # background pool (specgen.site.liveresults) as it runs the AVS tests, and their pages say "running"
    worked = worked_examples(graph) if suite.mode != "background" else valid_only(graph)
    t3 = time.perf_counter()
    stage("tests")
    conf = conformance(graph, jobs=suite.jobs, run=suite.mode == "build", skip=suite.mode == "skip")
    CONFORMANCE.set(graph, conf)
    t4 = time.perf_counter()
    return graph, LoadTimes(t0, t1 - t0, t2 - t1, t3 - t2, worked.summary(), len(worked.rerun),
                            t4 - t3, conf.summary(), conf.rerun, conf, tuple(worked.pending))


# what a page loses when a fact is missing (see specgen.check.needs.FACTS)
_LOST = {"manifest": "manifest hashes and NDF digests", "release_selection": "NDF digests of the release selection",
         "traceability_view": "traceability rows (tests, evidence) of every page",
         "contracts": "contract sections (operands, legality, examples)", "review": "review records",
         "adr_affected": "ADR links of clauses and units", "semantic_tests": "semantic-test coverage"}


def not_rendered(graph: SpecGraph) -> list[str]:
    """The build summary's lines for what the site could not show, and why: a site must not look complete."""
    from ..check.needs import GAPS
    lines = [f"not rendered: {_LOST.get(fact, fact)} ({gap.artifact}: {gap.reason})"
             for fact, gap in GAPS(graph).items()]
    if not graph.adrs:
        lines.append(f"not rendered: the ADR index is empty (no readable ADR under {graph.spec.config.adr_dir}/)")
    return lines + site_warnings(graph)


def site_warnings(graph: SpecGraph) -> list[str]:
    """What ``specgen check`` would warn of that the site itself shows wrong, as the build's ``warning:`` lines:
    a symbolic link leaving the root (its file is not read, so its page is missing) and documents whose pages
    differ only in letter case (one overwrites the other on macOS and Windows)."""
    from ..check import rule
    found = [f for f in graph.spec.findings if f.rule == "path-outside-root"]
    found += list(rule("doc-case-collision").check(graph))
    return [f"warning: {f.format()}" for f in sorted(found, key=lambda f: f.sort_key)]
