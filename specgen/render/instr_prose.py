"""The contract of an instruction as sentences a reader follows, in the page's language.

Each sentence is a message-catalog pattern (``instr.*`` in
``locales/<locale>/instr.json``) filled with identifiers the spec states in
structured records: the mnemonic, the carrier and its Mode/Function, the
handlers of the tile catalog record, operand names, DataType and PadValue
names, fault names. Identifiers are set in ``<code>``; nothing the spec writes
as English prose is put inside a generated sentence, so a Chinese page never
mixes languages within a sentence. The contract's own lines (English, as the
spec writes them) follow each topic, each line under exactly one topic, marked
``lang="en"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from markupsafe import Markup, escape

from ..models.instruction import InstructionHeader, TileOperation
from ..prose import datatype_sentence
from ..vocabulary import Vocabulary
from .blocks import Signature
from .i18n import Messages

_FAULT = re.compile(r"\bFault_[A-Za-z0-9_]+")
_PAD = re.compile(r"\bpad", re.I)


def code(value: Any) -> Markup:
    return Markup("<code>{}</code>").format(value)


def sentence(t: Messages, key: str, **values: Any) -> Markup:
    """The catalog pattern ``key`` with each value set as an identifier (``<code>``), escaped."""
    pattern = escape(t(key))
    filled = {k: v if isinstance(v, Markup) else code(v) for k, v in values.items()}
    return Markup(pattern.format(**filled))


def id_list(t: Messages, names: Sequence[str]) -> Markup:
    return Markup(escape(t("instr.list_sep"))).join(code(n) for n in names)


# an ASL enumeration member as the spec names them: its type's prefix, then the member (TileBinary_MUL)
_MEMBER = re.compile(r"^[A-Z][A-Za-z0-9]*_([A-Za-z0-9]\w*)$")


def operation_sentence(t: Messages, tile_rec: TileOperation | None) -> Markup | None:
    """What the instruction computes, from the constants its catalog record passes to the semantic handler.

    The record states the call (``ExecuteTileBinary(TileBinary_MUL, …)``); the member's name after its
    type's prefix (``MUL``) is looked up in the locale's ``operation.*`` glossary, so a Chinese page says
    乘法 in a sentence of its own (and a reader's search for 乘法 finds TMUL). A member the glossary lacks
    is named by its identifier only; a record without constant arguments gets no sentence."""
    if tile_rec is None:
        return None
    constants = [a.constant for a in tile_rec.arguments if a.constant]
    if not constants:
        return None
    words: list[str] = []
    for c in constants:
        m = _MEMBER.match(c)
        word = t.term("operation." + m.group(1).upper()) if m else None
        if word and word not in words:
            words.append(word)
    if not words:
        return sentence(t, "instr.operation_unnamed", constants=id_list(t, constants),
                        handler=tile_rec.semantic_handler)
    return sentence(t, "instr.operation", words=Markup(escape(t("operation.list_sep").join(words))),
                    constants=id_list(t, constants), handler=tile_rec.semantic_handler)


_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _glossary_word(t: Messages, word: str) -> str | None:
    """The locale's word for an English word of the tree (``loads`` → 加载); None when the glossary has
    none, or an empty one (a word the language keeps as the spec writes it: Tile)."""
    w = word.lower()
    for key in (w, w[:-1] if w.endswith("s") else "", w[:-2] if w.endswith("es") else ""):
        if key:
            found = t.term("term." + key)
            if found:
                return found
    return None


def keyword_sentence(t: Messages, ins: InstructionHeader, records: Sequence[Any], limit: int = 10) -> Markup | None:
    """What the instruction does, in the page's language's words: every word the tree declares about it
    (its summary, its classification, each catalog record's handler, group and operand roles, the operation
    constants its record passes) that the locale's ``term.*`` glossary knows, once each, in that order.

    The glossary is of words, never of instruction names: a new instruction whose record says
    ``ExecuteTileCompare`` or whose class is ``matrix-matrix`` is found by 比较 or 矩阵 with no edit here.
    The sentence is part of the page's first paragraph, which is the instruction's search entry."""
    sources: list[str] = [ins.summary or ""]
    sources += [c.replace("-", " ") for c in ins.classification]
    for rec in records:
        for name in ("semantic_handler", "semantic_group", "semantic_family", "classification"):
            value = getattr(rec, name, None)
            if isinstance(value, str):
                sources.append(value)
        for op in getattr(rec, "operands", None) or []:
            sources.append(str(getattr(op, "role", "")))
    words: list[str] = []
    for text in sources:
        for w in _WORD.findall(text.replace("_", " ")):
            found = _glossary_word(t, w)
            if found and found not in words:
                words.append(found)
    for rec in records:
        for a in getattr(rec, "arguments", None) or []:
            m = _MEMBER.match(a.constant or "")
            found = t.term("operation." + m.group(1).upper()) if m else None
            if found and found not in words:
                words.append(found)
    if not words:
        return None
    return sentence(t, "instr.keywords", mnemonic=ins.mnemonic,
                    words=Markup(escape(t("term.list_sep").join(words[:limit]))))


_LEADING_MNEMONIC = re.compile(r"^\S+\s+-\s+")


def declared_words(t: Messages, ins: InstructionHeader, records: Sequence[Any]) -> list[tuple[str, int]]:
    """The locale's words for what the instruction is, each with how many of the tree's declarations say it:
    its summary (without a leading "MNEMONIC - "), its most specific class (``matrix-matrix``, not the group
    ``matrix-and-matrix-vector`` every sibling shares), each catalog record's handler, group and family, its
    operand roles (together one declaration) and the operation constants it passes. The site's search ranks
    an instruction that matched every word of a query by the share of this weight the query covers: a
    query's words that are most of what the tree says about an instruction (``matrix multiply``: TMATMUL,
    whose class adds nothing, before TGEMV, whose summary, class and roles add "vector") put it first."""
    sources: list[str] = [_LEADING_MNEMONIC.sub("", ins.summary or "")]
    if ins.classification:
        sources.append(ins.classification[-1].replace("-", " "))
    consts: list[str] = []
    for rec in records:
        for name in ("semantic_handler", "semantic_group", "semantic_family"):
            value = getattr(rec, name, None)
            if isinstance(value, str):
                sources.append(value)
        roles = [str(getattr(op, "role", "")) for op in getattr(rec, "operands", None) or []]
        if roles:
            sources.append(" ".join(roles))
        consts += [m.group(1).upper() for a in getattr(rec, "arguments", None) or []
                   if (m := _MEMBER.match(a.constant or ""))]
    weight: dict[str, int] = {}
    for text in sources:
        said = {w for w in (_glossary_word(t, x) for x in _WORD.findall(text.replace("_", " "))) if w}
        for w in said:
            weight[w] = weight.get(w, 0) + 1
    for c in dict.fromkeys(consts):
        found = t.term("operation." + c)
        if found:
            weight[found] = weight.get(found, 0) + 1
    return sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass
class Topic:
    """One part of the contract: generated sentences, then the spec's own lines for it."""

    id: str
    label: str
    sentences: list[Markup] = field(default_factory=list)
    spec_lines: list[str] = field(default_factory=list)


def contract_topics(t: Messages, ins: InstructionHeader, contract: Any, sig: Signature, tile_rec: TileOperation | None,
                    vocab: Vocabulary) -> tuple[list[Markup], list[Topic]]:
    """(the opening sentences, the topics) of one instruction's contract."""
    mn = ins.mnemonic
    lead: list[Markup] = []
    cls = " / ".join(ins.classification)
    if ins.engine:
        lead.append(sentence(t, "instr.identity_engine", mnemonic=mn, surface=ins.surface,
                             classification=cls, engine=ins.engine))
    else:
        lead.append(sentence(t, "instr.identity", mnemonic=mn, surface=ins.surface, classification=cls))
    operation = operation_sentence(t, tile_rec)
    if operation is not None:  # same paragraph: the first one is the instruction's search text
        lead[0] = Markup(escape(t("instr.sentence_sep"))).join((lead[0], operation))
    keywords = keyword_sentence(t, ins, ins.catalog_records)
    if keywords is not None:
        lead[0] = Markup(escape(t("instr.sentence_sep"))).join((lead[0], keywords))
    if tile_rec is not None and getattr(tile_rec, "mode", None) is not None:
        lead.append(sentence(t, "instr.selector", carrier=tile_rec.command_mnemonic, mode=f"Mode {tile_rec.mode}",
                             function=f"Function {tile_rec.function}", selector=tile_rec.selector))
    elif tile_rec is not None:
        lead.append(sentence(t, "instr.selector_nomode", carrier=tile_rec.command_mnemonic,
                             function=f"Function {tile_rec.function}"))
    elif contract.standalone_opcode:
        lead.append(sentence(t, "instr.standalone", encoding_class=contract.encoding_class))
    elif contract.encoding_class:
        lead.append(sentence(t, "instr.encoding_other", encoding_class=contract.encoding_class))

    topics = {k: Topic(k, t("instr.topic." + k)) for k in
              ("preflight", "snapshot", "publication", "padding", "faults", "defaults")}
    # preflight
    pre = topics["preflight"]
    if contract.legality:
        if tile_rec is not None:
            pre.sentences.append(sentence(t, "instr.preflight_handler", mnemonic=mn, handler=tile_rec.legality_handler))
        else:
            pre.sentences.append(sentence(t, "instr.preflight", mnemonic=mn))
    dts = datatype_sentence(list(contract.legality), vocab)
    if dts is not None:
        names = [d for d in vocab.datatype_names if d in dts.names]
        pre.sentences.append(sentence(t, "instr.datatype_closed" if dts.closed else "instr.datatype_open",
                                      types=id_list(t, names)))
    pre.spec_lines = list(contract.legality)
    # snapshot: what it reads before what it writes
    snap = topics["snapshot"]
    ins_names = [o.name for o in sig.inputs]
    out_names = [o.name for o in sig.outputs]
    if ins_names and out_names:
        snap.sentences.append(sentence(t, "instr.reads_writes", mnemonic=mn, inputs=id_list(t, ins_names),
                                       outputs=id_list(t, out_names)))
    elif out_names:
        snap.sentences.append(sentence(t, "instr.writes", mnemonic=mn, outputs=id_list(t, out_names)))
    snap.spec_lines = list(contract.ordering)
    # publication
    pub = topics["publication"]
    if tile_rec is not None:
        pub.sentences.append(sentence(t, "instr.handler", handler=tile_rec.semantic_handler))
    memory = [m for m in contract.memory_effects if m.strip().lower() != "none"]
    if contract.memory_effects and not memory:
        pub.sentences.append(sentence(t, "instr.no_memory", mnemonic=mn))
    pad = topics["padding"]
    pub.spec_lines = [s for s in contract.state_effects if not _PAD.search(s)] + memory
    pad.spec_lines = [s for s in contract.state_effects if _PAD.search(s)]
    # padding: the B.DATR union the tile record declares
    if tile_rec is not None:
        union = tile_rec.datr_contract.pad_union
        if union == "pad-value" and vocab.pad_values:
            pad.sentences.append(sentence(t, "instr.pad_value", field="PadValue", command="B.DATR",
                                          pads=id_list(t, [p.name for p in vocab.pad_values])))
        elif union in ("must-zero", "histogram-byte-id"):
            pad.sentences.append(sentence(t, "instr.pad_" + union.replace("-", "_"), field="PadValue",
                                          command="B.DATR", byteid="ByteId"))
    defaults = topics["defaults"]
    defaults.spec_lines = [s for s in contract.defaults if "PadValue" not in s]
    pad.spec_lines += [s for s in contract.defaults if "PadValue" in s]
    if defaults.spec_lines:
        defaults.sentences.append(sentence(t, "instr.defaults", mnemonic=mn))
    # faults
    faults = topics["faults"]
    named: list[str] = []
    for line in contract.exceptions:
        named += [f for f in _FAULT.findall(line) if f not in named]
    if named:
        faults.sentences.append(sentence(t, "instr.faults_named", mnemonic=mn, faults=id_list(t, named)))
    if tile_rec is not None:
        faults.sentences.append(sentence(t, "instr.fault_contract", fault=tile_rec.fault_contract,
                                         restart=tile_rec.restart_contract))
    faults.spec_lines = list(contract.exceptions)
    return lead, [tp for tp in topics.values() if tp.sentences or tp.spec_lines]
