// RUN: emit-opt %s --et-constants-to-buffer --verify-diagnostics

// Constants in both places: the runtime refuses the program, and the pass
// does not pick one (et-constants-to-segment likewise:
// constant-placement-errors.mlir).

et.program @both {
  et.blob @c align 16 segment = dense<1> : tensor<4xi8>
  // expected-error@+1 {{the program keeps constants both in the constant buffer and in the constant segment, which the runtime refuses}}
  et.constant_segment @c offsets [0, 0]
  et.constant_buffer [dense<> : tensor<0xi8>, dense<2> : tensor<4xi8>]
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [1] dim_order [0] data(1)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
