// A tensor's JSON object, written by hand for speed, is what
// llvm::json::OStream writes: keys sorted, two spaces a level, a name
// quoted with its escapes, a tensor never named with null lifetimes.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-memory --format=json %t.pte -o %t.json
// RUN: FileCheck %s --strict-whitespace < %t.json
// RUN: %python -c "import json, sys; t = json.load(open(sys.argv[1]))['methods'][0]['tensors']; assert [x['name'] for x in t] == ['', 'say \"hi\"\\\\ caf\u00e9', ''], t" %t.json

// CHECK:      "tensors": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "buffer": 1,
// CHECK-NEXT:          "bytes": 16,
// CHECK-NEXT:          "first": 0,
// CHECK-NEXT:          "last": 0,
// CHECK-NEXT:          "name": "",
// CHECK-NEXT:          "offset": 0,
// CHECK-NEXT:          "value": 0
// CHECK-NEXT:        },
// CHECK-NEXT:        {
// CHECK-NEXT:          "buffer": 1,
// CHECK-NEXT:          "bytes": 16,
// CHECK-NEXT:          "first": 0,
// CHECK-NEXT:          "last": 0,
// CHECK-NEXT:          "name": "say \"hi\"\\ café",
// CHECK-NEXT:          "offset": 16,
// CHECK-NEXT:          "value": 1
// CHECK-NEXT:        },
// CHECK-NEXT:        {
// CHECK-NEXT:          "buffer": 1,
// CHECK-NEXT:          "bytes": 16,
// CHECK-NEXT:          "first": null,
// CHECK-NEXT:          "last": null,
// CHECK-NEXT:          "name": "",
// CHECK-NEXT:          "offset": 32,
// CHECK-NEXT:          "value": 2
// CHECK-NEXT:        }
// CHECK-NEXT:      ]
// CHECK-NEXT:    }
// CHECK-NEXT:  ],

et.program @tensors {
  et.method @forward buffers [0, 48] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16) info #et.tensor_info<fqn = "say \"hi\"\\ café">
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
}
