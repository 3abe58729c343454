"""Which line of the spec's ASL decided a fault: the site a reader of the spec can open.

The executor records the interpreter's call stack when the spec calls ``SetFault``
(:mod:`specgen.examples.executor`); this module reads the site out of it.
"""

from __future__ import annotations

import re
from typing import Callable

from ..diagnostics import Span

GENERATED_PREFIX = "<generated>"  # the path of ASL specgen generated from the catalogs (specgen.asl.synth)


def fault_site(stack: tuple[tuple[str, Span], ...], generated_line: Callable[[str, int], str],
               declaration: Callable[[str], Span | None],
               forwards: Callable[[str], bool] = lambda name: False) -> tuple[Span | None, str]:
    """The spec's ASL site that decided a fault, and the function it is in, from the stack at ``SetFault``.

    ``stack`` holds (callee, call site) frames. The site is the call of ``SetFault`` when that is in the
    spec's own ASL. When ASL specgen generated from the catalogs called it (the tile dispatch rejects an
    operation whose legality handler returned FALSE), the generated line says nothing to a reader of the
    spec: the site is then the declaration of the spec predicate the generated check called (the
    ``if !Predicate(…) then`` line before the call), or else the innermost call site in a spec file.
    A helper that takes the fault kind as a parameter (``forwards``) only passes it on: the site is
    then the call of that helper, where the kind was chosen.
    """
    at = next((i for i, (name, _) in enumerate(stack) if name == "SetFault"), None)
    if at is None:
        return None, ""
    while at > 1 and forwards(stack[at - 1][0]):
        at -= 1
    span = stack[at][1]
    caller = stack[at - 1][0] if at > 0 else "SetFault"
    if not span.path.startswith(GENERATED_PREFIX):
        return span, caller
    for back in range(1, 4):  # the check is the line(s) just before the SetFault call
        text = generated_line(span.path, span.line - back)
        if text.lstrip().startswith(("if ", "elsif ")):
            for name in reversed(re.findall(r"!\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(", text)):
                decl = declaration(name)
                if decl is not None and not decl.path.startswith(GENERATED_PREFIX):
                    return decl, name
            break
    for i in range(at, 0, -1):  # innermost frame whose call site is in a spec file
        site = stack[i][1]
        if not site.path.startswith(GENERATED_PREFIX):
            return site, stack[i - 1][0]
    return span, caller
