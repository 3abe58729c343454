"""The loaded spec tree: every record, every file hash, every loader finding."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Finding, Severity
from ..models.evidence import TraceabilityView
from ..models.instruction import FieldDomain
from ..models.doc import ProseDoc
from ..models.located import Adr, AslUnit, AvsTest, JsonArtifact
from ..models.manifest import ReleaseManifest
from .config import SpecConfig
from .conventions import TestFunctions, TestNaming
from ..files import SpecFiles
from .example_root import ExampleSource


@dataclass(slots=True)
class Spec:
    """What :func:`specgen.loader.load_spec` returns; the graph is built from it alone."""

    root: Path
    config: SpecConfig
    units: list[AslUnit] = field(default_factory=list)
    tests: list[AvsTest] = field(default_factory=list)
    adrs: list[Adr] = field(default_factory=list)
    docs: list[ProseDoc] = field(default_factory=list)  # Markdown under the docs folder that is not an ADR
    artifacts: dict[str, JsonArtifact] = field(default_factory=dict)
    manifest: ReleaseManifest | None = None
    manifest_path: str = ""
    traceability: JsonArtifact | None = None
    files: dict[str, str] = field(default_factory=dict)  # every file read: path -> sha256
    other_files: list[str] = field(default_factory=list)  # non-ASL files under the source roots
    findings: list[Finding] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    fs: SpecFiles | None = None
    #: where the checked examples are read (:mod:`specgen.loader.example_root`); None: no reader
    examples: ExampleSource | None = None
    #: artifact kind -> generation label (:mod:`specgen.models.generations`): what the tree has,
    #: so rules needing a fact a generation lacks can stay silent on it.
    formats: dict[str, str] = field(default_factory=dict)
    #: the AVS naming convention the release's own tests/README.md states (None: it states none).
    test_naming: TestNaming | None = None
    test_functions: TestFunctions | None = None  # tests are functions in shards (an older layout), per README
    #: loaded for a program run (``load_spec(program=True)``): no AVS tests, ADRs or documents were read,
    #: so empty lists of them say nothing about the tree
    program_only: bool = False

    def hash_of(self, rel: str) -> str | None:
        """SHA-256 of a root-relative file, reading it only if the loader did not (None: absent/unsafe)."""
        if rel in self.files:
            return self.files[rel]
        if self.fs is None:
            return None
        digest = self.fs.digest(rel)
        if digest is not None:
            self.files[rel] = digest
        return digest

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def instructions(self) -> list[AslUnit]:
        return [u for u in self.units if u.instruction is not None]

    @property
    def traceability_view(self) -> TraceabilityView | None:
        return self.traceability.model if self.traceability is not None else None

    @property
    def field_domains(self) -> list[FieldDomain]:
        out: list[FieldDomain] = []
        for u in self.units:
            rec = u.instruction or u.unit
            if rec is not None and rec.field_domains:
                out.extend(rec.field_domains)
        return out

    def counts(self) -> dict[str, int]:
        """Counts per record kind, as ``validate`` prints them."""
        clauses = sum(len(u.clauses) for u in self.units)
        return {
            "asl_units": len(self.units),
            "instruction_records": sum(1 for u in self.units if u.instruction is not None),
            "unit_records": sum(1 for u in self.units if u.unit is not None),
            "review_records": sum(1 for u in self.units if u.review is not None),
            "state_records": sum(len(u.states) for u in self.units),
            "ndf_clauses": clauses,
            "doc_regions": sum(len(u.docs) for u in self.units),
            "avs_tests": len(self.tests),
            "adr_files": len(self.adrs),
            "json_artifacts": len(self.artifacts),
            "manifest_inputs": len(self.manifest.canonical_inputs) if self.manifest else 0,
        }
