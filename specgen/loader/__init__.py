"""Read a spec tree into validated models: files -> records -> :class:`Spec`.

The loader is the only stage that touches the file system. It never raises
on bad input: every problem becomes a located :class:`~specgen.diagnostics.Finding`
and the record is left out (or kept partially) so later stages still run.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import time
from pathlib import Path
from typing import Any

from ..cache import RecordCache, open_cache
from ..diagnostics import UNUSABLE_FILE_RULES, Finding, Severity
from ..models.catalog import CATALOG_MODELS
from ..models.evidence import TraceabilityView, traceability_model
from ..models.located import JsonArtifact
from ..models.doc import ProseDoc
from ..models.manifest import ReleaseManifest, manifest_model
from .adrs import find_adr_dir, scan_adr
from .asl_units import scan_unit
from .avs import scan_test
from .config import SpecConfig, load_config
from .docs import load_docs, scan_doc
from .conventions import parse_test_functions, parse_test_naming
from .example_root import ExampleSource, example_source
from .formats import detect_formats, unknown_shape, validate_whole
from ..files import BYTE_RULES, SpecFiles
from .jsonrec import parse_json
from .scans import Scans, memo
from .tree import Spec

__all__ = ["Spec", "SpecConfig", "load_spec", "RootError", "TOO_LARGE_RULE", "UNPARSED_STUB", "UNUSABLE_RULES", "unusable_findings"]

TRACEABILITY_SCHEMA = "pto.release-traceability.v2"
TOO_LARGE_RULE = "asl-unit-too-large"  # an ``asl-`` rule: its consequences fold into it (asl.static)
#: Findings after which a file is not shown as written: a site is not built over them
UNUSABLE_RULES = BYTE_RULES | {TOO_LARGE_RULE}


def unusable_findings(findings: list[Finding], prefix: str = "") -> list[Finding]:
    """The findings (under ``prefix``) of files that cannot be used as written: their bytes, their
    size, or, for a JSON file, its syntax (a catalog that does not parse has no records at all)."""
    return [f for f in findings if f.path.startswith(prefix) and (
        f.rule in UNUSABLE_RULES or (f.rule in UNUSABLE_FILE_RULES and f.path.endswith(".json")))]


class RootError(Exception):
    """The root cannot be read at all (exit 2, not a finding)."""


def load_spec(root: Path, *, jobs: int | None = None, cache: RecordCache | bool | None = None,
              program: bool = False) -> Spec:
    """Load and validate everything under ``root``.

    ``cache``: None/True use the record cache (:mod:`specgen.cache`), False reads everything
    afresh; ``jobs``: processes that parse changed files (default ``$SPECGEN_JOBS`` or 1). Neither
    changes the result. ``program=True`` reads what running a program needs, the configuration, the
    ASL units, the JSON artifacts and the examples, and not the AVS tests, ADRs or documents (a cold
    ``specgen run`` of 0.58.3 spent a seventh of its time reading 3,352 tests it never runs); the
    spec says so (:attr:`Spec.program_only`).
    """
    enabled = gc.isenabled()
    gc.disable()  # millions of small objects, no cycles worth collecting mid-load: ~20 % faster
    try:
        return _load_spec(root, jobs, cache, program)
    finally:
        if enabled:
            gc.enable()


def _load_spec(root: Path, jobs: int | None, cache_opt: RecordCache | bool | None, program: bool) -> Spec:
    if not root.exists():
        raise RootError(f"spec root {root} does not exist")
    if not root.is_dir():
        raise RootError(f"spec root {root} is not a directory")
    files = SpecFiles(root)
    try:
        files.probe()
    except OSError as e:
        raise RootError(f"spec root {root} cannot be read: {e.strerror}") from e
    cache = open_cache(files.root, cache_opt)
    if program and cache is not None:  # what a whole load reads and this one does not stays stored
        cache.keep_unread(("adr", "doc"))  # test records are never stored (scans._PERSISTED)
    scans = Scans(cache, jobs)
    findings: list[Finding] = []
    t0 = time.perf_counter()
    cfg_text = files.read("specification.toml")
    config = load_config(cfg_text.text if cfg_text else None, "specification.toml", findings)
    spec = Spec(root=files.root, config=config, fs=files, program_only=program)
    if cfg_text:
        spec.files[cfg_text.path] = cfg_text.sha256

    # ASL units
    for src_root in config.source_roots:
        for rel in files.walk(src_root, ""):
            if not rel.endswith(".asl"):
                spec.other_files.append(rel)
                continue
            ft = files.read(rel, ascii_only=True)
            if ft is None:
                continue
            spec.files[rel] = ft.sha256
            if ft.text is None:
                continue
            if not ft.text.strip():
                # one cause, one finding: an empty unit has no header either, but that is not news
                findings.append(Finding("file-empty", Severity.ERROR, rel, 0,
                                        "ASL unit is empty; write its header and body, or delete it"))
                spec.units.append(scans.unit(rel, ft.sha256, ft.text, []))
                continue
            if ft.size > config.max_unit_bytes:
                findings.append(_too_large(rel, ft.size, config.max_unit_bytes, "ASL unit"))
                # its records (headers, NDF clauses) still load, so nothing that names them dangles;
                # its ASL is not parsed, run or rendered: the index sees a unit that does not parse
                spec.units.append(scans.unit(rel, ft.sha256, ft.text, findings, shown=UNPARSED_STUB))
                continue
            spec.units.append(scans.unit(rel, ft.sha256, ft.text, findings))
    spec.units.sort(key=lambda u: u.path)
    t1 = time.perf_counter()

    # AVS tests
    for rel in files.walk(config.test_root, ".asl") if not program else ():
        ft = files.read(rel, ascii_only=True)
        if ft is None:
            continue
        spec.files[rel] = ft.sha256
        if ft.text is None:
            continue
        if ft.size > config.max_unit_bytes:
            findings.append(_too_large(rel, ft.size, config.max_unit_bytes, "AVS test"))
            continue
        spec.tests.append(scans.test(rel, ft.sha256, ft.text, findings))
    scans.resolve([spec.units, spec.tests], findings)
    t2 = time.perf_counter()

    # JSON artifacts under spec/
    for rel in files.walk(config.json_root, ".json"):
        art = _load_json(files, rel, findings, cache)
        if art is None:
            continue
        spec.files[rel] = art.sha256
        spec.artifacts[rel] = art
    _apply_models(spec, findings, cache)
    spec.examples = _examples(spec, files, root, findings, cache)
    t3 = time.perf_counter()

    # ADRs
    adr_rel = "spec/schemas/pto-adr.schema.json"
    adr_key = spec.artifacts[adr_rel].sha256 if adr_rel in spec.artifacts else "-"
    adr_schema: list[Any] = []  # compiled on the first ADR the cache does not know

    def scan_adr_fresh(rel: str, sha: str, text: str) -> tuple[Any, list[Finding]]:
        if not adr_schema:
            adr_schema.append(_schema_validator(spec, adr_rel))
        found: list[Finding] = []
        return scan_adr(rel, sha, text, found, adr_schema[0]), found

    adr_files = files.walk(config.adr_dir, ".md") if not program else []
    if not adr_files and not config.adr_dir_set and not program:  # an older layout keeps its ADRs elsewhere under docs/
        found_dir = find_adr_dir(files)
        if found_dir:
            config = spec.config = dataclasses.replace(config, adr_dir=found_dir)
            adr_files = files.walk(found_dir, ".md")
    for rel in adr_files:
        ft = files.read(rel)
        if ft is None:
            continue
        spec.files[rel] = ft.sha256
        if ft.text is None:
            continue
        adr, found = memo(cache, f"adr\0{rel}\0{ft.sha256}\0{adr_key}",
                          lambda rel=rel, ft=ft: scan_adr_fresh(rel, ft.sha256, ft.text))
        findings.extend(found)
        spec.adrs.append(adr)
    spec.docs = [] if program else load_docs(
        files, config.doc_root, config.adr_dir, {u.path for u in spec.units}, spec.files.__setitem__,
        lambda rel, sha, text: memo(cache, f"doc\0{rel}\0{sha}", lambda: scan_doc(rel, sha, text), kind=ProseDoc))
    t4 = time.perf_counter()
    readme = None if program else files.read(
        config.test_root.rsplit("/", 1)[0] + "/README.md" if "/" in config.test_root else "README.md")
    if readme is not None and readme.text is not None:
        spec.test_naming = parse_test_naming(readme.text, readme.path, config.test_root)
        spec.test_functions = parse_test_functions(readme.text, readme.path)
    detect_formats(spec, findings)
    spec.timings = {"asl": t1 - t0, "tests": t2 - t1, "json": t3 - t2, "adrs": t4 - t3,
                    "workers": float(scans.parallel_used)}
    spec.findings = files.findings + findings
    if cache is not None:
        cache.save()
    return spec


#: What the ASL index parses instead of an oversized unit: a syntax error on line 1, where the
#: loader's own finding already is (so it is not reported twice), which marks the unit as broken
#: and lets every consequence that names it fold into that one finding
UNPARSED_STUB = "!! not parsed: larger than [specgen] max_unit_bytes\n"


def _too_large(rel: str, size: int, limit: int, what: str) -> Finding:
    return Finding(TOO_LARGE_RULE, Severity.ERROR, rel, 1,
                   f"{what} is {size} bytes; specgen parses, runs and renders at most {limit} bytes of one "
                   "(split it, or raise [specgen] max_unit_bytes in specification.toml)", subject=rel, col=1)


def _load_json(files: SpecFiles, rel: str, findings: list[Finding], cache: RecordCache | None = None
               ) -> JsonArtifact | None:
    before = len(files.findings)
    ft = files.read(rel)
    if ft is None or ft.text is None:
        return None
    text = ft.text
    if any(f.rule in BYTE_RULES for f in files.findings[before:]):
        # invalid bytes (reported) are not parsed as data: one cause, not a second "invalid JSON"
        return JsonArtifact(path=rel, sha256=ft.sha256, data=None, text=text)

    def parse() -> tuple[Any, list[Finding]]:
        found: list[Finding] = []
        return parse_json(text, rel, 1, 0, "JSON file", found), found

    data, found = memo(cache, f"json\0{rel}\0{ft.sha256}", parse)
    findings.extend(found)
    return JsonArtifact(path=rel, sha256=ft.sha256, data=data, text=ft.text)


def _examples(spec: Spec, files: SpecFiles, named_root: Path, findings: list[Finding],
              cache: RecordCache | None) -> ExampleSource:
    """The examples' reader (in the tree or beside it); the config then shows their path prefix."""
    cfg = spec.config
    sg = cfg.raw.get("specgen") if isinstance(cfg.raw.get("specgen"), dict) else {}
    source = example_source(files, cfg.example_root, "example_root" in sg, named_root, findings)
    if source.shown != cfg.example_root:
        spec.config = dataclasses.replace(cfg, example_root=source.shown)
    if source.fs is files:
        _check_example_files(files, source.folder, findings, cache)
    else:  # a second reader: its findings are shown by their path from the spec root
        before = len(findings)
        _check_example_files(source.fs, ".", findings, cache)
        findings[before:] = [dataclasses.replace(f, path=source.show(f.path)) for f in findings[before:]]
        findings.extend(dataclasses.replace(f, path=source.show(f.path)) for f in source.fs.findings)
    return source


def _check_example_files(files: SpecFiles, example_root: str, findings: list[Finding],
                         cache: RecordCache | None) -> None:
    """Checked examples are JSON too: their bytes and syntax (encoding, NUL, nesting, a bad token) are
    checked here, so ``validate`` reports a malformed one like any other file. What an example
    means needs the spec's vocabulary and interpreter (``check`` runs them) and skips these files."""
    for rel in files.walk(example_root, ".json"):
        before = len(files.findings)
        ft = files.read(rel)
        if ft is None or ft.text is None or any(f.rule in BYTE_RULES for f in files.findings[before:]):
            continue
        text = ft.text

        def well_formed(text: str = text, rel: str = rel) -> list[Finding]:
            found: list[Finding] = []
            parse_json(text, rel, 1, 0, "example file", found)
            return found

        findings.extend(memo(cache, f"example-json\0{rel}\0{ft.sha256}", well_formed, kind=list))


def _apply_models(spec: Spec, findings: list[Finding], cache: RecordCache | None = None) -> None:
    """Validate the JSON artifacts specgen reads for meaning; the rest stay opaque."""
    cfg = spec.config
    for rel, art in spec.artifacts.items():
        if art.data is None:
            continue
        stem = rel.rsplit("/", 1)[-1].removesuffix(".json")
        model: Any = None
        if rel == cfg.manifest:
            model = manifest_model(art.data)
        elif rel.startswith(cfg.json_root + "/catalog/") and stem in CATALOG_MODELS:
            model = CATALOG_MODELS[stem]
        elif isinstance(art.data, dict) and art.data.get("schema") == TRACEABILITY_SCHEMA:
            model = traceability_model(art.data)
        if model is not None:
            # a validated catalog unpickles no faster than pydantic validates it: not written to disk
            art.model, found = memo(cache, f"model\0{rel}\0{art.sha256}\0{model.__name__}",
                                    lambda model=model, art=art: _validated(model, art), disk=False)
            if isinstance(art.data, dict) and art.data.get("schema") == TRACEABILITY_SCHEMA:
                found = unknown_shape(found, rel)
            findings.extend(found)
        if isinstance(art.data, dict) and isinstance(art.data.get("$schema"), str):
            ref = _schema_rel(spec, art)
            ref_sha = spec.artifacts[ref].sha256 if ref is not None and ref in spec.artifacts else "-"
            findings.extend(memo(cache, f"schema\0{rel}\0{art.sha256}\0{ref}\0{ref_sha}",
                                 lambda art=art: _declared(spec, art), kind=list))
    man = spec.artifacts.get(cfg.manifest)
    spec.manifest_path = cfg.manifest
    if man is None:
        findings.append(Finding("manifest-absent", Severity.ERROR, cfg.manifest, 0,
                                "release manifest not found; create it with 'specgen manifest --write'"))
    elif isinstance(man.model, ReleaseManifest):
        spec.manifest = man.model
    for art in spec.artifacts.values():
        if isinstance(art.model, TraceabilityView):
            spec.traceability = art
            break


def _validated(model: Any, art: JsonArtifact) -> tuple[Any, list[Finding]]:
    found: list[Finding] = []
    return _validate_artifact(model, art, found), found


def _declared(spec: Spec, art: JsonArtifact) -> list[Finding]:
    found: list[Finding] = []
    _validate_declared_schema(spec, art, found)
    return found


def _validate_artifact(model: Any, art: JsonArtifact, findings: list[Finding]) -> Any:
    """Validate a whole JSON file; errors are located by the first line naming the failing key."""
    return validate_whole(model, art.data, art.text, art.path, findings)


def _schema_validator(spec: Spec, rel: str) -> Any:
    art = spec.artifacts.get(rel)
    if art is None or not isinstance(art.data, dict):
        return None
    try:
        import jsonschema
        cls = jsonschema.validators.validator_for(art.data)
        cls.check_schema(art.data)
        return cls(art.data, format_checker=cls.FORMAT_CHECKER)
    except Exception as e:  # a broken schema is the spec's problem, reported once
        spec.findings.append(Finding("schema-invalid", Severity.ERROR, rel, 1, f"not a valid JSON Schema: {e}"))
        return None


def _validate_declared_schema(spec: Spec, art: JsonArtifact, findings: list[Finding]) -> None:
    """A JSON file naming its schema with a relative ``$schema`` is checked against it (jsonschema)."""
    ref = art.data["$schema"]
    rel = _schema_rel(spec, art)
    if rel is None:
        return
    validator = _schema_validator(spec, rel)
    if validator is None:
        if rel not in spec.artifacts:
            findings.append(Finding("schema-missing", Severity.ERROR, art.path, 1,
                                    f"$schema names {ref}, which is not in the tree"))
        return
    for err in sorted(validator.iter_errors(art.data), key=lambda e: [str(p) for p in e.path]):
        key = next((str(p) for p in reversed(list(err.path)) if isinstance(p, str)), "")
        line = art.line_of(f'"{key}"') if key else 1
        where = "/".join(str(p) for p in err.path) or "(document)"
        findings.append(Finding("json-schema", Severity.ERROR, art.path, line or 1,
                                f"{where}: {err.message} ({rel})", col=1))


def _schema_rel(spec: Spec, art: JsonArtifact) -> str | None:
    """The root-relative path a relative ``$schema`` names (None: a URL, not checked)."""
    ref = art.data["$schema"]
    if "://" in ref:
        return None
    base = art.path.rsplit("/", 1)[0]
    candidate = ref if ref in spec.artifacts else base + "/" + ref
    parts: list[str] = []
    for p in candidate.split("/"):
        if p == "..":
            if parts:
                parts.pop()
        elif p and p != ".":
            parts.append(p)
    return "/".join(parts)
