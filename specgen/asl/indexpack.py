"""The ASL index's cache entries as plain lists: what a warm run decodes first, so it must be cheap.

The index (name -> where each is defined, what each declaration uses, its digest) and the per-file
summaries hold tens of thousands of small tuples and frozensets. Through the generic codec each is
an extension of its own (the index decoded in 78 ms against pickle's 26 ms on the corpus); as flat
lists of strings and integers it is one MessagePack read and a few comprehensions. A state that does
not have the expected shape raises, and the caller treats it as a miss.
"""

from __future__ import annotations

from typing import Any

Loc = tuple[str, int, int]
Key = tuple[int, int]


def _pairs(flat: list) -> list[Key]:
    it = iter(flat)
    return list(zip(it, it))


def index_state(defs: dict[str, list[Loc]], refs: dict[Key, frozenset[str]], errors: list[tuple[str, int, int, str]],
                digests: dict[Key, str]) -> list[Any]:
    """The index as lists: each name's locations flattened, the (file, decl) keys flattened."""
    return [{name: [x for loc in locs for x in loc] for name, locs in defs.items()},
            [x for key in refs for x in key], [sorted(v) for v in refs.values()],
            [list(e) for e in errors],
            [x for key in digests for x in key], list(digests.values())]


def index_of(state: Any) -> tuple[dict[str, list[Loc]], dict[Key, frozenset[str]], list[tuple[str, int, int, str]],
                                  dict[Key, str]]:
    """The index :func:`index_state` wrote; ValueError (or a TypeError) when ``state`` is not one."""
    flat_defs, ref_keys, ref_vals, errors, digest_keys, digest_vals = state
    defs = {name: [(v[i], v[i + 1], v[i + 2]) for i in range(0, len(v), 3)] for name, v in flat_defs.items()}
    rkeys, dkeys = _pairs(ref_keys), _pairs(digest_keys)
    if len(rkeys) != len(ref_vals) or len(dkeys) != len(digest_vals):
        raise ValueError("index entry keys and values do not pair up")
    refs = dict(zip(rkeys, map(frozenset, ref_vals)))
    return defs, refs, [tuple(e) for e in errors], dict(zip(dkeys, digest_vals))  # type: ignore[misc]


def summaries_state(summaries: dict[str, tuple]) -> dict[str, list]:
    """Per file: its parse error ``[line, col, message]``, or per declaration ``[[name, kind, …], [used…], digest]``."""
    out: dict[str, list] = {}
    for key, s in summaries.items():
        if s and isinstance(s[0], int):
            out[key] = list(s)
        else:
            out[key] = [[[x for entry in entries for x in entry], sorted(used), digest] for entries, used, digest in s]
    return out


def summaries_of(state: Any) -> dict[str, tuple]:
    """The summaries :func:`summaries_state` wrote; raises when ``state`` is not one."""
    out: dict[str, tuple] = {}
    for key, s in state.items():
        if s and type(s[0]) is int:
            line, col, message = s
            out[key] = (line, col, message)
        else:
            out[key] = tuple((tuple(_pairs(flat)), frozenset(used), digest) for flat, used, digest in s)
    return out


__all__ = ["index_of", "index_state", "summaries_of", "summaries_state"]
