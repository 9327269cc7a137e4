// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --from-pte %t.pte -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORT < %t.mlir
// RUN: emit-translate --to-pte %t.mlir -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// Every EValue kind and every tensor field: written, decoded, imported and
// written again to the same bytes. An optional tensor list item can be the
// null value or no value at all (`none`, index -1, as ExecuTorch writes the
// None indices of `index.Tensor`).

// JSON-LABEL: "values": [
// JSON:         "val_type": "Null",
// JSON:         "val_type": "Int",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "int_val": -9223372036854775808
// JSON:         "val_type": "Bool",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "bool_val": false
// JSON:         "val_type": "Double",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "double_val": -0.25
// JSON:         "val_type": "String",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "string_val": "reduce\u0000dim"
// JSON:         "val_type": "IntList",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "items": [12, 13]
// JSON:         "val_type": "DoubleList",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "items": [1.5, -2.0]
// JSON:         "val_type": "BoolList",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "items": [true, false, true]
// JSON:         "val_type": "TensorList",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "items": [10, 11]
// JSON:         "val_type": "OptionalTensorList",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "items": [10, 0, -1]
// JSON:         "val_type": "Tensor",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "scalar_type": "HALF",
// JSON-NEXT:      "storage_offset": 0,
// JSON-NEXT:      "sizes": [2, 3],
// JSON-NEXT:      "dim_order": [1, 0],
// JSON-NEXT:      "requires_grad": true,
// JSON-NEXT:      "data_buffer_idx": 1,
// JSON-NEXT:      "allocation_info": {
// JSON-NEXT:        "memory_id": 1,
// JSON-NEXT:        "memory_offset_low": 16,
// JSON-NEXT:        "memory_offset_high": 1
// JSON-NEXT:      },
// JSON-NEXT:      "layout": 3,
// JSON-NEXT:      "shape_dynamism": "DYNAMIC_BOUND",
// JSON-NEXT:      "extra_tensor_info": {
// JSON-NEXT:        "mutable_data_segments_idx": 0,
// JSON-NEXT:        "fully_qualified_name": "cache.k",
// JSON-NEXT:        "location": "SEGMENT",
// JSON-NEXT:        "device_type": "CUDA",
// JSON-NEXT:        "device_index": 1
// JSON:         "val_type": "Tensor",
// JSON-NEXT:    "val": {
// JSON-NEXT:      "scalar_type": "UINT64",
// JSON-NEXT:      "storage_offset": 0,
// JSON-NEXT:      "sizes": [],
// JSON-NEXT:      "dim_order": [],
// JSON-NEXT:      "requires_grad": false,
// JSON-NEXT:      "data_buffer_idx": 0,
// JSON-NEXT:      "layout": 0,
// JSON-NEXT:      "shape_dynamism": "STATIC",
// JSON-NEXT:      "extra_tensor_info": {
// JSON-NEXT:        "mutable_data_segments_idx": 0,
// JSON-NEXT:        "fully_qualified_name": "weights.w",
// JSON-NEXT:        "location": "EXTERNAL",

// IMPORT-LABEL: et.method @values
// IMPORT-NEXT: %[[NULL:.*]] = et.null
// IMPORT-NEXT: = et.int -9223372036854775808
// IMPORT-NEXT: = et.bool false
// IMPORT-NEXT: = et.double -2.500000e-01
// IMPORT-NEXT: = et.string "reduce\00dim"
// IMPORT-NEXT: = et.int_list(%[[I1:[0-9]+]], %[[I2:[0-9]+]])
// IMPORT-NEXT: = et.double_list [1.500000e+00, -2.000000e+00]
// IMPORT-NEXT: = et.bool_list [true, false, true]
// IMPORT-NEXT: = et.tensor_list(%[[T:[0-9]+]], %[[U:[0-9]+]])
// IMPORT-NEXT: = et.optional_tensor_list (%[[T]], %[[NULL]], none)
// IMPORT-NEXT: %[[T]] = et.tensor half [2, 3] dim_order [1, 0] mem(1, 4294967312) data(1) requires_grad layout 3 dynamism <dynamic_bound> info <fqn = "cache.k", device_type = cuda, device_index = 1>
// IMPORT-NEXT: %[[U]] = et.tensor uint64 [] dim_order [] info <fqn = "weights.w", location = external>
// IMPORT-NEXT: %[[I1]] = et.int 1
// IMPORT-NEXT: %[[I2]] = et.int 2
et.program @values {
  et.blob @kv align 1 = dense<0> : tensor<16xi8>
  et.mutable_data_segment @kv offsets [0, 0]
  et.method @values buffers [0, 4294967400] {
    %0 = et.null
    %1 = et.int -9223372036854775808
    %2 = et.bool false
    %3 = et.double -0.25
    %4 = et.string "reduce\00dim"
    %5 = et.int_list (%12, %13)
    %6 = et.double_list [1.5, -2.0]
    %7 = et.bool_list [true, false, true]
    %8 = et.tensor_list (%10, %11)
    %9 = et.optional_tensor_list (%10, %0, none)
    %10 = et.tensor half [2, 3] dim_order [1, 0] mem(1, 4294967312) data(1) requires_grad layout 3 dynamism <dynamic_bound> info #et.tensor_info<fqn = "cache.k", device_type = cuda, device_index = 1>
    %11 = et.tensor uint64 [] dim_order [] info #et.tensor_info<fqn = "weights.w", location = external>
    %12 = et.int 1
    %13 = et.int 2
    et.chain inputs() outputs() {
    }
    et.signature inputs(%10) outputs(%8)
  }
}
