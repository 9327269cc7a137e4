// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON
// RUN: emit-translate --from-pte %t.pte -o %t.mlir
// RUN: FileCheck %s --check-prefix=IMPORT < %t.mlir
// RUN: emit-translate --to-pte %t.mlir -o %t.again.pte
// RUN: cmp %t.pte %t.again.pte

// Program-level data: a constant segment, a mutable data segment, named data
// (two keys, one segment), a segment payload and an inline payload. Segments
// follow program order; the inline payload goes to backend_delegate_data.

// JSON-LABEL: "delegates": [
// JSON:         "id": "Seg",
// JSON-NEXT:    "processed": {
// JSON-NEXT:      "location": "SEGMENT",
// JSON-NEXT:      "index": 2
// JSON:         "id": "Inl",
// JSON-NEXT:    "processed": {
// JSON-NEXT:      "location": "INLINE",
// JSON-NEXT:      "index": 0
// JSON-LABEL: "backend_delegate_data": [
// JSON-NEXT:    {
// JSON-NEXT:      "data": [9, 8, 7]
// JSON-NEXT:    }
// JSON-NEXT:  ],
// JSON-NEXT:  "segments": [
// JSON-NEXT:    {
// JSON-NEXT:      "offset": 0,
// JSON-NEXT:      "size": 8
// JSON-NEXT:    },
// JSON-NEXT:    {
// JSON-NEXT:      "offset": 128,
// JSON-NEXT:      "size": 4
// JSON-NEXT:    },
// JSON-NEXT:    {
// JSON-NEXT:      "offset": 256,
// JSON-NEXT:      "size": 2
// JSON-NEXT:    },
// Named data asks for 512: lcm(128, 512).
// JSON-NEXT:    {
// JSON-NEXT:      "offset": 512,
// JSON-NEXT:      "size": 3
// JSON-NEXT:    }
// JSON-NEXT:  ],
// JSON-NEXT:  "constant_segment": {
// JSON-NEXT:    "segment_index": 0,
// JSON-NEXT:    "offsets": [0, 0, 4]
// JSON-NEXT:  },
// JSON-NEXT:  "mutable_data_segments": [
// JSON-NEXT:    {
// JSON-NEXT:      "segment_index": 1,
// JSON-NEXT:      "offsets": [0, 0]
// JSON-NEXT:    }
// JSON-NEXT:  ],
// JSON-NEXT:  "named_data": [
// JSON-NEXT:    {
// JSON-NEXT:      "key": "shared_weight",
// JSON-NEXT:      "segment_index": 3
// JSON-NEXT:    },
// JSON-NEXT:    {
// JSON-NEXT:      "key": "alias_of_shared_weight",
// JSON-NEXT:      "segment_index": 3

// The file does not record alignment. The importer infers the program's
// segment alignment (every offset is a multiple of 128) and gives each
// segment the alignment its start has in the file: the base is 1024-aligned
// (it is a multiple of the 512 that @weights asks for), so segment 0 at
// relative offset 0 is too.
// IMPORT-LABEL: et.program {{.*}} segment_alignment 128
// IMPORT-NEXT: et.blob @segment_0 align 1024 segment = #et.file<"{{.*}}.pte", offset = 1024, size = 8, {{.*}}> : tensor<8xi8>
// IMPORT-NEXT: et.blob @segment_1 align 128 segment = #et.file<"{{.*}}.pte", offset = 1152, size = 4, {{.*}}> : tensor<4xi8>
// IMPORT-NEXT: et.blob @segment_2 align 256 segment = #et.file<"{{.*}}.pte", offset = 1280, size = 2, {{.*}}> : tensor<2xi8>
// IMPORT-NEXT: et.blob @segment_3 align 512 segment = #et.file<"{{.*}}.pte", offset = 1536, size = 3, {{.*}}> : tensor<3xi8>
// IMPORT-NEXT: et.blob @inline_0 align 16 inline = #et.file<"{{.*}}.pte", offset = 416, size = 3, {{.*}}> : tensor<3xi8>
// IMPORT-NEXT: et.constant_segment @segment_0 offsets [0, 0, 4]
// IMPORT-NEXT: et.mutable_data_segment @segment_1 offsets [0, 0]
// IMPORT-NEXT: et.named_data "shared_weight" = @segment_3
// IMPORT-NEXT: et.named_data "alias_of_shared_weight" = @segment_3
// IMPORT: et.tensor float [1] dim_order [0] data(1)
// IMPORT-NEXT: et.tensor float [1] dim_order [0] data(2)
// IMPORT-NEXT: et.tensor float [1] dim_order [0] mem(1, 0) data(1)
// IMPORT: et.delegate "Seg" @segment_2
// IMPORT-NEXT: et.delegate "Inl" @inline_0
et.program @data {
  et.blob @constants align 1 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.blob @kv align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @payload align 1 = dense<[5, 6]> : tensor<2xi8>
  et.blob @weights align 512 = dense<[7, 7, 7]> : tensor<3xi8>
  et.blob @tiny align 16 inline = dense<[9, 8, 7]> : tensor<3xi8>
  et.constant_segment @constants offsets [0, 0, 4]
  et.mutable_data_segment @kv offsets [0, 0]
  et.named_data "shared_weight" = @weights
  et.named_data "alias_of_shared_weight" = @weights
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [1] dim_order [0] data(1)
    %1 = et.tensor float [1] dim_order [0] data(2)
    %2 = et.tensor float [1] dim_order [0] mem(1, 0) data(1)
    %d0 = et.delegate "Seg" @payload
    %d1 = et.delegate "Inl" @tiny
    et.chain inputs() outputs() {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%1)
    }
    et.signature inputs() outputs(%2)
  }
}
