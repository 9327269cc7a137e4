// RUN: emit-opt %s --dedup-delegate-blobs | emit-translate --to-pte -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// One BackendDelegate per call, each with its own id and compile specs; the
// shared payload is one segment that every entry names, in both methods.
// Segment 0 is the (empty) constant segment, as the runtime requires.

// CHECK-LABEL: "execution_plan": [
// CHECK:        "name": "prefill",
// CHECK:        "instructions": [
// CHECK:          "instr_args_type": "DelegateCall",
// CHECK-NEXT:     "instr_args": {
// CHECK-NEXT:       "delegate_index": 0,
// CHECK-NEXT:       "args": [0, 1]
// CHECK:          "instr_args_type": "DelegateCall",
// CHECK-NEXT:     "instr_args": {
// CHECK-NEXT:       "delegate_index": 1,
// CHECK-NEXT:       "args": [1, 0]
// CHECK:        "delegates": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "id": "QnnBackend",
// CHECK-NEXT:       "processed": {
// CHECK-NEXT:         "location": "SEGMENT",
// CHECK-NEXT:         "index": 1
// CHECK:            "compile_specs": [
// CHECK-NEXT:         {
// CHECK-NEXT:           "key": "graph",
// "prefill"
// CHECK-NEXT:           "value": [112, 114, 101, 102, 105, 108, 108]
// CHECK:            "id": "XnnpackBackend",
// CHECK-NEXT:       "processed": {
// CHECK-NEXT:         "location": "SEGMENT",
// CHECK-NEXT:         "index": 2
// CHECK:              "key": "mode",
// "fast\01"
// CHECK-NEXT:         "value": [102, 97, 115, 116, 1]
// CHECK:        "non_const_buffer_sizes": [0, 64]

// CHECK:        "name": "decode",
// CHECK:        "operators": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "name": "aten::add",
// CHECK-NEXT:       "overload": "out"
// CHECK:        "delegates": [
// CHECK-NEXT:     {
// CHECK-NEXT:       "id": "QnnBackend",
// CHECK-NEXT:       "processed": {
// CHECK-NEXT:         "location": "SEGMENT",
// CHECK-NEXT:         "index": 1
// CHECK:              "key": "graph",
// "decode"
// CHECK-NEXT:         "value": [100, 101, 99, 111, 100, 101]

// Payload segments start at multiples of lcm(128, alignment).
// CHECK-LABEL: "segments": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "offset": 0,
// CHECK-NEXT:      "size": 0
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "offset": 0,
// CHECK-NEXT:      "size": 8
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "offset": 256,
// CHECK-NEXT:      "size": 3
// CHECK-NEXT:    }
// CHECK-NEXT:  ],
// CHECK-NEXT:  "constant_segment": {
// CHECK-NEXT:    "segment_index": 0,
// CHECK-NEXT:    "offsets": [0]

et.program @model {
  et.method @prefill buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %d0 = et.delegate "QnnBackend" #et.blob<dense_resource<ctx_a> : tensor<8xi8>, align 16> specs [#et.compile_spec<"graph" = "prefill">]
    %d1 = et.delegate "XnnpackBackend" #et.blob<dense<[1, 2, 3]> : tensor<3xi8>, align 256> specs [#et.compile_spec<"mode" = "fast\01">]
    et.chain inputs(%0) outputs(%1) {
      et.call_delegate %d0 (%0, %1)
      et.call_delegate %d1 (%1, %0)
    }
    et.signature inputs(%0) outputs(%1)
  }
  et.method @decode buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.int 1
    %aten.add.out = et.operator "aten::add" overload "out"
    %d0 = et.delegate "QnnBackend" #et.blob<dense_resource<ctx_b> : tensor<8xi8>, align 32> specs [#et.compile_spec<"graph" = "decode">]
    et.chain inputs(%0) outputs(%1) {
      et.call_delegate %d0 (%0, %1)
      et.kernel_call %aten.add.out (%1, %1, %2, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
}

{-#
  dialect_resources: {
    builtin: {
      ctx_a: "0x100000000102030405060708",
      ctx_b: "0x100000000102030405060708"
    }
  }
#-}
