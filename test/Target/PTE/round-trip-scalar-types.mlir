// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --from-pte %t.pte -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORT < %t.mlir
// RUN: emit-translate --to-pte %t.mlir -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// Every scalar type ExecuTorch's runtime accepts round-trips, the complex
// and sub-byte ones included (8-10, 18-21), with its element size: each
// tensor below fills its planned slot exactly.

et.program @types {
  et.method @forward buffers [0, 128] {
    %0 = et.tensor complex_half [2] dim_order [0] mem(1, 0)
    %1 = et.tensor complex_float [2] dim_order [0] mem(1, 8)
    %2 = et.tensor complex_double [2] dim_order [0] mem(1, 24)
    %3 = et.tensor bits1x8 [8] dim_order [0] mem(1, 56)
    %4 = et.tensor bits2x4 [8] dim_order [0] mem(1, 64)
    %5 = et.tensor bits4x2 [8] dim_order [0] mem(1, 72)
    %6 = et.tensor bits8 [48] dim_order [0] mem(1, 80)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0, %1, %2, %3, %4, %5, %6) outputs(%0)
  }
}

// ExecuTorch's schema names none of these values; its runtime accepts them.
// JSON-LABEL: "values": [
// JSON: "scalar_type": 8,
// JSON: "scalar_type": 9,
// JSON: "scalar_type": 10,
// JSON: "scalar_type": 18,
// JSON: "scalar_type": 19,
// JSON: "scalar_type": 20,
// JSON: "scalar_type": 21,

// IMPORT-LABEL: et.method @forward
// IMPORT: et.tensor complex_half [2] dim_order [0] mem(1, 0)
// IMPORT: et.tensor complex_float [2] dim_order [0] mem(1, 8)
// IMPORT: et.tensor complex_double [2] dim_order [0] mem(1, 24)
// IMPORT: et.tensor bits1x8 [8] dim_order [0] mem(1, 56)
// IMPORT: et.tensor bits2x4 [8] dim_order [0] mem(1, 64)
// IMPORT: et.tensor bits4x2 [8] dim_order [0] mem(1, 72)
// IMPORT: et.tensor bits8 [48] dim_order [0] mem(1, 80)
