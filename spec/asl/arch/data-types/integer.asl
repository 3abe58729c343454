// PTO-UNIT: {"id":"PTO-ARCH-DATA-TYPES-INTEGER","surface":"arch","classification":["data-types","integer"],"depends_on":[]}
// Scalar carriers and index types shared by every surface of the sample.
// A Word is the 64-bit verification carrier: every Tile element, whatever
// its architectural width, is stored in one Word.

constant PTO_XLEN = 64;
constant PTO_TILE_REGISTER_COUNT = 64;
constant PTO_TILE_HAND_SIZE = 16;
constant PTO_TILE_CAPACITY_BYTES = 262144;
constant PTO_TILE_MAX_ALLOCATION_BYTES = 65536;
constant PTO_BUNDLE_DIMENSION_COUNT = 3;
constant PTO_BUNDLE_TILE_BINDING_COUNT = 4;

// Element storage bound of this reference model. The architecture admits
// larger Local Tiles; the sample model rejects a descriptor whose element
// count exceeds this bound with Fault_TileAllocation.
config PTO_MODEL_TILE_ELEMENTS : integer {1..32768} = 1024;

type Word of bits(PTO_XLEN);
type TileIndex of integer {0..PTO_TILE_REGISTER_COUNT-1};
type BundleDimensionIndex of integer {0..2};
type BundleTileBindingIndex of integer {0..3};

// Integers are reduced modulo 2^64 when placed in a Word.
pure func WordOfInteger(value: integer) => Word
begin
    return Zeros{PTO_XLEN} + value;
end;
