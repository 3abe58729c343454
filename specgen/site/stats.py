"""What one build did, as ``specgen build`` and the benchmarks read it: typed, never a dict of strings."""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass
class BuildStats:
    """Counts and times of one build (of one release; :meth:`merged` sums releases)."""

    pages: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    rendered: int = 0  # pages rendered by this build (the rest reused)
    changed: int = 0  # pages whose HTML differs from what mkdocs received last (a server's rebuild)
    reused: int = 0
    load_s: float = 0.0
    examples_s: float = 0.0
    worked_s: float = 0.0
    tests_s: float = 0.0
    render_s: float = 0.0
    worked: list[str] = field(default_factory=list)  # the worked-example coverage line(s)
    worked_rerun: int = 0  # worked examples computed (not reused) by this build
    tests: list[str] = field(default_factory=list)  # the AVS suite's summary line(s)
    tests_rerun: int = 0  # AVS tests run (not reused) by this build
    largest: tuple[int, str] = (0, "")  # bytes, URL of the largest page body (measured builds only)
    search_index: dict[str, int] = field(default_factory=dict)  # language -> bytes of its index
    not_rendered: list[str] = field(default_factory=list)  # what the site could not show, and why
    releases: list[str] = field(default_factory=list)
    engine_log: list[str] = field(default_factory=list)  # the last lines another engine printed (Zensical)

    def merged(self, other: "BuildStats") -> "BuildStats":
        """The summary of several releases' builds: counts and times added, the largest page kept."""
        out = BuildStats()
        for f in fields(BuildStats):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name == "largest":
                value: object = max(a, b)
            elif isinstance(a, dict):
                value = dict(a)
                for k, n in b.items():
                    value[k] = value.get(k, 0) + n  # type: ignore[index]
            elif isinstance(a, list):
                value = [*a, *(x for x in b if x not in a)]  # what one release could not render stays said
            else:
                value = a + b
            setattr(out, f.name, value)
        return out


__all__ = ["BuildStats"]
