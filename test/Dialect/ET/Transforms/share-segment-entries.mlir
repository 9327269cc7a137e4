// RUN: emit-opt %s --split-input-file --et-share-segment-entries | FileCheck %s
// RUN: emit-opt %s --split-input-file --et-share-segment-entries='remarks=true' --verify-diagnostics -o /dev/null
// RUN: emit-opt %s --split-input-file --et-share-segment-entries='compact=true' | FileCheck %s --check-prefix=COMPACT
// RUN: emit-opt %s --split-input-file --et-share-segment-entries='scope=method' | FileCheck %s --check-prefix=METHOD

// Equal entries of the constant segment are stored once and take one
// offset; the pass leaves blobs of equal bytes (et-share-blobs shares those)
// and delegate entries alone.

// CHECK-LABEL: et.program @entries
// CHECK-NEXT: et.blob @c align 4 segment = dense_resource<c> : tensor<8xi8>
// CHECK-NEXT: et.blob @p0 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: et.blob @p1 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 4, 0]
// CHECK: et.delegate "A" @p0
// CHECK-NEXT: et.delegate "A" @p1
// The bytes, after the resource's alignment word: entry 1 (= 3), entry 2.
// CHECK: c: "0x080000000102030405060708"

// With scope=method, entries 1 and 3 are read by different methods: kept.
// METHOD-LABEL: et.program @entries
// METHOD-NEXT: et.blob @c align 4 segment = dense<[1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4]> : tensor<12xi8>
// METHOD: et.constant_segment @c offsets [0, 0, 4, 8]
et.program @entries {
  et.blob @c align 4 segment = dense<[1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4]> : tensor<12xi8>
  et.blob @p0 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @p1 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  // expected-remark @below {{stores 1 constant entries that equal earlier ones once: 8 bytes instead of 12}}
  et.constant_segment @c offsets [0, 0, 4, 8]
  et.method @prefill {
    %0 = et.tensor float [] dim_order [] data(1)
    %1 = et.tensor float [] dim_order [] data(2)
    %a = et.delegate "A" @p0
    %b = et.delegate "A" @p1
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %0 = et.tensor float [] dim_order [] data(3)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

// Bytes no tensor reads stay unless compact is given; then the segment
// keeps only what tensors read.

// CHECK-LABEL: et.program @unread
// CHECK-NEXT: et.blob @c align 4 segment = dense<[1, 2, 3, 4, 9, 9, 9, 9]> : tensor<8xi8>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 4]

// COMPACT-LABEL: et.program @unread
// COMPACT-NEXT: et.blob @c align 4 segment = dense_resource<c> : tensor<4xi8>
// COMPACT-NEXT: et.constant_segment @c offsets [0, 0, 0]
// COMPACT: c: "0x0800000001020304"
et.program @unread {
  et.blob @c align 4 segment = dense<[1, 2, 3, 4, 9, 9, 9, 9]> : tensor<8xi8>
  et.constant_segment @c offsets [0, 0, 4]
  et.method @m {
    %0 = et.tensor float [] dim_order [] data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
