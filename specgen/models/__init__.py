"""Pydantic v2 models of every record kind a spec tree holds.

The models validate themselves: the loader hands them parsed JSON and turns
their ``ValidationError`` into located findings; there is no second,
hand-written validation pass beside them.
"""

from .adr import AdrFrontMatter
from .catalog import CATALOG_MODELS, FormCatalog, ReservationCatalog, TileOperationCatalog
from .evidence import TraceabilityView, UnitRow
from .instruction import (Contract, EncodedForm, FieldDomain, InstructionHeader, TileOperation)
from .manifest import ReleaseManifest
from .ndf import NdfAttributes
from .test import SEMANTIC_KINDS, TestHeader
from .unit import ReviewRecord, StateRecord, UnitHeader

#: Every model whose JSON Schema ``specgen schema`` exports, by file stem.
SCHEMA_MODELS = {
    "pto-instruction": InstructionHeader,
    "pto-unit": UnitHeader,
    "pto-review": ReviewRecord,
    "pto-state": StateRecord,
    "pto-test": TestHeader,
    "ndf-attributes": NdfAttributes,
    "adr-front-matter": AdrFrontMatter,
    "release-manifest": ReleaseManifest,
    "release-traceability": TraceabilityView,
    "form-catalog": FormCatalog,
    "tile-operation-catalog": TileOperationCatalog,
    "extension-reservation-catalog": ReservationCatalog,
}

__all__ = [
    "AdrFrontMatter", "CATALOG_MODELS", "Contract", "EncodedForm", "FieldDomain", "FormCatalog",
    "InstructionHeader", "NdfAttributes", "ReleaseManifest", "ReservationCatalog", "ReviewRecord",
    "SCHEMA_MODELS", "SEMANTIC_KINDS", "StateRecord", "TestHeader", "TileOperation",
    "TileOperationCatalog", "TraceabilityView", "UnitHeader", "UnitRow",
]
