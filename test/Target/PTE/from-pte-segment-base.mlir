// The extended header's segment_base_offset as the runtime reads it. A base
// of 0 means the file has no segment data: the runtime loads no segment
// (NotFound), and constants and named data would be read from the start of
// the file. emit refuses such a file when its tables name segments, instead
// of taking the flatbuffer's own bytes as their data. Every error names the
// table and the header field, exits non-zero and prints no IR.
//
// RUN: emit-translate --to-pte %s -o %t.good.pte
// RUN: %pte-json %t.good.pte --segments | FileCheck %s --check-prefix=GOOD
// GOOD: header length 32 program_size 960 segment_base 1024
// GOOD: segment 1 size 16

// The QNN shape (ExecuTorch's stories260k_hybrid_llama_qnn.pte with its
// base set to 0): two methods call a context binary in segment 1.
// RUN: cp %t.good.pte %t.base0.pte && %pte-patch %t.base0.pte u64@24=0
// RUN: not emit-translate --from-pte %t.base0.pte 2>&1 | FileCheck %s --check-prefix=BASE0
// RUN: not emit-translate --pte-to-pte %t.base0.pte -o %t.out.pte 2>&1 | FileCheck %s --check-prefix=BASE0
// RUN: not test -e %t.out.pte
// BASE0: base0.pte:0:0: error: at byte 148 (segments[1]): the segment holds 16 bytes, but the extended header's segment_base_offset (byte 24) is 0, so it has no segment data
// BASE0-NOT: et.program

// A delegate entry naming an empty segment: no bytes to misread, but the
// runtime still refuses to load the segment.
// RUN: emit-translate --to-pte %S/Inputs/empty-segment-payload.mlir -o %t.payload.pte
// RUN: %pte-json %t.payload.pte --segments | FileCheck %s --check-prefix=PAYLOAD-GOOD
// PAYLOAD-GOOD: segment_base {{[1-9][0-9]*}}
// RUN: cp %t.payload.pte %t.payload0.pte && %pte-patch %t.payload0.pte u64@24=0
// RUN: not emit-translate --from-pte %t.payload0.pte 2>&1 | FileCheck %s --check-prefix=PAYLOAD
// PAYLOAD: error: at byte {{[0-9]+}} (execution_plan[0] 'forward'.delegates[0].processed): a segment reference, but the extended header's segment_base_offset (byte 24) is 0, so the runtime loads no segment (NotFound)

// A planned tensor whose initial data is in an empty mutable data segment.
// RUN: emit-translate --to-pte %S/to-pte-empty-mutable-state.mlir -o %t.state.pte
// RUN: cp %t.state.pte %t.state0.pte && %pte-patch %t.state0.pte u64@24=0
// RUN: not emit-translate --from-pte %t.state0.pte 2>&1 | FileCheck %s --check-prefix=STATE
// STATE: error: at byte {{[0-9]+}} (execution_plan[0] 'forward'.values[1].data_buffer_idx): the tensor's initial data is in mutable_data_segments, but the extended header's segment_base_offset (byte 24) is 0, so the runtime loads no segment (NotFound)

// With every segment empty and none read, a base of 0 loses nothing: the
// file imports, and exports as the unpatched file does.
// RUN: emit-translate --to-pte %S/to-pte-no-segments.mlir -o %t.bare.pte
// RUN: %python %emit_src_root/test/Inputs/pte-wrap.py %t.bare.pte %t.wrapped.pte 0
// RUN: cp %t.wrapped.pte %t.wrapped0.pte && %pte-patch %t.wrapped0.pte u64@24=0 u64@32=0
// RUN: emit-translate --from-pte %t.wrapped0.pte | emit-translate --to-pte -o %t.wrapped0.out.pte
// RUN: cmp %t.bare.pte %t.wrapped0.out.pte

// A base below its true value reads every segment from the wrong place;
// the bytes left after the segment data give it away.
// RUN: cp %t.good.pte %t.low.pte && %pte-patch %t.low.pte u64@24=1023
// RUN: not emit-translate --from-pte %t.low.pte 2>&1 | FileCheck %s --check-prefix=LOW
// LOW: error: at byte 24 (extended header segment_base_offset and segment_data_size): the segment data ends at byte 1039 (base 1023 + segment_data_size 16), but the file has 1040 bytes; segment_base_offset or segment_data_size is wrong, and segments would be read from the wrong place

// The same in a pre-1.0 header (length 24), which does not record
// segment_data_size: the end of the last segment gives it away.
// RUN: cp %t.good.pte %t.old.pte && %pte-patch %t.old.pte u32@12=24
// RUN: emit-translate --from-pte %t.old.pte | emit-translate --to-pte -o %t.old.out.pte
// RUN: cmp %t.good.pte %t.old.out.pte
// RUN: cp %t.old.pte %t.oldlow.pte && %pte-patch %t.oldlow.pte u64@24=1023
// RUN: not emit-translate --from-pte %t.oldlow.pte 2>&1 | FileCheck %s --check-prefix=OLDLOW
// OLDLOW: error: at byte 24 (extended header segment_base_offset): the segment data ends at byte 1039 (base 1023 + the last segment's end 16), but the file has 1040 bytes; segment_base_offset is wrong, and segments would be read from the wrong place

// A segment_data_size too small is the same fault seen from the other end.
// RUN: cp %t.good.pte %t.short.pte && %pte-patch %t.short.pte u64@32=15
// RUN: not emit-translate --from-pte %t.short.pte 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: at byte 24 (extended header segment_base_offset and segment_data_size): the segment data ends at byte 1039 (base 1024 + segment_data_size 15), but the file has 1040 bytes

et.program @llm {
  et.blob @context align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]> : tensor<16xi8>
  et.method @prefill buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %d0 = et.delegate "QnnBackend" @context specs [#et.compile_spec<"qnn_compile_spec" = "prefill">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0, %0)
    }
    et.signature inputs(%0) outputs(%0)
  }
  et.method @decode buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %d0 = et.delegate "QnnBackend" @context specs [#et.compile_spec<"qnn_compile_spec" = "decode">]
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0, %0)
    }
    et.signature inputs(%0) outputs(%0)
  }
}
