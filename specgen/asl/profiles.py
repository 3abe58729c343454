"""Execution profiles: named sets of ASL functions replaced by Python.

A profile maps ASL function names to hooks (:mod:`specgen.asl.hooks`), Python
callables that receive ASL values (see :mod:`specgen.asl.values`) and return one. ``reference`` runs
the spec's ASL as written; ``hardware-ieee`` replaces the per-element FP
hook of the elementwise tile-tile family with IEEE 754 arithmetic
(:mod:`specgen.asl.hardware`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .hooks import Hook
from .interp import Interpreter


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    hooks: Callable[[], dict[str, Hook]] = field(default=lambda: {})

    def install(self, interp: Interpreter) -> None:
        """Let the profile's hooks stand in for their ASL functions in ``interp`` (before its first call)."""
        for name, hook in self.hooks().items():
            interp.install_hook(name, hook)


def _hardware_hooks() -> dict[str, Hook]:
    from .hardware import hooks

    return hooks()


PROFILES: dict[str, Profile] = {
    "reference": Profile("reference", "the spec's ASL as written (raw-carrier reference numerics)"),
    "hardware-ieee": Profile(
        "hardware-ieee",
        "IEEE 754-2019 binary arithmetic (RNE, canonical NaN, signed zero, gradual underflow) "
        "for the elementwise tile-tile FP hook",
        _hardware_hooks,
    ),
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown profile {name!r}; known: {', '.join(sorted(PROFILES))}") from None
