"""The documentation renderer, independent of mkdocs: ``render_site(graph, options) -> list[Page]``."""

from __future__ import annotations

from .core import BrokenLinks, Page, RenderCache, RenderOptions, environment, render_site
from .pages import Example, ExampleResult, PagePlan, plan_site

__all__ = ["BrokenLinks", "Example", "ExampleResult", "Page", "PagePlan", "RenderCache", "RenderOptions",
           "environment", "plan_site", "render_site"]
