// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --from-pte %t.pte -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORT < %t.mlir
// RUN: emit-translate --to-pte %t.mlir -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// Method-level fields: container metadata (including an absent string),
// planned buffer sizes and devices, methods in order, compile specs present
// but empty.

// JSON-LABEL: "execution_plan": [
// JSON:         "name": "encode",
// JSON-NEXT:    "container_meta_type": {
// JSON-NEXT:      "encoded_inp_str": "T2#1#1($,$)"
// JSON-NEXT:    },
// JSON:         "non_const_buffer_sizes": [0, 64, 128],
// JSON-NEXT:    "non_const_buffer_device": [
// JSON-NEXT:      {
// JSON-NEXT:        "buffer_idx": 2,
// JSON-NEXT:        "device_type": "CUDA",
// JSON-NEXT:        "device_index": 3
// JSON:         "name": "decode",
// JSON-NOT:     "container_meta_type"
// JSON:         "compile_specs": []

// IMPORT: et.method @encode buffers [0, 64, 128] attributes {buffer_devices = [#et.buffer_device<buffer = 2, device_type = cuda, device_index = 3>], container_meta = #et.container_meta<inputs = "T2#1#1($,$)">}
// IMPORT: et.method @decode buffers [0]
// IMPORT: et.delegate "B" @segment_1 specs []
et.program @meta {
  et.method @encode buffers [0, 64, 128] attributes {
      container_meta = #et.container_meta<inputs = "T2#1#1($,$)">,
      buffer_devices = [#et.buffer_device<buffer = 2, device_type = cuda, device_index = 3>]} {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
  et.method @decode buffers [0] {
    %d0 = et.delegate "B" #et.blob<dense<[1]> : tensor<1xi8>, align 1> specs []
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
