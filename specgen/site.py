"""``specgen build`` and ``specgen serve``: mkdocs with the specgen plugin, built atomically.

A build writes into a fresh temporary directory beside the output and renames
it into place only when mkdocs succeeded in strict mode, so a failed or killed
build leaves the previous site untouched. Leftover temporary directories from
a killed build are removed by the next run.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
TMP_PREFIX = ".specgen-build-"
OLD_PREFIX = ".specgen-old-"
REPO = Path(__file__).resolve().parent.parent
STAGES = ("config", "load", "examples", "render", "mkdocs", "swap")


def default_config() -> Path:
    """The repository's mkdocs.yml (material + the plugin, docs_dir ``site/``)."""
    return REPO / "mkdocs.yml"


class Progress:
    """A bar on a TTY, one plain line per stage otherwise (CI logs stay readable)."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.tty = bool(getattr(err, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self.done = 0

    def __call__(self, stage: str) -> None:
        self.done = min(len(STAGES), STAGES.index(stage) + 1 if stage in STAGES else self.done + 1)
        elapsed = time.perf_counter() - self.t0
        if self.tty:
            width = 24
            fill = int(width * self.done / len(STAGES))
            self.err.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {stage:<8} {elapsed:6.1f} s")
            self.err.flush()
        else:
            print(f"specgen build: {stage} ({elapsed:.1f} s)", file=self.err)

    def finish(self) -> None:
        if self.tty:
            self.err.write("\n")
            self.err.flush()


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def sweep_stale(out: Path) -> list[Path]:
    """Remove temporary directories a killed build left beside ``out``."""
    removed = []
    parent = out.parent
    if not parent.is_dir():
        return removed
    if not out.exists():
        # a kill between swap_in's two renames leaves the previous site moved aside: put it back
        olds = sorted((p for p in parent.iterdir() if p.is_dir() and p.name.startswith(OLD_PREFIX + out.name + "-")),
                      key=lambda p: p.stat().st_mtime)
        if olds:
            os.rename(olds[-1], out)
    for p in sorted(parent.iterdir()):
        if p.is_dir() and (p.name.startswith(TMP_PREFIX + out.name + "-")
                           or p.name.startswith(OLD_PREFIX + out.name + "-")):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


def swap_in(tmp: Path, out: Path) -> None:
    """Replace ``out`` with ``tmp`` by renames only (the old tree is moved aside, then deleted)."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f"{OLD_PREFIX}{out.name}-", dir=out.parent))
        os.rmdir(old)
        os.rename(out, old)
    try:
        os.rename(tmp, out)
    except OSError:
        if old is not None:
            os.rename(old, out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def load_mkdocs_config(config_file: Path, root: Path | None, site_dir: Path | None, strict: bool,
                       dev_addr: str | None = None) -> Any:
    from mkdocs.config import load_config
    kwargs: dict[str, Any] = {"config_file": str(config_file), "strict": strict}
    if site_dir is not None:
        kwargs["site_dir"] = str(site_dir)
    if dev_addr is not None:
        kwargs["dev_addr"] = dev_addr
    cfg = load_config(**kwargs)
    plugin = cfg.plugins.get("specgen")
    if plugin is None:
        raise ValueError(f"{config_file} does not enable the specgen plugin")
    if root is not None:
        plugin.config.root = str(root.resolve())
    return cfg


def cmd_build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Build the site into ``--out`` atomically, strict; print a summary."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    progress = Progress(err)
    progress("config")
    config_file = Path(getattr(args, "config", None) or default_config())
    out_dir = Path(getattr(args, "out", None) or "build/site").resolve()
    root = getattr(args, "root", None)
    if root is not None and not Path(root).is_dir():
        print(f"specgen build: spec root {root} is not a directory", file=err)
        return EXIT_USAGE
    if not config_file.is_file():
        print(f"specgen build: no mkdocs config at {config_file}", file=err)
        return EXIT_USAGE
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    sweep_stale(out_dir)
    tmp = Path(tempfile.mkdtemp(prefix=f"{TMP_PREFIX}{out_dir.name}-", dir=out_dir.parent))
    counter = _Counter()
    mk_log = logging.getLogger("mkdocs")
    mk_log.addHandler(counter)
    quiet = _quiet_info(mk_log)
    t0 = time.perf_counter()
    ok = False
    try:
        cfg = load_mkdocs_config(config_file, Path(root) if root else None, tmp, strict=True)
        plugin = cfg.plugins["specgen"]
        plugin.progress = progress
        plugin.jobs = max(1, int(getattr(args, "jobs", 1) or 1))
        cfg.plugins.on_startup(command="build", dirty=False)
        build(cfg)
        progress("swap")
        swap_in(tmp, out_dir)
        ok = True
    except (MkDocsException, ValueError, OSError) as e:
        progress.finish()
        reason = str(e)
        if reason.startswith("Aborted with") and counter.records:  # mkdocs' Abort: the plugin error is logged
            reason = "mkdocs stopped on the error(s) below; the previous site is unchanged"
        print(f"specgen build: failed: {reason}", file=err)
    except Exception as e:  # a plugin or theme error must not leave a traceback or a half site
        progress.finish()
        print(f"specgen build: failed: {type(e).__name__}: {e}", file=err)
    finally:
        mk_log.removeHandler(counter)
        quiet()
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    if not ok:
        for r in counter.records[:20]:
            print(f"  {r.levelname.lower()}: {r.getMessage()}", file=err)
        return EXIT_FAIL
    progress.finish()
    stats = plugin.stats
    elapsed = time.perf_counter() - t0
    kinds = ", ".join(f"{v} {k}" for k, v in sorted(stats.get("kinds", {}).items()))
    size, largest = stats.get("largest", (0, ""))
    print(f"built {stats.get('pages', 0)} generated pages ({kinds}) into {out_dir}", file=out)
    print(f"rendered {stats.get('rendered', 0)}, load {stats.get('load_s', 0):.1f} s, "
          f"examples {stats.get('examples_s', 0):.1f} s, "
          f"render {stats.get('render_s', 0):.1f} s, total {elapsed:.1f} s; "
          f"largest page body {size / 1024:.0f} KiB ({largest}); warnings: {len(counter.records)}", file=out)
    return EXIT_OK


def _quiet_info(mk_log: logging.Logger) -> Any:
    """mkdocs logs every page at INFO through its own handler; keep warnings only."""
    handlers = [h for h in mk_log.handlers if not isinstance(h, _Counter)]
    if not handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        mk_log.addHandler(handler)
        mk_log.setLevel(logging.INFO)
        return lambda: mk_log.removeHandler(handler)
    old = [(h, h.level) for h in handlers]
    for h in handlers:
        h.setLevel(max(h.level, logging.WARNING))
    return lambda: [h.setLevel(lvl) for h, lvl in old]


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """mkdocs' dev server with the plugin; spec, template and page edits rebuild and reload."""
    config_file = Path(getattr(args, "config", None) or default_config())
    root = getattr(args, "root", None)
    if root is not None and not Path(root).is_dir():
        print(f"specgen serve: spec root {root} is not a directory", file=err)
        return EXIT_USAGE
    if not config_file.is_file():
        print(f"specgen serve: no mkdocs config at {config_file}", file=err)
        return EXIT_USAGE
    if root is not None:
        os.environ["SPECGEN_SITE_ROOT"] = str(Path(root).resolve())  # mkdocs re-reads the config per rebuild
    logging.getLogger("mkdocs").setLevel(logging.INFO)
    if not logging.getLogger("mkdocs").handlers:
        logging.getLogger("mkdocs").addHandler(logging.StreamHandler(err))
    try:
        # dirty builds, and a spec edit re-templates only the pages it changed
        # (specgen/serve.py; docs-internal/site.md, "Serve")
        from .serve import serve
        serve(str(config_file), getattr(args, "dev_addr", None) or None)
    except KeyboardInterrupt:
        return EXIT_OK
    except Exception as e:
        print(f"specgen serve: {type(e).__name__}: {e}", file=err)
        return EXIT_FAIL
    return EXIT_OK
