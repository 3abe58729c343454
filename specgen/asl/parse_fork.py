"""Parsing many ASL texts on every core: the largest serial step of a cold run.

A cold ``specgen test`` parses the modules generated from the catalogs (4.6 MB of ASL on 0.58.3, three
seconds) before its workers start, and a cold check, run or build parses every unit for the index. The
parser is pure Python, so one process parses at one core's speed while the others wait. Here forked
helpers parse shares of the texts and send each module back in the cache's own encoding
(:mod:`specgen.cache.codec`: it never runs code named by its bytes), while this process parses its own
share. Decoding is only two to three times faster than parsing (0.58.3's units: 0.25 s to parse, 0.11 s to
decode; its generated modules 1.0 s and 0.34 s), so a caller that needs only a summary of each module now
(the index) has the helpers summarise too and decodes nothing (:func:`summarise_many`): a cold
``specgen run`` of 0.58.3 went from 2.09 to 1.80 s.

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
from typing import IO, Callable, Sequence

from ..cache import codec
from ..cores import usable_cores
from .ast import Module
from .errors import ASLError
from .parser import parse_source

MIN_BYTES = 256 * 1024  # below this a fork (and decoding) costs about what a second core saves
_HEAD = struct.Struct("<IQQ")  # item index, module blob length (0: not parsed there), summary blob length

Parsed = tuple["Module | ASLError", "bytes | None"]
# (the module, None for a helper's; its encoding; its summary), or (ASLError, None, None)
Summarised = tuple["Module | ASLError | None", "bytes | None", object]


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
    return [(mod, blob) for mod, blob, _ in _parse_all(sources, jobs, None)]  # type: ignore[misc]


def summarise_many(sources: Sequence[tuple[str, str]], summarise: Callable[[Module], object],
                   jobs: int | None = None) -> list[Summarised]:
    """Each ``(text, path)`` parsed, encoded and summarised by the process that parsed it:
    ``(module, encoding, summarise(module))``, or ``(ASLError, None, None)``.

    For a caller that keeps the encodings (the index's module pack) and needs only a summary of each module
    now: a helper's module is not decoded here (None; decoding it costs about half its parse), and this
    process encodes and summarises its own share before it waits for the helpers, so neither waits for the
    other's bookkeeping. A summary must be a value the cache's codec encodes.
    """
    return _parse_all(sources, jobs, summarise)


def _parse_all(sources: Sequence[tuple[str, str]], jobs: int | None,
               summarise: Callable[[Module], object] | None) -> list[Summarised]:
    n = parse_jobs() if jobs is None else max(1, jobs)
    if (n < 2 or len(sources) < 2 or sum(len(t) for t, _ in sources) < MIN_BYTES
            or threading.active_count() != 1 or not hasattr(os, "fork")):
        return [_parse_here(t, p, summarise) for t, p in sources]
    shares = _shares([len(t) for t, _ in sources], min(n, len(sources)))
    mine = list(shares[0])
    helpers: list[tuple[int, IO[bytes], list[int]]] = []
    try:
        for share in shares[1:]:
            try:
                pid, fh = _fork(sources, share, summarise)
            except OSError:  # no process or temporary file to be had: this share is parsed here
                mine.extend(share)
                continue
            helpers.append((pid, fh, share))
        out: dict[int, Summarised] = {i: _parse_here(*sources[i], summarise) for i in mine}
        while helpers:
            pid, fh, share = helpers[0]
            got = _collect(pid, fh, decode=summarise is None)
            helpers.pop(0)
            for i in share:
                item = got.get(i)
                out[i] = item if item is not None else _parse_here(*sources[i], summarise)
    finally:
        for pid, fh, _share in helpers:  # an exception here: end the helpers before it propagates
            _end(pid, fh)
    return [out[i] for i in range(len(sources))]


def _parse_here(text: str, path: str, summarise: Callable[[Module], object] | None) -> Summarised:
    try:
        mod = parse_source(text, path)
    except ASLError as exc:
        return exc, None, None
    if summarise is None:
        return mod, None, None
    return mod, codec.encode(mod), summarise(mod)


def _shares(sizes: list[int], n: int) -> list[list[int]]:
    """Indices in ``n`` shares of about equal text, largest first; the first is this process's."""
    shares: list[list[int]] = [[] for _ in range(n)]
    load = [0] * n
    for i in sorted(range(len(sizes)), key=lambda k: -sizes[k]):
        k = load.index(min(load))
        shares[k].append(i)
        load[k] += sizes[i]
    return shares


def _fork(sources: Sequence[tuple[str, str]], share: list[int],
          summarise: Callable[[Module], object] | None) -> tuple[int, IO[bytes]]:
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
                mod = parse_source(text, path)
                blob = codec.encode(mod)
                extra = codec.encode(summarise(mod)) if summarise is not None else b""
            except BaseException:  # noqa: BLE001 - parsed again by the parent, which raises it as its own
                blob = extra = b""
            fh.write(_HEAD.pack(i, len(blob), len(extra)) + blob + extra)
        fh.flush()
        code = 0
    finally:
        os._exit(code)


def _collect(pid: int, fh: IO[bytes], decode: bool) -> dict[int, Summarised]:
    """What one helper parsed (an empty map when it failed: its share is parsed here); ``decode``: the modules
    decoded (else None, and the summaries decoded)."""
    _, status = os.waitpid(pid, 0)
    got: dict[int, Summarised] = {}
    try:
        if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
            return got
        fh.seek(0)
        data = fh.read()
    finally:
        fh.close()
    pos = 0
    while pos + _HEAD.size <= len(data):
        i, size, extra = _HEAD.unpack_from(data, pos)
        pos += _HEAD.size
        blob = data[pos:pos + size]
        summary_blob = data[pos + size:pos + size + extra]
        pos += size + extra
        if not size:
            continue
        try:
            if decode:
                mod = codec.decode(blob)
                if isinstance(mod, Module):
                    got[i] = (mod, blob, None)
            elif extra:
                got[i] = (None, blob, codec.decode(summary_blob))
        except ValueError:
            continue
    return got


def _end(pid: int, fh: IO[bytes]) -> None:
    import signal
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    fh.close()
