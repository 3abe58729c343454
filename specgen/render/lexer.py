"""A Pygments lexer for the ASL1 dialect of PTO specifications.

Registered as the ``asl`` Pygments lexer (entry point in pyproject) so
``pygmentize -l asl`` and Markdown fences highlight the same way the site does.
The ``// PTO-*:`` header lines, ``NDF-*``/``DOC-*`` markers and ``// ndf:``
attribute lines get their own token so pages can style records apart from
ordinary comments.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Text, Whitespace)

__all__ = ["ASLLexer"]

KEYWORDS = (
    "AND", "OR", "XOR", "NOT", "DIV", "DIVRM", "MOD", "IN", "IMPLEMENTATION_DEFINED", "UNKNOWN",
    "array", "as", "assert", "begin", "case", "catch", "config", "constant", "do", "downto",
    "else", "elsif", "end", "enumeration", "for", "func", "getter", "if", "impdef", "let",
    "of", "otherwise", "pure", "readonly", "record", "repeat", "return", "setter", "then",
    "throw", "to", "try", "type", "unreachable", "until", "var", "when", "where", "while",
    "with", "exception", "noreturn", "subtypes", "recurselimit", "pass",
)
TYPES = ("integer", "boolean", "real", "string", "bit", "bits", "collection")
CONSTANTS = ("TRUE", "FALSE")


class ASLLexer(RegexLexer):
    """ASL1 as written in PTO ``asl/`` units and AVS tests."""

    name = "ASL"
    aliases = ["asl", "asl1"]
    filenames = ["*.asl"]
    mimetypes = ["text/x-asl"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"(//\s*)(PTO-[A-Z0-9-]+:)(.*?)$", bygroups(Comment.Special, Comment.Preproc, Comment.Special)),
            (r"(//\s*)((?:NDF|DOC)-(?:BEGIN|END):)(.*?)$", bygroups(Comment.Special, Comment.Preproc, Name.Label)),
            (r"(//\s*)(ndf:)(.*?)$", bygroups(Comment.Special, Comment.Preproc, Comment.Special)),
            (r"//.*?$", Comment.Single),
            (r"/\*", Comment.Multiline, "comment"),
            (r'"(\\\\|\\"|[^"])*"', String.Double),
            (r"'[01xX ]*'", Number.Bin),
            (r"0x[0-9a-fA-F_]+", Number.Hex),
            (r"[0-9][0-9_]*\.[0-9]+", Number.Float),
            (r"[0-9][0-9_]*", Number.Integer),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (r"(func|getter|setter)(\s+)([A-Za-z_][A-Za-z0-9_.]*)",
             bygroups(Keyword, Whitespace, Name.Function)),
            (r"[A-Z][A-Za-z0-9_]*(?=\s*[({])", Name.Function),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"(==|!=|<=|>=|=>|-->|<->|&&|\|\||\+\+|::|<<|>>|[-+*/^<>=!])", Operator),
            (r"[()\[\]{},;:.]", Punctuation),
            (r".", Text),
        ],
        "comment": [
            (r"[^*/]+", Comment.Multiline),
            (r"\*/", Comment.Multiline, "#pop"),
            (r"[*/]", Comment.Multiline),
        ],
    }
