"""Where a spec's checked examples live: in the tree, or in a folder the spec team keeps beside it.

A spec team may keep its checked examples (``examples/<surface>/…/<MNEMONIC>/<slug>.json``)
outside the released tree. The folder is, in order:

1. ``[specgen] example_root`` in ``specification.toml``: a path relative to the spec root
   (``examples``, the default) or one that leaves it (``../team-examples``) or is absolute;
2. without that key and without an ``examples/`` folder in the tree, the folder
   ``<root>-examples`` beside the root as it was named (``…/pto-spec-0.58.3-examples``
   for ``…/pto-spec-0.58.3``).

A folder outside the root gets its own confined reader (:class:`~specgen.files.SpecFiles`)
whose observations go into the spec reader's log, so a cached check result is reused only
while those files are unchanged too. Findings and pages name an outside example by the path
shown here (``../pto-spec-0.58.3-examples/tile/…/x.json``), relative to the spec root.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..diagnostics import Finding, Severity
from ..files import SpecFiles

DEFAULT = "examples"
SIBLING_SUFFIX = "-examples"


@dataclass(frozen=True, slots=True)
class ExampleSource:
    """The reader of the examples, the folder inside it, and the prefix paths are shown with."""

    fs: SpecFiles
    folder: str  # relative to ``fs.root`` ("" for its root)
    shown: str   # what finding paths start with, relative to the spec root (the config's example_root)

    def walk(self) -> list[str]:
        """Every example file, by its shown path."""
        found = self.fs.walk(self.folder, ".json") if self.folder else self._walk_root()
        return [self.show(rel) for rel in found]

    def _walk_root(self) -> list[str]:
        return self.fs.walk(".", ".json")

    def show(self, rel: str) -> str:
        """The shown path of a path inside the reader."""
        if self.folder:
            return rel
        return f"{self.shown}/{rel.removeprefix('./')}"

    def inner(self, shown: str) -> str:
        """The reader's path of a shown path."""
        return shown if self.folder else shown.removeprefix(self.shown + "/")


def example_source(files: SpecFiles, example_root: str, configured: bool, named_root: Path,
                   findings: list[Finding]) -> ExampleSource:
    """Resolve the examples folder of the spec read by ``files`` (see the module docstring).

    ``named_root`` is the root as the user named it (not resolved), so a tree reached through a
    link finds the folder beside the link.
    """
    path = PurePosixPath(example_root)
    if not path.is_absolute() and ".." not in path.parts:
        inside = str(path).strip("/") or "."
        if configured or files.present(inside) or inside != DEFAULT:
            return ExampleSource(files, inside, inside)
        beside = Path(named_root).absolute()
        sibling = beside.parent / f"{beside.name}{SIBLING_SUFFIX}"
        parent = SpecFiles(beside.parent, log=files.log)  # logs whether the sibling appears or goes
        if not parent.present(sibling.name):
            return ExampleSource(files, inside, inside)
        return _outside(files, sibling, f"../{sibling.name}", findings)
    folder = Path(example_root) if path.is_absolute() else Path(named_root).absolute() / example_root
    return _outside(files, folder, example_root.rstrip("/"), findings)


def _outside(files: SpecFiles, folder: Path, shown: str, findings: list[Finding]) -> ExampleSource:
    if not folder.is_dir():
        findings.append(Finding("config-invalid", Severity.ERROR, "specification.toml", 0,
                                f"[specgen] example_root names {folder}, which is not a folder; no checked "
                                "example runs", subject="specification.toml"))
    return ExampleSource(SpecFiles(folder, log=files.log), "", shown)
