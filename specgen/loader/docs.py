"""The tree's prose documents: every Markdown file under its documentation folder that is not an ADR.

Read through the one confined reader like every other input. Left out: the ADR folder (its files are
ADRs, :mod:`specgen.loader.adrs`) and any folder holding a ``mkdocs.yml`` (the portal's own site
configuration, not prose). A file whose first lines carry ``GENERATED FROM: <path>`` is kept with that
path, so a link to it can reach the page of its source instead of a copy.
"""

from __future__ import annotations

import posixpath
import re
from typing import Callable

from ..files import SpecFiles
from ..models.doc import ProseDoc

#: the marker the portal's generator writes on its first line (``<!-- GENERATED FROM: asl/x.asl -->``)
_GENERATED = re.compile(r"^<!--\s*GENERATED FROM:\s*(\S+?)\s*-->\s*$")
_COMMENT_LINE = re.compile(r"^<!--.*-->\s*$")
_SITE_CONFIG = ("mkdocs.yml", "mkdocs.yaml")
_META_TITLE = re.compile(r"^title:\s*(.+?)\s*$")


def doc_paths(files: SpecFiles, root: str, adr_dir: str) -> list[str]:
    """Every Markdown file a doc page may be made of (sorted): one walk of ``root``, less the ADR folder and
    every folder below ``root`` holding a site configuration (``root`` itself may be a site's docs_dir:
    its prose still counts)."""
    every = files.walk(root, "")
    skip = {posixpath.dirname(rel) + "/" for rel in every
            if rel.rsplit("/", 1)[-1] in _SITE_CONFIG and posixpath.dirname(rel) != root}
    if adr_dir:
        skip.add(adr_dir.rstrip("/") + "/")
    prefixes = tuple(sorted(skip))
    return [rel for rel in every if rel.endswith(".md") and not rel.startswith(prefixes)]


def scan_doc(path: str, sha256: str, text: str) -> ProseDoc:
    """Title, body and generation marker of one document (any text is a document: nothing to reject)."""
    lines = text.split("\n")
    generated: str | None = None
    i = 0
    while i < len(lines) and (not lines[i].strip() or _COMMENT_LINE.match(lines[i].strip())):
        m = _GENERATED.match(lines[i].strip())
        if m and generated is None:
            generated = _normalised(m.group(1))
        i += 1
    title, title_line = "", 0
    if i < len(lines) and lines[i].strip() == "---":  # YAML front matter (an mkdocs page's meta): not text
        close = next((j for j in range(i + 1, min(len(lines), i + 64)) if lines[j].strip() in ("---", "...")), -1)
        if close > 0:
            for j in range(i + 1, close):
                m = _META_TITLE.match(lines[j])
                if m and not title:
                    title, title_line = m.group(1).strip("'\"").strip(), j + 1
            i = close + 1
            while i < len(lines) and not lines[i].strip():
                i += 1
    if i < len(lines) and lines[i].startswith("# "):
        title, title_line = lines[i][2:].strip().strip("#").strip(), i + 1
        i += 1
    name = path.rsplit("/", 1)[-1].removesuffix(".md")
    return ProseDoc(path=path, sha256=sha256, title=title or name, title_line=title_line,
                    body="\n".join(lines[i:]), body_line=i + 1, generated_from=generated)


def _normalised(target: str) -> str | None:
    """The marker's path as a root-relative POSIX path (None: it names nothing inside the tree)."""
    p = posixpath.normpath(target)
    return None if p.startswith(("..", "/")) or p in (".", "") else p


def load_docs(files: SpecFiles, root: str, adr_dir: str, sources: set[str], record: Callable[[str, str], None],
              scan: Callable[[str, str, str], ProseDoc] = scan_doc) -> list[ProseDoc]:
    """Read every document; ``record(path, sha256)`` notes each file read (the pages depend on them). A
    generated copy of one of ``sources`` (the units read) keeps no body: its source's page replaces it,
    and a tree has hundreds of them."""
    out: list[ProseDoc] = []
    for rel in doc_paths(files, root, adr_dir):
        ft = files.read(rel)
        if ft is None:
            continue
        record(rel, ft.sha256)
        if ft.text is None:
            continue
        doc = scan(rel, ft.sha256, ft.text)
        if doc.generated_from is not None and doc.generated_from in sources:
            doc = doc.model_copy(update={"body": ""})
        out.append(doc)
    return out
