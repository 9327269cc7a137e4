// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s

// The survivor takes the least common multiple of the merged alignments,
// so every call's requirement still holds.

// CHECK-LABEL: et.program @alignment
// CHECK-NEXT: et.blob @[[P:payload_0]] align 256 = dense<5> : tensor<16xi8>
// CHECK-NEXT: et.blob @{{.*}} align 8 = dense<6> : tensor<16xi8>
// CHECK-NEXT: et.method
// CHECK-COUNT-3: et.delegate "B" @[[P]]
et.program @alignment {
  et.method @m {
    %d0 = et.delegate "B" #et.blob<dense<5> : tensor<16xi8>, align 16>
    %d1 = et.delegate "B" #et.blob<dense<5> : tensor<16xi8>, align 256>
    %d2 = et.delegate "B" #et.blob<dense<5> : tensor<16xi8>, align 64>
    %d3 = et.delegate "C" #et.blob<dense<6> : tensor<16xi8>, align 8>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
      et.call_delegate %d3 ()
    }
    et.signature inputs() outputs()
  }
}
