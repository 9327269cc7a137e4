// RUN: emit-opt %s --split-input-file --et-constants-to-segment | FileCheck %s --check-prefix=SEGMENT
// RUN: emit-opt %s --split-input-file --et-constants-to-buffer | FileCheck %s --check-prefix=BUFFER
// RUN: emit-opt %s --split-input-file --et-constants-to-segment --et-constants-to-buffer | FileCheck %s --check-prefix=BACK

// The deprecated constant buffer moves into a constant segment (each entry
// at its index, at an offset aligned to the buffer's alignment), and back:
// each segment entry becomes the bytes up to the next entry.

// SEGMENT-LABEL: et.program @buffer
// SEGMENT-NEXT: et.blob @constants align 1
// SEGMENT-NEXT: et.named_data "other" = @constants
// SEGMENT-NEXT: et.blob @constants_0 align 16 segment = dense_resource<constants_0> : tensor<22xi8>
// SEGMENT-NEXT: et.constant_segment @constants_0 offsets [0, 0, 16]
// SEGMENT-NOT: et.constant_buffer
// SEGMENT: data(2)
// SEGMENT: constants_0: "0x{{[0-9A-F]+}}0000803F000000000000000000000000010203040506"
// BUFFER-LABEL: et.program @buffer
// BUFFER: et.named_data "other" = @constants
// BUFFER-NEXT: et.constant_buffer align 16 [dense<> : tensor<0xi8>, dense<[0, 0, -128, 63]> : tensor<4xi8>, dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>]
// BACK-LABEL: et.program @buffer
// BACK-NEXT: et.blob @constants align 1
// BACK-NEXT: et.named_data "other" = @constants
// BACK-NEXT: et.constant_buffer align 16 [dense<> : tensor<0xi8>, dense<[0, 0, -128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi8>, dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>]
et.program @buffer {
  et.blob @constants align 1 = dense<7> : tensor<2xi8>
  et.named_data "other" = @constants
  et.constant_buffer align 16 [dense<> : tensor<0xi8>,
                               dense<[0, 0, -128, 63]> : tensor<4xi8>,
                               dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi8>]
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [1] dim_order [0] data(1)
    %1 = et.tensor char [6] dim_order [0] data(2)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0) outputs(%0)
  }
}

// -----

// SEGMENT-LABEL: et.program @segment
// SEGMENT-NEXT: et.blob @c align 16 segment
// SEGMENT-NEXT: et.constant_segment @c offsets [0, 0, 16]
// BUFFER-LABEL: et.program @segment
// BUFFER-NEXT: et.constant_buffer align 16 [dense<> : tensor<0xi8>, dense<[0, 0, -128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi8>, dense<9> : tensor<4xi8>]
// BUFFER-NOT: et.blob @c
// BUFFER: et.method
et.program @segment {
  et.blob @c align 16 segment = dense<"0x0000803F00000000000000000000000009090909"> : tensor<20xi8>
  et.constant_segment @c offsets [0, 0, 16]
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [1] dim_order [0] data(1)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
