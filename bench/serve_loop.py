"""The author's loop, measured: edit a spec file under a running server, poll the served page until it shows.

    .venv/bin/python -m bench.serve_loop [--root ../shared/corpus/pto-spec-0.58.3] [--server specgen|mkdocs]
                                         [--edits 3] [--port 8290] [--json FILE]

The spec is copied into a temporary directory (the corpus stays read-only), and a server is started on
the copy: ``specgen serve --root COPY`` or, with ``--server mkdocs``, a plain ``mkdocs serve`` of a fresh
project whose ``mkdocs.yml`` has only a site name and the plugin line (``plugins: [{specgen: {root: COPY}}]``).
Three kinds of edit are made, each ``--edits`` times, a few seconds apart:

* ``prose``: a word of an NDF clause of the instruction unit (``TMUL.asl`` on the corpus) changes (a unit
  without NDF prose, as in 0.58.0, gets a comment on a line of its DOC region: text the page shows);
* ``asl``: a statement is added to the body of the instruction's ``InstructionContractDataTypeLegal_<MN>``
  (its worked example and its tests execute it), or of the first function the unit declares for it;
* ``helper``: a statement is added to the body of a helper the instruction executes (``ExecuteTileBinary``).

The statement goes on the body's ``begin`` line, so no other declaration moves (a moved declaration is
a changed one: results name ASL lines).

After each save the script long-polls the page's live-reload endpoint (what the page's own script does)
and fetches the page until it shows the edit; the time from the save to that response is the figure,
beside the CPU seconds the server process spent meanwhile (``/proc``: on a shared machine the wall time
is the load's, the CPU time the rebuild's). Before the first edit, and after each edit, the script waits
for the AVS tests the server runs in the background to finish (its log says so), so every edit starts
from rest. The server's log lines after each edit (what re-ran) are kept. Nothing asserts; it prints
(and writes JSON).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_ROOT = REPO.parent / "shared" / "corpus" / "pto-spec-0.58.3"
# the instruction's own ASL its worked example executes (its DataType legality), and its tests
OWN_ASL = "func InstructionContractDataTypeLegal_"


@dataclass
class Target:
    """What one edit kind changes and the page that must show it."""

    kind: str
    file: str  # root-relative
    page: str  # site path without suffix, e.g. en/tile/.../TMUL
    anchor: str  # the declaration whose body gets a statement (asl, helper), or the start of the prose line
    sep: str = " "  # what goes between the prose line's start and the marker


@dataclass
class Server:
    proc: subprocess.Popen[str]
    port: int
    suffix: str  # ".html" or "/" (use_directory_urls)
    log: list[str] = field(default_factory=list)

    def url(self, page: str) -> str:
        return f"http://127.0.0.1:{self.port}/{page}{self.suffix}"


TRACE: Path | None = None  # --trace FILE: the server's log and each measurement, as they happen


def note(text: str) -> None:
    if TRACE is not None:
        with TRACE.open("a", encoding="utf-8") as f:
            f.write(f"[bench {time.strftime('%H:%M:%S')}] {text}\n")


def free_port(preferred: int | None) -> int:
    """``--port``, else ``SPECGEN_BENCH_PORT`` (a shared machine's range for the stages of ``python -m bench``),
    else any free port."""
    preferred = preferred or int(os.environ.get("SPECGEN_BENCH_PORT", "0") or 0)
    if preferred:
        return preferred
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def scratch_copy(src: Path, dst: Path) -> None:
    """A writable copy of the tree (the corpus has no write bits)."""
    shutil.copytree(src, dst, symlinks=True)
    for d, dirs, files in os.walk(dst):
        for n in dirs + files:
            p = os.path.join(d, n)
            if not os.path.islink(p):
                os.chmod(p, 0o755 if n in dirs else 0o644)


def targets(root: Path, mnemonic: str, helper: str) -> list[Target]:
    """The three edit targets, found in the tree (the unit named after the mnemonic; the helper's unit).

    The prose edit changes the last word of a line of the unit's NDF clause text; a unit without NDF
    prose (0.58.0's instruction units have none) gets a trailing comment on a line of its ``DOC-BEGIN``
    region instead, the other text a page shows verbatim. The instruction's own ASL is its DataType
    legality predicate where it has one, else the first function the unit declares for the mnemonic.
    """
    unit = next(p for p in sorted((root / "asl").rglob(f"{mnemonic}.asl")))
    rel = unit.relative_to(root).as_posix()
    text = unit.read_text(encoding="utf-8")
    page = "en/" + rel.removeprefix("asl/").removesuffix(".asl")
    prose = _ndf_prose(text)
    if prose is not None:
        word = prose.split()[-1]
        edit = Target("prose", rel, page, prose[: len(prose) - len(word)].rstrip())
    else:
        edit = Target("prose", rel, page, doc_line(text), sep=" // ")
    own = OWN_ASL + mnemonic if OWN_ASL + mnemonic in text else next(
        m.group(0) for m in re.finditer(rf"^(?:\w+ )?func \w+_{mnemonic}\b", text, re.M))
    helper_unit = next(p for p in sorted((root / "asl").rglob("*.asl"))
                       if re.search(rf"^func {helper}\(", p.read_text(encoding="utf-8"), re.M))
    hrel = helper_unit.relative_to(root).as_posix()
    return [edit, Target("asl", rel, page, own),
            Target("helper", hrel, "en/" + hrel.removeprefix("asl/").removesuffix(".asl"), f"func {helper}(")]


def _ndf_prose(text: str) -> str | None:
    """A prose line of the unit's first NDF clause with at least two words (not its ``ndf:`` line)."""
    inside = False
    for line in text.splitlines():
        if line.startswith("// NDF-BEGIN:"):
            inside = True
        elif line.startswith("// NDF-END:"):
            inside = False
        elif inside and line.startswith("// ") and not line.startswith("// ndf:") and len(line.split()) > 2:
            return line
    return None


def doc_line(text: str) -> str:
    """The first statement line of the unit's first DOC region (a comment appended to it moves nothing)."""
    inside = False
    for line in text.splitlines():
        if line.startswith("// DOC-BEGIN:"):
            inside = True
        elif line.startswith("// DOC-END:"):
            inside = False
        elif inside and line.rstrip().endswith(";") and "//" not in line:
            return line
    raise LookupError("the unit has neither NDF prose nor a DOC region to edit")


def apply_edit(root: Path, t: Target, marker: str) -> None:
    """Save the edit (one write, as an editor does)."""
    p = root / t.file
    text = p.read_text(encoding="utf-8")
    if t.kind == "prose":
        new = re.sub(rf"^{re.escape(t.anchor)}.*$", lambda _m: f"{t.anchor}{t.sep}{marker}", text, count=1,
                     flags=re.M)
    else:  # a statement on the body's ``begin`` line: the function's AST changes, no other declaration moves
        start = text.index(t.anchor)
        begin = text.index("\nbegin", start) + 1
        end = text.index("\n", begin)
        new = text[:begin] + f"begin let {marker} = 1;" + text[end:]
    assert new != text, f"the {t.kind} edit of {t.file} changed nothing"
    p.write_text(new, encoding="utf-8")


def get(url: str, timeout: float = 10) -> str:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return str(r.read().decode("utf-8", "replace"))
    except (OSError, urllib.error.HTTPError):
        return ""


def start(kind: str, root: Path, tmp: Path, port: int, env: dict[str, str]) -> Server:
    if kind == "specgen":
        cmd = [sys.executable, "-m", "specgen", "serve", "--root", str(root), "--dev-addr", f"127.0.0.1:{port}"]
        cwd, suffix = REPO, ".html"
    else:
        project = tmp / "project"
        (project / "docs").mkdir(parents=True)
        (project / "docs" / "index.md").write_text("# My project\n\nThe spec's pages are generated.\n")
        (project / "mkdocs.yml").write_text(f"site_name: My project\nplugins: [{{specgen: {{root: {root}}}}}]\n")
        cmd = [sys.executable, "-m", "mkdocs", "serve", "-f", str(project / "mkdocs.yml"),
               "-a", f"127.0.0.1:{port}"]
        cwd, suffix = project, "/"
    # SIGINT stops the server (it is how the script ends it), even when this script runs in the background,
    # where a shell starts it with SIGINT ignored and the server would inherit that
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    server = Server(proc, port, suffix)

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            server.log.append(line.rstrip("\n"))
            if TRACE is not None:
                with TRACE.open("a", encoding="utf-8") as f:
                    f.write(line)

    threading.Thread(target=pump, daemon=True).start()
    return server


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quiet(server: Server, since: int, limit: float = 3600.0) -> None:
    """Wait until no AVS test or worked example runs in the background and the server is idle: the last build
    after ``since`` says none is running, and that build has finished (mkdocs said it reloads the browsers
    after it)."""
    t = time.perf_counter()
    while time.perf_counter() - t < limit and server.proc.poll() is None:
        log = server.log[since:]
        builds = [i for i, x in enumerate(log) if "AVS tests:" in x and "pages (" in x]
        if builds and "running" not in log[builds[-1]].split("pages (", 1)[1] \
                and any("Reloading browsers" in x or "Serving on" in x for x in log[builds[-1]:]):
            return
        time.sleep(1.0)


def wait_for(server: Server, url: str, needle: str, limit: float) -> float:
    t = time.perf_counter()
    while needle not in get(url):
        if server.proc.poll() is not None:
            raise RuntimeError("the server exited:\n" + "\n".join(server.log[-20:]))
        if time.perf_counter() - t > limit:
            raise RuntimeError(f"{url} did not show {needle!r} within {limit:.0f} s:\n" + "\n".join(server.log[-20:]))
        time.sleep(0.25)
    return time.perf_counter() - t


def until_shown(server: Server, url: str, marker: str, limit: float = 900.0) -> float:
    """The page's own live-reload loop: long-poll for a newer build, fetch, repeat until the edit shows."""
    t0 = time.perf_counter()
    while True:
        page = get(url)
        if marker in page:
            return time.perf_counter() - t0
        m = re.search(r"livereload\((\d+), (\d+)\)", page)
        if m is None:
            time.sleep(0.05)
        else:
            get(f"http://127.0.0.1:{server.port}/livereload/{m[1]}/{m[2]}", timeout=limit)
        if time.perf_counter() - t0 > limit or server.proc.poll() is not None:
            raise RuntimeError(f"{url} did not show {marker!r}:\n" + "\n".join(server.log[-30:]))


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it, in MiB (Linux ``/proc``)."""
    total = 0
    for p in [pid, *_below(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return round(total / 1024, 1)


def _below(pid: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                ppid = int(Path(f"/proc/{e}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(e))
    out, todo = [], [pid]
    while todo:
        for c in kids.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def edit_loop(server: Server, root: Path, tgts: list[Target], edits: int, busy: bool, settle: float,
              out: dict[str, Any]) -> None:
    """Each kind of edit ``edits`` times; ``busy``: the next edit as soon as the last one shows (the suite may
    still run in the background), else after the background work is done and ``settle`` seconds."""
    for t in tgts:
        walls, cpus, logs = [], [], []
        try:
            for i in range(edits):
                marker = f"bench_marker_{t.kind}_{i}_{time.time_ns() % 10**8}"
                seen = len(server.log)
                c0 = cpu_seconds(server.proc.pid)
                apply_edit(root, t, marker)
                note(f"{t.kind} edit {i} saved ({marker})")
                walls.append(round(until_shown(server, server.url(t.page), marker), 3))
                cpus.append(round(cpu_seconds(server.proc.pid) - c0, 3))
                note(f"{t.kind} edit {i} shown after {walls[-1]} s wall, {cpus[-1]} s server CPU")
                if not busy:
                    quiet(server, seen)  # the tests the edit affected have run; the next edit starts from rest
                time.sleep(settle)
                logs.append([x for x in server.log[seen:] if "specgen" in x or "rebuil" in x.lower()])
        except RuntimeError as e:  # said in the output; the other kinds are still measured
            out["edits"][t.kind] = {"file": t.file, "page": t.page, "error": str(e)[-3000:], "walls": walls}
            continue
        out["edits"][t.kind] = {"file": t.file, "page": t.page, "walls": walls, "cpu": cpus,
                                "median_s": statistics.median(walls),
                                "median_cpu_s": statistics.median(cpus), "log": logs}


def memory_loop(server: Server, root: Path, tgts: list[Target], edits: int) -> dict[str, Any]:
    """``edits`` edits one after the other as each shows (prose and the instruction's ASL by turns, the helper
    every tenth); the server's and its workers' resident memory after each."""
    rss: list[float] = []
    for i in range(edits):
        t = tgts[2] if i % 10 == 9 else tgts[i % 2]
        marker = f"bench_mem_{t.kind}_{i}_{time.time_ns() % 10**8}"
        apply_edit(root, t, marker)
        until_shown(server, server.url(t.page), marker)
        time.sleep(1.0)
        rss.append(rss_mb(server.proc.pid))
        note(f"memory edit {i} ({t.kind}): {rss[-1]} MiB")
    tenth = rss[min(9, len(rss) - 1)]
    return {"edits": edits, "rss_mb": rss, "after_10_mb": tenth, "last_mb": rss[-1],
            "growth_from_10th": round(rss[-1] / tenth - 1, 4) if tenth else None}


def restart(kind: str, root: Path, tmp: Path, port: int | None, env: dict[str, str], page: str,
            mnemonic: str) -> float:
    """A server started again on the same tree and stores, nothing changed: seconds to its first page."""
    server = start(kind, root, tmp, free_port(port), env)
    try:
        return round(wait_for(server, server.url(page), mnemonic, 1800), 2)
    finally:
        stop_server(server)


def stop_server(server: Server) -> None:
    os.killpg(server.proc.pid, signal.SIGINT)
    try:
        server.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.proc.pid, signal.SIGKILL)


def measure(root_src: Path, kind: str, edits: int, port: int | None, mnemonic: str, helper: str,
            settle: float, scratch: Path | None = None, busy: bool = False, again: bool = False,
            memory_edits: int = 0) -> dict[str, Any]:
    """``scratch``: copy the tree to ``scratch/spec`` (replacing what is there) instead of a new temporary
    directory, so a second run on the same root path reuses the first one's stores (a warm first serve).
    ``busy``: edits start as soon as the first page answers, with the suite still running in the background
    (the issue 38 targets), each as soon as the last showed. ``again``: then, once every result is in, the
    server is stopped and started again with nothing changed (seconds to its first page). ``memory_edits``:
    that many more edits, the server's and its workers' memory after each."""
    tmp = Path(tempfile.mkdtemp(prefix="specgen-loop-"))
    env = {**os.environ}
    env.setdefault("SPECGEN_CACHE_DIR", str(tmp / "cache"))
    try:
        root = (scratch if scratch is not None else tmp) / "spec"
        if root.exists():
            shutil.rmtree(root)
        scratch_copy(root_src, root)
        tgts = targets(root, mnemonic, helper)
        server = start(kind, root, tmp, free_port(port), env)
        try:
            first = wait_for(server, server.url(tgts[0].page), mnemonic, 1800)
            note(f"first serve: the page answered after {first:.1f} s")
            out: dict[str, Any] = {"server": kind, "root": str(root_src), "first_serve_s": round(first, 2),
                                   "dirty_warning": any("'dirty' build" in x for x in server.log), "edits": {},
                                   "busy": busy}
            t0 = time.perf_counter()
            if not busy:
                quiet(server, 0)
                out["first_results_s"] = round(first + time.perf_counter() - t0, 2)  # every test shows a result
                note(f"every test result shown after {out['first_results_s']} s")
                time.sleep(settle)
            edit_loop(server, root, tgts, edits, busy, settle if not busy else 0.5, out)
            if busy:
                quiet(server, 0)
                out["first_results_s"] = round(first + time.perf_counter() - t0, 2)
            if memory_edits:
                out["memory"] = memory_loop(server, root, tgts, memory_edits)
                quiet(server, 0)
        finally:
            stop_server(server)
        if again:
            out["restart_first_page_s"] = restart(kind, root, tmp, port, env, tgts[0].page, mnemonic)
            note(f"restart, nothing changed: the page answered after {out['restart_first_page_s']} s")
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.serve_loop", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--server", choices=["specgen", "mkdocs"], default="specgen")
    ap.add_argument("--edits", type=int, default=3)
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--mnemonic", default="TMUL")
    ap.add_argument("--helper", default="ExecuteTileBinary")
    ap.add_argument("--settle", type=float, default=3.0,
                    help="seconds of rest after the background tests finished (default %(default)s)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--scratch", type=Path, default=None,
                    help="copy the tree to SCRATCH/spec (kept) instead of a new temporary directory")
    ap.add_argument("--trace", type=Path, default=None, help="append the server's log and each figure to FILE as they come")
    ap.add_argument("--busy", action="store_true",
                    help="edit from the moment the first page answers, the suite still running (issue 38)")
    ap.add_argument("--again", action="store_true", help="then restart the server with nothing changed")
    ap.add_argument("--memory-edits", type=int, default=0, help="then N more edits, measuring memory after each")
    args = ap.parse_args(argv)
    from .common import as_installed
    as_installed()
    global TRACE
    TRACE = args.trace
    res = measure(args.root.resolve(), args.server, args.edits, args.port, args.mnemonic, args.helper, args.settle,
                  args.scratch.resolve() if args.scratch else None, args.busy, args.again, args.memory_edits)
    print(f"{res['server']} serve on {res['root']}: first serve {res['first_serve_s']} s; "
          f"dirty-build warning: {res['dirty_warning']}")
    print(f"  every test page shows a result after {res['first_results_s']} s")
    for kind, e in res["edits"].items():
        if "error" in e:
            print(f"  {kind:6} {e['file']}: not measured ({len(e['walls'])} edit(s) shown: {e['walls']}):\n{e['error']}")
            continue
        print(f"  {kind:6} {e['file']}: median {e['median_s']:.2f} s {e['walls']}; server CPU median "
              f"{e['median_cpu_s']:.2f} s {e['cpu']}")
        for lines in e["log"][-1:]:
            for x in lines[-6:]:
                print(f"      | {x}")
    if "restart_first_page_s" in res:
        print(f"  restart with nothing changed: first page after {res['restart_first_page_s']} s")
    if "memory" in res:
        m = res["memory"]
        print(f"  memory over {m['edits']} more edits (server + workers): {m['after_10_mb']} MiB after the 10th, "
              f"{m['last_mb']} MiB after the last ({m['growth_from_10th']:+.1%})")
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
