// A delegate entry whose payload is an empty segment: the file needs a
// segment base for the runtime to load that segment.
et.program @payload {
  et.blob @nothing align 1 segment = dense<> : tensor<0xi8>
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %d0 = et.delegate "B" @nothing
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d0 (%0, %0)
    }
    et.signature inputs(%0) outputs(%0)
  }
}
