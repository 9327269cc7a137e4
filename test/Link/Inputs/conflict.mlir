// A program whose "embedding" holds other bytes than prefill's.
et.program @conflict {
  et.blob @embedding align 16 = dense<[1, 1, 1, 1, 1, 1]> : tensor<6xi8>
  et.named_data "embedding" = @embedding
  et.method @conflict {
    %0 = et.tensor float [1] dim_order [0]
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
