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
  // expected-error @below {{payload data is not available (elided or released resource); cannot write it}}
  et.blob @b align 1 = dense_resource<__elided__> : tensor<4xi8>
  et.method @m {
    %d0 = et.delegate "B" @b
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @elided_inline {
  et.method @m {
    // expected-error @below {{payload data is not available (elided or released resource); cannot write it}}
    %d0 = et.delegate "B" #et.blob<dense_resource<__elided__> : tensor<4xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @inline_overaligned {
  // expected-error @below {{'et.blob' op keeps a payload inline that asks for alignment 8192; data inside the flatbuffer can be aligned to at most 4096 (put it in a segment instead)}}
  et.blob @b align 8192 inline = dense<[1, 2]> : tensor<2xi8>
  et.method @m {
    %d0 = et.delegate "B" @b
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

et.program @deprecated_constants {
  // expected-warning @below {{writing the deprecated constant_buffer (2 entries); runtimes built without deprecated constant buffer support reject this file}}
  et.constant_buffer [dense<> : tensor<0xi8>, dense<[0, 0, -128, 63]> : tensor<4xi8>]
  et.method @m {
    %0 = et.tensor float [1] dim_order [0] data(1)
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
