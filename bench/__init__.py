"""specgen benchmark suite: ``python -m bench`` (``make bench``); see docs-internal/performance.md."""
