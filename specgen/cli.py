"""The ``specgen`` command line: argument parsing and exit codes, nothing more.

Exit codes are the same for every command: 0 success, 1 findings (or failed
tests), 2 usage errors or an unreadable root. Each command hands off to the
module that does the work.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Callable, Sequence, TextIO

from . import __version__
from .diagnostics import Severity

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
__path__ = [str(Path(__file__).with_suffix(""))]  # specgen/cli/: subcommand modules (build, serve) until cli/ replaces this file


def default_root() -> Path:
    """The bundled sample spec (``spec/`` beside the package), unless ``SPECGEN_ROOT`` says otherwise."""
    env = os.environ.get("SPECGEN_ROOT")
    if env:
        return Path(env)
    bundled = Path(__file__).resolve().parent.parent / "spec"
    return bundled if bundled.is_dir() else Path("spec")


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 itself; keep one path
        raise UsageError(f"{self.prog}: {message}")


def _root_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=None,
                   help="spec tree root (default: the bundled sample spec)")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="specgen", description="Documentation site and traceability check for ASL1 specifications.")
    p.add_argument("--version", action="version", version=f"specgen {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    v = sub.add_parser("validate", help="load and validate every record of a spec tree")
    _root_arg(v)
    v.add_argument("--format", choices=["text", "json"], default="text")

    c = sub.add_parser("check", help="traceability check for CI")
    _root_arg(c)
    c.add_argument("--format", choices=["text", "json", "junit", "sarif", "github"], default="text")
    c.add_argument("--output", type=Path, help="write the report to FILE instead of stdout")
    c.add_argument("--strict", action="store_true", help="warnings fail the check too")
    c.add_argument("--disable", action="append", default=[], metavar="RULE", help="skip a rule (repeatable)")
    c.add_argument("--only", action="append", default=[], metavar="RULE", help="run only these rules")
    c.add_argument("--no-examples", action="store_true", help="do not run the checked examples")
    c.add_argument("--no-cache", action="store_true",
                   help="run every rule even when nothing the last check observed has changed")

    t = sub.add_parser("trace", help="the traceability chain of one instruction, clause or test")
    _root_arg(t)
    t.add_argument("id", help="mnemonic, instruction/unit id, clause id, test id or source path")
    t.add_argument("--format", choices=["text", "json"], default="text")

    m = sub.add_parser("manifest", help="verify or regenerate the release manifest's hashes")
    _root_arg(m)
    g = m.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true")
    g.add_argument("--write", action="store_true")

    s = sub.add_parser("schema", help="write the JSON Schema of every model")
    s.add_argument("--out", type=Path, required=True)

    r = sub.add_parser("render", help="print one instruction's encoding, WaveJSON or SVG")
    _root_arg(r)
    r.add_argument("id")
    r.add_argument("--format", choices=["encoding", "wavedrom", "svg"], default="encoding")

    d = sub.add_parser("decode", help="name the instruction a word encodes")
    _root_arg(d)
    d.add_argument("word", help="hex (0x…) or binary (0b…)")
    d.add_argument("--width", type=int, choices=[16, 32, 48, 64])

    te = sub.add_parser("test", help="run AVS tests through the embedded ASL interpreter")
    _root_arg(te)
    te.add_argument("selectors", nargs="*", metavar="SELECTOR")
    te.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    te.add_argument("--format", choices=["text", "json", "junit"], default="text")
    te.add_argument("--profile", default="reference")

    ru = sub.add_parser("run", help="run a block program through the reference executor")
    _root_arg(ru)
    ru.add_argument("file", help="program file (.json with tiles, or .s text), or - for stdin")
    ru.add_argument("--format", choices=["table", "json"], default="table")
    ru.add_argument("--profile", default=None)
    ru.add_argument("--tiles", type=Path, default=None,
                    help="initial tiles (JSON) for a plain program file (default: FILE.tiles.json)")

    b = sub.add_parser("build", help="build the documentation site")
    _root_arg(b)
    b.add_argument("--out", type=Path, default=Path("build/site"))
    b.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    b.add_argument("--config", type=Path, default=None, help="mkdocs.yml to use")

    sv = sub.add_parser("serve", help="serve the site with live reload on spec edits")
    _root_arg(sv)
    sv.add_argument("--dev-addr", default="127.0.0.1:8000")
    sv.add_argument("--config", type=Path, default=None)
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except UsageError as e:
        print(str(e), file=err)
        return EXIT_USAGE
    except SystemExit as e:  # --help / --version
        return int(e.code or 0)
    if getattr(args, "root", "absent") is None:
        args.root = default_root()
    handler: Callable[[argparse.Namespace, TextIO, TextIO], int] = COMMANDS[args.command]
    try:
        return handler(args, out, err)
    except UsageError as e:
        print(f"specgen {args.command}: {e}", file=err)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return 130


def printable(text: str) -> str:
    """Spec text may carry terminal escapes: show control characters as ``\\xNN`` instead of sending them."""
    return "".join(ch if ch.isprintable() or ch == "\t" else f"\\x{ord(ch):02x}" for ch in text)


def _load(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from .loader import RootError, load_spec
    try:
        return load_spec(args.root)
    except RootError as e:
        raise UsageError(str(e)) from e


def cmd_validate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Load everything; print counts and every finding; 1 when any error."""
    import time
    t0 = time.perf_counter()
    spec = _load(args)
    elapsed = time.perf_counter() - t0
    findings = sorted(set(spec.findings), key=lambda f: f.sort_key)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if args.format == "json":
        json.dump({"root": str(args.root), "counts": spec.counts(),
                   "errors": len(errors), "findings": [f.to_json() for f in findings]},
                  out, indent=2, sort_keys=True)
        out.write("\n")
    else:
        for f in findings:
            print(printable(f.format()), file=out)
        counts = spec.counts()
        print(", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items()), file=out)
        print(f"{len(errors)} error(s), {len(findings) - len(errors)} other finding(s) "
              f"in {elapsed:.2f} s", file=out)
    return EXIT_FINDINGS if errors else EXIT_OK


def cmd_schema(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .schema import write_schemas
    for path in write_schemas(args.out):
        print(path, file=out)
    return EXIT_OK


def _lazy(module: str, func: str) -> Callable[[argparse.Namespace, TextIO, TextIO], int]:
    def run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
        import importlib
        return int(getattr(importlib.import_module(module, __package__), func)(args, out, err))
    return run


COMMANDS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "validate": cmd_validate,
    "schema": cmd_schema,
    "check": _lazy(".commands", "cmd_check"),
    "trace": _lazy(".trace", "cmd_trace"),
    "manifest": _lazy(".manifest", "cmd_manifest"),
    "render": _lazy(".commands", "cmd_render"),
    "decode": _lazy(".commands", "cmd_decode"),
    "test": _lazy(".commands", "cmd_test"),
    "run": _lazy(".commands", "cmd_run"),
    "build": _lazy(".cli.build", "run"),
    "serve": _lazy(".cli.serve", "run"),
}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
