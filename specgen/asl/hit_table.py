"""The statements a run executed, as one flag per statement: what coverage costs per statement run.

Coverage is on for every test of the suite and every build, so recording a hit runs once per
statement executed: 16 million times in the largest test of 0.58.3. A set of ``(path, line, col)``
hashed a fresh tuple and called a method each time (a seventh of that test's time). Here each
statement gets a slot when it is compiled, and running it stores 1 into a bytearray at a constant
index, one instruction of the closure or fused code. A bytearray rather than a list of booleans: a
store costs a few nanoseconds more, but finding a test's few hundred hits among 70,000 slots is a
``find`` (memchr) per hit instead of a walk of every slot, and clearing is one copy of zeros (the list
cost 0.8 ms a test to scan and clear). The table reads as a set of those positions (what the runner
packs, a replay adds, the tests compare), so nothing above the compiler sees the difference.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Set
from itertools import repeat

Key = tuple[str, int, int]


class HitTable(Set[Key]):
    """The set of statement positions run since the last :meth:`clear`; compiled code writes ``flags``."""

    __slots__ = ("flags", "_keys", "_slots", "_codes", "paths", "_path_no")

    def __init__(self) -> None:
        self.flags = bytearray()  # the same object for the table's life: compiled code holds it
        self._keys: list[Key] = []
        self._slots: dict[Key, int] = {}
        self._codes: list[int] = []  # per slot: path number << 48 | line << 24 | column
        self.paths: list[str] = []  # by path number
        self._path_no: dict[str, int] = {}

    def slot(self, key: Key) -> int:
        """The index compiled code sets when the statement at ``key`` runs (one per position)."""
        i = self._slots.get(key)
        if i is None:
            i = self._slots[key] = len(self._keys)
            self._keys.append(key)
            self.flags.append(0)
            path, line, col = key
            p = self._path_no.get(path)
            if p is None:
                p = self._path_no[path] = len(self.paths)
                self.paths.append(path)
            self._codes.append(p << 48 | min(line, 0xFFFFFF) << 24 | min(col, 0xFFFFFF))
        return i

    def codes(self) -> list[int]:
        """The hits as sorted numbers ``path number << 48 | line << 24 | column`` (:attr:`paths`): what
        the runner packs per test, without a tuple per hit."""
        codes = self._codes
        return sorted([codes[i] for i in self._set()])

    def _set(self) -> list[int]:
        """The slots set, in order (one memchr per hit)."""
        out, find = [], self.flags.find
        i = find(1)
        while i >= 0:
            out.append(i)
            i = find(1, i + 1)
        return out

    def add(self, key: Key) -> None:
        self.flags[self.slot(key)] = 1

    def update(self, keys: Iterable[Key]) -> None:
        for key in keys:
            self.flags[self.slot(key)] = 1

    def marker(self, keys: Iterable[Key]) -> Callable[[], None]:
        """A function adding ``keys`` each time it is called (a replayed function's statements, ~500 a
        replay): their slots found once, the flags set by one loop in C."""
        slots, setflag = [self.slot(k) for k in keys], self.flags.__setitem__

        def mark() -> None:
            deque(map(setflag, slots, repeat(1)), 0)
        return mark

    def clear(self) -> None:
        """Forget every hit, in place (the flags stay the object compiled code writes)."""
        self.flags[:] = bytes(len(self.flags))

    def __iter__(self) -> Iterator[Key]:
        keys = self._keys
        return iter([keys[i] for i in self._set()])

    def __len__(self) -> int:
        return self.flags.count(1)

    def __contains__(self, key: object) -> bool:
        i = self._slots.get(key)  # type: ignore[call-overload]
        return i is not None and self.flags[i] == 1

    def __repr__(self) -> str:
        return f"HitTable({set(self)!r})"
