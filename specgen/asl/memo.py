"""Reset-style procedures replayed from a recorded effect instead of re-run.

An AVS sweep calls ``ResetProfileState()`` hundreds of times: ~12,000 interpreted
stores each (GPRs, memory, 64 tile records, every trap context), most of a
sweep's time. A zero-argument tree function whose effect does not depend on
the state it starts from is a constant state update, so each call after the
second applies the recorded update (a few dictionary stores and container
copies) instead of running the body.

Whether the effect is independent of the starting state is *measured*, never
assumed: the function runs on two scratch interpreters (same tree, same
generated ASL, no test overlay), one starting from the declared initial values
and one from a state where every leaf of every global differs in every bit
(``not`` for booleans, ``~`` for integers and bitvectors, a sentinel for
enumeration members). Both runs log every value they read from a global
variable. If the two logs and the two return values are equal, the function
never saw a leaf it had not itself written (an unwritten leaf would have read
differently), so its control flow and every value it stored are the same from
any starting state. Comparing the two final states then locates what it
wrote: a leaf equal in both runs was written, a leaf that differs in every
bit was left alone; anything else (a partial bit-slice store into a leaf it did
not write first) refuses the recording. A Python hook, a ``print`` or any
failure in either run also refuses it; the function then runs as written,
always.

Replay keeps the run's observable behaviour: the same state afterwards
(containers on the path of a partial update are copied, untouched elements
shared; the interpreter's copy-on-write keeps the recorded values intact), the
same return value and the same step count charged against the budget, the
statements and functions it ran for coverage (the recording measures them) and
the definitions it executed for the run's trail (:mod:`specgen.asl.trail`). A
call whose budget would run out inside the function and a test file that
redefines a function the recording ran through take the interpreter's ordinary
path.
"""

from __future__ import annotations

import os
from fractions import Fraction
from types import MappingProxyType
from sys import getrefcount
from typing import Any, Callable, Mapping

from .ast import FuncDecl
from .budget import steps_left
from .compile_base import Function
from .hooks import Replace
from .values import Bits

Interpreter = Any  # specgen.asl.interp.Interpreter, which imports this module

ENABLED = os.environ.get("SPECGEN_NO_REPLAY", "") in ("", "0")  # SPECGEN_NO_REPLAY=1: run every body (bench, debugging)
MIN_STEPS = 400  # below this, running the body is about as cheap as replaying it
MAX_STEPS = 200_000  # recording costs two more runs; a long function is rarely a reset
_SENTINEL = "\x00unwritten:"


class Refused(Exception):
    """The function's effect depends on the starting state (or could not be recorded)."""


# ------------------------------------------------------------ perturbation
class Perturbation:
    """Builds perturbed values and remembers every container it built: a container of the
    perturbed run that is still one of them was never written (copy-on-write copies on a store)."""

    def __init__(self) -> None:
        self.built: set[int] = set()  # ids of the containers built (kept alive by ``_keep``)
        self._keep: list[object] = []
        self._done: dict[int, object] = {}  # id of an input (shared by default values) -> its result

    def __call__(self, v: object) -> object:
        """``v`` with every leaf changed in every bit (same shape)."""
        hit = self._done.get(id(v))
        if hit is not None:
            return hit
        t = type(v)
        if t is bool:
            r: object = not v
        elif t is int:
            r = ~v  # type: ignore[operator]
        elif t is Bits:
            r = Bits(v.v ^ ((1 << v.n) - 1), v.n)  # type: ignore[attr-defined]
        elif t is str:
            r = _SENTINEL + v  # type: ignore[operator]
        elif t is Fraction:
            r = v + 1  # type: ignore[operator]
        elif t is list:
            if v and len(set(map(id, v))) == 1:  # type: ignore[call-overload]
                r = [self(v[0])] * len(v)  # type: ignore[index, arg-type]  # a default array: one shared element
            else:
                r = [self(x) for x in v]  # type: ignore[attr-defined]
        elif t is dict:
            r = {k: self(x) for k, x in v.items()}  # type: ignore[attr-defined]
        elif t is tuple:
            r = tuple(self(x) for x in v)  # type: ignore[attr-defined]
        else:
            raise Refused(f"cannot perturb a {t.__name__}")
        if t is list or t is dict or t is tuple:
            self.built.add(id(r))
        self._keep.append(v)
        self._keep.append(r)
        self._done[id(v)] = r
        return r


def perturb(v: object) -> object:
    """``v`` with every leaf changed in every bit (same shape)."""
    return Perturbation()(v)


# ------------------------------------------------------------ the effect
_UNWRITTEN = object()


class PartialUpdate:
    """A partial update of one container: elements replaced (``values``), elements updated (``subs``)."""

    __slots__ = ("values", "subs")

    def __init__(self) -> None:
        self.values: dict = {}
        self.subs: dict = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PartialUpdate) and self.values == other.values and self.subs == other.subs

    __hash__ = None  # type: ignore[assignment]

    def apply(self, cont: object) -> object:
        """A copy of ``cont`` with this update; untouched elements are shared."""
        if type(cont) is not list and type(cont) is not dict:
            raise TypeError(f"cannot update a {type(cont).__name__} in place")
        new = cont.copy()  # type: ignore[attr-defined]
        for k, v in self.values.items():
            new[k] = v
        for k, sub in self.subs.items():
            new[k] = sub.apply(cont[k])  # type: ignore[index]
        return new


def _leaf_unwritten(a: object, b: object) -> bool:
    """Whether ``b`` is ``a`` changed in every bit (a leaf no run wrote); refuse a partial write."""
    t = type(a)
    if t is bool:
        return True
    if t is int:
        if a ^ b == -1:  # type: ignore[operator]
            return True
    elif t is Bits:
        if a.n == b.n and a.v ^ b.v == (1 << a.n) - 1:  # type: ignore[attr-defined]
            return True
    elif t is str:
        if b == _SENTINEL + a:  # type: ignore[operator]
            return True
    elif t is Fraction:
        if b == a + 1:  # type: ignore[operator]
            return True
    raise Refused(f"a leaf was partly written ({a!r} / {b!r})")


def diff(a: object, b: object, untouched: set[int] | frozenset[int] = frozenset()) -> object:
    """What a run wrote, from its results ``a`` (initial start) and ``b`` (perturbed start):
    a value (replaced whole), a :class:`PartialUpdate` (partly updated) or ``_UNWRITTEN``.
    ``untouched``: ids of containers the perturbed start built (never written if still there)."""
    if a is b:
        return a
    if id(b) in untouched:
        return _UNWRITTEN
    if type(a) is not type(b):
        raise Refused("a global changed type between the runs")
    if a == b:
        return a
    t = type(a)
    if t is list or t is dict:
        if len(a) != len(b):  # type: ignore[arg-type]
            raise Refused("a container changed shape between the runs")
        node = PartialUpdate()
        keys = range(len(a)) if t is list else a.keys()  # type: ignore[arg-type, union-attr]
        for k in keys:
            if t is dict and k not in b:  # type: ignore[operator]
                raise Refused("a record changed fields between the runs")
            d = diff(a[k], b[k], untouched)  # type: ignore[index]
            if d is _UNWRITTEN:
                continue
            if type(d) is PartialUpdate:
                node.subs[k] = d
            else:
                node.values[k] = d
        return node if node.values or node.subs else _UNWRITTEN
    if t is tuple:
        if len(a) == len(b) and all(diff(x, y, untouched) is _UNWRITTEN for x, y in zip(a, b)):  # type: ignore[arg-type]
            return _UNWRITTEN
        raise Refused("a tuple was partly written")
    _leaf_unwritten(a, b)
    return _UNWRITTEN


class Effect:
    """A recorded zero-argument function: the globals it writes, its result and its step count."""

    def __init__(self, values: dict[str, object], nodes: dict[str, PartialUpdate], result: object,
                 steps: int, functions: frozenset[str], executed: frozenset[str] = frozenset(),
                 hits: frozenset[tuple[str, int, int]] = frozenset()) -> None:
        self.values = values
        self.nodes = nodes
        self.result = result
        self.steps = steps
        self.functions = functions  # every function the recording bound (a test may not redefine them)
        self.executed = executed  # the names it executed: what a replay notes in the run's trail
        self.hits = hits  # the statements and functions it ran, when the interpreter measures coverage
        self._updates: list[tuple[str, Callable[[object], object]]] | None = None  # straight() of each node
        # variable -> the update of its initial value, made by a test's first replay and shared by the next
        # tests' (0.58.3's suite copied every Tile record of it in each of 3,352 tests)
        self._initial: dict[str, object] = {}

    def apply(self, interp: Interpreter) -> object:
        """Update ``interp``'s globals as a run would and return the run's result."""
        G = interp.globals
        G.update(self.values)
        if self._updates is None:
            self._updates = [(name, straight(node)) for name, node in self.nodes.items()]
        # a test that declares a type, constant or variable of its own may change an initial value: made anew
        shared = self._initial if _functions_only(interp._overlay) else _NOTHING_SHARED
        for name, update in self._updates:
            if name not in G:  # the test's first replay: the update of the variable's initial value
                made = shared.get(name)
                if made is None:
                    made = update(_initial_handed(interp, name))
                    if shared is self._initial and _declared_without_initialiser(interp, name):
                        self._initial[name] = made
                G[name] = made
            elif G[name] is not shared.get(name):  # (the update of its own result is that result)
                # the globals hand their reference over (no variable keeps one): a tree this test's last
                # replay made is then the update's alone, and it changes it in place (:func:`straight`)
                G[name] = update(_handed(G, name))
        return self.result


def _functions_only(overlay: Mapping[str, list[object]]) -> bool:
    return all(type(d) is FuncDecl for decls in overlay.values() for d in decls)


def _declared_without_initialiser(interp: Interpreter, name: str) -> bool:
    """Whether a variable's initial value is its type's default: the same in every test of an interpreter, so
    the update of it can be made once and shared by every test (each assignment into a shared tree copies
    the containers it changes, as for any value two variables hold)."""
    decl = interp._global_decl(name)
    return decl is not None and decl.kind == "var" and decl.init is None


_NOTHING_SHARED: Mapping[str, object] = MappingProxyType({})


def _initial_handed(interp: Interpreter, name: str) -> object:
    """A variable's initial value, handed over: it is placed in the globals and taken back out, so no
    local holds it while the update runs (the update would copy a tree two references hold)."""
    value = interp._global_value(name, None)
    if name not in interp.globals:  # not kept in the globals: the update copies what it changes
        return value
    del value
    return _handed(interp.globals, name)


def _handed(G: dict[str, object], name: str) -> object:
    value = G[name]
    G[name] = None  # the update's result replaces it at once
    return value


def straight(node: PartialUpdate) -> Callable[[object], object]:
    """``node.apply`` as one straight-line Python function: a replay of ``ResetProfileState()`` updates a
    tree of about 1,500 containers, and walking it (a call, two dictionary loops per container) was a
    fifth of a profile of every seventh test of 0.58.3. The same stores in the same order; a container of
    another type raises the same TypeError. Locals are reused per depth: the frame stays small.

    A container nothing else holds is updated in place, as an assignment into it is (``compile_lvalue``:
    the same reference count test): the globals' tree a test's first replay made belongs to the test
    alone, so its second replay copies nothing. Copying every container was a sixth of the profile of
    the scalar tests of 0.58.3 (5.8 million copies in 3,935 replays). A container any other value,
    variable or recorded constant holds has a higher count and is copied, as before; the top one is
    changed in place only when its caller handed its reference over (:meth:`Effect.apply`), so a caller
    that keeps the tree it passes gets a new one."""
    lines: list[str] = []
    binds: dict[str, object] = {"_bad": _not_updatable, "_rc": getrefcount}

    def const(v: object) -> str:
        if type(v) is int or type(v) is str:
            return repr(v)
        name = f"_b{len(binds)}"
        binds[name] = v
        return name

    def emit(n: PartialUpdate, d: int) -> None:
        c, new = f"c{d}", f"n{d}"
        lines.append(f" if type({c}) is not list and type({c}) is not dict: _bad({c})")
        # held only by its parent (at the top: by nothing, its caller handed it over), this variable and
        # the count's own argument
        lines.append(f" {new} = {c}.copy() if _rc({c}) > {2 if d == 0 else 3} else {c}")
        lines.extend(f" {new}[{const(k)}] = {const(v)}" for k, v in n.values.items())
        for k, sub in n.subs.items():
            lines.append(f" c{d + 1} = {c}[{const(k)}]")
            emit(sub, d + 1)
            lines.append(f" {new}[{const(k)}] = n{d + 1}")

    emit(node, 0)
    scope: dict[str, object] = {}
    exec(compile("def update(c0):\n" + "\n".join(lines) + "\n return n0\n", "<replayed update>", "exec"),  # noqa: S102
         binds, scope)
    return scope["update"]  # type: ignore[return-value]


def _not_updatable(cont: object) -> None:
    raise TypeError(f"cannot update a {type(cont).__name__} in place")


# ------------------------------------------------------------ recording
def _scratch(interp: Interpreter, perturb: Perturbation | None) -> Interpreter:
    """An interpreter over the same tree and generated ASL that logs every global it reads."""
    class Scratch(type(interp)):  # type: ignore[misc]  # (no import of .interp: it imports this module)
        def _global_value(self, name: str, span: object) -> object:
            fresh = name not in self.globals and name not in self._consts
            value = super()._global_value(name, span)  # type: ignore[arg-type]
            if fresh and perturb is not None and name in self.globals:
                value = self.globals[name] = perturb(value)
            return value

    def refuse_hook(*_a: object) -> object:
        raise Refused("a Python hook ran")

    s = Scratch(interp.index, hooks={n: Replace(refuse_hook) for n in interp.hooks},
                synthesize_generated=interp.synthesize_generated, max_steps=MAX_STEPS + 1,
                memoize=False, max_value_bits=interp.max_value_bits)
    s._gen = interp._gen
    s.generated = interp.generated
    s.read_log = []
    if interp.coverage is not None:
        s.measure_coverage()
    return s


def record(interp: Interpreter, name: str) -> Effect | None:
    """The effect of the tree's zero-argument function ``name``, or None when it depends on
    the starting state (or anything else refuses it; see the module docstring)."""
    try:
        pert = Perturbation()
        a = _scratch(interp, None)
        b = _scratch(interp, pert)
        a.trail.push()  # what the run notes (its compile notes too): what a replay notes for the real run
        ra = a.call(name)
        executed = a.trail.pop()
        rb = b.call(name)
        # the same calls and iterations from both starting states (what big values cost may differ:
        # a perturbed bitmap read as an integer is larger; budget.py charges its size)
        if a.read_log != b.read_log or ra != rb or a.steps_used - a.charged[0] != b.steps_used - b.charged[0]:
            return None
        values: dict[str, object] = {}
        nodes: dict[str, PartialUpdate] = {}
        for g in a.globals.keys() | b.globals.keys():
            if g not in a.globals or g not in b.globals:
                return None
            d = diff(a.globals[g], b.globals[g], pert.built)
            if type(d) is PartialUpdate:
                nodes[g] = d
            elif d is not _UNWRITTEN:
                values[g] = d
        functions = frozenset(k[0] for k in a._funcs) | frozenset(k[0] for k in a._overlay_compiled)
        # a replay costs the calls and iterations; the scratch run's charges for big values are mostly
        # the lazy first initialisation of globals, which a run from a live state does not repeat
        return Effect(values, nodes, ra, a.steps_used - a.charged[0], functions, executed, frozenset(a.coverage or ()))
    except Exception:  # noqa: BLE001 - anything the recording cannot explain: run the body as written
        return None


def memoizing(interp: Interpreter, fn: Function, run: Callable[[], object]) -> Callable[[], object]:
    """``run`` (a compiled zero-argument tree function) wrapped so that, from its second call on,
    a function whose effect does not depend on the starting state is replayed.

    The first call runs the body and counts its steps; a function outside
    [MIN_STEPS, MAX_STEPS] keeps ``run``. The second call records (two scratch
    runs) and installs the replay, or ``run`` when recording refuses.
    """
    if not ENABLED:
        return run
    budget = interp.budget
    name = fn.name

    def first(*args: object) -> object:
        before = steps_left(budget)
        r = run()
        steps = before - steps_left(budget)
        fn.impl = second if MIN_STEPS <= steps <= MAX_STEPS else run
        return r

    def second(*args: object) -> object:
        effect = record(interp, name)
        if effect is None:
            fn.impl = run
            return run()
        fn.impl = replay_of(interp, effect, run)
        return fn.impl()

    return first


def replay_of(interp: Interpreter, effect: Effect, run: Callable[[], object]) -> Callable[[], object]:
    """The replaying implementation; it falls back to ``run`` where replay would differ."""
    budget = interp.budget
    steps = effect.steps
    functions = effect.functions
    overlay = interp._overlay
    executed, current = effect.executed, interp.trail.current
    mark = interp.coverage.marker(effect.hits) if interp.coverage is not None else None

    def replay(*args: object) -> object:
        if steps_left(budget) < steps or (overlay and not functions.isdisjoint(overlay)):
            return run()
        budget[0] -= steps
        current[0].update(executed)
        if mark is not None:
            mark()
        return effect.apply(interp)

    return replay


__all__ = ["Effect", "MAX_STEPS", "MIN_STEPS", "Perturbation", "Refused", "diff", "memoizing", "perturb", "record"]
