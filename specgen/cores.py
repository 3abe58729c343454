"""How many processes a machine's work may use: the cores this process is allowed to run on.

A container or CI runner pinned to a few of the host's CPUs (a cpuset, ``taskset``) still reports the
host's count in ``os.cpu_count()``; that many workers on two usable cores only contend. ``--jobs``
(0: this count), the plugin's ``jobs: 0``, the server's background pool and the parse helpers ask here.
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux: every core the system has
        return os.cpu_count() or 1


__all__ = ["usable_cores"]
