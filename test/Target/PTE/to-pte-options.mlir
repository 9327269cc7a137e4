// Each --to-pte layout option, against its default.
//
// RUN: emit-translate --to-pte %s -o %t.default.pte
// RUN: %pte-json %t.default.pte | FileCheck %s --check-prefix=DEFAULT
// RUN: %pte-json %t.default.pte --segments | FileCheck %s --check-prefix=DEFAULT-HEADER
// RUN: od -An -t x1 -N 4 %t.default.pte | FileCheck %s --check-prefix=DEFAULT-ROOT
//
// RUN: emit-translate --to-pte %s --pte-segment-alignment=4096 -o %t.seg.pte
// RUN: %pte-json %t.seg.pte | FileCheck %s --check-prefix=SEG
// RUN: %pte-json %t.seg.pte --segments | FileCheck %s --check-prefix=SEG-HEADER
//
// RUN: emit-translate --to-pte %s --pte-constant-alignment=1024 -o %t.const.pte
// RUN: %pte-json %t.const.pte | FileCheck %s --check-prefix=CONST
//
// RUN: emit-translate --to-pte %s --pte-inline-max-size=4 -o %t.inline.pte
// RUN: %pte-json %t.inline.pte | FileCheck %s --check-prefix=INLINE
//
// RUN: emit-translate --to-pte %s --pte-inline-max-size=4 --pte-inline-alignment=64 -o %t.inline64.pte
// RUN: od -An -t x1 -N 16 %t.inline64.pte | FileCheck %s --check-prefix=INLINE64
// RUN: od -An -t x1 -v -w32 -j 40 -N 32 %t.inline64.pte | FileCheck %s --check-prefix=INLINE64-PAD
// RUN: od -An -t x1 -v -w32 -j 40 -N 32 %t.inline.pte | FileCheck %s --check-prefix=INLINE16-NOPAD
// RUN: emit-translate --from-pte %t.inline64.pte | emit-translate --to-pte --pte-inline-max-size=4 --pte-inline-alignment=64 -o %t.inline64.again.pte
// RUN: cmp %t.inline64.pte %t.inline64.again.pte
//
// RUN: emit-translate --help | FileCheck %s --check-prefix=HELP

// Default: segments at multiples of 128 after the constant segment, base 128-aligned.
// DEFAULT-LABEL: "segments": [
// DEFAULT-NEXT:    {
// DEFAULT-NEXT:      "offset": 0,
// DEFAULT-NEXT:      "size": 4
// DEFAULT:           "offset": 128,
// DEFAULT-NEXT:      "size": 3
// DEFAULT:           "offset": 256,
// DEFAULT-NEXT:      "size": 8
// DEFAULT-HEADER: header length 32 program_size {{[0-9]+}} segment_base {{(128|256|384|512|640|768|896|1024)}}{{$}}
// The root offset grew by the 32-byte header region (inline data is 16-aligned).
// DEFAULT-ROOT: {{^}} {{[0-9a-f][0-9a-f]}} 00 00 00

// SEG-LABEL: "segments": [
// SEG:           "offset": 4096,
// SEG-NEXT:      "size": 3
// SEG:           "offset": 8192,
// SEG-NEXT:      "size": 8
// SEG-HEADER: segment_base 4096{{$}}

// The constant segment is first, at 0; what follows is unchanged.
// CONST-LABEL: "segments": [
// CONST-NEXT:    {
// CONST-NEXT:      "offset": 0,
// CONST-NEXT:      "size": 4
// CONST:           "offset": 128,

// Payloads of at most 4 bytes move to backend_delegate_data.
// INLINE:       "id": "Small",
// INLINE-NEXT:  "processed": {
// INLINE-NEXT:    "location": "INLINE",
// INLINE-NEXT:    "index": 0
// INLINE:       "id": "Large",
// INLINE-NEXT:  "processed": {
// INLINE-NEXT:    "location": "SEGMENT",
// INLINE-NEXT:    "index": 1
// INLINE-LABEL: "backend_delegate_data": [
// INLINE-NEXT:    {
// INLINE-NEXT:      "data": [1, 2, 3]
// INLINE:       "segments": [
// INLINE-NEXT:    {
// INLINE-NEXT:      "offset": 0,
// INLINE-NEXT:      "size": 4
// INLINE-NEXT:    },
// INLINE-NEXT:    {
// INLINE-NEXT:      "offset": 128,
// INLINE-NEXT:      "size": 8
// INLINE-NEXT:    }
// INLINE-NEXT:  ],

// With 64-byte inline alignment the header region is 64 bytes: the root
// offset is 64 more than the builder's, and the header still says 32.
// INLINE64: {{^}} {{[0-9a-f][0-9a-f]}} 00 00 00 45 54 31 32 65 68 30 30 20 00 00 00
// Bytes 40 to 71 are the region's zero padding with 64, flatbuffer content
// with the default 16.
// INLINE64-PAD: {{^( 00){32}$}}
// INLINE16-NOPAD-NOT: {{^( 00){32}$}}
// INLINE16-NOPAD: {{[1-9a-f]}}

// HELP: --pte-constant-alignment=<ulong>
// HELP: --pte-inline-alignment=<ulong>
// HELP: --pte-inline-max-size=<ulong>
// HELP: --pte-segment-alignment=<ulong>

et.program @options {
  et.blob @constants align 1 = dense<[0, 0, -128, 63]> : tensor<4xi8>
  et.constant_segment @constants offsets [0, 0]
  et.method @forward {
    %0 = et.tensor float [] dim_order [] data(1)
    %d0 = et.delegate "Small" #et.blob<dense<[1, 2, 3]> : tensor<3xi8>, align 1>
    %d1 = et.delegate "Large" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 (%0)
      et.call_delegate %d1 (%0)
    }
    et.signature inputs() outputs()
  }
}
