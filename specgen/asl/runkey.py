"""The key a stored result of running spec code is kept under: everything the result depends on.

A test's verdict, a coverage measurement or an admitted DataType set depends on
the tree's content (its ASL, the catalogs the generated ASL comes from, the
other JSON artifacts the ASL may read, ``specification.toml``), on the
configuration that changes a run (the step and value budgets, the profile)
and on specgen's own code. Before issue 24 the stored test results were keyed
by the ASL units alone, so a build after ``[specgen] max_steps = 3000`` still
showed "passed" for tests that now failed. Whatever reads a result computes the
key of the configuration it shows (the site: the tree's own budgets under the
``reference`` profile, what a plain ``specgen test`` runs); a result stored
under any other key reads as "not run".
"""

from __future__ import annotations

import json

from ..cache import content_key, package_digest
from ..loader.tree import Spec

DEFAULT_PROFILE = "reference"  # what ``specgen test`` runs without --profile, and what the site shows
CONFIG_FILE = "specification.toml"


def run_key(spec: Spec, profile: str = DEFAULT_PROFILE, max_steps: int | None = None,
            max_value_bits: int | None = None, *, tests: bool = False, max_memory: int | None = None) -> str:
    """The key of results computed over ``spec`` with these settings (None: the tree's own budget).

    ``tests``: the AVS tests' content counts too (a coverage measurement depends on what ran; a
    test's verdict is stored with its own file's digest instead, so editing one test keeps the others').
    """
    entries = [(u.path, u.sha256) for u in spec.units]
    entries += [(path, a.sha256) for path, a in spec.artifacts.items()]
    entries.append((CONFIG_FILE, spec.files.get(CONFIG_FILE) or "-"))
    if tests:
        entries += [(t.path, t.sha256) for t in spec.tests]
    settings = {"profile": profile, "max_steps": max_steps or spec.config.max_steps,
                "max_value_bits": max_value_bits or spec.config.max_value_bits,
                "max_memory": max_memory or spec.config.max_memory_bytes, "specgen": package_digest()}
    return content_key(sorted(entries) + [("\0settings", json.dumps(settings, sort_keys=True))])


__all__ = ["DEFAULT_PROFILE", "run_key"]
