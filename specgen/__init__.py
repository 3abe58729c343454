"""specgen: documentation site and traceability check for ASL1 instruction-set specifications.

Data flows one way: files -> :mod:`specgen.loader` -> validated :mod:`specgen.models`
-> :mod:`specgen.graph` -> :mod:`specgen.check`, :mod:`specgen.render`, :mod:`specgen.asl`.
"""

__version__ = "0.2.0"
