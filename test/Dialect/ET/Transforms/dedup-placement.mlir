// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s
// RUN: emit-opt %s --dedup-delegate-blobs='report=-' -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: emit-opt %s --dedup-delegate-blobs='report=%t.json' -o /dev/null
// RUN: %validate-json emit-dedup-report-2 %t.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: 1 valid emit-dedup-report-2

// Blobs keep the placement a file gave them: equal bytes merge among inline
// blobs and among segment blobs, never across the two (the runtime hands an
// inline payload over without the data loader). Empty blobs have nothing to
// share and stay as they are.

// CHECK-LABEL: et.program @placement
// CHECK-NEXT: et.blob @segment_0 align 128 segment = dense<> : tensor<0xi8>
// CHECK-NEXT: et.blob @segment_1 align 128 segment = dense<[1, 2, 3, 4]>
// CHECK-NEXT: et.blob @segment_3 align 128 segment = dense<> : tensor<0xi8>
// CHECK-NEXT: et.blob @inline_0 align 16 inline = dense<[1, 2, 3, 4]>
// CHECK-NOT: et.blob
// CHECK: et.delegate "A" @segment_1
// CHECK-NEXT: et.delegate "B" @segment_1
// CHECK-NEXT: et.delegate "C" @inline_0
// CHECK-NEXT: et.delegate "D" @inline_0
// CHECK-NEXT: et.delegate "E" @segment_3

// REPORT: "reason": "equal bytes kept apart: placement"
et.program @placement segment_alignment 128 {
  et.blob @segment_0 align 128 segment = dense<> : tensor<0xi8>
  et.blob @segment_1 align 128 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @segment_2 align 128 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @segment_3 align 128 segment = dense<> : tensor<0xi8>
  et.blob @inline_0 align 16 inline = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @inline_1 align 16 inline = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.constant_segment @segment_0 offsets [0]
  et.method @m {
    %a = et.delegate "A" @segment_1
    %b = et.delegate "B" @segment_2
    %c = et.delegate "C" @inline_0
    %d = et.delegate "D" @inline_1
    %e = et.delegate "E" @segment_3
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
      et.call_delegate %c ()
      et.call_delegate %d ()
      et.call_delegate %e ()
    }
    et.signature inputs() outputs()
  }
}
