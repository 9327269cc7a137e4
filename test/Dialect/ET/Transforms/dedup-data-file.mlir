// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s
// RUN: emit-opt %s --dedup-delegate-blobs='report=-' -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: emit-opt %s --dedup-delegate-blobs='report=%t.json' -o /dev/null
// RUN: %validate-json emit-dedup-report-2 %t.json | FileCheck %s --check-prefix=SCHEMA
// SCHEMA: 1 valid emit-dedup-report-2
// RUN: emit-opt %s --dedup-delegate-blobs | emit-translate --to-ptd -o %t.ptd
// RUN: %ptd-json %t.ptd | FileCheck %s --check-prefix=FILE

// Named data with equal bytes is stored once, in a program as in a data
// file: keys keep their names and layouts and name one blob, which takes
// the lcm of the alignments. Bytes one apart stay apart. Data files are
// deduplicated each on its own.

// CHECK-LABEL: et.data_file @weights
// CHECK-NEXT: et.blob @a align 256 segment = dense<[1, 2, 3, 4]>
// CHECK-NEXT: et.blob @c align 128 segment = dense<[1, 2, 3, 5]>
// CHECK-NEXT: et.named_data "layer.0" = @a layout <int [1] dim_order [0]>
// CHECK-NEXT: et.named_data "layer.1" = @a layout <float [1] dim_order [0]>
// CHECK-NEXT: et.named_data "near" = @c
et.data_file @weights segment_alignment 128 {
  et.blob @a align 128 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @b align 256 segment = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @c align 128 segment = dense<[1, 2, 3, 5]> : tensor<4xi8>
  et.named_data "layer.0" = @a layout #et.tensor_layout<int [1] dim_order [0]>
  et.named_data "layer.1" = @b layout #et.tensor_layout<float [1] dim_order [0]>
  et.named_data "near" = @c
}

// REPORT:      "programs": [],
// REPORT-NEXT: "data_files": [
// REPORT-NEXT:   {
// REPORT-NEXT:     "data_file": "weights",
// REPORT:          "kinds": {
// REPORT-NEXT:       "named_data": {
// REPORT-NEXT:         "bytes_before": 12,
// REPORT-NEXT:         "bytes_after": 8,
// REPORT-NEXT:         "bytes_saved": 4
// REPORT:            "blob": "a",
// REPORT-NEXT:       "kind": "named_data",
// REPORT:            "merged": [
// REPORT-NEXT:         "b"
// REPORT:            "keys": [
// REPORT-NEXT:         "layer.0",
// REPORT-NEXT:         "layer.1"
// REPORT:          "near_misses": []

// FILE:      "segments": [
// FILE-NEXT:   {
// FILE-NEXT:     "offset": 0,
// FILE-NEXT:     "size": 4
// FILE-NEXT:   },
// FILE-NEXT:   {
// FILE-NEXT:     "offset": 128,
// FILE-NEXT:     "size": 4
// FILE-NEXT:   }
// FILE-NEXT: ],
// FILE:        "key": "layer.0",
// FILE-NEXT:   "segment_index": 0,
// FILE:        "key": "layer.1",
// FILE-NEXT:   "segment_index": 0,
// FILE:        "key": "near",
// FILE-NEXT:   "segment_index": 1
