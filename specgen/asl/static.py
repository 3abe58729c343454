"""Static checks of a spec's ASL: what the interpreter can tell is wrong before running anything.

A broken unit used to surface only as its consequences (an instruction "not in
this spec", tests marked as needing generated code). Here every unit of the
spec's source roots is checked once and each cause becomes one finding
``path:line:col: asl-<kind>: message``:

* ``asl-syntax``: the unit does not parse (from the index's ``parse_errors``);
* ``asl-unknown-name``: a local name (lower-case first letter) that no
  parameter, local declaration or top-level definition binds, or a capitalised
  name that nothing defines and that is one small edit away from a name that
  is defined (a typo). A capitalised name far from every definition may be a
  name the upstream build generates (decoders, validation shards): it is left
  to the run, which reports it where it is reached;
* ``asl-arity``: a call whose argument count matches no declaration of a
  function the tree or the generated ASL defines;
* ``asl-type``: a ``return`` that disagrees with the function's result type
  (a value where none is declared, none where one is), or a call used as a
  value of a function none of whose declarations returns one.

The result depends only on the units' contents (plus the generated ASL, itself
derived from the loaded catalogs) and this module, so it is cached on disk
under a key made of every unit key and a digest of this file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ..cache import cache_file, prune, read_entry, write_entry
from ..catalog_asl.sources import SHARD_PREFIXES, generated_sources
from ..diagnostics import Finding, Severity
from ..graph import Derived, SpecGraph
from ..loader.tree import Spec
from .ast import Decl, FuncDecl, GlobalDecl, Node
from .catalog_modules import generation_findings
from .compile_stmt import collect_locals
from .errors import ASLError
from .contract_check import contract_findings, shard_calls
from .duplicates import duplicate_findings
from .generated_names import looks_like_member
from .headers import Header, scan_sources
from .index import SpecIndex, build_index, parse_cached
from .static_types import return_kinds, type_mismatches
from .stdlib import BUILTINS

_NAME_KINDS = ("e_var", "l_var")
_CALL_KINDS = ("e_call", "s_call")
_TYPE_KINDS = ("t_named", "e_record")
_NO_VALUE = frozenset({False})
GENERATED_RULE = "generated-asl"
STORED_KEEP = 8  # stored findings: the last few revisions of a few trees (each edit of a unit or test writes one)
_VERSION: str | None = None


@dataclass(frozen=True)
class Known:
    """Every top-level name a unit may use, and the argument counts each function accepts."""

    names: frozenset[str]
    arities: dict[str, frozenset[int]]
    returns: dict[tuple[str, int], frozenset[bool]]  # (name, arity) -> whether its declarations return a value
    generated_only: frozenset[str] = frozenset()  # functions only specgen's generated ASL declares


def _version() -> str:
    """Digest of this module and of every generator of ASL from the catalogs."""
    global _VERSION
    if _VERSION is None:
        h = hashlib.sha256()
        here = Path(__file__).parent
        derived = here.parent / "catalog_asl"
        for p in sorted([here / "static.py", here / "static_types.py", here / "catalog_modules.py", here / "headers.py",
                         here / "contract_check.py", here.parent / "speccontract.py", *derived.glob("*.py")]):
            h.update(p.read_bytes())
        _VERSION = h.hexdigest()[:16]
    return _VERSION


def _cache_key(spec: Spec, index: SpecIndex) -> str:
    """Every unit's content key and every catalog's digest: what the findings depend on."""
    h = hashlib.sha256(_version().encode())
    for key in index.keys:
        h.update(key.encode())
    prefix = f"{spec.config.json_root}/catalog/"
    for path in sorted(p for p in spec.artifacts if p.startswith(prefix)):
        h.update(f"\0{path}\0{spec.artifacts[path].sha256}".encode())
    for name, paths in sorted(shard_calls(spec).items()):  # the shards the tests call (spec-contract)
        h.update(f"\0{name}\0{len(paths)}\0{paths[0]}".encode())
    return h.hexdigest()


def generated_headers(spec: Spec, index: SpecIndex | None = None,
                      base: list[tuple[str, str]] | None = None) -> list[Header]:
    """What the ASL generated from ``spec``'s catalogs declares: scanned, or parsed where the scan declines.

    Given the ``index`` of the units to judge, the validation shards (most of the generated
    text, and of its cost on a cold check) are generated only when a lookup of those units
    could see one of their names (:func:`shards_matter`); their absence changes no finding.
    ``base``: the generated sources without shards, when the caller has them already.
    """
    out = scan_sources(base if base is not None else generated_sources(spec, shards=False))
    if index is None or shards_matter(index, out):
        out = scan_sources(generated_sources(spec))
    return out


def shards_matter(index: SpecIndex, decoders: Iterable[Header]) -> bool:
    """Whether a validation shard's declarations could change a finding of the units ``index`` holds.

    Every name a shard declares starts with one of :data:`~specgen.catalog_asl.sources.SHARD_PREFIXES`,
    so a shard can matter only to a unit that uses such a name (it resolves it, or adds an
    arity or a result to a call of it), or through the "did you mean" of a capitalised name
    nothing else defines, which names a definition with the same first letter (:func:`_near`).
    The units' references (each declaration's ``refs``) cover every name the check looks up.
    """
    resolved = set(index.defs) | set(BUILTINS)
    for h in decoders:
        resolved.add(h.name)
        resolved.update(h.members)
    firsts = {p[:1].lower() for p in SHARD_PREFIXES}
    for used in index.refs.values():
        for name in used:
            if name.startswith(SHARD_PREFIXES):
                return True
            if (name not in resolved and name[:1].lower() in firsts and not name[:1].islower()
                    and not looks_like_member(name)):
                return True
    return False


def known_names(index: SpecIndex, generated: Iterable[Header]) -> Known:
    """The names defined by the tree, the ASL generated from its catalogs and the built-ins.

    (A profile's Python hooks only replace functions the ASL declares, so they add no name.)
    """
    names: set[str] = set(index.defs) | set(BUILTINS)
    arities: dict[str, set[int]] = {}
    returns: dict[tuple[str, int], set[bool]] = {}
    headers: list[Header] = []
    for name, locs in index.defs.items():
        for loc in locs:
            if loc[0] == "func":
                decl = index.decl(loc)
                headers.append(Header("func", decl.name, len(decl.params), decl.ret is not None))  # type: ignore[union-attr]
    generated_list = list(generated)
    for header in generated_list:
        names.add(header.name)
        names.update(header.members)
        headers.append(header)
    for h in headers:
        if h.kind == "func":
            arities.setdefault(h.name, set()).add(h.arity)
            returns.setdefault((h.name, h.arity), set()).add(h.returns)
    tree = {h.name for h in headers[:len(headers) - len(generated_list)] if h.kind == "func"}
    return Known(frozenset(names), {k: frozenset(v) for k, v in arities.items()},
                 {k: frozenset(v) for k, v in returns.items()},
                 frozenset(h.name for h in generated_list if h.kind == "func" and h.name not in tree))


def _walk(node: object) -> Iterator[Node]:
    """Every node under ``node`` (tuples of nodes, arms and slices included)."""
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Node):
            yield cur
            stack.extend(reversed(cur.args))
        elif isinstance(cur, (tuple, list)):
            stack.extend(reversed(cur))


def _bound(decl: FuncDecl) -> set[str]:
    """Parameters, names a parameter or return type binds implicitly (``bits(N)``), and locals."""
    out = {p[0] for p in decl.params}
    for node in _walk((tuple(p[1] for p in decl.params), decl.ret)):
        if node.kind == "e_var":
            out.add(node.args[0])
    collect_locals(decl.body, out)
    return out


def _near(name: str, names: frozenset[str]) -> str:
    """A defined name one edit (insert, delete, replace, swap) away from ``name``, else ''."""
    lower = name.lower()
    best = ""
    for cand in names:
        if abs(len(cand) - len(name)) > 1 or cand == name or cand[:1].lower() != lower[:1]:
            continue
        if _one_edit(lower, cand.lower()) and (not best or cand < best):
            best = cand
    return best


def _one_edit(a: str, b: str) -> bool:
    if a == b:
        return True
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    return a[i:] == b[i + 1:]


def _unknown(name: str, known: Known, bound: set[str]) -> str:
    """Why ``name`` is unknown ('' when it is fine)."""
    if name in bound or name in known.names:
        return ""
    if name[:1].islower() or name[:1] == "_":
        return f"unknown identifier '{name}': no parameter, local or definition of that name"
    if looks_like_member(name):
        return ""  # a member of an enumeration the upstream build generates
    near = _near(name, known.names)
    return f"unknown identifier '{name}'; did you mean '{near}'?" if near else ""


def _decl_findings(decl: Decl, known: Known) -> Iterator[Finding]:
    if isinstance(decl, FuncDecl):
        bound, roots = _bound(decl), (tuple(p[1] for p in decl.params), decl.ret, decl.body)
    elif isinstance(decl, GlobalDecl):
        bound, roots = set(), (decl.ty, decl.init)
    else:
        bound, roots = set(), (decl.payload,)
    for node in _walk(roots):
        kind = node.kind
        if kind in _NAME_KINDS or kind in _TYPE_KINDS:
            why = _unknown(node.args[0], known, bound)
            if why:
                yield _finding("asl-unknown-name", decl.path, node, why)
        elif kind in _CALL_KINDS:
            name, params, args = node.args[0], node.args[1], node.args[2]
            why = _unknown(name, known, set())
            if why:
                yield _finding("asl-unknown-name", decl.path, node, why)
                continue
            accepted = known.arities.get(name)
            if accepted and not params and len(args) not in accepted and name not in BUILTINS:
                want = " or ".join(str(n) for n in sorted(accepted))
                if name in known.generated_only:
                    yield _generated(decl.path, node, f"specgen's generated '{name}' takes {want} argument(s), "
                                     f"this tree calls it with {len(args)}")
                else:
                    yield _finding("asl-arity", decl.path, node,
                                   f"'{name}' takes {want} argument(s), called with {len(args)}")
            elif kind == "e_call" and known.returns.get((name, len(args))) == _NO_VALUE:
                if name in known.generated_only:
                    yield _generated(decl.path, node, f"specgen's generated '{name}' returns no value, "
                                     "this tree uses it as one")
                else:
                    yield _finding("asl-type", decl.path, node, f"'{name}' returns no value but is used as one")
        elif kind == "s_return" and isinstance(decl, FuncDecl) and (node.args[0] is None) != (decl.ret is None):
            why = (f"'{decl.name}' declares no result type but returns a value" if decl.ret is None
                   else f"'{decl.name}' returns a value of its declared type, but this return gives none")
            yield _finding("asl-type", decl.path, node, why, decl.name)


def _finding(rule: str, path: str, node: Node, message: str, subject: str = "") -> Finding:
    """Located at the node; the subject is the name, so what fails later on it is a consequence."""
    return Finding(rule, Severity.ERROR, path, node.line, message, subject=subject or node.args[0], col=node.col)


def _generated(path: str, node: Node, what: str) -> Finding:
    """A call the tree makes to a function only specgen generates, which the generated declaration does not
    fit: the tree calls what its own (upstream) generator declares, so the mismatch is specgen's generator
    not knowing this tree's generation, a specgen bug, never the tree's ``asl-arity``/``asl-type``."""
    return Finding(GENERATED_RULE, Severity.WARNING, path, node.line,
                   f"{what}: the ASL specgen generates from the catalogs does not fit this tree's generation; "
                   "this is a bug in specgen, not in the tree (please report it)", subject=node.args[0], col=node.col)


def syntax_findings(index: SpecIndex) -> list[Finding]:
    """One ``asl-syntax`` finding per unit that does not parse, at the offending token."""
    return [Finding("asl-syntax", Severity.ERROR, path, line, message, col=col)
            for path, line, col, message in index.parse_errors]


def static_findings(index: SpecIndex, known: Known) -> list[Finding]:
    """Unknown names, wrong arities and result-type mismatches in every unit that parses."""
    broken = {e[0] for e in index.parse_errors}
    modules = [index.module(fi) for fi, unit in enumerate(index.units) if unit.path not in broken]
    returns = return_kinds(d for m in modules for d in m.decls if isinstance(d, FuncDecl))
    out: list[Finding] = []
    for module in modules:
        for decl in module.decls:
            out.extend(_decl_findings(decl, known))
            if isinstance(decl, FuncDecl):
                out.extend(Finding("asl-type", Severity.ERROR, decl.path, node.line, message, subject=decl.name,
                                   col=node.col) for node, message in type_mismatches(decl, returns))
    return out


def asl_findings(spec: Spec, index: SpecIndex | None = None) -> list[Finding]:
    """Every ASL finding of ``spec``: syntax errors, then unknown names, arities and result types.

    Cached by the content of every unit (and this module): a warm ``validate`` reads
    one cache entry instead of walking hundreds of parsed units. ``index`` is ``spec``'s ASL
    index when the caller holds it.
    """
    index = index if index is not None else build_index(spec)
    path = cache_file("asl", f"static-{_cache_key(spec, index)}.entry")
    out = read_entry(path, list)
    if out is None:
        base = generated_sources(spec, shards=False)
        headers = generated_headers(spec, index, base)
        out = (syntax_findings(index) + duplicate_findings(index) + static_findings(index, known_names(index, headers))
               + generation_findings(spec) + contract_findings(spec, index, base, headers))
        if write_entry(path, out) and path is not None:
            prune(path.parent, "static-*.entry", STORED_KEEP)  # one per revision of the units
    # a line the loader already diagnosed (an NDF body line that is not a comment) is one cause
    told = {(f.path, f.line) for f in spec.findings if f.severity is Severity.ERROR}
    return [f for f in out if f.rule != "asl-syntax" or (f.path, f.line) not in told]


def _graph_index(graph: SpecGraph) -> SpecIndex:
    return build_index(graph.spec)


ASL_INDEX: Derived[SpecIndex] = Derived(_graph_index)
"""The ASL index of a graph's spec, read once per graph: the findings and what drops their consequences."""


def test_syntax_findings(spec: Spec) -> list[Finding]:
    """One ``asl-syntax`` finding per AVS test that does not parse, at the offending token, and the
    ``asl-type`` mismatches a reader can see in the tests that do (``validate``).

    A test is parsed as ``specgen test`` parses it (through the same on-disk module cache), and the
    findings of one set of test contents are kept as one cache entry, so only a cold run pays for parsing.
    ``check`` leaves tests to ``specgen test``, which fails a test that does not parse.
    """
    h = hashlib.sha256(_version().encode())
    for t in spec.tests:
        h.update(f"{t.path}\0{t.sha256}\n".encode())
    index = build_index(spec)
    h.update(_cache_key(spec, index).encode())  # the result types of the spec's functions count too
    path = cache_file("asl", f"test-syntax-{h.hexdigest()}.entry")
    out = read_entry(path, list)
    if out is None:
        out = []
        broken = {e[0] for e in index.parse_errors}
        spec_decls = [d for fi, unit in enumerate(index.units) if unit.path not in broken
                      for d in index.module(fi).decls if isinstance(d, FuncDecl)]
        for t in spec.tests:
            try:
                module = parse_cached(t.text.encode("utf-8"), t.path)
            except ASLError as e:
                out.append(Finding("asl-syntax", Severity.ERROR, t.path, e.span.line, e.message, col=e.span.col))
                continue
            own = [d for d in module.decls if isinstance(d, FuncDecl)]
            returns = return_kinds([*spec_decls, *own])
            out.extend(Finding("asl-type", Severity.ERROR, t.path, node.line, message, subject=d.name, col=node.col)
                       for d in own for node, message in type_mismatches(d, returns))
        if write_entry(path, out) and path is not None:
            prune(path.parent, "test-syntax-*.entry", STORED_KEEP)
    return out


def _graph_findings(graph: SpecGraph) -> list[Finding]:
    return asl_findings(graph.spec, ASL_INDEX(graph))


ASL_FINDINGS: Derived[list[Finding]] = Derived(_graph_findings)
"""The ASL findings of a graph's spec, computed once per graph for every ``asl-*`` rule."""


def drop_consequences(graph: SpecGraph, findings: list[Finding]) -> list[Finding]:
    """``findings`` without those that only follow from an ASL finding among them.

    One cause, one finding: the ``asl-*`` finding names the broken unit or call; an
    example of its instruction "not an operation of this spec", or one that fails at
    the very call an arity finding names, adds nothing but confusion.
    """
    causes = [f for f in findings if f.rule.startswith("asl-")]
    if not causes:
        return findings
    index = ASL_INDEX(graph)  # the index the findings were made from, not a second read of its cache
    places = tuple(place for f in causes if f.rule != "asl-syntax"
                   for place in (f"{f.path}:{f.line}:{f.col}", f"'{f.subject}'"))
    if any(f.rule == "asl-type" for f in causes):  # a value of the wrong type fails later, where it is used
        places += ("the ASL failed: type error",)
    return [f for f in findings if not is_consequence(f, index, places)]


def is_consequence(finding: Finding, index: SpecIndex, places: tuple[str, ...] = ()) -> bool:
    """Whether a non-ASL finding names a unit that does not parse (or what it declares) or
    the place or the quoted name of another ASL finding."""
    if finding.rule.startswith("asl-"):
        return False
    return any(place in finding.message for place in places) or index.mentions_broken_unit(finding.message)


__all__ = ["ASL_FINDINGS", "ASL_INDEX", "Known", "asl_findings", "drop_consequences", "is_consequence",
           "known_names", "static_findings", "syntax_findings", "test_syntax_findings"]
