"""Parsing many ASL texts on every core: the largest serial step of a cold run.

A cold ``specgen test`` parses the modules generated from the catalogs (4.6 MB of ASL on 0.58.3, three
seconds) before its workers start, and a cold check, run or build parses every unit for the index. The
parser is pure Python, so one process parses at one core's speed while the others wait. Here forked
helpers parse shares of the texts and send each module back in the cache's own encoding
(:mod:`specgen.cache.codec`: decoding is about eight times faster than parsing, and it never runs code
named by its bytes), while this process parses its own share.

What a helper could not parse, for whatever reason (a syntax error, a helper that died), is parsed
again here, so every error is this process's own exception, raised or returned exactly as a serial
parse gives it; a helper costs only time, never a different result. Helpers are forked only from a
process with one thread (a server's threads could hold locks a child would inherit) and only for
enough text to repay a fork. ``SPECGEN_PARSE_JOBS`` sets how many processes parse (default: the usable
cores, at most 4; 1 parses serially).
"""

from __future__ import annotations

import gc
import os
import struct
import tempfile
import threading
from typing import IO, Sequence

from ..cache import codec
from ..cores import usable_cores
from .ast import Module
from .errors import ASLError
from .parser import parse_source

MIN_BYTES = 256 * 1024  # below this a fork (and decoding) costs about what a second core saves
_HEAD = struct.Struct("<IQ")  # item index, blob length (0: not parsed there)

Parsed = tuple["Module | ASLError", "bytes | None"]


def parse_jobs() -> int:
    """How many processes parse: ``SPECGEN_PARSE_JOBS``, else the usable cores (at most 4)."""
    try:
        return max(1, int(os.environ["SPECGEN_PARSE_JOBS"]))
    except (KeyError, ValueError):
        pass
    return max(1, min(4, usable_cores()))


def parse_many(sources: Sequence[tuple[str, str]], jobs: int | None = None) -> list[Parsed]:
    """Each ``(text, path)`` parsed: ``(module, its encoding when a helper made one)``, or ``(ASLError, None)``.

    The encoding lets a caller store the module without encoding it again. Any exception other than
    an ASLError propagates as from :func:`parse_source`, after every helper has ended.
    """
    n = parse_jobs() if jobs is None else max(1, jobs)
    if (n < 2 or len(sources) < 2 or sum(len(t) for t, _ in sources) < MIN_BYTES
            or threading.active_count() != 1 or not hasattr(os, "fork")):
        return [_parse_here(t, p) for t, p in sources]
    shares = _shares([len(t) for t, _ in sources], min(n, len(sources)))
    mine = list(shares[0])
    helpers: list[tuple[int, IO[bytes], list[int]]] = []
    try:
        for share in shares[1:]:
            try:
                pid, fh = _fork(sources, share)
            except OSError:  # no process or temporary file to be had: this share is parsed here
                mine.extend(share)
                continue
            helpers.append((pid, fh, share))
        out: dict[int, Parsed] = {i: _parse_here(*sources[i]) for i in mine}
        while helpers:
            pid, fh, share = helpers[0]
            got = _collect(pid, fh)
            helpers.pop(0)
            for i in share:
                mod = got.get(i)
                out[i] = mod if mod is not None else _parse_here(*sources[i])
    finally:
        for pid, fh, _share in helpers:  # an exception here: end the helpers before it propagates
            _end(pid, fh)
    return [out[i] for i in range(len(sources))]


def _parse_here(text: str, path: str) -> Parsed:
    try:
        return parse_source(text, path), None
    except ASLError as exc:
        return exc, None


def _shares(sizes: list[int], n: int) -> list[list[int]]:
    """Indices in ``n`` shares of about equal text, largest first; the first is this process's."""
    shares: list[list[int]] = [[] for _ in range(n)]
    load = [0] * n
    for i in sorted(range(len(sizes)), key=lambda k: -sizes[k]):
        k = load.index(min(load))
        shares[k].append(i)
        load[k] += sizes[i]
    return shares


def _fork(sources: Sequence[tuple[str, str]], share: list[int]) -> tuple[int, IO[bytes]]:
    """A helper parsing ``share`` into an unnamed temporary file (a pipe would block it until read)."""
    fh = tempfile.TemporaryFile()
    try:
        pid = os.fork()
    except OSError:
        fh.close()
        raise
    if pid != 0:
        return pid, fh
    code = 1
    try:
        from ..workers import forked_worker
        forked_worker()
        gc.disable()  # new trees only, no cycles
        for i in share:
            text, path = sources[i]
            try:
                blob = codec.encode(parse_source(text, path))
            except BaseException:  # noqa: BLE001 - parsed again by the parent, which raises it as its own
                blob = b""
            fh.write(_HEAD.pack(i, len(blob)) + blob)
        fh.flush()
        code = 0
    finally:
        os._exit(code)


def _collect(pid: int, fh: IO[bytes]) -> dict[int, Parsed]:
    """What one helper parsed (an empty map when it failed: its share is parsed here)."""
    _, status = os.waitpid(pid, 0)
    got: dict[int, Parsed] = {}
    try:
        if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
            return got
        fh.seek(0)
        data = fh.read()
    finally:
        fh.close()
    pos = 0
    while pos + _HEAD.size <= len(data):
        i, size = _HEAD.unpack_from(data, pos)
        pos += _HEAD.size
        blob = data[pos:pos + size]
        pos += size
        if size:
            try:
                mod = codec.decode(blob)
            except ValueError:
                continue
            if isinstance(mod, Module):
                got[i] = (mod, blob)
    return got


def _end(pid: int, fh: IO[bytes]) -> None:
    import signal
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    fh.close()
