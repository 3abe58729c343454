"""``specification.toml``: where a tree keeps its sources, tests, manifest and release identity.

A tree without the file gets the corpus layout as defaults, so the loader
needs no configuration for the common case.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Finding, Severity


#: Interpreter steps one run of spec code may take (see ``specgen.asl.budget``)
DEFAULT_MAX_STEPS = 120_000_000
#: Largest bitvector width, integer bit length or array element count one run of spec code may make
#: (see ``specgen.asl.budget``): 32x the widest bitvector of the real trees (524,288 bits in
#: pto-spec-0.58.3), 256x their longest array (65,536 elements); docs-internal/robustness.md
DEFAULT_MAX_VALUE_BITS = 1 << 24
#: The most bytes one run of spec code may hold at once (its globals and frames, see ``specgen.asl.budget``):
#: 1 GiB, 180x what the largest AVS test of the real trees holds (5.8 MB, 0.58.3) (docs-internal/asl-interpreter.md)
DEFAULT_MAX_MEMORY_BYTES = 1 << 30
#: Largest ASL unit or AVS test parsed, run and rendered (the corpus' largest unit is 28 KB): a
#: bigger one is one finding, so a 30 MB unit costs seconds, not minutes and gigabytes
DEFAULT_MAX_UNIT_BYTES = 1 << 20
#: A generated page body larger than this is built with a warning (a strict build fails): the
#: corpus' largest is about 100 KB
DEFAULT_PAGE_BUDGET_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class SpecConfig:
    """The few settings the loader and the pages need, with the corpus layout as defaults."""

    name: str = "Specification"
    short_name: str = "Spec"
    status: str = "draft"
    release: str = ""
    encoding_abi: str = ""
    source_roots: tuple[str, ...] = ("asl",)
    test_root: str = "tests/asl"
    manifest: str = "spec/release-manifest.json"
    adr_dir: str = "docs/status/decisions"
    doc_root: str = "docs"  # the prose documents (``[specgen] doc_root``): every Markdown file that is not an ADR
    adr_dir_set: bool = False  # the tree's configuration names adr_dir (else the loader may find them elsewhere)
    json_root: str = "spec"
    example_root: str = "examples"
    hardware_profile: str = "spec/hardware-conformance-profile.json"
    max_steps: int = DEFAULT_MAX_STEPS
    max_value_bits: int = DEFAULT_MAX_VALUE_BITS
    max_memory_bytes: int = DEFAULT_MAX_MEMORY_BYTES
    max_unit_bytes: int = DEFAULT_MAX_UNIT_BYTES
    page_budget_bytes: int = DEFAULT_PAGE_BUDGET_BYTES
    #: BCP 47 tag of the spec's own prose (``[specgen] text_language``; pages of another language mark it with
    #: ``lang``). Not ``[specification] language``: the trees use that key for the spec language, ``"ASL1"``.
    text_language: str = "en"
    raw: dict[str, Any] = field(default_factory=dict)


def load_config(text: str | None, path: str, findings: list[Finding]) -> SpecConfig:
    """Parse the TOML, falling back to defaults (with a finding) when it is broken."""
    if text is None:
        return SpecConfig()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # Python 3.11's TOMLDecodeError has no lineno/colno; the message ends "(at line L, column C)".
        m = re.search(r"\(at line (\d+), column (\d+)\)$", str(e))
        line = getattr(e, "lineno", 0) or (int(m.group(1)) if m else 0)
        col = getattr(e, "colno", 0) or (int(m.group(2)) if m else 0)
        findings.append(Finding("config-invalid", Severity.ERROR, path, line, f"invalid TOML: {e}", col=col))
        return SpecConfig()
    spec = data.get("specification", {}) if isinstance(data.get("specification"), dict) else {}
    rel = data.get("release", {}) if isinstance(data.get("release"), dict) else {}
    prof = data.get("profile", {}) if isinstance(data.get("profile"), dict) else {}
    sg = data.get("specgen", {}) if isinstance(data.get("specgen"), dict) else {}

    def text_of(table: dict[str, Any], key: str, default: str) -> str:
        v = table.get(key, default)
        if not isinstance(v, str):
            findings.append(Finding("config-invalid", Severity.ERROR, path, 0, f"{key} must be a string"))
            return default
        return v

    roots = spec.get("source_roots", ["asl"])
    if not isinstance(roots, list) or not all(isinstance(r, str) for r in roots):
        findings.append(Finding("config-invalid", Severity.ERROR, path, 0, "source_roots must be a list of strings"))
        roots = ["asl"]
    max_steps = sg.get("max_steps", DEFAULT_MAX_STEPS)
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        findings.append(Finding("config-invalid", Severity.ERROR, path, _key_line(text, "max_steps"),
                                f"[specgen] max_steps must be a positive integer, not {max_steps!r}; "
                                f"using {DEFAULT_MAX_STEPS}"))
        max_steps = DEFAULT_MAX_STEPS
    max_value_bits = _positive(sg, "max_value_bits", DEFAULT_MAX_VALUE_BITS, text, path, findings)
    max_memory = _positive(sg, "max_memory_bytes", DEFAULT_MAX_MEMORY_BYTES, text, path, findings)
    max_unit = _positive(sg, "max_unit_bytes", DEFAULT_MAX_UNIT_BYTES, text, path, findings)
    page_budget = _positive(sg, "page_budget_bytes", DEFAULT_PAGE_BUDGET_BYTES, text, path, findings)
    return SpecConfig(
        name=text_of(spec, "name", "Specification"),
        short_name=text_of(spec, "short_name", text_of(spec, "name", "Spec")),
        status=text_of(spec, "status", "draft"),
        release=text_of(rel, "architecture_version", ""),
        encoding_abi=text_of(rel, "encoding_abi", ""),
        source_roots=tuple(roots),
        test_root=text_of(prof, "conformance_test_root", "tests/asl"),
        manifest=text_of(rel, "manifest", "spec/release-manifest.json"),
        adr_dir=text_of(sg, "adr_dir", "docs/status/decisions"),
        adr_dir_set="adr_dir" in sg,
        doc_root=text_of(sg, "doc_root", "docs"),
        example_root=text_of(sg, "example_root", "examples"),
        max_steps=max_steps,
        max_value_bits=max_value_bits,
        max_memory_bytes=max_memory,
        max_unit_bytes=max_unit,
        page_budget_bytes=page_budget,
        text_language=_text_language(text_of(sg, "text_language", "en"), text, path, findings),
        raw=data,
    )


def _positive(table: dict[str, Any], key: str, default: int, text: str, path: str,
              findings: list[Finding]) -> int:
    """A ``[specgen]`` size setting: a positive integer, else the default with a finding where it is set."""
    v = table.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        findings.append(Finding("config-invalid", Severity.ERROR, path, _key_line(text, key),
                                f"[specgen] {key} must be a positive integer, not {v!r}; using {default}"))
        return default
    return v


def _key_line(text: str, key: str) -> int:
    """The first line that sets ``key`` (0 when none does), so a bad value is reported where it is."""
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith(key) and "=" in line:
            return n
    return 0


def _text_language(value: str, text: str, path: str, findings: list[Finding]) -> str:
    """``[specgen] text_language``: the natural language the spec's own prose is written in (default ``en``)."""
    if re.fullmatch(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*", value):
        return value
    findings.append(Finding("config-invalid", Severity.ERROR, path, _key_line(text, "text_language"),
                            f"[specgen] text_language must be a language tag such as en or zh-CN, not {value!r}; "
                            "using en"))
    return "en"
