"""Where specgen may write: the output-safety rule every command that writes a folder or a report follows.

A site build replaces its output folder whole (``specgen.site.publish``), so
an output that is, holds or sits inside something the user keeps would be
deleted with no way back. mkdocs refuses a ``site_dir`` that contains its
``docs_dir``; specgen refuses more, before any work, with one line naming
both paths (docs-internal/robustness.md, "Output safety"):

- **Inputs.** A site folder may not equal or contain any input of the build
  (the spec root, the config's folder, ``docs_dir``, the templates, the
  top level of the checkout holding any of them), and may not lie inside an
  input that is read as a whole tree (the spec root, ``docs_dir``, the
  templates). Inside the config's folder or a checkout is the normal place
  (``build/site``). A folder that is itself a checkout's top level (it holds
  ``.git``) is refused too. No flag overrides this.
- **Ownership.** An existing folder that is not empty must carry
  :data:`MARKER`, which every site specgen writes holds; a folder of
  specgen's own is replaced atomically as before. ``--force`` (the plugin's
  ``replace_site_dir: true``) overrides this rule only.
- **Reports.** ``check --output FILE`` (and ``test``'s coverage files) may not
  be, or lie inside, the tree being checked: it would overwrite a file of the
  release or add one the manifest does not list.

Paths are compared after resolving symbolic links, so a link to the spec
root is the spec root, and by device and inode, so a hard link to a file of
the tree (or a bind mount of a folder) is that file or folder too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, NamedTuple

MARKER = ".specgen-site"
MARKER_TEXT = ("This folder is a site written by specgen. Every build replaces the whole folder;\n"
               "keep nothing else here (docs-internal/robustness.md, \"Output safety\").\n")
# what a site written before the marker existed always holds (the specgen stylesheet), at its top
# or one release down (a multi-release site): such a folder is specgen's own too
_LEGACY = "assets/specgen/specgen.css"


class OutputRefused(ValueError):
    """An output path the rule refuses; ``str()`` is the one line to print (exit 2)."""

    def __init__(self, out: Path | str, reason: str) -> None:
        super().__init__(f"{out}:0:0: output-refused: {reason}")
        self.out = Path(out)
        self.reason = reason


class Input(NamedTuple):
    """Something a build reads: what to call it, where it is, and whether an output may sit inside it."""

    label: str  # "the spec root", "docs_dir", …
    path: Path
    tree: bool  # read as a whole tree: an output inside it is refused too


def _real(p: Path | str) -> Path:
    return Path(os.path.realpath(os.path.abspath(os.fspath(p))))


def _same(a: Path, b: Path) -> bool:
    """Whether two resolved paths are one file or folder: by name, else by device and inode (a hard link,
    a bind mount); a path that does not exist is only ever itself."""
    if a == b:
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _inside(child: Path, top: Path) -> bool:
    """Whether ``child`` is ``top`` or lies inside it, by name or by the device and inode of a folder above it."""
    if child == top or child.is_relative_to(top):
        return True
    try:
        st = os.stat(top)
    except OSError:
        return False
    for d in (child, *child.parents):
        try:
            sd = os.stat(d)
        except OSError:
            continue
        if (sd.st_dev, sd.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def _linked_into(file: Path, tree: Path) -> Path | None:
    """The file of ``tree`` that the existing regular ``file`` is a hard link of (its device and inode), or None.

    Only a file with more than one link is looked for, so a report written afresh or over an earlier
    report costs one ``stat``.
    """
    try:
        st = os.stat(file)
    except OSError:
        return None
    if not os.path.isfile(file) or st.st_nlink < 2:
        return None
    want = (st.st_dev, st.st_ino)
    for dirpath, _dirs, names in os.walk(tree):
        for name in names:
            p = os.path.join(dirpath, name)
            try:
                sp = os.stat(p, follow_symlinks=False)
            except OSError:
                continue
            if (sp.st_dev, sp.st_ino) == want:
                return Path(p)
    return None


def checkout_top(p: Path | str) -> Path | None:
    """The top level of the git checkout holding ``p`` (a ``.git`` folder or file), or None."""
    here = _real(p)
    for d in (here, *here.parents):
        if (d / ".git").exists():
            return d
    return None


def _inputs_with_checkouts(inputs: Iterable[Input]) -> list[Input]:
    found = list(inputs)
    tops: list[Path] = []
    for i in found:
        top = checkout_top(i.path)
        if top is not None and top not in tops:
            tops.append(top)
    return found + [Input(f"the top level of the checkout holding {i.label}", top, False) for top in tops]


def check_site_dir(out: Path | str, inputs: Iterable[Input], force: bool = False, override: str = "pass --force",
                   flag: str = "--out") -> None:
    """Refuse a site folder that would delete or pollute an input, or a folder specgen did not write.

    ``override`` names what lifts the ownership rule in the caller's world
    (``--force`` on the command line, ``replace_site_dir: true`` in the plugin);
    ``flag`` what chooses the folder. Raises :class:`OutputRefused`.
    """
    given = Path(out)
    real = _real(given)
    for i in _inputs_with_checkouts(inputs):
        p = _real(i.path)
        if _same(real, p):
            raise OutputRefused(given, f"the site folder {real} is {i.label} ({p}); a build replaces its output "
                                       f"folder whole: choose another {flag}")
        if _inside(p, real):
            raise OutputRefused(given, f"the site folder {real} contains {i.label} ({p}); a build replaces its "
                                       f"output folder whole: choose another {flag}")
        if i.tree and _inside(real, p):
            raise OutputRefused(given, f"the site folder {real} lies inside {i.label} ({p}), which the build "
                                       f"reads: choose {flag} outside it")
    if (real / ".git").exists():
        raise OutputRefused(given, f"the site folder {real} is the top level of a checkout ({real / '.git'}); "
                                   f"a build replaces its output folder whole: choose another {flag}")
    if force or not real.is_dir():
        return
    entries = sorted(os.listdir(real))
    if not entries or is_ours(real):
        return
    more = len(entries) - 1
    shown = f"{real / entries[0]}" + (f" and {more} more entr{'y' if more == 1 else 'ies'}" if more else "")
    raise OutputRefused(given, f"the site folder {real} is not empty ({shown}) and holds no {MARKER}: "
                               f"specgen did not write it, and a build replaces its output folder whole; "
                               f"choose a new or empty {flag}, or {override} to replace it")


def is_ours(folder: Path | str) -> bool:
    """Whether specgen wrote ``folder`` (its marker, or the stylesheet of a site older than the marker)."""
    d = Path(folder)
    if (d / MARKER).is_file() or (d / _LEGACY).is_file():
        return True
    if not (d / "versions.json").is_file():
        return False
    try:
        return any((e / _LEGACY).is_file() for e in d.iterdir() if e.is_dir())
    except OSError:
        return False


def write_marker(folder: Path | str) -> None:
    """Mark a site folder as specgen's own, so the next build may replace it."""
    (Path(folder) / MARKER).write_text(MARKER_TEXT, encoding="utf-8")


def check_report_file(out: Path | str, tree: Path | str, label: str = "the spec root", flag: str = "--output") -> None:
    """Refuse a report file that is, or lies inside, the tree being read (a file of the release), or that is a
    hard link to one of its files (writing it would change that file)."""
    given = Path(out)
    real, top = _real(given), _real(tree)
    if _inside(real, top):
        raise OutputRefused(given, f"{flag} {real} lies inside {label} ({top}) that this command reads: "
                                   f"writing there would overwrite or add a file of the tree; choose {flag} outside it")
    twin = _linked_into(real, top)
    if twin is not None:
        raise OutputRefused(given, f"{flag} {real} is a hard link to {twin}, a file of {label} ({top}) that this "
                                   f"command reads: writing it would overwrite that file; choose {flag} elsewhere")
