"""``specgen diff`` as text and as Markdown a pull-request comment holds.

The text report is complete. The Markdown report is a summary that fits a
GitHub comment (:data:`PR_COMMENT_CHARS`): counts per surface and per aspect,
the added, removed and changed instructions by name (grouped by what changed),
then each instruction's diffs in a collapsed ``<details>`` while they fit, and
one closing line saying how many were left out. :func:`markdown_report` with
no limit is the complete report (``--details FILE``).
"""

from __future__ import annotations

import re
from pathlib import Path

from . import ASPECTS, BODY, RECORDS, InstructionChange, SpecDiff

PR_COMMENT_CHARS = 65_536  # GitHub's limit on an issue or pull-request comment body


def format_text(d: SpecDiff) -> str:
    """One line per added/removed instruction, then each change aspect by aspect; the diffs indented."""
    out = [f"{d.old} -> {d.new}: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed"]
    out += [f"not compared (one release does not state it): {k} for {n} instruction(s)"
            for k, n in sorted(d.not_compared.items())]
    out += [f"+ {mn}" for mn in d.added] + [f"- {mn}" for mn in d.removed]
    for c in d.changed:
        out.append(f"~ {c.mnemonic}")
        for a in c.aspects:
            if a.aspect == BODY:
                out.append(f"    {BODY}: -{len(a.removed)} +{len(a.added)} lines")
                out += ["      " + ln for ln in c.asl_diff.splitlines()]
            elif a.aspect == RECORDS:
                out.append(f"    {RECORDS}:")
                out += ["      " + ln for _, diff in c.record_diffs for ln in diff.splitlines()]
            else:
                out.append(f"    {a.aspect}:")
                out += [f"      - {x}" for x in a.removed] + [f"      + {x}" for x in a.added]
    return "\n".join(out) + "\n"


def _names(names: list[str], room: int) -> str:
    """``names`` as inline code joined by `` · ``, cut to ``room`` characters with "… and N more"."""
    parts: list[str] = []
    used = 0
    for i, mn in enumerate(names):
        piece = f"`{mn}`"
        tail = len(f" … and {len(names) - i} more")
        if used + len(piece) + 3 + tail > room and i < len(names) - 1:
            return " · ".join(parts) + f" … and {len(names) - i} more"
        parts.append(piece)
        used += len(piece) + 3
    return " · ".join(parts)


def _surface_rows(d: SpecDiff) -> list[str]:
    counts: dict[str, list[int]] = {}
    for mn in d.added:
        counts.setdefault(d.listed[mn].surface, [0, 0, 0])[0] += 1
    for mn in d.removed:
        counts.setdefault(d.listed[mn].surface, [0, 0, 0])[1] += 1
    for c in d.changed:
        counts.setdefault(c.listed.surface if c.listed else "", [0, 0, 0])[2] += 1
    rows = ["| Surface | Added | Removed | Changed |", "| --- | ---: | ---: | ---: |"]
    rows += [f"| {s or '—'} | {a} | {r} | {c} |" for s, (a, r, c) in sorted(counts.items())]
    rows.append(f"| **all** | **{len(d.added)}** | **{len(d.removed)}** | **{len(d.changed)}** |")
    return rows


def _aspect_rows(d: SpecDiff) -> list[str]:
    counts = {k: sum(1 for c in d.changed if c.aspect(k) is not None) for k in ASPECTS}
    rows = ["| What changed | Instructions |", "| --- | ---: |"]
    return rows + [f"| {k} | {n} |" for k, n in counts.items() if n]


def _groups(d: SpecDiff) -> list[tuple[str, list[str]]]:
    """Changed instructions grouped by the set of aspects that changed, largest group first."""
    groups: dict[str, list[str]] = {}
    for c in d.changed:
        groups.setdefault(" · ".join(a.aspect for a in c.aspects), []).append(c.mnemonic)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def _fence(text: str) -> str:
    """A code fence longer than any backtick run in ``text`` (spec text may hold fences of its own)."""
    return "`" * max(3, max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)


def details(c: InstructionChange) -> str:
    """One instruction's changes as a collapsed ``<details>`` block: aspect lines, then the diffs."""
    out = [f"<details><summary><code>{c.mnemonic}</code>: {', '.join(a.aspect for a in c.aspects)}</summary>", ""]
    for a in c.aspects:
        if a.aspect in (BODY, RECORDS):
            continue
        out += [f"**{a.aspect}**", ""] + [f"- removed: `{x}`" for x in a.removed] \
            + [f"- added: `{x}`" for x in a.added] + [""]
    if c.not_compared:
        out += [f"Not compared (one release does not state it): {', '.join(c.not_compared)}.", ""]
    for label, diff in ([(BODY, c.asl_diff)] if c.asl_diff else []) + list(c.record_diffs):
        fence = _fence(diff)
        out += [f"**{label}**", "", f"{fence}diff", diff, fence, ""]
    out += ["</details>", ""]
    return "\n".join(out)


def markdown_report(d: SpecDiff, limit: int | None = PR_COMMENT_CHARS, details_file: str | None = None) -> str:
    """The summary (counts, names, as many collapsed details as fit ``limit`` characters; ``None``: all).

    ``details_file`` is named by its file name only: the comment is read elsewhere (a pull request),
    where the path on the machine that wrote it means nothing and would disclose a local folder."""
    n_both = len(d.changed) + d.unchanged
    head = [f"# Changes from {d.old} to {d.new}", "",
            f"**{len(d.added)} added · {len(d.removed)} removed · {len(d.changed)} changed** "
            f"({d.unchanged} of the {n_both} instructions in both releases unchanged).", ""]
    head += _surface_rows(d) + [""]
    if d.changed:
        head += _aspect_rows(d) + [""]
    if d.not_compared:
        head += ["Not compared where one release does not state it: "
                 + ", ".join(f"{k} ({n} instructions)" for k, n in sorted(d.not_compared.items())) + ".", ""]
    text = "\n".join(head) + "\n"
    room = (limit if limit is not None else 1 << 62) - 600  # the closing line and safety
    lists: list[str] = []
    share = (room - len(text)) // 2  # names get at most half of what is left, details the rest
    for title, names in (("Added", list(d.added)), ("Removed", list(d.removed))):
        if names:
            lists += [f"## {title} ({len(names)})", "", _names(names, max(200, share // 4)), ""]
    if d.changed:
        lists += [f"## Changed ({len(d.changed)})", ""]
        groups = _groups(d)
        for aspects, names in groups:
            lists += [f"- **{aspects}** ({len(names)}): " + _names(names, max(200, share // (2 * len(groups)))), ""]
    text += "\n".join(lists)
    shown = 0
    if d.changed:
        text += "\n## Details\n\n"
        for c in d.changed:
            block = details(c)
            if len(text) + len(block) > room:
                break
            text += block
            shown += 1
    left = len(d.changed) - shown
    if left:
        where = (f"the complete report is in `{Path(details_file).name}`" if details_file else
                 "`specgen diff OLD NEW --format markdown --details FILE` writes the complete report")
        text += (f"\n_The details of {left} more instruction(s) are left out to fit a pull-request comment "
                 f"({limit:,} characters); {where}._\n")
    return text
