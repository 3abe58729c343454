"""Examples on instruction pages: what this build ran, laid out for the template, and the build gate.

The examples engine (:mod:`specgen.examples.results`) runs every example once
per build through the spec's own ASL; this module only turns its results into
plain dicts (tile tables, fault with its ASL line, the verified mark) and
decides whether the build may publish them. A documented result that the ASL
contradicts must never reach a page, so :func:`example_failures` lists every
checked or contract example that did not verify and the plugin stops the build.
Sketches (symbolic operands) cannot run and never stop it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Callable

from markupsafe import Markup

from ..diagnostics import Sentence, Severity
from ..examples.results import ExampleResult, TileTable, run_suite
from ..graph import SpecGraph
from ..worked.generator import WORKED
from .html import escape_text
from .searchtext import CLOSE, OPEN

SourceLink = Callable[[str, int, int], str]
"""``src(path, start, end)``: where a page links a source line range (``render.pages.Ctx.src``)."""

GATED_KINDS = ("checked", "contract")
GATED_RULES = ("example-mismatch", "example-fault")


def example_results(graph: SpecGraph) -> dict[str, list[ExampleResult]]:
    """Results by mnemonic, computed once per graph (memoised there, cached on disk by the engine)."""
    return run_suite(graph).results


def results_digest(results: list[ExampleResult]) -> str:
    """Part of an instruction page's cache key: a changed result re-renders the page even if its unit did not change."""
    return hashlib.sha256(repr(results).encode()).hexdigest() if results else ""


# ------------------------------------------------------------------ the build gate
def example_failures(graph: SpecGraph) -> list[str]:
    """One line per documented example whose result this build could not verify (empty: publish).

    A checked example file that does not even parse has no result; its
    error finding is listed too, since its promise went unchecked.
    """
    suite = run_suite(graph)
    out: list[str] = []
    with_result: set[str] = set()
    lines = {(f.path, f.subject): f.line for f in suite.findings if f.rule in GATED_RULES}
    for mnemonic in sorted(suite.results):
        for r in suite.results[mnemonic]:
            with_result.add(r.path)
            if r.kind not in GATED_KINDS or r.verified:
                continue
            line = lines.get((r.path, r.id), r.line)  # the finding points at "expect" (checked files)
            out.append(f"{r.path}:{line}: {r.id} ({mnemonic}, {r.profile} profile): {failure_reason(r)}")
    example_root = graph.spec.config.example_root.rstrip("/") + "/"
    for f in suite.findings:
        if f.rule in GATED_RULES and f.severity == Severity.ERROR and f.path.startswith(example_root) \
                and f.path not in with_result:
            out.append(f"{f.path}:{f.line}: {f.message}")
    return out


def failure_reason(r: ExampleResult) -> str:
    """What differs, in the words of the engine: elements, fault, or why it could not run."""
    parts: list[str] = []
    if r.error:
        parts.append(f"cannot run: {r.error}")
    elem = [m for m in r.mismatches if re.match(r"^[A-Z]\w*\[", m)]
    other = [m for m in r.mismatches if m not in elem]
    parts.extend(other)
    if elem:
        shown = "; ".join(elem[:8]) + (f" (and {len(elem) - 8} more)" if len(elem) > 8 else "")
        parts.append(f"{len(elem)} element(s) differ from what the ASL computes: {shown}")
    if r.kind == "contract" and r.fault is not None:
        parts.append(f"faults when run as written: {r.fault.describe()}")
    if not parts and r.fault is not None and not r.expected_fault:
        parts.append(f"unexpected fault: {r.fault.describe()}")
    return "; ".join(parts) or "not verified"


def failures_message(failures: list[str]) -> str:
    head = (f"{len(failures)} documented example result(s) disagree with the spec's ASL; the site is not "
            "published with a wrong result (fix the example or the ASL, then rebuild; "
            "'specgen check' lists the same problems):")
    return head + "".join(f"\n  {f}" for f in failures)


# ------------------------------------------------------------------ page views
_ASM = re.compile(r"""
 (?P<c1>//[^\n]*|\#[^\n]*)
|(?P<mh>0[xX][0-9a-fA-F_]+|0[bB][01_]+)
|(?P<mi>-?[0-9]+(?:\.[0-9]+)?)
|(?P<w>[A-Za-z_][A-Za-z0-9_.]*)
""", re.X)


def highlight_program(text: str, *, anchor: str, mark_line: int = 0) -> Markup:
    """A Block program, numbered like its program lines; the first word of each command is the mnemonic.

    ``mark_line`` (a faulting program line) gets a class and stays addressable as ``<anchor>-<n>``.
    """
    out = [f'{OPEN}<div class="highlight sg-program" data-search-exclude><pre><code>']
    for n, line in enumerate(text.rstrip("\n").split("\n"), 1):
        cls = "ln sg-fault-line" if n == mark_line else "ln"
        out.append(f'<span class="{cls}" id="{anchor}-{n}">{n}</span>')
        pos = 0
        head = True
        for m in _ASM.finditer(line):
            out.append(escape_text(line[pos:m.start()]))
            if ";" in line[pos:m.start()]:
                head = True
            kind = m.lastgroup or ""
            tok = m.group()
            if kind == "w":  # registers stay plain: material's variable colour is below 4.5:1 on code
                kind = "k" if head else ""
                head = False
            out.append(f'<span class="{kind}">{escape_text(tok)}</span>' if kind else escape_text(tok))
            pos = m.end()
        out.append(escape_text(line[pos:]))
        out.append("\n")
    out.append(f"</code></pre></div>{CLOSE}")
    return Markup("".join(out))


def tile_view(t: TileTable) -> dict[str, Any]:
    """A Tile as table rows; a run of rows that are wholly undefined with one raw word becomes one row."""
    rows: list[dict[str, Any]] = []
    r = 0
    n = len(t.values)
    while r < n:
        word = t.words[r][0] if t.words[r] else ""
        blank = lambda i: not any(t.defined[i]) and all(w == word for w in t.words[i])  # noqa: E731
        if t.columns > 1 and blank(r):
            end = r
            while end + 1 < n and blank(end + 1) and (not t.words[end + 1] or t.words[end + 1][0] == word):
                end += 1
            rows.append({"label": str(r) if end == r else f"{r}–{end}", "collapsed": True, "word": word,
                         "count": end - r + 1})
            r = end + 1
            continue
        rows.append({"label": str(r), "collapsed": False,
                     "cells": [{"value": v, "word": w, "defined": d}
                               for v, w, d in zip(t.values[r], t.words[r], t.defined[r])]})
        r += 1
    return {"register": t.register, "data_type": t.data_type, "rows_n": t.rows, "columns_n": t.columns,
            "valid_rows": t.valid_rows, "valid_columns": t.valid_columns, "layout": t.layout,
            "predicate": getattr(t, "predicate", False), "columns": list(range(t.columns)), "rows": rows,
            "undefined": sum(1 for row in t.defined for d in row if not d)}


def status_of(r: ExampleResult | None) -> str:
    """``verified`` | ``failed`` | ``sketch`` | ``fragment`` (a single command, not a Block program)."""
    if r is None:
        return "fragment"
    if r.kind == "sketch":
        return "sketch"
    return "verified" if r.verified else "failed"


def example_view(r: ExampleResult | None, text: str, n: int, src: SourceLink) -> dict[str, Any]:
    """Everything the template shows for example ``n``; ``src(path, start, end)`` links source lines."""
    anchor = f"example-{n}"
    if r is None:
        return {"n": n, "anchor": anchor, "status": "fragment", "kind": "fragment", "id": "", "summary": "",
                "program": highlight_program(text, anchor=anchor + "-L"), "profile": "", "path": "", "line": 0,
                "inputs": [], "outputs": [], "fault": None, "expected_fault": None, "sketch_reason": "",
                "legality_note": "", "mismatches": [], "error": ""}
    fault = None
    if r.fault is not None:
        f = r.fault
        fault = {"name": f.name, "line": f.line, "statement": f.statement, "asl_path": f.asl_path,
                 "asl_line": f.asl_line, "asl_function": f.asl_function,
                 "asl_href": src(f.asl_path, f.asl_line, f.asl_line) if f.asl_path else None,
                 "line_href": f"#{anchor}-L-{f.line}" if f.line else None}
    return {
        "n": n, "anchor": anchor, "status": status_of(r), "kind": r.kind, "id": r.id, "summary": r.summary,
        "program": highlight_program(r.program, anchor=anchor + "-L", mark_line=r.fault.line if r.fault else 0),
        "profile": r.profile, "path": r.path, "line": r.line,
        "path_href": src(r.path, r.line, r.line) if r.path.endswith(".asl") else None,
        "inputs": [tile_view(t) for t in r.inputs], "outputs": [tile_view(t) for t in r.outputs],
        "fault": fault, "expected_fault": r.expected_fault, "sketch_reason": r.sketch_reason,
        "legality_note": r.legality_note, "mismatches": list(r.mismatches), "error": r.error,
    }


def instruction_examples(results: list[ExampleResult], ident: str, contract_examples: list[str],
                         src: SourceLink) -> list[dict[str, Any]]:
    """The record's own ``contract.examples`` first (``#example-1`` … in order), then the checked files."""
    by_id = {r.id: r for r in results if r.kind != "checked"}
    views = [example_view(by_id.get(f"{ident}#example-{i}"), text, i, src)
             for i, text in enumerate(contract_examples, 1)]
    for r in results:
        if r.kind == "checked":
            views.append(example_view(r, r.program, len(views) + 1, src))
    return views


# ------------------------------------------------------------------ worked examples
def worked_view(graph: SpecGraph, mnemonic: str, src: SourceLink) -> dict[str, Any] | None:
    """The worked-example section of an instruction page (None: no block composition, or not run this build).

    Reads the suite the build computed (:data:`~specgen.worked.generator.WORKED`, run by the site's load
    step) and never starts the interpreter itself, so a page render without the examples stage stays fast.
    """
    suite = WORKED.peek(graph)
    entry = suite.entries.get(mnemonic) if suite is not None else None
    if entry is None:
        if suite is not None and mnemonic in suite.pending:  # a server computes it in the background
            return {"running": True, "examples": [], "reason": None, "omitted": [], "defaulted": [], "attempts": []}
        return None
    examples = []
    for n, w in enumerate(entry.examples, 1):
        r = w.result
        anchor = f"worked-{n}"
        examples.append({
            "n": n, "anchor": anchor, "id": r.id, "data_type": w.data_type, "pad": w.pad, "edges": w.edges,
            "seed": f"0x{w.seed:08x}", "rows": w.rows, "columns": w.columns, "valid_rows": w.valid_rows,
            "valid_columns": w.valid_columns, "prose_admits": w.prose_admits, "profile": r.profile,
            "scalars": list(getattr(w, "scalars", ())),
            "memory": list(getattr(w, "memory", ())), "dims": list(getattr(w, "dims", ())),
            "program": highlight_program(r.program, anchor=anchor + "-L"),
            "datr": getattr(w, "datr", ""),
            "lines": [{"line": x.line, "text": x.text, "word": x.word, "destination": x.destination,
                       "more": list(getattr(x, "more", ()))}
                      for x in r.lines],
            "inputs": [_pad_marked(tile_view(t), t) for t in r.inputs],
            "outputs": [_pad_marked(tile_view(t), t) for t in r.outputs],
        })
    reason = None
    if entry.reason is not None:
        params = dict(entry.reason.params)
        reason = Sentence("worked.reason." + entry.reason.key, str(params.get("problem", "")), **params)
    return {"examples": examples, "reason": reason, "omitted": list(entry.omitted),
            "defaulted": list(getattr(entry, "defaulted", [])),
            "attempts": [{"data_type": a.data_type, "pad": a.pad, "edges": a.edges, "problem": a.problem}
                         for a in entry.attempts],
            "path": entry.path, "path_href": src(entry.path, entry.line, entry.line)}


def short_word(word: str) -> str:
    """A carrier word without its leading zero digits (at least four kept): ``0x0000000000007bff`` is
    ``0x7bff``. The same number, written so three Tiles fit side by side on a worked example."""
    if not word.startswith("0x") or len(word) <= 6:
        return word
    digits = word[2:].lstrip("0")
    return "0x" + digits.rjust(4, "0")


def _pad_marked(view: dict[str, Any], t: TileTable) -> dict[str, Any]:
    """Mark each cell outside the valid region (the pad region the PadValue fills, or leaves undefined)."""
    for row in view["rows"]:
        if row["collapsed"]:
            row["pad"] = True
            row["word"] = short_word(row["word"])
            continue
        r = int(row["label"])
        for c, cell in enumerate(row["cells"]):
            cell["pad"] = not (r < t.valid_rows and c < t.valid_columns)
            cell["word"] = short_word(cell["word"])
    view["pad_count"] = t.rows * t.columns - t.valid_rows * t.valid_columns
    view["rows"] = _merge_pad_rows(view["rows"])
    return view


def _merge_pad_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A run of pad-region rows whose every element holds one value (the PadValue) becomes one row."""
    out: list[dict[str, Any]] = []
    for row in rows:
        cells = row.get("cells") or []
        same = (not row["collapsed"] and cells and all(c["pad"] and c["defined"] for c in cells)
                and len({(c["value"], c["word"]) for c in cells}) == 1)
        if not same:
            out.append(row)
            continue
        prev = out[-1] if out else None
        key = (cells[0]["value"], cells[0]["word"])
        if prev is not None and prev.get("merge_key") == key:
            first = prev["label"].split("–")[0]
            prev["count"] += 1
            prev["label"] = f"{first}–{row['label']}"
        else:
            out.append({"label": row["label"], "collapsed": True, "pad": True, "merge_key": key, "count": 1,
                        "value": key[0], "word": key[1], "cells": cells})
    for row in out:  # a run of one keeps its cells
        if row.pop("merge_key", None) is not None and row["count"] == 1:
            row.update(collapsed=False)
            row.pop("value"), row.pop("word"), row.pop("count")
    return out


def worked_digest(graph: SpecGraph, mnemonic: str) -> str:
    """Part of an instruction page's cache key: the worked examples this build showed for it."""
    suite = WORKED.peek(graph)
    entry = suite.entries.get(mnemonic) if suite is not None else None
    if entry is None:
        return "running" if suite is not None and mnemonic in suite.pending else ""
    return hashlib.sha256(repr(entry).encode()).hexdigest()
