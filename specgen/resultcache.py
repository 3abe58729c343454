"""Whole ``specgen check`` results, reused while nothing the check observed has changed.

A check is a pure function of three things: specgen's own code and the
libraries it runs on, the options that choose rules, and what it observed of
the tree. :class:`specgen.files.SpecFiles` logs every observation (each file's
SHA-256 or absence, each directory walk, each path-safety answer), so a result
can be stored with that log and reused exactly when :func:`specgen.files.replay`
sees the same on the tree as it is now. Replaying costs one read and hash of
every file the check read, which is the floor for knowing that nothing
changed; loading, validating and running the rules (the spec's ASL included)
are skipped. Any difference, a new file in a walked directory included, is a
miss and the check runs in full.

This module stays light (standard library and :mod:`specgen.diagnostics`
only): the point of a hit is not to import pydantic, the loader or the
interpreter at all.

Entries live in ``$SPECGEN_CACHE_DIR/check`` (or the user cache directory's ``specgen/check``),
never inside the spec root; each is one value encoded by :mod:`specgen.cache.codec` (data, never
code) behind a magic line and the SHA-256 of its payload, written atomically. A damaged or foreign entry is a
miss. ``SPECGEN_NO_CACHE=1`` or ``specgen check --no-cache`` turns reuse off.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from .cache import atomic_write, cache_dir, cache_enabled, codec, prune
from .diagnostics import Finding

MAGIC = b"specgen-check-result 2 " + codec.FORMAT + b"\n"
KEEP = 32  # entries beyond this many (other roots, other option sets) are pruned, oldest first
_PACKAGE = Path(__file__).resolve().parent
# libraries whose behaviour reaches findings (models, schemas, ASL parsing and arithmetic)
_DISTS = ("pydantic", "pydantic-core", "jsonschema", "lark", "numpy", "ml_dtypes")
_CODE: str | None = None


@dataclass(slots=True)
class CheckResult:
    """What a report needs besides the run time: findings, the rules that ran, figures, release."""

    findings: list[Finding]
    rules: list[tuple[str, str, str, str]]  # RuleInfo fields: id, severity value, description, help
    counts: dict[str, int]
    release: str | None
    content_sha256: str | None = None  # the manifest's declared content hash, printed whole by the text report
    log: dict[tuple[str, str], object] = field(default_factory=dict)


def _state(r: CheckResult) -> list:
    """The result as plain lists: the log's thousands of (kind, path) keys flattened, since a tuple costs
    the codec an extension each (decoding took 25 ms instead of 3 ms for the corpus' check)."""
    keys = [part for key in r.log for part in key]
    return [r.findings, [list(x) for x in r.rules], r.counts, r.release, r.content_sha256, keys, list(r.log.values())]


def _result(state: list) -> CheckResult:
    findings, rules, counts, release, content, keys, values = state
    it = iter(keys)
    log = dict(zip(zip(it, it), values))
    if len(log) != len(values) or len(keys) != 2 * len(values):
        raise ValueError("a check result's log does not pair up")
    return CheckResult(findings, [tuple(x) for x in rules], counts, release, content, log)  # type: ignore[misc]


codec.register(CheckResult, encode=_state, decode=_result)


def code_version() -> str:
    """Digest of every file of the specgen package and the versions of the libraries findings depend on."""
    global _CODE
    if _CODE is None:
        h = hashlib.sha256(MAGIC + sys.version.encode())
        for dist in _DISTS:
            h.update(f"\0{dist}={_installed_version(dist)}".encode())
        for dirpath, dirnames, filenames in os.walk(_PACKAGE):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith((".pyc", ".pyo")):
                    continue
                p = os.path.join(dirpath, name)
                with open(p, "rb") as fh:
                    h.update(b"\0" + os.path.relpath(p, _PACKAGE).encode() + b"\0" + fh.read())
        _CODE = h.hexdigest()
    return _CODE


def _installed_version(dist: str) -> str:
    """``name-version`` of a distribution's ``.dist-info`` beside its package, without importing either.

    ``importlib.metadata`` gives the same answer but costs more to import than a
    whole cached check; the dist-info folder name carries the version, and a
    reinstall renames it. Unknown layouts fall back to ``importlib.metadata``.
    """
    import importlib.util

    mod = dist.replace("-", "_")
    try:
        spec = importlib.util.find_spec(mod)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.origin:
        site = os.path.dirname(os.path.dirname(spec.origin))
        try:
            names = [n for n in os.listdir(site)
                     if n.endswith(".dist-info") and n.split("-", 1)[0].lower() == mod.lower()]
        except OSError:
            names = []
        if len(names) == 1:
            return names[0].removesuffix(".dist-info")
    from importlib import metadata
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "absent"


def entry_key(root: Path, options: Sequence[str]) -> str:
    """One entry per (code, resolved root, rule options)."""
    h = hashlib.sha256(code_version().encode())
    h.update(b"\0" + str(Path(root).resolve()).encode())
    for opt in options:
        h.update(b"\0" + opt.encode())
    return h.hexdigest()


def lookup(root: Path, options: Sequence[str]) -> CheckResult | None:
    """The stored result when every observation it was computed from still holds, else None."""
    if not cache_enabled():
        return None
    d = cache_dir("check")
    if d is None:
        return None
    path = d / f"{entry_key(root, options)}.entry"
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    head, _, payload = blob.partition(b"\n" + b"-" * 8 + b"\n")
    if not head.startswith(MAGIC) or head[len(MAGIC):].decode("ascii", "replace") != hashlib.sha256(payload).hexdigest():
        return None
    try:
        result = codec.decode(payload)
    except ValueError:  # a damaged or foreign entry is a miss, never a crash
        return None
    if not isinstance(result, CheckResult) or not isinstance(result.log, dict):
        return None
    from .files import replay

    return result if replay(Path(root), result.log) else None


def store(root: Path, options: Sequence[str], result: CheckResult) -> bool:
    """Write ``result`` atomically; False when the cache cannot be written (that only costs time)."""
    if not cache_enabled():
        return False
    d = cache_dir("check")
    if d is None:
        return False
    try:
        payload = codec.encode(result)
    except TypeError:  # a value of a class nobody registered: not stored
        return False
    blob = MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + b"-" * 8 + b"\n" + payload
    if not atomic_write(d / f"{entry_key(root, options)}.entry", blob):
        return False
    prune(d, "*.entry", KEEP)
    return True
