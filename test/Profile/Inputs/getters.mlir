// An LLM program's shape (the QNN llama export): two forwards, one delegate
// call each, which an ETDump cannot tell apart, and constant getters with
// no instructions.
et.program @getters {
  et.method @kv_forward buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %d = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
  et.method @prefill_forward buffers [0, 64] {
    %0 = et.tensor float [8] dim_order [0] mem(1, 0)
    %1 = et.tensor float [8] dim_order [0] mem(1, 32)
    %d = et.delegate "QnnBackend" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs() outputs() {
      et.call_delegate %d (%0, %1)
    }
    et.signature inputs(%0) outputs(%1)
  }
  et.method @get_max_seq_len {
    %0 = et.int 128
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs(%0)
  }
  et.method @get_vocab_size {
    %0 = et.int 512
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs(%0)
  }
  et.method @get_n_layers {
    %0 = et.int 4
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs(%0)
  }
}
