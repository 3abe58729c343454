"""The program executor behind ``specgen run``: a parsed block program assembled to words and run through
the spec's own ASL, with the Tiles, GPRs, memory and fault it leaves; it may import program, asl,
catalog_asl, encoding and vocabulary.
"""
