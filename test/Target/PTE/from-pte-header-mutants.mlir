// Every field of a header set to 0, 1, the file size, the program size (for
// a .ptd, the flatbuffer's end), its largest value, and one off its true
// value: emit refuses each mutant that the runtime refuses or that would
// make a reader take the wrong bytes, naming the field and its byte, and
// accepts the rest with output byte for byte the unmutated file's. (The
// runtime's verdict on each is scripts/local-checks/runtime/header_mutants.py's.)
//
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: emit-translate --to-ptd %s -o %t.ptd
// RUN: %header-mutants check emit-translate %t.pte | FileCheck %s --check-prefix=PTE
// RUN: %header-mutants check emit-translate %t.ptd | FileCheck %s --check-prefix=PTD

// A pre-1.0 header (length 24) does not record segment_data_size, so the
// runtime and emit ignore that field; the end of the last segment must
// still be the end of the file.
// RUN: cp %t.pte %t.old.pte && %pte-patch %t.old.pte u32@12=24
// RUN: %header-mutants check emit-translate %t.old.pte | FileCheck %s --check-prefix=OLD

// PTE-LABEL: magic=0: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: magic=1: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: magic=file-size: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: magic=program-size: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: magic=max: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: magic=true+1: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: magic=true-1: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// PTE-NEXT: length=0: error: at byte 12 (extended header length): header length 0 < 24
// PTE-NEXT: length=1: error: at byte 12 (extended header length): header length 1 < 24
// PTE-NEXT: length=file-size: error: at byte 12 (extended header length): header length 1539 runs past the end of the 1539-byte file
// PTE-NEXT: length=program-size: error: at byte 16 (extended header program_size): program_size 928 is not within the 1539-byte file (after the 928-byte header)
// PTE-NEXT: length=max: error: at byte 12 (extended header length): header length 4294967295 runs past the end of the 1539-byte file
// PTE-NEXT: length=true+1: accepted, output identical
// PTE-NEXT: length=true-1: accepted, output identical
// PTE-NEXT: program_size=0: error: at byte 16 (extended header program_size): program_size 0 is not within the 1539-byte file (after the 32-byte header)
// PTE-NEXT: program_size=1: error: at byte 16 (extended header program_size): program_size 1 is not within the 1539-byte file (after the 32-byte header)
// PTE-NEXT: program_size=file-size: error: at byte 24 (extended header segment_base_offset): segment_base_offset 1024 is inside the program, which ends at 1539
// PTE-NEXT: program_size=max: error: at byte 16 (extended header program_size): program_size 18446744073709551615 is not within the 1539-byte file (after the 32-byte header)
// PTE-NEXT: program_size=true+1: error: at byte 16 (extended header program_size): program_size 929 is not a multiple of 16, the alignment the schema forces on inline data, to which a flatbuffer holding some is padded
// PTE-NEXT: program_size=true-1: error: at byte 0 (Program): the flatbuffer in bytes [0, 927) fails verification: the file is truncated or corrupt
// PTE-NEXT: segment_base_offset=0: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the extended header's segment_base_offset (byte 24) is 0, so it has no segment data
// PTE-NEXT: segment_base_offset=1: error: at byte 24 (extended header segment_base_offset): segment_base_offset 1 is inside the program, which ends at 928
// PTE-NEXT: segment_base_offset=file-size: error: at byte 32 (extended header segment_data_size): segment_data_size 515 from base 1539 runs past the end of the 1539-byte file (the file may be truncated)
// PTE-NEXT: segment_base_offset=program-size: error: at byte 24 (extended header segment_base_offset and segment_data_size): the segment data ends at byte 1443 (base 928 + segment_data_size 515), but the file has 1539 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTE-NEXT: segment_base_offset=max: error: at byte 24 (extended header segment_base_offset): segment_base_offset 18446744073709551615 is past the end of the 1539-byte file
// PTE-NEXT: segment_base_offset=true+1: error: at byte 32 (extended header segment_data_size): segment_data_size 515 from base 1025 runs past the end of the 1539-byte file (the file may be truncated)
// PTE-NEXT: segment_base_offset=true-1: error: at byte 24 (extended header segment_base_offset and segment_data_size): the segment data ends at byte 1538 (base 1023 + segment_data_size 515), but the file has 1539 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTE-NEXT: segment_data_size=0: accepted, output identical
// PTE-NEXT: segment_data_size=1: error: at byte 24 (extended header segment_base_offset and segment_data_size): the segment data ends at byte 1025 (base 1024 + segment_data_size 1), but the file has 1539 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTE-NEXT: segment_data_size=file-size: error: at byte 32 (extended header segment_data_size): segment_data_size 1539 from base 1024 runs past the end of the 1539-byte file (the file may be truncated)
// PTE-NEXT: segment_data_size=program-size: error: at byte 32 (extended header segment_data_size): segment_data_size 928 from base 1024 runs past the end of the 1539-byte file (the file may be truncated)
// PTE-NEXT: segment_data_size=max: error: at byte 32 (extended header segment_data_size): segment_data_size 18446744073709551615 from base 1024 runs past the end of the 1539-byte file (the file may be truncated)
// PTE-NEXT: segment_data_size=true+1: error: at byte 32 (extended header segment_data_size): segment_data_size 516 from base 1024 runs past the end of the 1539-byte file (the file may be truncated)
// PTE-NEXT: segment_data_size=true-1: error: at byte 24 (extended header segment_base_offset and segment_data_size): the segment data ends at byte 1538 (base 1024 + segment_data_size 514), but the file has 1539 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTE-NOT: {{.}}

// OLD-LABEL: magic=0: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: magic=1: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: magic=file-size: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: magic=program-size: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: magic=max: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: magic=true+1: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: magic=true-1: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the file has no extended header, so it has no segment data
// OLD-NEXT: length=0: error: at byte 12 (extended header length): header length 0 < 24
// OLD-NEXT: length=1: error: at byte 12 (extended header length): header length 1 < 24
// OLD-NEXT: length=file-size: error: at byte 12 (extended header length): header length 1539 runs past the end of the 1539-byte file
// OLD-NEXT: length=program-size: error: at byte 16 (extended header program_size): program_size 928 is not within the 1539-byte file (after the 928-byte header)
// OLD-NEXT: length=max: error: at byte 12 (extended header length): header length 4294967295 runs past the end of the 1539-byte file
// OLD-NEXT: length=true+1: accepted, output identical
// OLD-NEXT: length=true-1: error: at byte 12 (extended header length): header length 23 < 24
// OLD-NEXT: program_size=0: error: at byte 16 (extended header program_size): program_size 0 is not within the 1539-byte file (after the 24-byte header)
// OLD-NEXT: program_size=1: error: at byte 16 (extended header program_size): program_size 1 is not within the 1539-byte file (after the 24-byte header)
// OLD-NEXT: program_size=file-size: error: at byte 24 (extended header segment_base_offset): segment_base_offset 1024 is inside the program, which ends at 1539
// OLD-NEXT: program_size=max: error: at byte 16 (extended header program_size): program_size 18446744073709551615 is not within the 1539-byte file (after the 24-byte header)
// OLD-NEXT: program_size=true+1: error: at byte 16 (extended header program_size): program_size 929 is not a multiple of 16, the alignment the schema forces on inline data, to which a flatbuffer holding some is padded
// OLD-NEXT: program_size=true-1: error: at byte 0 (Program): the flatbuffer in bytes [0, 927) fails verification: the file is truncated or corrupt
// OLD-NEXT: segment_base_offset=0: error: at byte 340 (segments[0]): the segment holds 8 bytes, but the extended header's segment_base_offset (byte 24) is 0, so it has no segment data
// OLD-NEXT: segment_base_offset=1: error: at byte 24 (extended header segment_base_offset): segment_base_offset 1 is inside the program, which ends at 928
// OLD-NEXT: segment_base_offset=file-size: error: at byte 340 (segments[0]): offset 0 and size 8 from segment base 1539 run past the end of the 1539-byte file
// OLD-NEXT: segment_base_offset=program-size: error: at byte 24 (extended header segment_base_offset): the segment data ends at byte 1443 (base 928 + the last segment's end 515), but the file has 1539 bytes; segment_base_offset is wrong, and segments would be read from the wrong place
// OLD-NEXT: segment_base_offset=max: error: at byte 24 (extended header segment_base_offset): segment_base_offset 18446744073709551615 is past the end of the 1539-byte file
// OLD-NEXT: segment_base_offset=true+1: error: at byte 252 (segments[3]): offset 512 and size 3 from segment base 1025 run past the end of the 1539-byte file
// OLD-NEXT: segment_base_offset=true-1: error: at byte 24 (extended header segment_base_offset): the segment data ends at byte 1538 (base 1023 + the last segment's end 515), but the file has 1539 bytes; segment_base_offset is wrong, and segments would be read from the wrong place
// OLD-NEXT: segment_data_size=0: accepted, output identical
// OLD-NEXT: segment_data_size=1: accepted, output identical
// OLD-NEXT: segment_data_size=file-size: accepted, output identical
// OLD-NEXT: segment_data_size=program-size: accepted, output identical
// OLD-NEXT: segment_data_size=max: accepted, output identical
// OLD-NEXT: segment_data_size=true+1: accepted, output identical
// OLD-NEXT: segment_data_size=true-1: accepted, output identical
// OLD-NOT: {{.}}

// PTD-LABEL: magic=0: error: at byte 8 (header magic): expected 'FH01', found '00000000' (hex); a .ptd needs its header
// PTD-NEXT: magic=1: error: at byte 8 (header magic): expected 'FH01', found '01000000' (hex); a .ptd needs its header
// PTD-NEXT: magic=file-size: error: at byte 8 (header magic): expected 'FH01', found '83010000' (hex); a .ptd needs its header
// PTD-NEXT: magic=program-size: error: at byte 8 (header magic): expected 'FH01', found '00010000' (hex); a .ptd needs its header
// PTD-NEXT: magic=max: error: at byte 8 (header magic): expected 'FH01', found 'FFFFFFFF' (hex); a .ptd needs its header
// PTD-NEXT: magic=true+1: error: at byte 8 (header magic): expected 'FH01', found '47483031' (hex); a .ptd needs its header
// PTD-NEXT: magic=true-1: error: at byte 8 (header magic): expected 'FH01', found '45483031' (hex); a .ptd needs its header
// PTD-NEXT: length=0: error: at byte 12 (header length): header length 0 < 40
// PTD-NEXT: length=1: error: at byte 12 (header length): header length 1 < 40
// PTD-NEXT: length=file-size: accepted, output identical
// PTD-NEXT: length=program-size: accepted, output identical
// PTD-NEXT: length=max: accepted, output identical
// PTD-NEXT: length=true+1: accepted, output identical
// PTD-NEXT: length=true-1: error: at byte 12 (header length): header length 39 < 40
// PTD-NEXT: flatbuffer_offset=0: error: at byte 16 (header flatbuffer_offset): flatbuffer_offset 0 must be a multiple of 8 of at least 40 (the header region's length)
// PTD-NEXT: flatbuffer_offset=1: error: at byte 16 (header flatbuffer_offset): flatbuffer_offset 1 must be a multiple of 8 of at least 40 (the header region's length)
// PTD-NEXT: flatbuffer_offset=file-size: error: at byte 16 (header flatbuffer_offset): flatbuffer_offset 387 must be a multiple of 8 of at least 40 (the header region's length)
// PTD-NEXT: flatbuffer_offset=program-size: error: at byte 24 (header flatbuffer_size): flatbuffer_size 208 after the 256-byte header region does not fit the 387-byte file
// PTD-NEXT: flatbuffer_offset=max: error: at byte 16 (header flatbuffer_offset): flatbuffer_offset 18446744073709551615 must be a multiple of 8 of at least 40 (the header region's length)
// PTD-NEXT: flatbuffer_offset=true+1: error: at byte 16 (header flatbuffer_offset): flatbuffer_offset 49 must be a multiple of 8 of at least 40 (the header region's length)
// PTD-NEXT: flatbuffer_offset=true-1: error: at byte 16 (header flatbuffer_offset): flatbuffer_offset 47 must be a multiple of 8 of at least 40 (the header region's length)
// PTD-NEXT: flatbuffer_size=0: error: at byte 24 (header flatbuffer_size): flatbuffer_size 0 after the 48-byte header region does not fit the 387-byte file
// PTD-NEXT: flatbuffer_size=1: error: at byte 24 (header flatbuffer_size): flatbuffer_size 1 after the 48-byte header region does not fit the 387-byte file
// PTD-NEXT: flatbuffer_size=file-size: error: at byte 24 (header flatbuffer_size): flatbuffer_size 387 after the 48-byte header region does not fit the 387-byte file
// PTD-NEXT: flatbuffer_size=program-size: error: at byte 32 (header segment_base_offset): segment_base_offset 256 is not between the flatbuffer's end (304) and the end of the 387-byte file
// PTD-NEXT: flatbuffer_size=max: error: at byte 24 (header flatbuffer_size): flatbuffer_size 18446744073709551615 after the 48-byte header region does not fit the 387-byte file
// PTD-NEXT: flatbuffer_size=true+1: error: at byte 32 (header segment_base_offset): segment_base_offset 256 is not between the flatbuffer's end (257) and the end of the 387-byte file
// PTD-NEXT: flatbuffer_size=true-1: error: at byte 0 (FlatTensor): the flatbuffer in bytes [0, 255) fails verification, in the current FlatTensor schema and in ExecuTorch 0.6's: the file is truncated or corrupt
// PTD-NEXT: segment_base_offset=0: error: at byte 32 (header segment_base_offset): segment_base_offset 0 is not between the flatbuffer's end (256) and the end of the 387-byte file
// PTD-NEXT: segment_base_offset=1: error: at byte 32 (header segment_base_offset): segment_base_offset 1 is not between the flatbuffer's end (256) and the end of the 387-byte file
// PTD-NEXT: segment_base_offset=file-size: error: at byte 40 (header segment_data_size): segment_data_size 131 from base 387 runs past the end of the 387-byte file (the file may be truncated)
// PTD-NEXT: segment_base_offset=max: error: at byte 32 (header segment_base_offset): segment_base_offset 18446744073709551615 is not between the flatbuffer's end (256) and the end of the 387-byte file
// PTD-NEXT: segment_base_offset=true+1: error: at byte 40 (header segment_data_size): segment_data_size 131 from base 257 runs past the end of the 387-byte file (the file may be truncated)
// PTD-NEXT: segment_base_offset=true-1: error: at byte 32 (header segment_base_offset): segment_base_offset 255 is not between the flatbuffer's end (256) and the end of the 387-byte file
// PTD-NEXT: segment_data_size=0: error: at byte 32 (header segment_base_offset and segment_data_size): the segment data ends at byte 256 (base 256 + segment_data_size 0), but the file has 387 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTD-NEXT: segment_data_size=1: error: at byte 32 (header segment_base_offset and segment_data_size): the segment data ends at byte 257 (base 256 + segment_data_size 1), but the file has 387 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTD-NEXT: segment_data_size=file-size: error: at byte 40 (header segment_data_size): segment_data_size 387 from base 256 runs past the end of the 387-byte file (the file may be truncated)
// PTD-NEXT: segment_data_size=program-size: error: at byte 40 (header segment_data_size): segment_data_size 256 from base 256 runs past the end of the 387-byte file (the file may be truncated)
// PTD-NEXT: segment_data_size=max: error: at byte 40 (header segment_data_size): segment_data_size 18446744073709551615 from base 256 runs past the end of the 387-byte file (the file may be truncated)
// PTD-NEXT: segment_data_size=true+1: error: at byte 40 (header segment_data_size): segment_data_size 132 from base 256 runs past the end of the 387-byte file (the file may be truncated)
// PTD-NEXT: segment_data_size=true-1: error: at byte 32 (header segment_base_offset and segment_data_size): the segment data ends at byte 386 (base 256 + segment_data_size 130), but the file has 387 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place
// PTD-NOT: {{.}}

et.program @mutants {
  et.blob @constants align 1 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.blob @kv align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @payload align 1 = dense<[5, 6]> : tensor<2xi8>
  et.blob @weights align 512 = dense<[7, 7, 7]> : tensor<3xi8>
  et.blob @tiny align 16 inline = dense<[9, 8, 7]> : tensor<3xi8>
  et.constant_segment @constants offsets [0, 0, 4]
  et.mutable_data_segment @kv offsets [0, 0]
  et.named_data "weight" = @weights
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
et.data_file @mutants_data {
  et.blob @w align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>
  et.blob @raw align 64 = dense<[1, 2, 3]> : tensor<3xi8>
  et.named_data "w" = @w layout #et.tensor_layout<float [2] dim_order [0]>
  et.named_data "raw" = @raw
}
