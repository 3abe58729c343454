"""Derive every :class:`Encoding` from the spec's catalogs, never from a typed table.

The layout of a tile operation is not stored on the operation: it belongs to
its carrier command form (FORMATS §9.3). So tile encodings are built by
specialising the carrier: TEPL operations pin Mode/Function to the
operation's constants; CUBE/TLSU carriers already fix Function in their mask;
``encoding_variants`` become alternative rows. Scalar forms, command forms and
the extension reservations are read as they are.

The builder is pure (no file I/O) so the loader stays the only reader. It is
also forgiving: a malformed record becomes an ``encoding-record`` finding on
``EncodingSet.build_findings`` instead of an exception.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..diagnostics import Finding, Severity
from ..models.catalog import CATALOG_STEMS, RESERVATION_STEMS
from .model import Carrier, Encoding, EncodingSet, Field, FieldCondition, FieldSlice, Source

DEFAULT_ZERO = "Encoded zero supplies numeric zero for the {role}."


_MAX_BITS = 1024  # far above any real word; keeps hostile numbers from building huge masks


def _bounded(raw: Any, what: str, low: int = 0) -> int:
    """An int in ``low.._MAX_BITS`` or a ValueError naming the key."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= _MAX_BITS:
        raise ValueError(f"{what} must be an integer between {low} and {_MAX_BITS}, got {raw!r}")
    return raw


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def id_slug(mnemonic: str) -> str:
    """The ``PTO-<SURFACE>-<slug>`` part of an instruction id (FORMATS §1.3)."""
    return re.sub(r"[^A-Z0-9]+", "-", mnemonic.upper()).strip("-")


class _Lines:
    """1-based line lookup for ``"key": "value"`` occurrences in a catalog text."""

    def __init__(self, text: str) -> None:
        self._index: dict[str, list[tuple[int, int]]] = {}
        for no, line in enumerate(text.splitlines(), 1):
            for m in re.finditer(r'"(form_id|name|mnemonic)"\s*:\s*("(?:[^"\\]|\\.)*")', line):
                self._index.setdefault(f"{m.group(1)}={m.group(2)}", []).append((no, m.start() + 1))

    def find(self, key: str, value: str, nth: int = 0) -> tuple[int, int]:
        """(line, column) of the nth occurrence; (1, 1) when the text is unknown."""
        hits = self._index.get(f"{key}={json.dumps(value, ensure_ascii=False)}", [])
        if not hits:
            return (1, 1)
        return hits[min(nth, len(hits) - 1)]


class _Builder:
    def __init__(self, catalogs: Mapping[str, Any], field_domains: Sequence[Mapping[str, Any]],
                 contracts: Mapping[str, Mapping[str, Any]], catalog_paths: Mapping[str, str],
                 catalog_texts: Mapping[str, str]) -> None:
        self.catalogs = catalogs
        self.contracts = contracts
        self.paths = {s: catalog_paths.get(s, f"spec/catalog/{s}.json") for s in CATALOG_STEMS}
        self.lines = {s: _Lines(catalog_texts.get(s, "")) for s in CATALOG_STEMS}
        self.domains: dict[str, Mapping[str, Any]] = {}
        for d in field_domains:
            if isinstance(d, Mapping) and isinstance(d.get("id"), str):
                self.domains[d["id"]] = d
        self.findings: list[Finding] = []
        self.out: list[Encoding] = []
        self.aliases: dict[str, str] = {}
        self.forms_by_mn: dict[str, list[tuple[Mapping[str, Any], Encoding]]] = {}

    # ------------------------------------------------------------ helpers
    def problem(self, stem: str, at: tuple[int, int], subject: str, message: str) -> None:
        line, col = at
        self.findings.append(Finding("encoding-record", Severity.ERROR, self.paths[stem], line,
                                     message, subject=subject, col=col))

    def _list(self, stem: str, key: str) -> list[Any]:
        cat = self.catalogs.get(stem)
        if not isinstance(cat, Mapping):
            return []
        val = cat.get(key)
        return val if isinstance(val, list) else []

    def domain_values(self, domain_id: str | None) -> dict[int, str] | None:
        d = self.domains.get(domain_id or "")
        if d is None:
            return None
        out: dict[int, str] = {}
        for row in d.get("assigned", []) or []:
            if isinstance(row, Mapping) and isinstance(row.get("value"), int):
                out[row["value"]] = str(row.get("meaning", ""))
        return out

    @staticmethod
    def parse_parts(raw: Any) -> tuple[int, int, int, list[tuple[int, int, int, int]]]:
        """(mask, match, sum of part widths, parts) with parts placed at cumulative offsets."""
        if not isinstance(raw, list):
            raise ValueError("'encoding' is not a list")
        parts = sorted(raw, key=lambda e: int(e.get("index", 0)))
        mask = match = offset = 0
        out: list[tuple[int, int, int, int]] = []
        for e in parts:
            w = _bounded(e["width_bits"], "width_bits", 1)
            m = int(str(e["mask"]), 16)
            v = int(str(e["match"]), 16)
            out.append((offset, w, m, v))
            mask |= m << offset
            match |= v << offset
            offset += w
        return mask, match, offset, out

    def parse_fields(self, raw: Any, contract: Mapping[str, Any] | None,
                     extra_contract: Mapping[str, Any] | None = None,
                     fixed: Mapping[str, int] | None = None,
                     constraints: Sequence[FieldCondition] = ()) -> list[Field]:
        if not isinstance(raw, list):
            raise ValueError("'fields' is not a list")
        contract = contract if isinstance(contract, Mapping) else {}
        if not isinstance(extra_contract, Mapping):
            extra_contract = None
        roles = {o.get("field"): o.get("role") for o in contract.get("operands", []) or []
                 if isinstance(o, Mapping)}
        zeros = contract.get("field_zero_meanings", {}) or {}
        if not isinstance(zeros, Mapping):
            zeros = {}
        refs: dict[str, str] = {}
        for c in (extra_contract or {}, contract):
            fcs = c.get("field_contracts", {}) or {}
            for fname, ref in (fcs.items() if isinstance(fcs, Mapping) else ()):
                if isinstance(ref, Mapping) and isinstance(ref.get("ref"), str):
                    refs[fname] = ref["ref"]
        pinned = {c.field: c.values[0] for c in constraints
                  if c.operator == "one-of" and len(c.values) == 1}
        fields: list[Field] = []
        for fd in raw:
            name = str(fd["name"])
            pieces = tuple(FieldSlice(_bounded(p["instruction_lsb"], "instruction_lsb"),
                                 _bounded(p.get("value_lsb", 0), "value_lsb"), _bounded(p["width"], "width", 1))
                           for p in sorted(fd["pieces"], key=lambda p: (int(p.get("part_index", 0)),
                                                                        int(p.get("value_lsb", 0)))))
            role = roles.get(name)
            domain = refs.get(name)
            if name in zeros:
                zero, zsrc = str(zeros[name]), "contract"
            elif role:
                zero, zsrc = DEFAULT_ZERO.format(role=role), "default"
            elif domain and domain in self.domains:
                zero, zsrc = str(self.domains[domain].get("zero_meaning", "")) or None, "domain"
            else:
                zero, zsrc = None, None
            fixed_value, fixed_by = None, None
            if fixed and name in fixed:
                fixed_value, fixed_by = fixed[name], "operation"
            elif name in pinned:
                fixed_value, fixed_by = pinned[name], "constraint"
            fields.append(Field(name=name, pieces=pieces, width=int(fd.get("width", sum(p.width for p in pieces))),
                                signedness=fd.get("signedness"), role=role, zero_meaning=zero,
                                zero_meaning_source=zsrc, domain=domain,
                                fixed_value=fixed_value, fixed_by=fixed_by))
        return fields

    @staticmethod
    def parse_constraints(raw: Any) -> list[FieldCondition]:
        out: list[FieldCondition] = []
        for c in raw or []:
            op = str(c["operator"])
            if op == "one-of":
                vals = tuple(int(v) for v in c["values"])
            elif op == "not-equal":
                vals = (int(c["value"]),)
            else:
                raise ValueError(f"unknown constraint operator {op!r}")
            out.append(FieldCondition(str(c["field"]), op, vals))
        return out

    def domain_map(self, fields: Iterable[Field]) -> dict[str, dict[int, str]]:
        out: dict[str, dict[int, str]] = {}
        for f in fields:
            vals = self.domain_values(f.domain)
            if vals is not None:
                out[f.name] = vals
        return out

    # -------------------------------------------------------------- forms
    def forms(self, stem: str, surface: str, kind: str) -> None:
        for i, form in enumerate(self._list(stem, "forms")):
            mn = str(form.get("mnemonic", "")) if isinstance(form, Mapping) else ""
            fid = str(form.get("form_id", "")) if isinstance(form, Mapping) else ""
            line = self.lines[stem].find("form_id", fid) if fid else (1, 1)
            try:
                constraints = self.parse_constraints(form.get("constraints"))
                mask, match, total, parts = self.parse_parts(form.get("encoding"))
                contract = self.contracts.get(mn)
                fields = self.parse_fields(form.get("fields"), contract, constraints=constraints)
                width = _bounded(form["length_bits"], "length_bits", 1)
            except (KeyError, ValueError, TypeError, AttributeError) as exc:
                self.problem(stem, line, fid or mn, f"form {fid or i} ({mn or '?'}) cannot be read: {exc}; "
                             "fix the record so it has length_bits, encoding[{index, mask, match, width_bits}] "
                             "and fields[{name, pieces, width}]")
                continue
            asm = str(form.get("asm", mn))
            src = Source(self.paths[stem], line[0], f"forms[{i}]", line[1])
            excluded = tuple((str(x.get("field")), int(x.get("value", 0)), str(x.get("owner")))
                             for x in form.get("excluded_value_owners", []) or [] if isinstance(x, Mapping))
            enc = Encoding(mnemonic=mn, form_id=fid, kind=kind, width=width, fields=tuple(fields),  # type: ignore[arg-type]
                           fixed_mask=mask, fixed_match=match, constraints=tuple(constraints),
                           carrier=Carrier(mn, asm, fid), source=src, assembly=asm, surface=surface,
                           status=str(form.get("status", "")), encoding_kind=str(form.get("encoding_kind", "")),
                           base_form_id=fid, domain_values=self.domain_map(fields), excluded_values=excluded,
                           parts=tuple(parts), parts_width=total,
                           assembly_prose=_prose(contract))
            self.out.append(enc)
            self.forms_by_mn.setdefault(mn, []).append((form, enc))
            for alias in form.get("accepted_assembly_mnemonics", []) or []:
                if alias != mn:
                    self.aliases[str(alias)] = mn
            for j, var in enumerate(form.get("encoding_variants", []) or []):
                self.variant(stem, form, enc, var, j, fields, constraints)

    def variant(self, stem: str, form: Mapping[str, Any], base: Encoding, var: Mapping[str, Any],
                j: int, fields: Sequence[Field], constraints: Sequence[FieldCondition],
                mnemonic: str | None = None, form_id: str | None = None, kind: str | None = None,
                carrier: Carrier | None = None, source: Source | None = None, assembly: str | None = None,
                surface: str | None = None) -> Encoding | None:
        name = str(var.get("name", f"variant{j}"))
        line = self.lines[stem].find("name", name)
        try:
            mask, match, total, parts = self.parse_parts(var.get("encoding"))
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            self.problem(stem, line, name, f"encoding variant {name} of {base.form_id} cannot be read: {exc}")
            return None
        enc = Encoding(mnemonic=mnemonic or base.mnemonic, form_id=form_id or f"{base.form_id}__{slug(name)}",
                       kind=kind or base.kind, width=base.width, fields=tuple(fields),  # type: ignore[arg-type]
                       fixed_mask=mask, fixed_match=match, constraints=tuple(constraints),
                       carrier=carrier or base.carrier,
                       source=source or Source(self.paths[stem], line[0], f"{base.source.pointer}.encoding_variants[{j}]",
                                                      line[1]),
                       assembly=assembly or base.assembly, surface=surface or base.surface, status=base.status,
                       encoding_kind=base.encoding_kind, variant=name, base_form_id=base.form_id,
                       domain_values=self.domain_map(fields), parts=tuple(parts), parts_width=total,
                       assembly_prose=base.assembly_prose)
        if mnemonic is None:
            self.out.append(enc)
        return enc

    # -------------------------------------------------------------- tiles
    def tiles(self) -> None:
        stem = "tile-operations"
        for i, op in enumerate(self._list(stem, "operations")):
            if not isinstance(op, Mapping):
                continue
            name = str(op.get("name", ""))
            line = self.lines[stem].find("name", name)
            src = Source(self.paths[stem], line[0], f"operations[{i}]", line[1])
            carrier_mn = str(op.get("command_mnemonic", ""))
            carriers = self.forms_by_mn.get(carrier_mn, [])
            if len(carriers) != 1:
                self.problem(stem, line, name, f"tile operation {name} names carrier {carrier_mn!r}, which has "
                             f"{len(carriers)} forms in command-forms.json; it needs exactly one")
                continue
            cform, cenc = carriers[0]
            family = str(op.get("family", ""))
            try:
                function = int(op["function"])
                mode = int(op["mode"]) if "mode" in op else None
            except (KeyError, ValueError, TypeError) as exc:
                self.problem(stem, line, name, f"tile operation {name} has no usable function/mode: {exc}")
                continue
            contract = self.contracts.get(name)
            carrier_contract = self.contracts.get(carrier_mn)
            fixed: dict[str, int] = {}
            names = {f.name for f in cenc.fields}
            if "Mode" in names and "Function" in names:
                fixed = {"Mode": mode or 0, "Function": function}
                sel = op.get("selector")
                want = "0x%03X" % ((mode or 0) << 5 | function)
                if mode is None or (sel is not None and sel != want):
                    self.problem(stem, line, name, f"tile operation {name}: selector {sel!r} does not equal "
                                 f"mode<<5|function = {want}; fix selector, mode or function")
            else:
                got = self._fixed_function(cenc)
                if got is not None and got != function:
                    self.problem(stem, line, name, f"tile operation {name}: function {function} differs from "
                                 f"carrier {carrier_mn} bits 24:20 = {got}")
            try:
                fields = self.parse_fields(cform.get("fields"), contract, carrier_contract, fixed, cenc.constraints)
            except (KeyError, ValueError, TypeError, AttributeError):
                continue  # the carrier's own finding already reports it
            engine = str(op.get("engine", ""))
            by_engine = cform.get("canonical_assembly_by_engine") or {}
            if fixed and isinstance(by_engine, Mapping) and engine in by_engine:
                asm = f"{by_engine[engine]} {name}, DataType"
            else:
                asm = cenc.assembly
            code = f"m{mode}_f{function}" if fixed else f"f{function}"
            width = cenc.width
            enc = Encoding(mnemonic=name, form_id=f"tile_{slug(name)}_{width}_{slug(family)}_{code}",
                           kind="tile-operation", width=width, fields=tuple(fields),
                           fixed_mask=cenc.fixed_mask, fixed_match=cenc.fixed_match,
                           constraints=cenc.constraints, carrier=cenc.carrier, source=src, assembly=asm,
                           surface="tile", status=str(op.get("disposition", "")),
                           encoding_kind=cenc.encoding_kind, base_form_id=cenc.form_id,
                           domain_values=self.domain_map(fields), parts=cenc.parts, parts_width=cenc.parts_width)
            self.out.append(enc)
            for j, var in enumerate(cform.get("encoding_variants", []) or []):
                vfun = var.get("function")
                vname = str(var.get("name", ""))
                v = self.variant("command-forms", cform, cenc, var, j, fields, cenc.constraints,
                                 mnemonic=name, kind="tile-operation",
                                 form_id=f"tile_{slug(name)}_{width}_{slug(family)}_f{vfun}",
                                 carrier=cenc.carrier, source=src, assembly=f"{vname} DataType",
                                 surface="tile")
                if v is not None:
                    self.out.append(v)

    @staticmethod
    def _fixed_function(enc: Encoding) -> int | None:
        bits = 0x1F << 20
        if enc.width != 32 or enc.fixed_mask & bits != bits:
            return None
        return (enc.fixed_match >> 20) & 0x1F

    # -------------------------------------------------------- reservations
    def reservations(self) -> None:
        for stem in RESERVATION_STEMS:  # one file name per generation; a tree has one (or both)
            self._reservations(stem)

    def _reservations(self, stem: str) -> None:
        seen: dict[str, int] = {}
        for i, r in enumerate(self._list(stem, "reservations")):
            if not isinstance(r, Mapping):
                continue
            mn = str(r.get("mnemonic", ""))
            nth = seen.get(mn, 0)
            seen[mn] = nth + 1
            line = self.lines[stem].find("mnemonic", mn, nth)
            try:
                constraints = self.parse_constraints(r.get("constraints"))
                mask, match, total, parts = self.parse_parts(r.get("encoding"))
                fields = self.parse_fields(r.get("fields"), None, constraints=constraints)
                width = _bounded(r["length_bits"], "length_bits", 1)
            except (KeyError, ValueError, TypeError, AttributeError) as exc:
                self.problem(stem, line, mn, f"reservation {mn or i} cannot be read: {exc}")
                continue
            fid = f"rsv_{slug(mn) or 'anon'}_{width}" + (f"_{nth}" if nth else "")
            enc = Encoding(mnemonic=mn, form_id=fid, kind="reservation", width=width, fields=tuple(fields),
                           fixed_mask=mask, fixed_match=match, constraints=tuple(constraints),
                           carrier=Carrier(mn, mn, fid), source=Source(self.paths[stem], line[0], f"reservations[{i}]", line[1]),
                           assembly=mn, surface="extension", status=str(r.get("status", "")),
                           encoding_kind="", base_form_id=fid, domain_values={},
                           parts=tuple(parts), parts_width=total)
            self.out.append(enc)


def _prose(contract: object) -> tuple[str, ...]:
    """The contract's sentences naming assembly codes (hostile data: anything but a list of strings is none)."""
    lines = contract.get("assembly_prose") if isinstance(contract, Mapping) else None
    return tuple(x for x in lines if isinstance(x, str)) if isinstance(lines, list) else ()


def build_encodings(catalogs: Mapping[str, Any], field_domains: Sequence[Mapping[str, Any]] = (),
                    contracts: Mapping[str, Mapping[str, Any]] = {},  # noqa: B006 - read-only default
                    catalog_paths: Mapping[str, str] = {},  # noqa: B006
                    catalog_texts: Mapping[str, str] = {}) -> EncodingSet:  # noqa: B006
    """Build every encoding from parsed catalogs (keyed by file stem); no file I/O."""
    b = _Builder(catalogs, field_domains, contracts, catalog_paths, catalog_texts)
    b.forms("command-forms", "block", "command-form")
    b.forms("scalar-forms", "scalar", "scalar-form")
    b.tiles()
    b.reservations()
    reviewed: list[tuple[str, str, str]] = []
    cat = catalogs.get("command-forms")
    if isinstance(cat, Mapping):
        for r in cat.get("reviewed_encoding_overlaps", []) or []:
            if isinstance(r, Mapping):
                reviewed.append((str(r.get("broad_form_id")), str(r.get("narrow_form_id")), str(r.get("reason", ""))))
    return EncodingSet(b.out, aliases=b.aliases, reviewed_overlaps=tuple(reviewed),
                       field_domains=tuple(field_domains), build_findings=b.findings)
