// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs | FileCheck %s
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs='remarks=true' --verify-diagnostics -o /dev/null
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs='report=-' -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs='report=-' -o /dev/null > %t.json
// RUN: %validate-json emit-dedup-report-2 %t.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: {{[0-9]+}} valid emit-dedup-report-2
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs='scope=method' | FileCheck %s --check-prefix=METHOD
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs | emit-translate --split-input-file --to-pte -o /dev/null
// RUN: emit-opt %s --split-input-file --dedup-delegate-blobs='compact-segments=true' | FileCheck %s --check-prefix=COMPACT

// Constant tensors and mutable initial states with equal bytes are stored
// once: the segment keeps each entry's bytes once, equal entries take one
// offset, every other entry keeps its bytes at a new offset aligned as
// the entries were. An entry one byte apart stays, and so does the
// placeholder entry 0. An entry no tensor reads is dropped from the bytes
// (its offset becomes 0).

// CHECK-LABEL: et.program @constants
// CHECK-NEXT: et.blob @c align 16 segment = dense_resource<c> : tensor<52xi8>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 16, 0, 32, 0, 48]
// The bytes: A, B, C, D, after the resource's alignment word.
// CHECK: c: "0x080000000102030405060708090A0B0C0D0E0F100102030405060708090A0B0C0D0E0F110707070707070707070707070707070704040404"
// Entries:      1 = A (16 bytes), 2 = B (16 bytes, B = A + one byte),
//               3 = A again, 4 = C (16 bytes), 5 = never read, 6 = D (4 bytes).
et.program @constants {
  et.blob @c align 16 segment = dense<[
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17,
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
      7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
      9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
      4, 4, 4, 4]> : tensor<84xi8>
  // expected-remark @below {{stores 1 constant entries that equal earlier ones once: 52 bytes instead of 84}}
  et.constant_segment @c offsets [0, 0, 16, 32, 48, 64, 80]
  et.method @m {
    %0 = et.tensor float [4] dim_order [0] data(1)
    %1 = et.tensor float [4] dim_order [0] data(2)
    %2 = et.tensor float [4] dim_order [0] data(3)
    %3 = et.tensor float [4] dim_order [0] data(4)
    %4 = et.tensor float [] dim_order [] data(6)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// REPORT-LABEL: "program": "constants",
// REPORT:      "kinds": {
// REPORT-NEXT:   "constant": {
// REPORT-NEXT:     "bytes_before": 84,
// REPORT-NEXT:     "bytes_after": 52,
// REPORT-NEXT:     "bytes_saved": 32
// REPORT:      "segments": [
// REPORT-NEXT:   {
// REPORT-NEXT:     "kind": "constant",
// REPORT-NEXT:     "blob": "c",
// REPORT-NEXT:     "bytes_before": 84,
// REPORT-NEXT:     "bytes_after": 52,
// REPORT-NEXT:     "shared_entries": [
// REPORT-NEXT:       {
// REPORT-NEXT:         "entry": 3,
// REPORT-NEXT:         "same_as": 1,
// REPORT-NEXT:         "size": 16

// -----

// Mutable initial states: copied into planned memory at load, so the
// segment's bytes are only read. Each segment is shared within itself;
// with scope=method, only entries one method alone reads.
// CHECK-LABEL: et.program @mutable
// CHECK: et.blob @kv align 1 = dense_resource<kv> : tensor<4xi8>
// CHECK: et.mutable_data_segment @kv offsets [0, 0, 0]
// METHOD-LABEL: et.program @mutable
// METHOD: et.mutable_data_segment @kv offsets [0, 0, 4]
et.program @mutable {
  et.blob @kv align 1 = dense<[1, 2, 3, 4, 1, 2, 3, 4]> : tensor<8xi8>
  // expected-remark @below {{stores 1 mutable entries that equal earlier ones once: 4 bytes instead of 8}}
  et.mutable_data_segment @kv offsets [0, 0, 4]
  et.method @prefill buffers [0, 16] {
    %0 = et.tensor float [1] dim_order [0] mem(1, 0) data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
  et.method @decode buffers [0, 16] {
    %0 = et.tensor float [1] dim_order [0] mem(1, 0) data(2)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

// Nothing equal: the segment is left exactly as it is.
// CHECK-LABEL: et.program @distinct
// CHECK-NEXT: et.blob @c align 1 = dense<[1, 2, 3, 4, 1, 2, 3, 5]> : tensor<8xi8>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 4]
et.program @distinct {
  et.blob @c align 1 = dense<[1, 2, 3, 4, 1, 2, 3, 5]> : tensor<8xi8>
  et.constant_segment @c offsets [0, 0, 4]
  et.method @m {
    %0 = et.tensor float [1] dim_order [0] data(1)
    %1 = et.tensor float [1] dim_order [0] data(2)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}

// -----

// compact-segments also drops bytes no tensor reads (entry 3 here, as
// after its tensor's data moved to a data file); without it, the segment
// stays as it is when nothing is shared.
// CHECK-LABEL: et.program @unread
// CHECK-NEXT: et.blob @c align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]>
// CHECK-NEXT: et.constant_segment @c offsets [0, 0, 4, 8]
// COMPACT-LABEL: et.program @unread
// COMPACT-NEXT: et.blob @c align 1 = dense_resource<c{{.*}}> : tensor<8xi8>
// COMPACT-NEXT: et.constant_segment @c offsets [0, 0, 4, 0]
// COMPACT: c{{.*}}: "0x080000000102030405060708"
et.program @unread {
  et.blob @c align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]> : tensor<12xi8>
  et.constant_segment @c offsets [0, 0, 4, 8]
  et.method @m {
    %0 = et.tensor float [1] dim_order [0] data(1)
    %1 = et.tensor float [1] dim_order [0] data(2)
    %2 = et.tensor float [1] dim_order [0] data(3) info #et.tensor_info<fqn = "moved", location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
