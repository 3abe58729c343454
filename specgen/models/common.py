"""Base classes and shared vocabularies for the record models.

Every model is *closed* (``extra="forbid"``): an unknown key in a record is an
error the author must see, not a value silently kept. Vocabularies measured on
the PTO corpus are ``Literal`` types so a typo is caught where it is written.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

PTO_ID = r"^PTO-[A-Z0-9]+(?:-[A-Z0-9]+)*$"
SHA256 = r"^[0-9a-f]{64}$"

PtoId = Annotated[str, StringConstraints(pattern=PTO_ID)]
Sha256 = Annotated[str, StringConstraints(pattern=SHA256)]
NonEmptyStr = Annotated[str, StringConstraints(min_length=1)]


def _unique(values: list[Any]) -> list[Any]:
    if all(type(v) is str for v in values) and len(set(values)) == len(values):
        return values  # the common case, at set speed (distinct strings have distinct reprs)
    seen: set[str] = set()
    for v in values:
        key = repr(v)
        if key in seen:
            raise ValueError(f"duplicate entry {v!r}")
        seen.add(key)
    return values


UniqueStrList = Annotated[list[str], AfterValidator(_unique)]
NonEmptyUniqueStrList = Annotated[list[NonEmptyStr], Field(min_length=1), AfterValidator(_unique)]


_DRIVE = re.compile(r"[A-Za-z]:")


def _relative_posix(path: str) -> str:
    if not path or path.startswith("/") or "\\" in path or _DRIVE.match(path):
        raise ValueError(f"{path!r} is not a root-relative POSIX path")
    parts = path.split("/")
    if ".." in parts or "." in parts or "" in parts:
        raise ValueError(f"{path!r} contains '.', '..' or an empty segment")
    return path


RelPath = Annotated[str, AfterValidator(_relative_posix)]


_PTO_ID = re.compile(PTO_ID)


def _dependencies(values: list[str]) -> list[str]:
    for d in values:
        if d != "generated:decoders" and not _PTO_ID.match(d):
            raise ValueError(f"depends_on entry {d!r} is neither a unit id nor generated:decoders")
    return values


#: ``depends_on``: unit ids, plus the one synthetic node ``generated:decoders`` (the upstream decoder).
DependsOn = Annotated[list[str], AfterValidator(_dependencies)]


class Closed(BaseModel):
    """A record whose key set is closed and whose values never change after load."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)


class Open(BaseModel):
    """A record the spec leaves open (free-form objects kept as they are)."""

    model_config = ConfigDict(extra="allow", frozen=True)


def slug_upper(text: str) -> str:
    """Upper-case slug: runs of ``[^A-Z0-9]`` become one dash (the corpus' id rule)."""
    return _NOT_UPPER_ALNUM.sub("-", text.upper()).strip("-")


_NOT_UPPER_ALNUM = re.compile(r"[^A-Z0-9]+")


def forbid_keys(*keys: str) -> Any:
    """A before-validator rejecting keys an older generation does not have.

    A variant subclass overrides the field with ``None`` and adds this, so the variant stays
    closed: the key is an error there, not a value silently ignored.
    """

    def check(cls: type, data: Any) -> Any:
        if isinstance(data, dict):
            present = [k for k in keys if k in data]
            if present:
                raise ValueError(f"{', '.join(present)}: not part of this record generation")
        return data

    return model_validator(mode="before")(classmethod(check))  # type: ignore[arg-type]



def variant_without(data: Any, key: str, current: type[Any], older: type[Any]) -> type[Any]:
    """``older`` when a record lacks ``key`` (the fact its generation did not have yet), else ``current``."""
    return older if isinstance(data, dict) and key not in data else current
