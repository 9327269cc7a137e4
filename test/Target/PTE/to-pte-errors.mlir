// RUN: emit-translate --to-pte %s --split-input-file --verify-diagnostics -o /dev/null

// expected-error @below {{expected exactly one 'et.program' to write as a .pte, found 2}}
module {
  et.program @a {
  }
  et.program @b {
  }
}

// -----

// expected-error @below {{expected exactly one 'et.program' to write as a .pte, found 0}}
module {
}

// -----

et.program @elided {
  et.blob @b align 1 = dense_resource<__elided__> : tensor<4xi8>
  et.method @m {
    et.chain inputs() outputs() {
      // expected-error @below {{payload data is not available (elided or released resource); cannot write it}}
      et.call_delegate "B" @b ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @constants {
  et.method @m {
    // expected-error @below {{references constant entry 1, but constant tensor data cannot be written yet}}
    %0 = et.tensor float [1] dim_order [0] constant(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
