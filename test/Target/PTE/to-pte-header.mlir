// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: od -An -t x1 -v -w16 %t.pte | FileCheck %s --check-prefix=BYTES
// RUN: %pte-json %t.pte | FileCheck %s --check-prefix=JSON

// The extended header sits at byte 8: magic "eh00", length 32, then
// program_size, segment_base_offset (program_size rounded up to 128) and
// segment_data_size. The root offset grows by the 32 inserted bytes. The
// payload sits at the segment base, with zero padding before it.

// Root 0x38 = 24 + 32; program_size 0x190 = 400; base 0x200 = 512 (400
// rounded up to 128); segment data 5 bytes; file size 517 = 512 + 5.
// BYTES: {{^}} 38 00 00 00 45 54 31 32 65 68 30 30 20 00 00 00{{$}}
// BYTES-NEXT: {{^}} 90 01 00 00 00 00 00 00 00 02 00 00 00 00 00 00{{$}}
// BYTES-NEXT: {{^}} 05 00 00 00 00 00 00 00

// Zero padding from program_size to the base, then the payload, last.
// RUN: od -An -t x1 -v -w112 -j 400 %t.pte | FileCheck %s --check-prefix=TAIL
// TAIL:      {{^( 00){112}$}}
// TAIL-NEXT: {{^}} de ad be ef 42{{$}}
// TAIL-NOT: {{.}}

// RUN: wc -c < %t.pte | FileCheck %s --check-prefix=SIZE
// SIZE: 517

// JSON-LABEL: "segments": [
// JSON:         "size": 0
// JSON:         "offset": 0,
// JSON-NEXT:    "size": 5

et.program @header {
  et.method @forward {
    %d0 = et.delegate "B" #et.blob<dense<[-34, -83, -66, -17, 66]> : tensor<5xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
