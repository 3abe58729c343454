"""The one owner of incremental state: a revisioned workspace, in the style of salsa and rust-analyzer.

A process (a command, a plugin build, a server) works in one :class:`Workspace`. Everything specgen
remembers between two computations lives in it, so nothing outlives it: a server holds its workspace
for its life, a command's dies with the process, a test makes a fresh one (:func:`fresh`).

Vocabulary (``docs-internal/architecture.md``, "The workspace"):

* **revision**: an integer the workspace advances whenever an input changes value. Every memo is
  stamped with the revision it was last *verified* in and the revision its value last *changed* in.
* **input**: a value set from outside (:meth:`Workspace.set_input`): a spec file's digest, the loaded
  graph, the theme's digest. Setting an input to an equal value is no change and no new revision.
* **durability**: how often an input changes (:class:`Durability`): the spec's files ``LOW`` (an author
  edits them), the configuration ``MEDIUM``, the theme, templates and specgen's own code ``HIGH``. A
  memo that read only ``HIGH`` inputs is verified in O(1) after an edit of a spec file: the workspace
  knows the last revision each durability changed in.
* **query**: a derived fact (:class:`Query`), a pure function of the workspace and one hashable
  argument, memoised per revision. While it runs, every input and query it reads is recorded as its
  dependency.
* **cutoff** (early cutoff): a query recomputed to an *equal* value keeps the revision its value last
  changed in, so the queries that read it are not recomputed (a prose edit recomputes the vocabulary,
  which comes out equal, and nothing that read the vocabulary runs again).

Verification of a memo in a new revision (salsa's "red-green"): verified already, nothing of its
durability changed since, or every dependency verified with no change after the memo's verification;
otherwise it is recomputed (and cut off if equal).

Besides queries the workspace owns the process's *tables* (:meth:`Workspace.table`, :func:`memoised`):
content-keyed memos of pure functions (a highlighted listing by its text, a parsed module by its
source), which used to be module-level dicts and ``functools.lru_cache``; and *per-object* memos
(:meth:`Workspace.per`), which used to be dicts keyed by ``id(spec)``. ``tests/test_architecture.py``
forbids module-level caches anywhere else.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
import weakref
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


class Durability(IntEnum):
    """How often an input changes: the lower, the more often."""

    LOW = 0  # the spec's files
    MEDIUM = 1  # the configuration (specification.toml, mkdocs.yml, options)
    HIGH = 2  # the theme, templates, specgen's own code


class CycleError(RuntimeError):
    """A query read itself (directly or through others): a bug in the queries, never input."""


@dataclass(slots=True)
class _Input:
    value: Any
    durability: Durability
    changed_at: int
    gone: bool = False  # removed by :meth:`Workspace.set_inputs` (read as None; a change when set again)


@dataclass(slots=True)
class _Memo:
    value: Any
    deps: tuple[tuple[str, Any], ...]  # ("input", name) or ("query", (Query, arg))
    durability: Durability  # the lowest durability of what it read
    verified_at: int
    changed_at: int


@dataclass(slots=True)
class _Frame:
    deps: list[tuple[str, Any]] = field(default_factory=list)
    seen: set[Any] = field(default_factory=set)
    durability: Durability = Durability.HIGH
    changed_at: int = 0

    def add(self, kind: str, key: Any, durability: Durability, changed_at: int) -> None:
        if (kind, key) not in self.seen:
            self.seen.add((kind, key))
            self.deps.append((kind, key))
        self.durability = min(self.durability, durability)
        self.changed_at = max(self.changed_at, changed_at)


class Query(Generic[T]):
    """A derived fact: ``compute(ws, arg)`` memoised per revision with early cutoff.

    Declared once next to its function (``PLAN = Query("plan", compute)``) and called as ``PLAN(ws, arg)``
    or ``PLAN(arg)`` (the current workspace). ``equal`` decides the cutoff (``==`` unless given).
    """

    __slots__ = ("name", "compute", "equal")

    def __init__(self, name: str, compute: Callable[["Workspace", Any], T],
                 equal: Callable[[T, T], bool] | None = None) -> None:
        self.name = name
        self.compute = compute
        self.equal = equal

    def __repr__(self) -> str:
        return f"Query({self.name})"

    def __call__(self, *args: Any) -> T:
        if args and isinstance(args[0], Workspace):
            ws, rest = args[0], args[1:]
        else:
            ws, rest = current(), args
        return ws.query(self, rest[0] if rest else None)


class Workspace:
    """Inputs, query memos and tables of one process or one server (see the module docstring)."""

    def __init__(self) -> None:
        self.revision = 1
        self._inputs: dict[str, _Input] = {}
        self._memos: dict[tuple[Query[Any], Any], _Memo] = {}
        self._changed: dict[Durability, int] = {d: 1 for d in Durability}  # last revision each durability changed
        self._stack: list[_Frame] = []
        self._active: set[tuple[Query[Any], Any]] = set()
        self._tables: dict[str, Any] = {}
        self._owned: OrderedDict[int, tuple[object, dict[str, Any]]] = OrderedDict()
        self.lock = threading.RLock()
        self.recomputed = 0  # queries computed (first time or changed inputs)
        self.computed: Counter[str] = Counter()  # the same, by query name
        self.cut_off = 0  # of those, recomputed to an equal value
        # a workspace that loads its trees again and again (a server, its background workers) keeps what the
        # confined reader read (specgen.files): a command that loads once would only hold the bytes longer
        self.long_lived = False
        # cache files a server writes once it settles, not inside the rebuild an author waits for (None: at once)
        self.deferred: dict[str, Callable[[], None]] | None = None

    # -- inputs ----------------------------------------------------------------------------
    def set_input(self, name: str, value: Any, durability: Durability = Durability.LOW) -> bool:
        """Set an input; a new revision when its value changed (True), none when it is equal."""
        with self.lock:
            old = self._inputs.get(name)
            if old is not None and not old.gone and old.durability == durability and _same(old.value, value):
                return False
            self.revision += 1
            self._inputs[name] = _Input(value, durability, self.revision)
            for d in Durability:
                if d <= durability:
                    self._changed[d] = self.revision
            return True

    def set_inputs(self, values: dict[str, Any], durability: Durability = Durability.LOW, *,
                   prefix: str | None = None) -> bool:
        """Set many inputs in one revision; with ``prefix``, inputs under it not in ``values`` are removed."""
        with self.lock:
            inputs = self._inputs
            changed = [k for k, v in values.items() if k not in inputs or inputs[k].gone
                       or not _same(inputs[k].value, v) or inputs[k].durability != durability]
            gone = [k for k, i in inputs.items() if not i.gone and k.startswith(prefix) and k not in values] \
                if prefix is not None else []
            if not changed and not gone:
                return False
            self.revision += 1
            for k in changed:
                self._inputs[k] = _Input(values[k], durability, self.revision)
            for k in gone:  # a removed input reads as None, changed now
                self._inputs[k] = _Input(None, durability, self.revision, True)
            for d in Durability:
                if d <= durability:
                    self._changed[d] = self.revision
            return True

    def input(self, name: str, default: Any = None) -> Any:
        """An input's value, recorded as a dependency of the query running now."""
        with self.lock:
            got = self._inputs.get(name)
            if got is None:  # an input never set: read as the default, a change when it is set
                got = self._inputs[name] = _Input(default, Durability.LOW, 0)
            if self._stack:
                self._stack[-1].add("input", name, got.durability, got.changed_at)
            return got.value

    def changed_since(self, prefix: str, revision: int) -> set[str]:
        """The names under ``prefix`` (the prefix taken off) of the inputs set or removed after ``revision``:
        what a caller that holds results of its own (the render's pages) asks instead of keeping the last
        values to compare."""
        return self.changed_under((prefix,), revision)[prefix]

    def changed_under(self, prefixes: tuple[str, ...], revision: int) -> dict[str, set[str]]:
        """:meth:`changed_since` of several prefixes in one pass over the inputs (the render asks three)."""
        with self.lock:
            out: dict[str, set[str]] = {p: set() for p in prefixes}
            for k, i in self._inputs.items():
                if i.changed_at > revision:
                    for p in prefixes:
                        if k.startswith(p):
                            out[p].add(k[len(p):])
            return out

    def drop_inputs(self, prefix: str) -> None:
        """Remove the inputs under ``prefix`` whose holder is gone (no query reads them: no new revision)."""
        with self.lock:
            for k in [k for k in self._inputs if k.startswith(prefix)]:
                del self._inputs[k]

    def hold(self, owner: object, prefix: str, arg_matches: Callable[[Any], bool] | None = None) -> None:
        """Inputs under ``prefix`` (and the memos whose argument matches) belong to ``owner``: they leave the
        workspace when it is collected (a plugin, a release's render cache). Not at exit: a process that ends
        drops everything at once."""
        weakref.finalize(owner, self._release, prefix, arg_matches).atexit = False

    def _release(self, prefix: str, arg_matches: Callable[[Any], bool] | None) -> None:
        self.drop_inputs(prefix)
        if arg_matches is not None:
            self.forget(arg_matches)

    def peek(self, name: str, default: Any = None) -> Any:
        """An input's value, not recorded as a dependency: for a query whose recorded reads are already a
        complete key of what it takes from this input (a page's search key and the page it was taken from)."""
        got = self._inputs.get(name)
        return default if got is None else got.value

    # -- queries ---------------------------------------------------------------------------
    def query(self, q: Query[T], arg: Any = None) -> T:
        """The value of ``q(arg)`` in this revision (see the module docstring for when it is recomputed)."""
        with self.lock:
            key = (q, arg)
            memo = self._fresh(key)
            if self._stack:
                self._stack[-1].add("query", key, memo.durability, memo.changed_at)
            return memo.value  # type: ignore[no-any-return]

    def changed_at(self, q: Query[Any], arg: Any = None) -> int:
        """The revision the value of ``q(arg)`` last changed in (brought up to date first)."""
        with self.lock:
            return self._fresh((q, arg)).changed_at

    def _fresh(self, key: tuple[Query[Any], Any]) -> _Memo:
        memo = self._memos.get(key)
        if memo is not None and (memo.verified_at == self.revision or self._verify(memo)):
            memo.verified_at = self.revision
            return memo
        return self._execute(key, memo)

    def _verify(self, memo: _Memo) -> bool:
        if self._changed[memo.durability] <= memo.verified_at:
            return True  # nothing of its durability changed since it was verified
        for kind, dep in memo.deps:
            if kind == "input":
                got = self._inputs.get(dep)
                if got is None or got.changed_at > memo.verified_at:
                    return False
            else:
                if dep in self._active:
                    return False
                if self._fresh(dep).changed_at > memo.verified_at:
                    return False
        return True

    def _execute(self, key: tuple[Query[Any], Any], old: _Memo | None) -> _Memo:
        if key in self._active:
            raise CycleError(f"query {key[0].name}({key[1]!r}) reads itself")
        self._active.add(key)
        frame = _Frame()
        self._stack.append(frame)
        try:
            value = key[0].compute(self, key[1])
        finally:
            self._stack.pop()
            self._active.discard(key)
        self.recomputed += 1
        self.computed[key[0].name] += 1
        equal = key[0].equal or _same
        if old is not None and equal(old.value, value):
            self.cut_off += 1
            changed_at, value = old.changed_at, old.value  # early cutoff: dependents stay valid
        else:
            changed_at = self.revision
        memo = _Memo(value, tuple(frame.deps), frame.durability, self.revision, changed_at)
        self._memos[key] = memo
        return memo

    def write_later(self, key: str, write: Callable[[], None]) -> None:
        """Run ``write`` (a cache file this process keeps in memory as well) now, or, in a workspace that
        defers its writes (a server's), at :meth:`flush`: the last write of each ``key`` wins. ``write`` must
        hold what it writes (no structure a later computation changes)."""
        if self.deferred is None:
            write()
            return
        with self.lock:
            self.deferred[key] = write

    def flush(self) -> None:
        """Do the deferred writes (a server settled, builds fully or stops)."""
        with self.lock:
            pending = self.deferred
            if not pending:
                return
            self.deferred = {}
        for write in pending.values():
            write()

    def forget(self, arg_matches: Callable[[Any], bool]) -> int:
        """Drop the memos whose argument matches: a root the workspace no longer keeps (its facts would
        only hold memory; asked again, they are computed again)."""
        with self.lock:
            gone = [key for key in self._memos if arg_matches(key[1])]
            for key in gone:
                del self._memos[key]
            return len(gone)

    # -- tables ----------------------------------------------------------------------------
    def table(self, name: str, factory: Callable[[], T] = dict) -> T:  # type: ignore[assignment]
        """The workspace's table ``name`` (made by ``factory`` the first time): a memo of a pure function
        by its content key, or other state the process keeps between computations."""
        got = self._tables.get(name)
        if got is None:
            got = self._tables[name] = factory()
        return got  # type: ignore[no-any-return]

    def per(self, owner: object, name: str, compute: Callable[[], T], *, keep: int = 8) -> T:
        """A memo of ``compute()`` for ``owner`` (a loaded spec): held with the owner, the last ``keep`` owners."""
        with self.lock:
            slot = self._owned.get(id(owner))
            if slot is None or slot[0] is not owner:
                slot = (owner, {})
                self._owned[id(owner)] = slot
                while len(self._owned) > keep:
                    self._owned.popitem(last=False)
            else:
                self._owned.move_to_end(id(owner))
            memo = slot[1]
        if name not in memo:
            memo[name] = compute()
        return memo[name]  # type: ignore[no-any-return]

    def stats(self) -> dict[str, int]:
        """What the workspace holds (a server's log; a test's evidence that state has one owner)."""
        return {"revision": self.revision, "inputs": len(self._inputs), "queries": len(self._memos),
                "tables": len(self._tables), "owners": len(self._owned), "recomputed": self.recomputed,
                "cut_off": self.cut_off}


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values that cannot be compared are different
        return False


_CURRENT: list[Workspace] = [Workspace()]  # the process's workspace: the one module-level state that owns the rest


def _in_forked_child() -> None:
    """A child forked while a query ran (a worker pool a computation starts): no thread of the child holds
    the lock it copied, and the queries running in the parent are not running here."""
    ws = _CURRENT[0]
    ws.lock = threading.RLock()
    ws._stack = []
    ws._active = set()


os.register_at_fork(after_in_child=_in_forked_child)


def current() -> Workspace:
    """The workspace this process works in now (a server's while it serves)."""
    return _CURRENT[0]


def use(ws: Workspace) -> Workspace:
    """Make ``ws`` the current workspace (a server holds its own); returns the previous one."""
    previous, _CURRENT[0] = _CURRENT[0], ws
    return previous


def fresh() -> Workspace:
    """Start over with an empty workspace (a test, or a command that must not reuse what it remembers)."""
    ws = Workspace()
    use(ws)
    return ws


class Memoised(Generic[T]):
    """A function whose results are memoised in the current workspace's table (they die with it)."""

    def __init__(self, fn: Callable[..., T], maxsize: int | None) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.maxsize = maxsize
        self.name = f"memoised:{fn.__module__}.{fn.__qualname__}"

    def __call__(self, *args: Any, **kwargs: Any) -> T:
        memo: dict[Any, T] = current().table(self.name)
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        try:
            return memo[key]
        except KeyError:
            pass
        value = self.fn(*args, **kwargs)
        if self.maxsize is not None and len(memo) >= self.maxsize:
            for k in list(itertools.islice(iter(memo), self.maxsize // 2 or 1)):  # the oldest half
                del memo[k]
        memo[key] = value
        return value

    def clear(self) -> None:
        """Forget this function's results in the current workspace."""
        current().table(self.name).clear()


def memoised(maxsize: int | None = None) -> Callable[[Callable[..., T]], Memoised[T]]:
    """``functools.lru_cache`` whose table belongs to the current workspace: for pure functions of
    hashable arguments (a highlighted line by its text); ``maxsize`` bounds the table."""

    def wrap(fn: Callable[..., T]) -> Memoised[T]:
        return Memoised(fn, maxsize)

    return wrap


__all__ = ["CycleError", "Durability", "Memoised", "Query", "Workspace", "current", "fresh", "memoised", "use"]
