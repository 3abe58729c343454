"""A prose document of the tree: a Markdown file under ``docs/`` that is neither an ADR nor site configuration.

A tree's documentation folder holds two kinds of Markdown. A *generated* copy begins with
``<!-- GENERATED FROM: asl/….asl -->``: the portal's projection of a source unit, which the
unit's own page replaces (it gets no page; a link to it reaches the unit). Every other file is
*free-standing* prose (development guides, governance, release notes, plans) and gets a page.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .common import Closed, RelPath, Sha256
from ..cache import codec


class ProseDoc(Closed):
    """One Markdown file under the tree's documentation folder, split into its title and body.

    ``generated_from``: the root-relative path its ``GENERATED FROM`` marker names (None: free-standing);
    ``title``: its first ``# `` heading (else the file name); ``body``: the text after that heading, the
    HTML comments above it (the generator's marker) removed; the loader empties it for a generated copy
    of a unit it read (that unit's page replaces it), a copy whose source the tree lacks keeps it;
    ``body_line``: the file line the body starts on.
    """

    path: RelPath
    sha256: Sha256
    title: Annotated[str, Field(min_length=1)]
    title_line: Annotated[int, Field(ge=0)]  # 0: the file has no H1 (the title is its name)
    body: str
    body_line: Annotated[int, Field(ge=1)]
    generated_from: RelPath | None = None


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(ProseDoc)
