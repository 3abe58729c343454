"""The generation key names exactly what the generated ASL is made from.

With the validation shards, that is the catalogs, the tile classes, the tests' ``Validate*`` calls and the
units' literal flags (``InstructionContract…() => boolean begin return TRUE; end;``, which the shard
generators read where a catalog does not say). Without them (a ``specgen run``, the tile-only set), the
tests are not read at all: a test edit must not invalidate the modules a program runs on, and a flag edit
must invalidate the shards a test runs on.
"""

from __future__ import annotations

from pathlib import Path

from specgen.catalog_asl.sources import generation_key, literal_flags
from specgen.loader import load_spec
from treecopy import copy_tree

REPO = Path(__file__).resolve().parents[1]
FLAG = "InstructionContractImmediateIsSigned_SGTEST"
UNIT = "asl/arch/profile/flag-probe.asl"
TEST = "tests/asl/arch/profile/reference-profile/arch-exec-reference-profile-neutral-cases-001.asl"


def _tree(tmp_path: Path, flag: str = "TRUE", call: str = "") -> Path:
    """The one scratch copy (the key holds the root), its probe unit and first test written as asked."""
    root = tmp_path / "spec"
    if not root.exists():
        copy_tree(REPO / "spec", root)
    (root / UNIT).write_text(f"func {FLAG}() => boolean\nbegin\n    return {flag};\nend;\n", encoding="utf-8")
    text = (REPO / "spec" / TEST).read_text(encoding="utf-8")
    (root / TEST).write_text(text + (f"\n// {call}\n" if call else ""), encoding="utf-8")
    return root


def test_a_literal_flag_edit_changes_the_key_of_the_shards_only(tmp_path: Path) -> None:
    yes, no = load_spec(_tree(tmp_path, "TRUE")), load_spec(_tree(tmp_path, "FALSE"))
    assert literal_flags(yes)[FLAG] is True and literal_flags(no)[FLAG] is False
    assert generation_key(yes) != generation_key(no)
    assert generation_key(yes, shards=False) == generation_key(no, shards=False)
    assert generation_key(yes, tile_only=True) == generation_key(no, tile_only=True)


def test_a_tests_validation_calls_key_the_shards_only(tmp_path: Path) -> None:
    plain = load_spec(_tree(tmp_path))
    calling = load_spec(_tree(tmp_path, call="ValidateSomethingNew(x);"))
    assert generation_key(plain) != generation_key(calling)
    assert generation_key(plain, shards=False) == generation_key(calling, shards=False)


def test_a_flag_must_start_a_word(tmp_path: Path) -> None:
    """``xfunc`` or ``my_func`` declaring nothing is not a flag (the pattern skips ``\\b`` for speed)."""
    root = _tree(tmp_path)
    (root / UNIT).write_text(f"// my_func {FLAG}() => boolean begin return TRUE; end;\n"
                             f"func {FLAG}() => boolean\nbegin\n    return FALSE;\nend;\n", encoding="utf-8")
    assert literal_flags(load_spec(root))[FLAG] is False
