// RUN: emit-opt %s --dedup-delegate-blobs='remarks=true same-backend=true' --verify-diagnostics -o /dev/null

// The report's facts as MLIR remarks, on the blobs they concern.
et.program @remarks {
  // expected-remark @below {{stores 2 bytes once for 2 payloads, alignment 8}}
  // expected-remark @below {{equal bytes kept in a separate blob (same-backend)}}
  et.blob @a align 8 = dense<[1, 2]> : tensor<2xi8>
  et.blob @b align 4 = dense<[1, 2]> : tensor<2xi8>
  // expected-remark @below {{equal bytes kept in a separate blob (same-backend)}}
  et.blob @c align 1 = dense<[1, 2]> : tensor<2xi8>
  et.method @m {
    %d0 = et.delegate "A" @a
    %d1 = et.delegate "A" @b
    %d2 = et.delegate "B" @c
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
    }
    et.signature inputs() outputs()
  }
}
