"""The ASL specgen derives from a spec's catalogs, written as text (the decoders, tables, validation shards
and canonical sweeps the upstream build generates and a spec tree lacks); it may import encoding and
vocabulary, never the interpreter.

:func:`specgen.catalog_asl.sources.generated_sources` is the one entry point: every generated module of
a tree as ``(text, "<generated>/NAME.asl")``; each sibling module writes one of them
(``command_forms.py`` writes ``<generated>/command-forms.asl``, and so on), and the interpreter parses
them (:mod:`specgen.asl.catalog_modules`).
"""
