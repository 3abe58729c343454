"""Checked examples: the spec's example files and its records' ``contract.examples``, read, run through
the executor and compared with what they state, their results kept in a pack keyed by content; it may
import executor, program, asl, vocabulary and prose.
"""
