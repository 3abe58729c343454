"""Normative clauses (NDF) as written in ASL comments."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from .common import Closed
from ..cache import codec

KIND_LEVEL = {"intent": "L0", "contract": "L1", "mechanism": "L2", "executable": "L3"}
Layer = Literal["architecture", "scalar", "block", "tile", "state", "memory", "concurrency"]


class NdfAttributes(Closed):
    """The ``// ndf: kind=… level=… layer=… status=…`` line (four keys, kind fixes level)."""

    kind: Literal["intent", "contract", "mechanism", "executable"]
    level: Literal["L0", "L1", "L2", "L3"]
    layer: Layer
    status: Literal["open", "accepted"]

    @model_validator(mode="after")
    def _level(self) -> "NdfAttributes":
        if KIND_LEVEL[self.kind] != self.level:
            raise ValueError(f"kind={self.kind} requires level={KIND_LEVEL[self.kind]}, not {self.level}")
        return self


# what the record cache may hold of this module (specgen.cache.codec)
codec.register(NdfAttributes)
