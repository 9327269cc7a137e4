// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s
// RUN: %pte-json %t.pte --segments | FileCheck %s --check-prefix=HEADER
// RUN: emit-translate --from-pte %t.pte | FileCheck %s --check-prefix=IMPORT
// RUN: emit-translate --from-pte %t.pte | emit-translate --to-pte -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// One empty blob that is both the constant segment and a delegate entry's
// payload: one segment, which the entry refers to. A segment reference
// needs the extended header, so the file has one even though its segments
// hold no bytes (the runtime loads it; found by fuzzing).

// CHECK:      "id": "B",
// CHECK-NEXT: "processed": {
// CHECK-NEXT:   "location": "SEGMENT",
// CHECK-NEXT:   "index": 0
// CHECK:      "backend_delegate_data": [],
// CHECK-NEXT: "segments": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "offset": 0,
// CHECK-NEXT:      "size": 0
// CHECK-NEXT:    }
// CHECK-NEXT: ],
// HEADER: header length 32 program_size {{[0-9]+}} segment_base {{[1-9][0-9]*}}
// IMPORT: et.blob @segment_0 align {{[0-9]+}} segment = dense<> : tensor<0xi8>
// IMPORT: et.delegate "B" @segment_0
et.program @empty {
  et.blob @nothing align 1 = dense<> : tensor<0xi8>
  et.constant_segment @nothing offsets [0]
  et.method @m {
    %d0 = et.delegate "B" @nothing
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
