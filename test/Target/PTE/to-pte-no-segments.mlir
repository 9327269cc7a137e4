// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: od -An -t x1 -N 12 %t.pte | FileCheck %s --check-prefix=BYTES
// RUN: %pte-json %t.pte | FileCheck %s

// With no segment data the bare flatbuffer is the file, as ExecuTorch
// writes it: no extended header (bytes 8..11 are not "eh00"), and still an
// empty constant segment 0, an empty `delegates` list, reserved buffer 0 and
// Null values as tag Null.

// BYTES-NOT: 65 68 30 30
// BYTES: 45 54 31 32

// CHECK-LABEL: "execution_plan": [
// CHECK:          "name": "forward",
// CHECK:          "values": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "val_type": "Null",
// CHECK-NEXT:         "val": {}
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "val_type": "Int",
// CHECK-NEXT:         "val": {
// CHECK-NEXT:           "int_val": -3
// CHECK:              "val_type": "Bool",
// CHECK-NEXT:         "val": {
// CHECK-NEXT:           "bool_val": true
// CHECK:              "val_type": "Double",
// CHECK-NEXT:         "val": {
// CHECK-NEXT:           "double_val": 2.5
// CHECK:              "val_type": "String",
// CHECK-NEXT:         "val": {
// CHECK-NEXT:           "string_val": "sum"
// CHECK:              "val_type": "Tensor",
// CHECK-NEXT:         "val": {
// CHECK-NEXT:           "scalar_type": "LONG",
// CHECK-NEXT:           "storage_offset": 0,
// CHECK-NEXT:           "sizes": [2, 3],
// CHECK-NEXT:           "dim_order": [1, 0],
// CHECK:                "allocation_info": {
// CHECK-NEXT:             "memory_id": 1,
// CHECK-NEXT:             "memory_offset_low": 8,
// CHECK-NEXT:             "memory_offset_high": 0
// CHECK:          "inputs": [5],
// CHECK-NEXT:     "outputs": [0],
// CHECK:          "instructions": [
// CHECK:              "instr_args_type": "MoveCall",
// CHECK-NEXT:         "instr_args": {
// CHECK-NEXT:           "move_from": 5,
// CHECK-NEXT:           "move_to": 5
// CHECK:              "instr_args_type": "JumpFalseCall",
// CHECK-NEXT:         "instr_args": {
// CHECK-NEXT:           "cond_value_index": 2,
// CHECK-NEXT:           "destination_instruction": 0
// CHECK:              "instr_args_type": "FreeCall",
// CHECK-NEXT:         "instr_args": {
// CHECK-NEXT:           "value_index": 4
// CHECK:          "operators": [],
// CHECK-NEXT:     "delegates": [],
// CHECK-NEXT:     "non_const_buffer_sizes": [0, 64]
// CHECK:        "backend_delegate_data": [],
// CHECK-NEXT:   "segments": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "offset": 0,
// CHECK-NEXT:       "size": 0
// CHECK-NEXT:     }
// CHECK-NEXT:   ],
// CHECK-NEXT:   "constant_segment": {
// CHECK-NEXT:     "segment_index": 0,
// CHECK-NEXT:     "offsets": [0]

et.program @plain {
  et.method @forward buffers [0, 64] {
    %0 = et.null
    %1 = et.int -3
    %2 = et.bool true
    %3 = et.double 2.5
    %4 = et.string "sum"
    %5 = et.tensor long [2, 3] dim_order [1, 0] mem(1, 8)
    et.chain inputs(%5) outputs(%5) {
      et.move %5 to %5
      et.jump_false %2 to 0
      et.free %4
    }
    et.signature inputs(%5) outputs(%0)
  }
}
