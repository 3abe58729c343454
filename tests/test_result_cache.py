"""The whole-check result cache: a repeat is answered from it, and only while nothing observed changed.

Every test uses its own cache directory. A change of any kind the check can
see (a byte, a new file in a walked directory, a deleted file, a file turned
into a link) must be a miss that reports the change; a damaged entry must be
a miss, never a crash; and the observation log must cover every file and
directory the check opens (an audit hook watches the real system calls).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest

from specgen.cli import main

REUSED = "its result was reused"
TADD = "asl/tile/elementwise-tile-tile/arithmetic/TADD.asl"


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("SPECGEN_CACHE_DIR", str(d))
    monkeypatch.delenv("SPECGEN_NO_CACHE", raising=False)
    return d


def check(root: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    rc = main(["check", "--root", str(root), *args], out=out, err=io.StringIO())
    return rc, out.getvalue()


def findings(report: str) -> list[tuple[str, str, str]]:
    return [(f["rule"], f["path"], f["subject"]) for f in json.loads(report)["findings"]]


def test_repeat_is_reused_and_byte_identical(bundled_copy: Path, own_cache: Path) -> None:
    first = check(bundled_copy, "--format", "json")
    assert list((own_cache / "check").glob("*.entry")), "a finished check stores its result"
    again = check(bundled_copy, "--format", "json")
    fresh = check(bundled_copy, "--format", "json", "--no-cache")
    assert first == again == fresh
    rc, text = check(bundled_copy)
    assert rc == 0 and REUSED in text.splitlines()[-1]
    assert REUSED not in check(bundled_copy, "--no-cache")[1]


def test_rule_options_have_their_own_entries(bundled_copy: Path) -> None:
    check(bundled_copy, "--format", "json")
    only = json.loads(check(bundled_copy, "--format", "json", "--only", "manifest-hash-mismatch")[1])
    assert [r["id"] for r in only["tool"]["rules"]] == ["manifest-hash-mismatch"]
    full = json.loads(check(bundled_copy, "--format", "json")[1])
    assert len(full["tool"]["rules"]) > 1


def _append_byte(root: Path) -> tuple[str, str, str]:
    with open(root / TADD, "a") as fh:
        fh.write("\n")
    return ("manifest-hash-mismatch", TADD, TADD)


def _new_walked_file(root: Path) -> tuple[str, str, str]:
    rel = "asl/tile/elementwise-tile-tile/arithmetic/NOTES.txt"
    (root / rel).write_text("not listed in the manifest\n")
    return ("manifest-unlisted-file", rel, rel)


def _deleted_adr(root: Path) -> tuple[str, str, str]:
    rel = "docs/status/decisions/0004-block-executor-entry-points.md"
    (root / rel).unlink()
    # ADR-0005 supersedes it, so the finding is at the ADR that names it
    return ("adr-missing", "docs/status/decisions/0005-command-words-through-the-catalogs.md", "ADR-0004")


def _link_outside(root: Path) -> tuple[str, str, str]:
    outside = root.parent / "elsewhere.asl"
    outside.write_bytes((root / TADD).read_bytes())
    (root / TADD).unlink()
    (root / TADD).symlink_to(outside)
    return ("path-outside-root", TADD, "")


@pytest.mark.parametrize("change", [_append_byte, _new_walked_file, _deleted_adr, _link_outside],
                         ids=lambda f: f.__name__.strip("_"))
def test_any_observed_change_is_a_miss(bundled_copy: Path, change) -> None:  # type: ignore[no-untyped-def]
    rc, _ = check(bundled_copy, "--format", "json")
    assert rc == 0
    rule, path, subject = change(bundled_copy)
    rc, text = check(bundled_copy)
    assert rc == 1 and REUSED not in text.splitlines()[-1]
    rc, after = check(bundled_copy, "--format", "json")
    assert rc == 1 and after == check(bundled_copy, "--format", "json", "--no-cache")[1]
    got = [f for f in findings(after) if f[0] == rule and f[1] == path]
    assert got and (not subject or any(f[2] == subject for f in got)), findings(after)


def test_unobserved_file_keeps_the_result(bundled_copy: Path) -> None:
    check(bundled_copy)
    (bundled_copy / "README.md").write_text("prose the check does not read\n")
    assert REUSED in check(bundled_copy)[1]


def test_damaged_entries_are_misses(bundled_copy: Path, own_cache: Path) -> None:
    rc, want = check(bundled_copy, "--format", "json")
    for n, damage in enumerate([b"", b"garbage", None]):
        for p in (own_cache / "check").glob("*.entry"):
            blob = p.read_bytes()
            p.write_bytes(blob[:-7] + b"\x00" * 7 if damage is None else damage)
        assert check(bundled_copy, "--format", "json") == (rc, want), n
        assert REUSED in check(bundled_copy)[1]


def test_the_log_covers_every_open_and_listing(bundled_copy: Path, tmp_path: Path) -> None:
    """Audit hook on the real calls: each file opened and each directory listed under the root is in the log."""
    from specgen.check.compute import compute

    root = str(bundled_copy.resolve())
    opened: set[str] = set()
    listed: set[str] = set()
    active = [True]

    def hook(event: str, args: tuple) -> None:
        if not active[0] or not args:
            return
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            opened.add(os.path.realpath(os.fsdecode(args[0])))
        elif event in ("os.scandir", "os.listdir") and isinstance(args[0], (str, bytes, os.PathLike)):
            listed.add(os.path.realpath(os.fsdecode(args[0])))

    os.environ["SPECGEN_NO_CACHE"] = "1"  # cold: every loader cache path runs, nothing is served
    sys.addaudithook(hook)  # hooks cannot be removed; this one switches itself off below
    try:
        result = compute(bundled_copy, [], [])
    finally:
        active[0] = False
        del os.environ["SPECGEN_NO_CACHE"]
    inside = root + os.sep
    logged = {os.path.join(root, arg) for kind, arg in result.log if kind in ("file", "exists", "present")}
    walks = [(os.path.join(root, arg.partition("\0")[0]).rstrip("/"), arg.partition("\0")[2])
             for kind, arg in result.log if kind == "walk"]

    def walked(p: str, suffix_of: str | None = None) -> bool:
        return any((p == d or p.startswith(d + os.sep)) and (suffix_of is None or p.endswith(sfx))
                   for d, sfx in walks)

    opened_inside = {p for p in opened if p.startswith(inside)}
    assert any(p.endswith(TADD) for p in opened_inside)  # the hook sees the reads
    # a file that was read must be logged (its bytes matter); one that was looked for and is
    # absent must lie where a logged walk would list it, were it created
    assert sorted(p for p in opened_inside if os.path.exists(p) and p not in logged) == []
    assert sorted(p for p in opened_inside if not os.path.exists(p) and p not in logged
                  and not walked(p, suffix_of=p)) == []
    # the root itself is listed once, as the loader's "is it readable" probe; its entries are not used
    assert sorted(d for d in listed if d.startswith(inside) and not walked(d)) == []
