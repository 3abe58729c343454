"""legality-prose-mismatch: the DataType set a record's legality prose names equals the set its ASL admits.

The executable predicate ``InstructionContractDataTypeLegal_<MN>`` is the
authority (the model enforces it); prose that names a different set misleads
readers. The admitted set is computed by running the spec's own ASL for every
``TileDataType`` member. A warning, with both sets, so authors fix the prose
(or the ASL) deliberately.
"""

from __future__ import annotations

from typing import Iterable

from ...asl.legality import ADMITTED
from ...diagnostics import Finding, Severity
from ...graph import SpecGraph
from ...prose import datatype_sentence
from ...vocabulary import VOCABULARY
from ..base import Rule


def check(graph: SpecGraph) -> Iterable[Finding]:
    candidates = []
    vocabulary = VOCABULARY(graph)
    for u in graph.iter_instruction_units():
        ins = u.instruction
        assert ins is not None
        if getattr(ins, "contract", None) is None:  # a record of a generation without contracts
            continue
        found = datatype_sentence(ins.contract.legality, vocabulary)
        if found is not None:
            candidates.append((u, ins, found))
    if not candidates:
        return
    try:
        sets = ADMITTED(graph)
    except Exception as e:  # the interpreter cannot index this tree: say so once
        span = getattr(e, "span", None) if getattr(e, "kind", "") == "budget" else None
        if span is not None:  # an endless loop in the spec's ASL: an error at the line running
            yield Finding(RULE.id, Severity.ERROR, span.path, span.line,
                          f"the ASL legality predicates did not finish: {e.message}", col=span.col)
            return
        yield Finding(RULE.id, Severity.WARNING, graph.spec.units[0].path if graph.spec.units else "", 0,
                      f"could not run the ASL legality predicates: {e}")
        return
    for u, ins, sentence in candidates:
        i, named = sentence.index, sentence.names
        asl = sets.get(ins.mnemonic)
        if asl is None or asl == named:
            continue
        line = u.text.split("\n")[u.header_span.line - 1] if u.header_span else ""
        col = line.find(ins.contract.legality[i][:40]) + 1
        only_asl = sorted(asl - named)
        only_prose = sorted(named - asl)
        yield Finding(RULE.id, Severity.WARNING, u.path, u.header_span.line if u.header_span else 1,
                      f"{ins.mnemonic}: contract.legality names {len(named)} DataType(s) "
                      f"({', '.join(sorted(named))}) but the ASL admits {len(asl)} ({', '.join(sorted(asl))})"
                      + (f"; admitted by the ASL only: {', '.join(only_asl)}" if only_asl else "")
                      + (f"; named by the prose only: {', '.join(only_prose)}" if only_prose else ""),
                      subject=ins.id, col=max(col, 1))


RULE = Rule("legality-prose-mismatch", Severity.WARNING,
            "The legality prose names another DataType set than the ASL admits.",
            "Align contract.legality with InstructionContractDataTypeLegal_<MN> (the ASL is the authority).", check,
            requires=("contracts",))
