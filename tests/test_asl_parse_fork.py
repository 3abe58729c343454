"""Parsing on every core (specgen/asl/parse_fork.py): the modules and errors a serial parse gives, whatever
the helpers do."""

from __future__ import annotations

import os

import pytest

from specgen.asl import parse_fork
from specgen.asl.errors import ASLError
from specgen.cache import codec

UNIT = "func F{n}(x : integer) => integer\nbegin\n    return x + {n};\nend;\n"


def _sources() -> list[tuple[str, str]]:
    good = [("".join(UNIT.format(n=i * 100 + k) for k in range(40 + i)), f"g{i}.asl") for i in range(12)]
    bad = [("func Broken( => integer\nbegin\nend;\n", "bad.asl")]
    return good[:6] + bad + good[6:]


def _serial(sources: list[tuple[str, str]]) -> list:
    return [codec.encode(m) if not isinstance(m, ASLError) else str(m)
            for m, _ in parse_fork.parse_many(sources, jobs=1)]


def test_helpers_give_the_serial_modules_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_fork, "MIN_BYTES", 0)
    sources = _sources()
    parsed = parse_fork.parse_many(sources, jobs=3)
    assert [codec.encode(m) if not isinstance(m, ASLError) else str(m) for m, _ in parsed] == _serial(sources)
    assert isinstance(parsed[6][0], ASLError) and str(parsed[6][0]).startswith("bad.asl:1:")
    blobs = [b for _, b in parsed if b is not None]
    assert blobs, "no helper parsed anything"  # the helpers' shares came back encoded
    assert all(codec.encode(m) == b for m, b in parsed if b is not None)


def test_a_helper_that_dies_costs_only_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_fork, "MIN_BYTES", 0)
    parent = os.getpid()
    real = codec.encode

    def dying(value: object) -> bytes:
        if os.getpid() != parent:
            os._exit(3)  # a helper killed mid-share
        return real(value)
    monkeypatch.setattr(parse_fork.codec, "encode", dying)
    sources = _sources()
    parsed = parse_fork.parse_many(sources, jobs=2)
    assert all(b is None for _, b in parsed)  # everything parsed here
    monkeypatch.setattr(parse_fork.codec, "encode", real)
    assert [codec.encode(m) if not isinstance(m, ASLError) else str(m) for m, _ in parsed] == _serial(sources)


def test_small_inputs_and_threads_parse_serially(monkeypatch: pytest.MonkeyPatch) -> None:
    forks: list[int] = []
    monkeypatch.setattr(parse_fork.os, "fork", lambda: forks.append(1) or 0)
    parse_fork.parse_many(_sources(), jobs=4)  # a few KB: below MIN_BYTES
    monkeypatch.setattr(parse_fork, "MIN_BYTES", 0)
    monkeypatch.setattr(parse_fork.threading, "active_count", lambda: 2)  # a server's threads
    parse_fork.parse_many(_sources(), jobs=4)
    assert forks == []
    monkeypatch.setenv("SPECGEN_PARSE_JOBS", "1")
    assert parse_fork.parse_jobs() == 1


def test_no_process_to_be_had_parses_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_fork, "MIN_BYTES", 0)

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")  # fork's EAGAIN
    monkeypatch.setattr(parse_fork.os, "fork", refused)
    sources = _sources()
    parsed = parse_fork.parse_many(sources, jobs=3)
    assert [codec.encode(m) if not isinstance(m, ASLError) else str(m) for m, _ in parsed] == _serial(sources)


def _decls(mod: object) -> tuple:
    return tuple(d.name for d in mod.decls)  # type: ignore[attr-defined]


def test_summarised_helpers_give_the_serial_encodings_and_summaries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_fork, "MIN_BYTES", 0)
    sources = _sources()
    serial = parse_fork.summarise_many(sources, _decls, jobs=1)
    parsed = parse_fork.summarise_many(sources, _decls, jobs=3)
    assert len(parsed) == len(serial) == len(sources)
    assert isinstance(parsed[6][0], ASLError) and parsed[6][1:] == (None, None)
    for (mod, blob, summary), (smod, sblob, ssummary) in zip(parsed, serial):
        if isinstance(smod, ASLError):
            continue
        assert blob == sblob == codec.encode(smod)  # every module encoded, by whichever process parsed it
        assert summary == ssummary == _decls(smod)
    here = [m for m, _, _ in parsed if m is not None and not isinstance(m, ASLError)]
    assert 0 < len(here) < len(sources) - 1  # a helper's modules are not decoded here


def test_a_summarising_helper_that_dies_costs_only_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_fork, "MIN_BYTES", 0)
    parent = os.getpid()

    def summary(mod: object) -> tuple:
        if os.getpid() != parent:
            os._exit(3)
        return _decls(mod)
    parsed = parse_fork.summarise_many(_sources(), summary, jobs=2)
    assert all(m is not None for m, _, _ in parsed)  # everything parsed (and summarised) here
    assert [s for _, _, s in parsed] == [s for _, _, s in parse_fork.summarise_many(_sources(), _decls, jobs=1)]
