"""A CUBE input Tile is configured the way the tree declares its ``ConfigureCubeTileForMask``: a boolean function
says whether it accepted (0.58.3), a procedure accepts by returning and refuses by an assertion (a development
branch of the spec: every CUBE input was "refused" before, in every location, so no matrix example ran there)."""

from __future__ import annotations

import pytest

from specgen.asl import Interpreter, parse_source
from specgen.executor.inputstate import configure_spec_sized

TYPES = """
type TileLayout of enumeration {TileLayout_RowMajor, TileLayout_CUBE_M16};
type TileLocation of enumeration {TileLocation_Vector, TileLocation_Matrix};
type TileDataType of enumeration {TileDataType_FP32};
var Configured : integer = -1;
"""
PROCEDURE = TYPES + """
func ConfigureCubeTileForMask(index: integer, capacity_bytes: integer, valid_rows: integer,
    valid_columns: integer, data_type: TileDataType, layout: TileLayout, location: TileLocation,
    allocation_mask: bits(4))
begin
    assert location == TileLocation_Matrix;
    assert capacity_bytes >= 128 * valid_rows;
    Configured = index;
end;
"""
BOOLEAN = TYPES + """
func ConfigureCubeTileForMask(index: integer, capacity_bytes: integer, valid_rows: integer,
    valid_columns: integer, data_type: TileDataType, layout: TileLayout, location: TileLocation,
    allocation_mask: bits(4)) => boolean
begin
    if location != TileLocation_Matrix || capacity_bytes < 128 * valid_rows then return FALSE; end;
    Configured = index;
    return TRUE;
end;
"""


@pytest.mark.parametrize("text", [PROCEDURE, BOOLEAN], ids=["procedure", "boolean"])
def test_the_first_location_the_model_accepts_configures_the_tile(text: str) -> None:
    it = Interpreter(modules=[parse_source(text, "configure.asl")])
    got = configure_spec_sized(it, 3, "CUBE_M16", 2, 4, "TileDataType_FP32", 0b0001, 256, ["Vector", "Matrix"])
    assert got == 256 and it.get_global("Configured") == 3


@pytest.mark.parametrize("text", [PROCEDURE, BOOLEAN], ids=["procedure", "boolean"])
def test_a_tile_no_location_accepts_is_refused_naming_it(text: str) -> None:
    it = Interpreter(modules=[parse_source(text, "configure.asl")])
    with pytest.raises(ValueError, match="refused CUBE_M16 4x4 TileDataType_FP32 in 256 bytes in Vector, Matrix"):
        configure_spec_sized(it, 3, "CUBE_M16", 4, 4, "TileDataType_FP32", 0b0001, 256, ["Vector", "Matrix"])
