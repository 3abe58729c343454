"""The worked-example generator: for every instruction whose record composes a Block, operands the spec's
ASL admits, a program run through the executor and its result checked like an example's; it may import
examples, executor, program, asl, encoding, vocabulary and prose.
"""
