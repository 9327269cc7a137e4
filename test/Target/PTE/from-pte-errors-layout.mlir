// Damaged headers and segments, made by patching a good file. Every error
// names the byte offset and the field, exits non-zero and prints no IR.
//
// RUN: emit-translate --to-pte %s -o %t.good.pte
// RUN: %pte-json %t.good.pte --segments | FileCheck %s --check-prefix=GOOD
// GOOD: header length 32 program_size 520 segment_base 640
// GOOD: segment 1 size 8

// RUN: head -c 6 %t.good.pte > %t.short.pte
// RUN: not emit-translate --from-pte %t.short.pte 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: short.pte:0:0: error: at byte 0 (file): the file has 6 bytes; a .pte has at least 8
// SHORT-NOT: et.program

// RUN: cp %t.good.pte %t.ident.pte && %pte-patch %t.ident.pte ascii@4=XY99
// RUN: not emit-translate --from-pte %t.ident.pte 2>&1 | FileCheck %s --check-prefix=IDENT
// IDENT: error: at byte 4 (file identifier): expected 'ET12', found '58593939' (hex), 'XY99'{{$}}

// A .pte whose identifier says BP08 is read as a bundle: its tables, read as
// a BundledProgram's, give an empty program vector, refused where it lies.
// RUN: cp %t.good.pte %t.bundled.pte && %pte-patch %t.bundled.pte ascii@4=BP08
// RUN: not emit-translate --from-pte %t.bundled.pte 2>&1 | FileCheck %s --check-prefix=BUNDLED
// BUNDLED: bundled.pte:0:0: error: at byte {{[0-9]+}} (program.file): the file has 0 bytes; a .pte has at least 8

// RUN: cp %t.good.pte %t.hlen.pte && %pte-patch %t.hlen.pte u32@12=16
// RUN: not emit-translate --from-pte %t.hlen.pte 2>&1 | FileCheck %s --check-prefix=HLEN
// HLEN: error: at byte 12 (extended header length): header length 16 < 24

// RUN: cp %t.good.pte %t.hbig.pte && %pte-patch %t.hbig.pte u32@12=4000000000
// RUN: not emit-translate --from-pte %t.hbig.pte 2>&1 | FileCheck %s --check-prefix=HBIG
// HBIG: error: at byte 12 (extended header length): header length 4000000000 runs past the end of the 648-byte file

// RUN: cp %t.good.pte %t.psize.pte && %pte-patch %t.psize.pte u64@16=999999
// RUN: not emit-translate --from-pte %t.psize.pte 2>&1 | FileCheck %s --check-prefix=PSIZE
// PSIZE: error: at byte 16 (extended header program_size): program_size 999999 is not within the 648-byte file (after the 32-byte header)

// RUN: cp %t.good.pte %t.base.pte && %pte-patch %t.base.pte u64@24=18446744073709551615
// RUN: not emit-translate --from-pte %t.base.pte 2>&1 | FileCheck %s --check-prefix=BASE
// BASE: error: at byte 24 (extended header segment_base_offset): segment_base_offset 18446744073709551615 is past the end of the 648-byte file

// RUN: cp %t.good.pte %t.inside.pte && %pte-patch %t.inside.pte u64@24=64
// RUN: not emit-translate --from-pte %t.inside.pte 2>&1 | FileCheck %s --check-prefix=INSIDE
// INSIDE: error: at byte 24 (extended header segment_base_offset): segment_base_offset 64 is inside the program, which ends at 520

// A truncated download: segment_data_size says more than the file holds.
// RUN: head -c 647 %t.good.pte > %t.truncated.pte
// RUN: not emit-translate --from-pte %t.truncated.pte 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: at byte 32 (extended header segment_data_size): segment_data_size 8 from base 640 runs past the end of the 647-byte file (the file may be truncated)

// The same, with the header patched to match: the segment table catches it.
// RUN: cp %t.truncated.pte %t.segment.pte && %pte-patch %t.segment.pte u64@32=7
// RUN: not emit-translate --from-pte %t.segment.pte 2>&1 | FileCheck %s --check-prefix=SEGMENT
// SEGMENT: error: at byte {{[0-9]+}} (segments[1]): offset 0 and size 8 from segment base 640 run past the end of the 647-byte file

// Without the header the segment has no data to point at.
// RUN: cp %t.good.pte %t.noheader.pte && %pte-patch %t.noheader.pte ascii@8=xxxx
// RUN: not emit-translate --from-pte %t.noheader.pte 2>&1 | FileCheck %s --check-prefix=NOHEADER
// NOHEADER: error: at byte {{[0-9]+}} (segments[1]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data

// RUN: cp %t.good.pte %t.root.pte && %pte-patch %t.root.pte u32@0=4000000
// RUN: not emit-translate --from-pte %t.root.pte 2>&1 | FileCheck %s --check-prefix=ROOT
// ROOT: error: at byte 0 (Program): the flatbuffer in bytes [0, 520) fails verification: the file is truncated or corrupt

// RUN: head -c 300 %t.good.pte > %t.cut.pte && %pte-patch %t.cut.pte u64@16=300 u64@24=0 u64@32=0
// RUN: not emit-translate --from-pte %t.cut.pte 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: error: at byte 0 (Program): the flatbuffer in bytes [0, 300) fails verification: the file is truncated or corrupt

// No partial output: a failed import leaves no output file behind.
// RUN: rm -f %t.out.mlir
// RUN: not emit-translate --from-pte %t.cut.pte -o %t.out.mlir
// RUN: not test -e %t.out.mlir

et.program @base {
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %d0 = et.delegate "B" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 16>
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0)
    }
    et.signature inputs(%0) outputs(%0)
  }
}
