"""The documentation renderer, independent of mkdocs: ``render_site(graph, options) -> list[Page]``."""

from __future__ import annotations

from .core import BrokenLinks, Page, RenderCache, RenderOptions, environment, render_site
from .examples import example_failures, failures_message
from .kinds import plan_site
from .pages import ReleaseSite
from .plan import PageKind, PagePlan

__all__ = ["BrokenLinks", "Page", "PageKind", "PagePlan", "ReleaseSite", "RenderCache", "RenderOptions",
           "environment", "example_failures", "failures_message", "plan_site", "render_site"]
