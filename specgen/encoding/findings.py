"""How an encoding finding names its form and bits: shared by the ``encoding-*`` check rules."""

from __future__ import annotations

from ..diagnostics import Finding, Severity
from .model import Encoding, bit_range


def checked(enc: Encoding) -> bool:
    """Tile operations reuse their carrier's layout, which is checked on the carrier itself."""
    return enc.kind != "tile-operation"


def runs(mask: int) -> list[str]:
    """Bit ranges of the set runs of ``mask``, MSB first (``8:7``, ``3``)."""
    out: list[str] = []
    bit = 0
    while mask >> bit:
        if mask >> bit & 1:
            start = bit
            while mask >> bit & 1:
                bit += 1
            out.append(bit_range(bit - 1, start))
        else:
            bit += 1
    return list(reversed(out))


def describe(enc: Encoding) -> str:
    tag = f" variant {enc.variant}" if enc.variant else ""
    return f"{enc.mnemonic} form {enc.form_id}{tag}"


def at(enc: Encoding, rule: str, severity: Severity, message: str,
       related: tuple[str, ...] = ()) -> Finding:
    return Finding(rule=rule, severity=severity, path=enc.source.path, line=enc.source.line,
                   col=enc.source.col,
                   message=message, subject=enc.form_id, related=related)
