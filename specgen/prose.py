"""The one reader of a record's legality prose: which DataTypes does "the DataType sentence" name?

The check (``legality-prose-mismatch``) compares that set with what the ASL
admits, and the examples flag a contract example whose DataType the sentence
leaves out; both must read the same sentence the same way. The sentence is the
first legality line that mentions ``DataType``, names at least two of the
spec's DataTypes and states them (``one of``, ``is``, ``are``, ``supports``,
``accepts``). It is a *closed* list when it says ``DataType is one of`` (or
``must be one of``): only then does a type it leaves out count as excluded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from .vocabulary import Vocabulary
from .workspace import memoised

_STATES = re.compile(r"\b(one of|is|are|supports?|accepts?)\b")
_CLOSED = re.compile(r"DataType (?:is|must be) one of ")


@dataclass(frozen=True, slots=True)
class DataTypeSentence:
    """Where the DataType sentence is in the legality list, the names it states, and whether the list is closed."""

    index: int
    names: frozenset[str]
    closed: bool


@memoised(maxsize=64)
def _type_word(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b")


def datatype_sentence(legality: Sequence[str], vocabulary: Vocabulary) -> DataTypeSentence | None:
    """The DataType sentence of ``legality`` (None: the prose states no DataType set)."""
    if not vocabulary.datatypes:
        return None
    words = _type_word(vocabulary.datatype_names)
    for i, line in enumerate(legality):
        if "DataType" not in line:
            continue
        names = words.findall(line)
        if len(names) >= 2 and _STATES.search(line):
            return DataTypeSentence(i, frozenset(names), bool(_CLOSED.search(line)))
    return None
