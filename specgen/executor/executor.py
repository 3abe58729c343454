"""Run a Block program through the spec's own command path, as its AVS tests do.

There is no second model here and no entry point special to specgen: every
statement is assembled from the spec's encodings and the word goes to the
spec's ``ExecuteCommandInstruction`` (:mod:`specgen.executor.words`); the
Tile registers, the Block state, the commit through the spec's tile
execution and the faults are the ASL's. This module only

* resets the model (``ResetProfileState``) and installs the input Tiles
  (``ConfigureTileForMask`` + the element writes);
* stops at the first rejected command and reports ``_LastFault`` with the
  command (statement and word) and the ASL site that decided the fault: a
  hook around ``SetFault`` snapshots the interpreter's call stack, and a
  fault recorded by ASL specgen generated from the catalogs (the tile
  dispatch: a predicate returned FALSE) is placed at the spec's ``return``
  that decided that FALSE, found by repeating the run with the predicate's
  returns traced (:func:`explain`), else at the predicate's declaration
  (:func:`fault_site`);
* reads every allocated Tile back through the spec's element functions.

``EXECUTE <MN> d, l, r`` (aliasing, which a Block cannot express) calls the
instruction's own tile-level contract functions.

One :class:`Executor` (one interpreter, compiled once) serves every run of a
spec root and profile; see :func:`executor_for`.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import replace
from typing import Callable

from ..workspace import current
from .. import speccontract as contract
from ..asl import ASLError, Bits, Interpreter, interpreter_for
from ..asl.errors import bounded_stack
from ..asl.hooks import ASLFunction, Around
from ..asl.profiles import get_profile
from ..diagnostics import Span
from ..encoding.asm import AsmError
from ..encoding.asm_names import gpr_name
from ..graph import SpecGraph
from ..loader.tree import Spec
from ..program.reader import Program
from ..program.syntax import Statement
from ..vocabulary import VOCABULARY, Vocabulary, label
from .faultsite import GENERATED_PREFIX, FaultTrace, explain, fault_site, guard_predicates
from .inputstate import (LAYOUT_PREFIX, LOCATION_PREFIX, MemoryCell, configure_spec_sized, read_memory, spec_sized,
                         write_memory)
from .runstate import (Fault, RunError, RunResult, Step, TileInput, TileState, register_index, register_name,
                       tile_state)
from .scalar import TemplateRunner, gpr_file
from .words import EXECUTED, REJECTED, WordRunner, allocated

_LEGACY_LAYOUTS = {"row-major": "RowMajor", "column-major": "ColumnMajor"}  # a model without a TileLayout type


class Executor:
    """One interpreter over a spec with ``profile``'s hooks, reused for every run.

    Built from the graph its caller holds: the spec, its vocabulary and its encodings are the
    graph's (derived once per graph), never read or built a second time. The graph itself is not
    kept: an executor outlives the check or build that made it.
    """

    def __init__(self, graph: SpecGraph, profile: str = "reference", *, fast: bool = True,
                 tile_elements: int | None = None) -> None:
        spec = graph.spec
        self.spec = spec
        self.root = spec.root
        self.profile = get_profile(profile).name
        self.fast = fast
        self.interp = interpreter_for(spec, programs_only=True)  # a program never calls a test's shard
        # what setting it up asked of the ASL (entry points present, the PE mode table, the fast path's
        # helpers) holds for every run: each use notes it in its own trail (asl/trail.py)
        self.interp.trail.push()
        self.vocabulary = VOCABULARY(graph)  # DataType names and codes are the spec's
        get_profile(profile).install(self.interp)
        install_profile_adapters(self.interp, self.profile, self.vocabulary)
        self._fault_stack: tuple[tuple[str, Span], ...] = ()
        self._generated_lines: dict[str, list[str]] | None = None
        self._source_lines: dict[str, list[str]] | None = None
        self._trace = FaultTrace()  # a predicate's traced returns, while a fault is explained
        self._install_fault_probe()
        if tile_elements is not None:
            self.interp.set_constant(contract.TILE_ELEMENTS.name, tile_elements)
        self.bulk = False  # element I/O through the NumPy paths proven equal for this model
        if fast and fast_paths_installed():
            from .fastpath import install_fast_paths  # NumPy/ml_dtypes load only when a program runs
            install_fast_paths(self.interp, self.profile, self.vocabulary)
            # the bulk element paths are proven (tests/test_examples_fast.py) for the Tile model whose
            # ExecuteTileBinary the fast path replaces; any other model goes element by element
            self.bulk = contract.BINARY_ELEMENT.name in self.interp.hooks
        self.lock = threading.Lock()
        missing = [e.name for e in contract.PROGRAMS if not _defines(self.interp, e)]
        self.words: WordRunner | None = None
        self.templates: TemplateRunner | None = None  # statements of the forms the Block syntax does not spell
        if not missing:
            from ..encoding.from_spec import spec_encodings
            es = spec_encodings(graph)
            self.words = WordRunner(self.interp, es, self.vocabulary.dtype_none_code)
            self.templates = TemplateRunner(self.interp, es)
        self.supported = not missing
        self.missing = missing
        self.notes = self.interp.trail.pop()

    # -- hooks ------------------------------------------------------------------------
    def _install_fault_probe(self) -> None:
        interp = self.interp

        def set_fault(original: ASLFunction, *args: object) -> object:
            self._fault_stack = tuple(interp.stack)
            self._trace.at_fault()
            return original(*args)

        if contract.SET_FAULT.name not in interp.hooks and interp.has_function(contract.SET_FAULT.name):
            interp.install_hook(contract.SET_FAULT.name, Around(set_fault))

    # -- running ----------------------------------------------------------------------
    def run(self, program: Program, tiles: list[TileInput], gprs: Mapping[int, int] | None = None,
            memory: list[MemoryCell] | None = None) -> RunResult:
        """Run ``program`` on fresh state holding ``tiles`` (and ``gprs``: absolute GPR -> Word, written in
        every PE's file, for B.IOR; ``memory``: global memory written before and read after the run);
        raise :class:`RunError` when it cannot run."""
        if program.is_sketch:
            first = program.sketch[0]
            raise RunError(f"{program.sketch_reason}: cannot run as written",
                           span=Span(program.path, first.line, first.col))
        if not self.supported:
            raise RunError("the spec's ASL does not define " + ", ".join(self.missing)
                           + f": a program runs as command words through {contract.COMMAND_ENTRY}(word, "
                           f"length_bits), with {contract.RESET} and {contract.CONFIGURE_TILE} for its initial state "
                           "(docs-internal/examples.md; the check says so as spec-contract)")
        if gprs and not any(self.interp.has_function(n) for n in (contract.WRITE_PE_GPR.name, contract.WRITE_GPR.name)):
            raise RunError(f"this spec's ASL has no general-purpose register file (no {contract.WRITE_PE_GPR} or {contract.WRITE_GPR}): "
                           "the program's scalar registers cannot be set")
        with self.lock:
            result = self._run(program, tiles, gprs or {}, memory or [])
            if result.fault is not None:
                result.fault = self._explained(result.fault, lambda: self._run(program, tiles, gprs or {},
                                                                               memory or []))
            return result

    def _run(self, program: Program, tiles: list[TileInput], gprs: Mapping[int, int],
             memory: list[MemoryCell]) -> RunResult:
        it = self.interp
        words = self.words
        assert words is not None
        it.reset()
        result = RunResult(program, self.profile)
        try:
            it.call(contract.RESET.name)
            if gprs:
                words.write_gprs(gprs)
            write_memory(it, memory)
            for t in tiles:
                self._install(t)
            for t in tiles:
                idx = register_index(t.register)
                assert idx is not None
                result.inputs[t.register] = self.read_tile(idx)
            for st in program.statements:
                self._fault_stack = ()
                if st.mnemonic == "EXECUTE":
                    step, fault = self._execute(st)
                    result.steps.append(step)
                    if fault is not None:
                        result.fault = fault
                        break
                    continue
                self._fault_stack = ()
                if st.is_template:
                    step = self._template(st)
                    result.steps.append(step)
                    if not step.status.endswith("_Executed"):
                        result.fault = self._fault(st, str(step.args[0]))
                        break
                    continue
                try:
                    entry, args, status, new = words.execute(st)
                except AsmError as e:  # the forms are the catalogs': name them (an unusable one is the cause)
                    cat = f"{self.spec.config.json_root}/catalog"
                    raise RunError(f"line {st.line}: {st.text}: {e} (forms from {cat}/command-forms.json and "
                                   f"{cat}/tile-operations.json)", st, Span("", st.line, st.col)) from None
                step = Step(st, entry, args, status, register_name(new) if new is not None else None,
                            tuple(register_name(k) for k in words.new[1:]))
                result.steps.append(step)
                if status != EXECUTED:
                    result.fault = self._fault(st, str(args[0]))
                    break
            for step in result.steps:
                for reg in ((step.destination,) if step.destination else ()) + step.more:
                    result.outputs[reg] = self.read_tile(register_index(reg) or 0)
            for idx in sorted(allocated(it)):
                result.tiles[register_name(idx)] = self.read_tile(idx)
            wrote = sorted({g for step in result.steps for g in step.gprs})
            if wrote:
                file = gpr_file(it)
                result.gprs = {gpr_name(g): file[g] for g in wrote if g < len(file)}
            result.memory = read_memory(it, memory)
        except ASLError as e:
            stack = "; ".join(bounded_stack(e.asl_stack, head=1, tail=3))
            where = f"{e.span}: {e.message}" if e.kind == "budget" else f"{e.message} at {e.span}"
            raise RunError(f"the ASL failed: {where}" + (f" ({stack})" if stack else ""),
                           span=e.span) from None
        return result

    def _template(self, st: Statement) -> Step:
        """A command of a form the Block syntax does not spell (a scalar form, …): its word through the
        spec's entry point for its kind (:mod:`specgen.executor.scalar`)."""
        runner = self.templates
        assert runner is not None
        where = Span("", st.line, st.col)
        missing = runner.missing(st)
        if missing:
            raise RunError(f"line {st.line}: {st.text}: {missing}", st, where)
        before = allocated(self.interp)
        try:
            run = runner.execute(st)
        except AsmError as e:
            cat = f"{self.spec.config.json_root}/catalog"
            raise RunError(f"line {st.line}:{st.col}: {st.text}: {e} (forms from {cat}/)", st, where) from None
        new = sorted(allocated(self.interp) - before)
        return Step(st, run.entry, run.args, run.status, register_name(new[0]) if new else None,
                    tuple(register_name(k) for k in new[1:]), run.gprs)

    def _execute(self, st: Statement) -> tuple[Step, Fault | None]:
        """``EXECUTE <MN> d, l, r``: the tile-level contract entry, with the Block commit's fault contract.

        The legality predicate decides; FALSE records Fault_TileLegality through
        the ASL's ``SetFault`` and writes nothing, as a rejected Block commit
        does; TRUE runs the instruction's execute function on the registers as
        named, so a destination may alias a source.
        """
        it = self.interp
        f = st.fields
        op = str(f["operation"])
        legal_fn, execute_fn = contract.OPERANDS_LEGAL.of(op), contract.EXECUTE_CONTRACT.of(op)
        missing = [n for n in (legal_fn, execute_fn) if not it.has_function(n)]
        if missing:
            raise RunError(f"line {st.line}: {op} is not an instruction with a tile-level contract entry in "
                           f"this spec (no {' or '.join(missing)} in its ASL)", st, Span("", st.line, st.col))
        args = (f["destination"], f["source_left"], f["source_right"])
        if it.has_function(contract.CLEAR_FAULT.name):
            it.call(contract.CLEAR_FAULT.name)
        if it.call(legal_fn, *args) is not True:
            self._set_fault(contract.TILE_LEGALITY_FAULT.name)
            span = self._declaration(legal_fn)
            name = str(it.get_global(contract.LAST_FAULT.name))
            stack = ((legal_fn, span),) if span else ()
            return Step(st, legal_fn, args, REJECTED), Fault(name, st, span, legal_fn, stack)
        it.call(execute_fn, *args)
        return Step(st, execute_fn, args, EXECUTED, register_name(int(args[0]))), None

    def _set_fault(self, kind: str) -> None:
        """Record ``kind`` with the spec's ``SetFault`` (``SetFault(kind, ReadTPC())`` where it takes the address)."""
        it = self.interp
        decls = getattr(it, "index", None).lookup(contract.SET_FAULT.name) if getattr(it, "index", None) else []
        arity = next((len(d.params) for d in decls if hasattr(d, "params")), 1)
        if arity == 2 and it.has_function(contract.READ_TPC.name):
            it.call(contract.SET_FAULT.name, kind, it.call(contract.READ_TPC.name))
        else:
            it.call(contract.SET_FAULT.name, kind)

    def _declaration(self, name: str) -> Span | None:
        """Where the spec declares function ``name`` (the site a tile-level fault is decided)."""
        for decl in self.interp.declarations(name):
            if hasattr(decl, "params"):
                return Span(decl.path, decl.line, decl.col)
        return None

    def _fault(self, st: Statement, word: str) -> Fault:
        name = str(self.interp.get_global(contract.LAST_FAULT.name))
        stack = self._fault_stack
        span, func = fault_site(stack, self._generated_line, self._declaration, self._forwards_fault)
        return Fault(name, st, span, func, stack, word)

    def _explained(self, fault: Fault, rerun: Callable[[], object]) -> Fault:
        """``fault`` at the spec's return that decided it, when a predicate's FALSE raised it from outside the
        spec's ASL (the generated tile dispatch or ``EXECUTE``); a fault the spec's ASL raised keeps its site."""
        if fault.statement.mnemonic == "EXECUTE":
            names = [fault.asl_function]
        else:
            names = guard_predicates(fault.asl_stack, self._generated_line, self._forwards_fault)
        chain = explain(self.interp, names, rerun, self._trace, self._source_line,
                        (RunError, ASLError, RuntimeError))
        if not chain:
            return fault
        return replace(fault, asl_span=chain[-1].span, asl_function=chain[-1].function,
                       asl_chain=tuple((e.function, e.span) for e in chain[:-1]))

    def _source_line(self, path: str, line: int) -> str:
        """Line ``line`` (1-based) of the spec's ASL file ``path``, generated or a unit ("" if unknown)."""
        if path.startswith(GENERATED_PREFIX):
            return self._generated_line(path, line)
        if self._source_lines is None:
            self._source_lines = {u.path: u.text.splitlines() for u in self.spec.units}
        self.interp.note_file(path)  # the line's text is shown: its comments and spacing too
        lines = self._source_lines.get(path, [])
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _forwards_fault(self, name: str) -> bool:
        """Whether function ``name`` takes a fault kind as a parameter (so its caller chose the fault)."""
        it = self.interp  # the declarations read through the interpreter: the run's trail notes them
        kinds = [d.params[0][1] for d in it.declarations(contract.SET_FAULT.name) if getattr(d, "params", None)]
        return any(t == k for d in it.declarations(name) for _, t in getattr(d, "params", ()) for k in kinds)

    def _generated_line(self, path: str, line: int) -> str:
        """Line ``line`` (1-based) of the ASL specgen generated from the catalogs at ``path`` ("" if unknown)."""
        if self._generated_lines is None:
            from ..catalog_asl.sources import generated_sources  # the tile modules: small, and where commits fault
            self._generated_lines = {p: text.splitlines() for text, p in generated_sources(self.spec, tile_only=True)}
        lines = self._generated_lines.get(path, [])
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _install(self, t: TileInput) -> None:
        it = self.interp
        idx = register_index(t.register)
        et = self.vocabulary.datatype(t.data_type)
        if idx is None or et is None:
            raise RunError(f"{t.register}: not a tile register, or {t.data_type} is not a data type")
        layout, locations = self._placement(t)
        try:
            derived = spec_sized(it, layout, t.valid_rows, t.valid_columns, et.member)
            if derived:  # a layout whose storage the spec derives (CUBE): its own configuration sizes it
                configure_spec_sized(it, idx, layout, t.valid_rows, t.valid_columns, et.member, t.mask,
                                     t.capacity_bytes or derived, locations)
            elif not (t.rows and t.columns):
                raise ValueError(f"a {label(layout)} Tile needs its physical rows and columns (the spec derives "
                                 "them only for the layouts TileCubeRequiredBytes sizes)")
            else:
                it.call(contract.CONFIGURE_TILE.name, idx, t.capacity(et), t.rows, t.columns, t.valid_rows,
                        t.valid_columns, et.member, LAYOUT_PREFIX + layout, LOCATION_PREFIX + locations[0], t.mask)
        except ValueError as e:
            raise RunError(f"input tile {t.register}: {e}") from None
        except ASLError as e:
            raise RunError(f"input tile {t.register} ({t.data_type}, {t.rows}x{t.columns}, valid "
                           f"{t.valid_rows}x{t.valid_columns}, {t.capacity(et)} bytes, mask "
                           f"0b{t.mask:04b}) is not a descriptor the model accepts: {e.message} "
                           f"at {e.span}") from None
        if self.bulk:
            from .fastpath import bulk_write
            bulk_write(it, idx, t.words)
        else:
            assert self.words is not None
            self.words.write(idx, t.words)

    def _placement(self, t: TileInput) -> tuple[str, list[str]]:
        """The layout member of an input and the locations to configure it in (its own, else the model's)."""
        voc = self.vocabulary
        layout = voc.layout(t.layout) if voc.layouts else _LEGACY_LAYOUTS.get(t.layout)
        if layout is None:
            raise RunError(f"input tile {t.register}: layout {t.layout!r} is not one of this spec's Tile layouts "
                           f"({', '.join(label(x) for x in voc.layouts)})")
        if t.location:
            location = voc.location(t.location) if voc.locations else None
            if location is None:
                raise RunError(f"input tile {t.register}: location {t.location!r} is not one of this spec's Tile "
                               f"locations ({', '.join(label(x) for x in voc.locations)})")
            return layout, [location]
        return layout, list(voc.locations) or ["Vector"]

    # -- reading --------------------------------------------------------------------
    def read_tile(self, idx: int) -> TileState:
        """Register ``idx`` after the run: its ``_Tiles`` descriptor and every element (word, defined)."""
        assert self.words is not None
        if self.bulk:
            from .fastpath import bulk_read
            tile = self.interp.get_global(contract.TILES.name)[idx]  # type: ignore[index]
            words, defined = bulk_read(self.interp, idx)
        else:
            tile, words, defined = self.words.read(idx)
        return tile_state(idx, tile, words, defined, self.vocabulary)


def fast_paths_installed() -> bool:
    """Whether NumPy and ml_dtypes (the extra ``fast``) are importable. Without them every element runs
    through the spec's ASL: the same results (``tests/test_examples_fast.py`` proves the paths equal),
    slower on large tiles; the core install (the pre-commit hook's) stays a third of the full one."""
    import importlib.util
    try:
        return all(importlib.util.find_spec(m) is not None for m in ("numpy", "ml_dtypes"))
    except (ImportError, ValueError):  # a finder that refuses the name: not installed
        return False


def install_profile_adapters(it: Interpreter, profile: str, vocabulary: Vocabulary) -> None:
    """Route the bundled spec's FP hook through the profile when the profile does not name it.

    ``specgen.asl.profiles`` ``hardware-ieee`` replaces the corpus hook
    ``ScalarFPBinaryProfile``; the bundled spec's single FP boundary is
    ``TileFPBinaryElement(op, data_type, left, right)`` (its ADR-0003). This
    adapter gives that function IEEE 754 RNE results for FP64/FP32/FP16/BF16
    ADD, SUB and MUL (``specgen.asl.hardware.ieee_binary``); MAX/MIN and the
    other formats keep the ASL's own implementation, as ADR-0003 says.
    """
    if profile != "hardware-ieee" or contract.FP_BINARY_ELEMENT.name in it.hooks:
        return
    if not it.has_function(contract.FP_BINARY_ELEMENT.name):
        return
    from ..asl.hardware import _FORMATS, ieee_binary

    ops = {"TileBinary_ADD": "FloatingBinary_ADD", "TileBinary_SUB": "FloatingBinary_SUB",
           "TileBinary_MUL": "FloatingBinary_MUL"}

    def tile_fp_binary(original: ASLFunction, op: str, data_type: str, left: Bits, right: Bits) -> Bits:
        et = vocabulary.datatype(str(data_type))
        if op in ops and et is not None and et.code in _FORMATS:
            raw, _flags = ieee_binary(ops[op], et.code, left.v, right.v)
            return Bits(raw, 64)
        return original(op, data_type, left, right)  # type: ignore[no-any-return]

    it.install_hook(contract.FP_BINARY_ELEMENT.name, Around(tile_fp_binary))


def _executors() -> dict[tuple[int, str, bool, int | None], Executor]:
    """The workspace's table (it dies with the workspace)."""
    return current().table("executor.executor._EXECUTORS")


_EXECUTORS_LOCK = threading.Lock()


def executor_for(graph: SpecGraph, profile: str = "reference", *, fast: bool = True,
                 tile_elements: int | None = None) -> Executor:
    """The shared executor of (loaded spec, profile): functions are compiled once per load.

    The caller hands over the graph it already built, so nothing is read or derived twice. Keyed by
    the loaded spec itself, never by its root: a server reloads the tree after an edit, and an
    executor of the previous load would run the ASL as it was. The executors of the last few loads
    are kept; one of an earlier load is carried over when only function bodies changed.
    """
    spec = graph.spec
    key = (id(spec), get_profile(profile).name, fast, tile_elements)
    with _EXECUTORS_LOCK:
        ex = _executors().get(key)
        if ex is None or ex.spec is not spec:
            ex = _carried(graph, key) or Executor(graph, profile, fast=fast, tile_elements=tile_elements)
            while len(_executors()) >= 4:
                _executors().pop(next(iter(_executors())))
            _executors()[key] = ex
        return ex


def _records(spec: Spec) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every unit's record lines: the encodings (with the catalogs) a word runner assembles with."""
    return tuple((u.path, tuple(x for x in u.text.splitlines() if x.startswith("// PTO-"))) for u in spec.units)


def _carried(graph: SpecGraph, key: tuple[int, str, bool, int | None]) -> Executor | None:
    """The newest executor of an earlier load of the same root, moved to ``spec`` when only function bodies
    changed (:func:`specgen.asl.carry.carry_over`): its compiled interpreter is kept; None otherwise."""
    from ..asl.carry import carry_over
    from ..asl.index import build_index
    from ..catalog_asl.sources import generation_key
    spec = graph.spec
    root = str(spec.root)
    for old_key, ex in reversed(list(_executors().items())):
        if old_key[1:] != key[1:] or str(ex.spec.root) != root:
            continue
        if (VOCABULARY(graph) != ex.vocabulary or generation_key(spec) != generation_key(ex.spec)
                or _records(spec) != _records(ex.spec)):  # the encodings its words are assembled with
            return None
        if not carry_over(ex.interp, build_index(spec)):
            return None
        del _executors()[old_key]
        ex.spec, ex.root = spec, spec.root
        ex._source_lines = None
        return ex
    return None


__all__ = ["Executor", "executor_for", "RunError", "RunResult", "TileInput", "TileState", "Fault", "Step",
           "register_name", "register_index", "fault_site"]


def _defines(it: Interpreter, entry: contract.ExpectedName) -> bool:
    """Whether the interpreter's tree (or the ASL generated for it) defines a contract entry."""
    if entry.kind == "function":
        return it.has_function(entry.name)
    return it.index is not None and bool(it.index.lookup(entry.name))
