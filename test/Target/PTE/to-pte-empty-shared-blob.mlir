// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s
// RUN: emit-translate --from-pte %t.pte | FileCheck %s --check-prefix=IMPORT

// One empty blob that is both the constant segment and a call's payload.
// With no segment data there is no extended header, so a segment reference
// would be unloadable: the call's payload goes inline. (Found by fuzzing.)

// CHECK:      "id": "B",
// CHECK-NEXT: "processed": {
// CHECK-NEXT:   "location": "INLINE",
// CHECK-NEXT:   "index": 0
// CHECK-LABEL: "backend_delegate_data": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "data": []
// CHECK-LABEL: "segments": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "offset": 0,
// CHECK-NEXT:      "size": 0
// IMPORT: et.call_delegate "B" @inline_0()
et.program @empty {
  et.blob @nothing align 1 = dense<> : tensor<0xi8>
  et.constant_segment @nothing offsets [0]
  et.method @m {
    et.chain inputs() outputs() {
      et.call_delegate "B" @nothing ()
    }
    et.signature inputs() outputs()
  }
}
