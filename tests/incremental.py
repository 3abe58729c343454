"""Incremental equals clean: a site rebuilt as a server rebuilds it, compared with a clean build byte for byte.

:class:`ServedSite` drives the plugin in process exactly as ``mkdocs serve`` does (the plugin instance
persists, every rebuild re-reads the config, a spec edit takes the plugin's spec rebuild and anything
else a full build), waits for the AVS tests the plugin runs in the background and lets the rebuild
that follows show them. :func:`clean_build` is ``specgen build`` in a fresh process with an empty
cache. :func:`differences` lists the files that differ. :data:`EDITS` are the kinds of edit an
author makes; ``tests/test_incremental_property.py`` applies random sequences of them to a copy of
the bundled spec, and ``python -m bench`` (``bench/stages.py``, stage ``incremental_equals_clean``)
one sequence of each kind to a copy of 0.58.3.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from specgen.outputs import MARKER

REPO = Path(__file__).resolve().parent.parent


class ServedSite:
    """A site built and rebuilt by the plugin as under ``mkdocs serve`` (no HTTP)."""

    def __init__(self, root: Path, out: Path, config: Path = REPO / "mkdocs.yml") -> None:
        self.root, self.out, self.config_file = root, out, config
        self.plugin: Any = None
        self.kinds: list[str] = []  # "spec" or "full" per rebuild

    def _config(self) -> Any:
        from specgen.site.inputs import load_mkdocs_config
        cfg = load_mkdocs_config(self.config_file, self.root, self.out, strict=False)
        cfg.plugins.on_startup(command="serve", dirty=False)
        return cfg

    def first(self, timeout: float = 1800) -> None:
        from mkdocs.commands.build import build
        logging.getLogger("mkdocs").setLevel(logging.ERROR)
        cfg = self._config()
        build(cfg)
        self.plugin = cfg.plugins.get("specgen")
        self.settle(timeout)

    def rebuild(self) -> str:
        """What the server's builder does after a change: the spec rebuild, else a full build."""
        from mkdocs.commands.build import build
        if spec_rebuilds(self.plugin):
            kind = "spec"
        else:
            build(self._config())
            kind = "full"
        self.kinds.append(kind)
        return kind

    def settle(self, timeout: float = 1800) -> None:
        """Until every AVS result and worked example is in and shown: wait for the background run, rebuild, repeat."""
        for _ in range(20):
            times = self.plugin._times
            conf = times.conformance
            if (conf is None or conf.state != "running") and not times.worked_pending:
                return
            if not self.plugin.serving.live.wait(timeout):
                raise TimeoutError("the background AVS run did not finish")
            self.rebuild()
        raise RuntimeError("the AVS results never settled")


def spec_rebuilds(plugin: Any) -> bool:
    """``serve.spec_rebuild`` as a server runs it: again at once while it leaves pages owed
    (``RenderCache.owed``); False when one gave way to a full build."""
    from specgen.site import serve
    for _ in range(4):
        if not serve.spec_rebuild(plugin):
            return False
        if not plugin.serving.render_cache.owed:
            return True
    raise AssertionError("pages still owed after four spec rebuilds")


def clean_build(root: Path, out: Path, cache: Path, config: Path = REPO / "mkdocs.yml") -> None:
    """``specgen build`` in a fresh process with an empty cache directory."""
    env = {**os.environ, "SPECGEN_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, "-m", "specgen", "build", "--root", str(root), "--out", str(out),
                        "--config", str(config), "--jobs", "2"], env=env, capture_output=True, text=True,
                       cwd=REPO)
    if r.returncode != 0:
        raise RuntimeError(f"clean build failed: {r.stderr[-1500:]}")


def tree_digests(d: Path) -> dict[str, str]:
    """Each file's digest; not the ownership marker (``specgen build`` marks the folder it publishes, a server's
    temporary site is its own and a full rebuild under serve cleans it: issue 24's rule, not page content)."""
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(d.rglob("*")) if p.is_file() and p.name != MARKER}


def differences(a: Path, b: Path) -> list[str]:
    """Relative paths whose bytes differ, or that only one side has."""
    da, db = tree_digests(a), tree_digests(b)
    return sorted(k for k in da.keys() | db.keys() if da.get(k) != db.get(k))


# ------------------------------------------------------------------ the edits an author makes
def _units(root: Path) -> list[Path]:
    return sorted((root / "asl").rglob("*.asl"))


def edit_prose(root: Path, k: int) -> str:
    """A word of an NDF clause's prose (a comment: no ASL declaration changes); in a tree without NDF
    clauses (0.58.0), a comment after a statement of a DOC region (text a page shows verbatim)."""
    units = [u for u in _units(root) if "// NDF-BEGIN:" in u.read_text(encoding="utf-8")]
    if not units:
        return _edit_doc_line(root, k)
    unit = units[k % len(units)]
    lines = unit.read_text(encoding="utf-8").split("\n")
    i = next(i for i, x in enumerate(lines) if x.startswith("// NDF-BEGIN:"))
    j = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("// ") and "ndf:" not in lines[j]
             and not lines[j].startswith("// NDF-END"))
    lines[j] = lines[j] + f" edit{k}"
    unit.write_text("\n".join(lines), encoding="utf-8")
    return f"prose {unit.relative_to(root)}"


def _edit_doc_line(root: Path, k: int) -> str:
    from bench.serve_loop import doc_line  # the server bench's own choice of line
    lines: dict[Path, str] = {}
    for u in _units(root):
        try:
            lines[u] = doc_line(u.read_text(encoding="utf-8"))
        except LookupError:
            continue
    unit = sorted(lines)[k % len(lines)]
    text = unit.read_text(encoding="utf-8")
    unit.write_text(text.replace(lines[unit], lines[unit] + f" // edit{k}", 1), encoding="utf-8")
    return f"doc text {unit.relative_to(root)}"


def _insert_statement(path: Path, func: str, k: int) -> None:
    """A statement on the body's ``begin`` line (no other declaration moves), replacing an earlier one."""
    text = path.read_text(encoding="utf-8")
    begin = text.index("\nbegin", text.index(func)) + 1
    end = text.index("\n", begin)
    path.write_text(text[:begin] + f"begin let edit_marker_{k} = {k};" + text[end:], encoding="utf-8")


def edit_asl(root: Path, k: int) -> str:
    """A statement at the top of one instruction's ``InstructionContractDataTypeLegal_<MN>``; in a tree
    without them (0.58.0), of the first function an instruction unit (one with a record) declares."""
    texts = {u: u.read_text(encoding="utf-8") for u in _units(root)}
    units = [u for u, text in texts.items() if "func InstructionContractDataTypeLegal_" in text]
    pattern = r"func (InstructionContractDataTypeLegal_\w+)\("
    if not units:
        pattern = r"^func (\w+)\("
        units = [u for u, text in texts.items() if "// PTO-INSTRUCTION:" in text
                 and re.search(pattern, text, re.M) and "\nbegin" in text]
    unit = units[k % len(units)]
    name = re.search(pattern, texts[unit], re.M)
    assert name is not None
    _insert_statement(unit, f"func {name.group(1)}(", k)
    return f"asl {name.group(1)}"


def edit_helper(root: Path, k: int, helper: str = "ExecuteTileBinary") -> str:
    """A statement at the top of a helper many instructions execute."""
    unit = next(u for u in _units(root) if re.search(rf"^func {helper}\(", u.read_text(encoding="utf-8"), re.M))
    _insert_statement(unit, f"func {helper}(", k)
    return f"helper {helper}"


def edit_catalog(root: Path, k: int) -> str:
    """One value of the tile-operations catalog (the generated ASL is made from it)."""
    p = next(root.rglob("catalog/tile-operations.json"))
    doc = json.loads(p.read_text(encoding="utf-8"))
    ops = doc["operations"]
    op = ops[k % len(ops)]
    op["contract_status"] = f"{str(op.get('contract_status', 'x')).split(' edit')[0]} edit{k}"
    p.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return f"catalog {op.get('name')}.contract_status"


def edit_config(root: Path, k: int) -> str:
    """``[specgen] max_steps`` (every AVS result and worked example was measured under the old budget)."""
    p = root / "specification.toml"
    text = p.read_text(encoding="utf-8")
    steps = 100_000_000 + k
    if re.search(r"^max_steps\s*=", text, re.M):
        text = re.sub(r"^max_steps\s*=.*$", f"max_steps = {steps}", text, count=1, flags=re.M)
    elif "[specgen]" in text:
        text = text.replace("[specgen]", f"[specgen]\nmax_steps = {steps}", 1)
    else:
        text += f"\n[specgen]\nmax_steps = {steps}\n"
    p.write_text(text, encoding="utf-8")
    return f"config max_steps={steps}"


def edit_add_remove(root: Path, k: int) -> str:
    """Add an ASL unit (a new page), or remove the one added before."""
    added = sorted((root / "asl").rglob("edit-added-*.asl"))
    if added:
        added[0].unlink()
        return f"remove {added[0].relative_to(root)}"
    d = _units(root)[0].parent
    p = d / f"edit-added-{k}.asl"
    p.write_text(f"// An added unit.\nconstant EditAdded{k} : integer = {k};\n", encoding="utf-8")
    return f"add {p.relative_to(root)}"


EDITS: dict[str, Callable[[Path, int], str]] = {
    "prose": edit_prose, "asl": edit_asl, "helper": edit_helper, "catalog": edit_catalog,
    "config": edit_config, "add-remove": edit_add_remove,
}


__all__ = ["EDITS", "ServedSite", "clean_build", "differences", "spec_rebuilds", "tree_digests"]
