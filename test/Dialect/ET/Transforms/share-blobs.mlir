// RUN: emit-opt %s --split-input-file --et-share-blobs | FileCheck %s
// RUN: emit-opt %s --split-input-file --et-share-blobs='remarks=true' --verify-diagnostics -o /dev/null
// RUN: emit-opt %s --split-input-file --et-share-blobs='scope=method' | FileCheck %s --check-prefix=METHOD

// Blobs of equal bytes become the first of them, with the lcm of their
// alignments; the pass touches neither inline payloads (et-hoist-inline-
// payloads moves them first) nor the entries of the constant segment
// (et-share-segment-entries shares those), nor the delegate entries.

// CHECK-LABEL: et.program @blobs
// CHECK-NEXT: et.blob @p0 align 64 = dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: et.blob @c align 16 segment = dense<5> : tensor<8xi8>
// CHECK-NEXT: et.blob @other align 1 = dense<[1, 2, 3, 5]> : tensor<4xi8>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 4]
// CHECK-NEXT: et.named_data "w" = @p0
// CHECK: %[[A:.*]] = et.delegate "A" @p0
// CHECK-NEXT: %[[B:.*]] = et.delegate "A" @p0
// CHECK-NEXT: et.delegate "C" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
// CHECK: et.delegate "D" @p0

// With scope=method, only the payloads of one method merge; the named datum,
// which no method uses, stays apart.
// METHOD-LABEL: et.program @blobs
// METHOD-NEXT: et.blob @p0 align 64
// METHOD-NEXT: et.blob @p2 align 1
// METHOD-NEXT: et.blob @w align 1
// METHOD: et.delegate "A" @p0
// METHOD-NEXT: et.delegate "A" @p0
// METHOD: et.delegate "D" @p2
et.program @blobs {
  // expected-remark @below {{stores 4 bytes once for 4 payloads, alignment 64}}
  et.blob @p0 align 16 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @p1 align 64 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @p2 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @w align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @c align 16 segment = dense<[5, 5, 5, 5, 5, 5, 5, 5]> : tensor<8xi8>
  et.blob @other align 1 = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.constant_segment @c offsets [0, 0, 4]
  et.named_data "w" = @w
  et.method @prefill {
    %0 = et.tensor float [] dim_order [] data(1)
    %1 = et.tensor float [] dim_order [] data(2)
    %a = et.delegate "A" @p0
    %b = et.delegate "A" @p1
    %c = et.delegate "C" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
      et.call_delegate %c ()
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %d = et.delegate "D" @p2
    %e = et.delegate "E" @other
    et.chain inputs() outputs() {
      et.call_delegate %d ()
      et.call_delegate %e ()
    }
    et.signature inputs() outputs()
  }
}

// -----

// Data files share the same way.

// CHECK-LABEL: et.data_file @weights
// CHECK-NEXT: et.blob @a align 32 = dense<[1, 2]> : tensor<2xi8>
// CHECK-NEXT: et.named_data "a" = @a
// CHECK-NEXT: et.named_data "b" = @a
et.data_file @weights {
  // expected-remark @below {{stores 2 bytes once for 2 named_data blobs, alignment 32}}
  et.blob @a align 16 = dense<[1, 2]> : tensor<2xi8>
  et.blob @b align 32 = dense<[1, 2]> : tensor<2xi8>
  et.named_data "a" = @a
  et.named_data "b" = @b
}
