"""The block-program language: the command syntax a spec's examples are written in, parsed to statements
of decoded fields; it may import vocabulary only, since what a field means is the executor's question to
the spec's ASL.
"""
