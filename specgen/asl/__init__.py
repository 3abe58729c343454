"""An embedded ASL1 reference interpreter in pure Python: parse, index and run a spec tree's ASL and the
ASL specgen derives from its catalogs, no external toolchain; it may import catalog_asl only.

Calling ASL from Python
-----------------------
::

    from specgen.asl import bits, interpreter_for
    from specgen.loader import load_spec
    it = interpreter_for(load_spec(Path("spec-root")))   # lazy: loads what calls reach
    it.call("ResetProfileState")
    it.call("ConfigureTile", 0, 128, 4, 4, 1, 2, "TileDataType_U64",
            "TileLayout_RowMajor", "TileLocation_Any")
    it.call("WriteTileElement", 0, 0, 0, 21)        # int -> bits(64) by the parameter type
    word = it.call("ReadTileElement", 0, 0, 0)      # Bits(v=21, n=64); word.v is the int
    it.get_global("_LastFault")                     # "Fault_None"-style enum member name
    it.reset()                                      # drop globals between independent runs

Values: ``int`` for integers, ``bool``, ``fractions.Fraction`` for reals,
:class:`Bits` (``.v`` value, ``.n`` width; build with ``bits(5, 8)`` or
``bits('0101')``) for bitvectors, ``str`` member names for enumerations,
``dict`` for records, ``list`` for arrays, ``tuple`` for tuples. Python ints
passed where a parameter is ``bits(N)`` are converted (modulo 2^N).

Errors are :class:`ASLError` with ``.span`` (path, line, col), ``.kind``
and ``.asl_stack`` (``(function, Span)`` pairs, outermost first).

The ASL generated from the catalogs is written by :mod:`specgen.catalog_asl` and
parsed here (:mod:`specgen.asl.catalog_modules`).

Profiles (:mod:`specgen.asl.profiles`) replace named ASL functions with
Python; the test runner is :mod:`specgen.asl.runner`; data-type legality
from the ASL is :mod:`specgen.asl.legality`.
"""

from .ast import Module
from .errors import ASLError, MissingFunction
from .interp import Interpreter
from .parser import parse_source
from .session import interpreter_for
from .values import Bits, bits

__all__ = ["ASLError", "MissingFunction", "Interpreter", "Module", "parse_source", "Bits", "bits",
           "interpreter_for"]
