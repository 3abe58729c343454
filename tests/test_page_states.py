"""A page's states as workspace queries (specgen.site.pagestate): which pages mkdocs must write again after
a hand-over, and a rebuild that gives way handing them again."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

import pytest

from specgen.render import Page
from specgen.render.kinds.doc import KIND
from specgen.site.pagestate import DIGEST, PageStates
from specgen.workspace import Workspace, current, fresh, use


@pytest.fixture()
def ws() -> Iterator[Workspace]:
    before = use(fresh())
    try:
        yield current()
    finally:
        use(before)


def _page(url: str, content: str, title: str = "T") -> Page:
    return Page(url=url, title=title, kind=KIND, lang="en", content=content,
                depends_on=frozenset(), links=frozenset())


def test_only_pages_whose_title_kind_or_html_changed_are_handed_again(ws: Workspace) -> None:
    states = PageStates()
    a, b = _page("a.md", "<p>a</p>"), _page("b.md", "<p>b</p>")
    assert states.hand([a, b]) == {"a.md": True, "b.md": True}
    assert states.hand([a, b]) == {"a.md": False, "b.md": False}
    # a new object with the same state (a page rendered again to the same HTML) is no change
    assert states.hand([replace(a, key="other key"), b]) == {"a.md": False, "b.md": False}
    assert states.hand([a, replace(b, content="<p>b2</p>")]) == {"a.md": False, "b.md": True}
    assert states.hand([a, replace(b, title="U", content="<p>b2</p>")])["b.md"]
    assert states.digest("b.md") == ws.query(DIGEST, (states.holder, "b.md"))
    assert states.hand([a, b], compare=False) == {"a.md": True, "b.md": True}  # a build writes every page


def test_a_rebuild_that_gives_way_hands_its_pages_again(ws: Workspace) -> None:
    states = PageStates()
    a = _page("a.md", "<p>a</p>")
    states.hand([a])
    handed = states.handed
    assert states.hand([replace(a, content="<p>edited</p>")]) == {"a.md": True}
    states.put_back(handed)  # mkdocs never wrote it
    assert states.hand([replace(a, content="<p>edited</p>")]) == {"a.md": True}
    assert states.hand([replace(a, content="<p>edited</p>")]) == {"a.md": False}
    assert handed.titles == {"a.md": "T"}


def test_two_holders_never_share_a_page(ws: Workspace) -> None:
    one, two = PageStates(), PageStates()
    one.hand([_page("a.md", "<p>one</p>")])
    assert two.hand([_page("a.md", "<p>two</p>")]) == {"a.md": True}
    assert one.hand([_page("a.md", "<p>one</p>")]) == {"a.md": False}
    assert one.digest("a.md") != two.digest("a.md")


def test_another_workspace_starts_from_nothing(ws: Workspace) -> None:
    states = PageStates()
    a = _page("a.md", "<p>a</p>")
    states.hand([a])
    before = use(fresh())
    try:
        assert states.hand([a]) == {"a.md": True}
    finally:
        use(before)
