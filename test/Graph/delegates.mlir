// A delegate call's node carries its entry: backend, index, payload size,
// where the payload is stored (a segment, or inline in the flatbuffer),
// its compile specs (text where they are UTF-8, hex otherwise; none is
// none), and what its first bytes say it is. A backend emit has never
// heard of, a payload whose magic is followed by garbage or that is
// shorter than the header its magic announces: each a node with what is
// known of it and a problem, never a failure (exit 0). Segment 0 is the
// constant segment the writer always emits.
// RUN: emit-translate --to-pte %s -o %t.pte
// RUN: %expect-exit 0 emit-graph --format=json %t.pte -o %t.json
// RUN: %graph-lines < %t.json | FileCheck %s

// CHECK-LABEL: method forward:
// CHECK:      node i0 0:0 delegate XnnpackBackend [0] -> [1] from [input0:%0]
// CHECK-NEXT:   delegate XnnpackBackend #0 48 B segment 1 shared [] magic XH00 specs [threads=utf-8:4, fast=hex:00ff01]
// CHECK-NEXT:   payload XNNPACK [header@0+30 padding@30+2 graph@32+8 constants@40+8] target {}
// CHECK-NEXT:   problem: payload byte 36: the graph's identifier (bytes 05060708) is not XN00 or XN01
// CHECK-NEXT: node i1 0:1 delegate XnnpackBackend [1] -> [2] from [i0:%1]
// CHECK-NEXT:   delegate XnnpackBackend #1 12 B inline 0 shared [] magic XH00 specs []
// CHECK-NEXT:   payload XNNPACK [opaque@0+12] target {}
// CHECK-NEXT:   problem: payload byte 0: the payload's 12 bytes are fewer than the 30-byte XNNPACK header its magic announces
// CHECK-NEXT: node i2 0:2 delegate XnnpackBackend [2] -> [3] from [i1:%2]
// CHECK-NEXT:   delegate XnnpackBackend #2 48 B segment 2 shared [] magic XH00 specs []
// CHECK-NEXT:   payload XNNPACK [header@0+30 padding@30+10 constants@40+8] target {}
// CHECK-NEXT:   problem: payload byte 10: the graph (offset 32, 1000 bytes) does not fit in the 48-byte payload
// CHECK-NEXT: node i3 0:3 delegate QnnBackend [3] -> [4] from [i2:%3]
// CHECK-NEXT:   delegate QnnBackend #3 8 B segment 3 shared [] magic 0x5678abcd specs [qnn_compile_spec=utf-8:prefill]
// CHECK-NEXT:   payload QNN [opaque@0+8] target {}
// CHECK-NEXT:   problem: compile spec 'qnn_compile_spec' byte 0: the QnnExecuTorchOptions flatbuffer does not verify: the QNN runtime, which reads it unverified, would misread it
// CHECK-NEXT:   problem: payload byte 0: the payload's 8 bytes are fewer than the 256-byte QNN header its magic announces
// CHECK-NEXT: node i4 0:4 delegate EthosUBackend [4] -> [5] from [i3:%4]
// CHECK-NEXT:   delegate EthosUBackend #4 16 B segment 4 shared [] magic vela_bin_stream specs []
// CHECK-NEXT:   payload Ethos-U [unread@0+16] target {}
// CHECK-NEXT:   problem: payload byte 0: a block header of 32 bytes at 0 runs past the payload: the runtime reads past it
// CHECK-NEXT: node i5 0:5 delegate SomeBackendNobodyKnows [5] -> [6] from [i4:%5]
// CHECK-NEXT:   delegate SomeBackendNobodyKnows #5 4 B segment 5 shared [] magic None specs []
// CHECK-NEXT:   payload None [opaque@0+4] target {}
// CHECK: fallback kernels 0 {} delegates 6 {'XnnpackBackend': 3, 'EthosUBackend': 1, 'QnnBackend': 1, 'SomeBackendNobodyKnows': 1}

et.program @delegates {
  et.blob @xnn align 16 segment = dense<[0, 0, 0, 0, 88, 72, 48, 48, 30, 0, 32, 0, 0, 0, 8, 0, 0, 0, 40, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]> : tensor<48xi8>
  et.blob @short align 16 inline = dense<[0, 0, 0, 0, 88, 72, 48, 48, 30, 0, 32, 0]> : tensor<12xi8>
  et.blob @past align 16 segment = dense<[0, 0, 0, 0, 88, 72, 48, 48, 30, 0, 32, 0, 0, 0, -24, 3, 0, 0, 40, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]> : tensor<48xi8>
  et.blob @qnn align 16 segment = dense<[-51, -85, 120, 86, 1, 0, 0, 0]> : tensor<8xi8>
  et.blob @vela align 16 segment = dense<[118, 101, 108, 97, 95, 98, 105, 110, 95, 115, 116, 114, 101, 97, 109, 0]> : tensor<16xi8>
  et.blob @noise align 16 segment = dense<[7, 7, 7, 7]> : tensor<4xi8>
  et.method @forward buffers [0, 112] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 48)
    %4 = et.tensor float [4] dim_order [0] mem(1, 64)
    %5 = et.tensor float [4] dim_order [0] mem(1, 80)
    %6 = et.tensor float [4] dim_order [0] mem(1, 96)
    %xnn = et.delegate "XnnpackBackend" @xnn specs [#et.compile_spec<"threads" = "4">, #et.compile_spec<"fast" = "\00\FF\01">]
    %short = et.delegate "XnnpackBackend" @short
    %past = et.delegate "XnnpackBackend" @past
    %qnn = et.delegate "QnnBackend" @qnn specs [#et.compile_spec<"qnn_compile_spec" = "prefill">]
    %vela = et.delegate "EthosUBackend" @vela
    %noise = et.delegate "SomeBackendNobodyKnows" @noise
    et.chain inputs(%0) outputs(%6) {
      et.call_delegate %xnn (%0, %1)
      et.call_delegate %short (%1, %2)
      et.call_delegate %past (%2, %3)
      et.call_delegate %qnn (%3, %4)
      et.call_delegate %vela (%4, %5)
      et.call_delegate %noise (%5, %6)
    }
    et.signature inputs(%0) outputs(%6)
  }
}
