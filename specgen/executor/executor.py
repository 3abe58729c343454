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
from pathlib import Path
from typing import Callable

from ..asl import ASLError, Bits, Interpreter, interpreter_for
from ..asl.errors import bounded_stack
from ..asl.hooks import ASLFunction, Around
from ..asl.profiles import get_profile
from ..diagnostics import Span
from ..encoding.asm import AsmError
from ..encoding.asm_names import gpr_name
from ..graph import SpecGraph
from ..program.reader import Program
from ..program.syntax import Statement
from ..vocabulary import VOCABULARY, Vocabulary
from .faultsite import GENERATED_PREFIX, FaultTrace, explain, fault_site, guard_predicates
from .inputstate import MemoryCell, configure_matrix, is_matrix_layout, read_memory, write_memory
from .runstate import (Fault, RunError, RunResult, Step, TileInput, TileState, register_index, register_name,
                       tile_state)
from .scalar import TemplateRunner, gpr_file
from .words import COMMAND_ENTRY, EXECUTED, REJECTED, WordRunner, allocated

LAYOUTS = {"row-major": "TileLayout_RowMajor", "column-major": "TileLayout_ColumnMajor"}


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
        self.interp = interpreter_for(spec)
        self.vocabulary = VOCABULARY(graph)  # DataType names and codes are the spec's
        get_profile(profile).install(self.interp)
        install_profile_adapters(self.interp, self.profile, self.vocabulary)
        self._fault_stack: tuple[tuple[str, Span], ...] = ()
        self._generated_lines: dict[str, list[str]] | None = None
        self._source_lines: dict[str, list[str]] | None = None
        self._trace = FaultTrace()  # a predicate's traced returns, while a fault is explained
        self._install_fault_probe()
        if tile_elements is not None:
            self.interp.set_constant("PTO_MODEL_TILE_ELEMENTS", tile_elements)
        self.bulk = False  # element I/O through the NumPy paths proven equal for this model
        if fast:
            from .fastpath import install_fast_paths  # NumPy/ml_dtypes load only when a program runs
            install_fast_paths(self.interp, self.profile, self.vocabulary)
            # the bulk element paths are proven (tests/test_examples_fast.py) for the Tile model whose
            # ExecuteTileBinary the fast path replaces; any other model goes element by element
            self.bulk = "ExecuteTileBinary" in self.interp.hooks
        self.lock = threading.Lock()
        missing = [n for n in (COMMAND_ENTRY, "ResetProfileState", "ConfigureTileForMask")
                   if not self.interp.has_function(n)]
        self.words: WordRunner | None = None
        self.templates: TemplateRunner | None = None  # statements of the forms the Block syntax does not spell
        if not missing:
            from ..encoding.from_spec import spec_encodings
            es = spec_encodings(graph)
            self.words = WordRunner(self.interp, es, self.vocabulary.dtype_none_code)
            self.templates = TemplateRunner(self.interp, es)
        self.supported = not missing
        self.missing = missing

    # -- hooks ------------------------------------------------------------------------
    def _install_fault_probe(self) -> None:
        interp = self.interp

        def set_fault(original: ASLFunction, *args: object) -> object:
            self._fault_stack = tuple(interp.stack)
            self._trace.at_fault()
            return original(*args)

        if "SetFault" not in interp.hooks and interp.has_function("SetFault"):
            interp.install_hook("SetFault", Around(set_fault))

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
                           + ": a program runs as command words through ExecuteCommandInstruction(word, "
                           "length_bits), with ResetProfileState and ConfigureTileForMask for its initial state")
        if gprs and not any(self.interp.has_function(n) for n in ("WritePEGPR", "WriteGPR")):
            raise RunError("this spec's ASL has no general-purpose register file (no WritePEGPR or WriteGPR): "
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
            it.call("ResetProfileState")
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
        legal_fn, execute_fn = f"InstructionContractOperandsLegal_{op}", f"InstructionContractExecute_{op}"
        missing = [n for n in (legal_fn, execute_fn) if not it.has_function(n)]
        if missing:
            raise RunError(f"line {st.line}: {op} is not an instruction with a tile-level contract entry in "
                           f"this spec (no {' or '.join(missing)} in its ASL)", st, Span("", st.line, st.col))
        args = (f["destination"], f["source_left"], f["source_right"])
        if it.has_function("ClearFault"):
            it.call("ClearFault")
        if it.call(legal_fn, *args) is not True:
            self._set_fault("Fault_TileLegality")
            span = self._declaration(legal_fn)
            name = str(it.get_global("_LastFault"))
            stack = ((legal_fn, span),) if span else ()
            return Step(st, legal_fn, args, REJECTED), Fault(name, st, span, legal_fn, stack)
        it.call(execute_fn, *args)
        return Step(st, execute_fn, args, EXECUTED, register_name(int(args[0]))), None

    def _set_fault(self, kind: str) -> None:
        """Record ``kind`` with the spec's ``SetFault`` (``SetFault(kind, ReadTPC())`` where it takes the address)."""
        it = self.interp
        decls = getattr(it, "index", None).lookup("SetFault") if getattr(it, "index", None) else []
        arity = next((len(d.params) for d in decls if hasattr(d, "params")), 1)
        if arity == 2 and it.has_function("ReadTPC"):
            it.call("SetFault", kind, it.call("ReadTPC"))
        else:
            it.call("SetFault", kind)

    def _declaration(self, name: str) -> Span | None:
        """Where the spec declares function ``name`` (the site a tile-level fault is decided)."""
        index = getattr(self.interp, "index", None)
        if index is None:
            return None
        for decl in index.lookup(name):
            if hasattr(decl, "params"):
                return Span(decl.path, decl.line, decl.col)
        return None

    def _fault(self, st: Statement, word: str) -> Fault:
        name = str(self.interp.get_global("_LastFault"))
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
        lines = self._source_lines.get(path, [])
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _forwards_fault(self, name: str) -> bool:
        """Whether function ``name`` takes a fault kind as a parameter (so its caller chose the fault)."""
        index = getattr(self.interp, "index", None)
        if index is None:
            return False
        kinds = [d.params[0][1] for d in index.lookup("SetFault") if getattr(d, "params", None)]
        return any(t == k for d in index.lookup(name) for _, t in getattr(d, "params", ()) for k in kinds)

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
        try:
            if is_matrix_layout(t.layout):  # a CUBE operand: the spec derives its storage shape
                configure_matrix(it, idx, t.layout, t.valid_rows, t.valid_columns, et.member, t.mask,
                                 t.capacity_bytes)
            else:
                it.call("ConfigureTileForMask", idx, t.capacity(et), t.rows, t.columns, t.valid_rows,
                        t.valid_columns, et.member, LAYOUTS[t.layout], "TileLocation_Vector", t.mask)
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

    # -- reading --------------------------------------------------------------------
    def read_tile(self, idx: int) -> TileState:
        """Register ``idx`` after the run: its ``_Tiles`` descriptor and every element (word, defined)."""
        assert self.words is not None
        if self.bulk:
            from .fastpath import bulk_read
            tile = self.interp.get_global("_Tiles")[idx]  # type: ignore[index]
            words, defined = bulk_read(self.interp, idx)
        else:
            tile, words, defined = self.words.read(idx)
        return tile_state(idx, tile, words, defined, self.vocabulary)


def install_profile_adapters(it: Interpreter, profile: str, vocabulary: Vocabulary) -> None:
    """Route the bundled spec's FP hook through the profile when the profile does not name it.

    ``specgen.asl.profiles`` ``hardware-ieee`` replaces the corpus hook
    ``ScalarFPBinaryProfile``; the bundled spec's single FP boundary is
    ``TileFPBinaryElement(op, data_type, left, right)`` (its ADR-0003). This
    adapter gives that function IEEE 754 RNE results for FP64/FP32/FP16/BF16
    ADD, SUB and MUL (``specgen.asl.hardware.ieee_binary``); MAX/MIN and the
    other formats keep the ASL's own implementation, as ADR-0003 says.
    """
    if profile != "hardware-ieee" or "TileFPBinaryElement" in it.hooks:
        return
    if not it.has_function("TileFPBinaryElement"):
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

    it.install_hook("TileFPBinaryElement", Around(tile_fp_binary))


_EXECUTORS: dict[tuple[str, str, bool, int | None], Executor] = {}
_EXECUTORS_LOCK = threading.Lock()


def executor_for(graph: SpecGraph, profile: str = "reference", *, fast: bool = True,
                 tile_elements: int | None = None) -> Executor:
    """The shared executor of (spec root, profile): functions are compiled once per process.

    The caller hands over the graph it already built, so nothing is read or derived twice.
    """
    key = (str(Path(graph.spec.root).resolve()), get_profile(profile).name, fast, tile_elements)
    with _EXECUTORS_LOCK:
        ex = _EXECUTORS.get(key)
        if ex is None:
            ex = _EXECUTORS[key] = Executor(graph, profile, fast=fast, tile_elements=tile_elements)
        return ex


__all__ = ["Executor", "executor_for", "RunError", "RunResult", "TileInput", "TileState", "Fault", "Step",
           "register_name", "register_index", "fault_site"]
