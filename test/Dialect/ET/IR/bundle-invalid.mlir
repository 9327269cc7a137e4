// RUN: emit-opt %s --split-input-file --verify-diagnostics
// UNSUPPORTED: verify-roundtrip

// expected-error @+1 {{'et.bundle' op must begin with the 'et.program' it bundles}}
et.bundle @no_program {
}

// -----

// expected-error @+1 {{'et.bundle' op must begin with the 'et.program' it bundles}}
et.bundle @suite_first {
  et.test_suite "forward" {
  }
  et.program @p {
  }
}

// -----

et.bundle @two_programs {
  et.program @p {
  }
  // expected-error @+1 {{is not allowed in an 'et.bundle' after its program; only test suites are}}
  et.program @q {
  }
}

// -----

// expected-error @+1 {{version 4294967296 does not fit BundledProgram.version (uint32)}}
et.bundle @version version 4294967296 {
  et.program @p {
  }
}

// -----

et.bundle @bad_value {
  et.program @p {
  }
  et.test_suite "forward" {
    // expected-error @+1 {{inputs[1] is 3 : i32; a test value is an '#et.test_tensor', an i64 or f64 number, true, false, or unit}}
    et.test_case inputs [unit, 3 : i32] expected []
  }
}

// -----

et.bundle @bad_expected {
  et.program @p {
  }
  et.test_suite "forward" {
    // expected-error @+1 {{expected[0] is "text"}}
    et.test_case inputs [] expected ["text"]
  }
}

// -----

et.bundle @dim_order_byte {
  et.program @p {
  }
  et.test_suite "forward" {
    // expected-error @+1 {{dim order entry 256 does not fit a byte, as a bundle stores it}}
    et.test_case inputs [#et.test_tensor<float [1] dim_order [256] = dense<0> : tensor<4xi8>>] expected []
  }
}

// -----

et.bundle @not_bytes {
  et.program @p {
  }
  et.test_suite "forward" {
    // expected-error @+1 {{data must be bytes: a 1-D tensor of i8}}
    et.test_case inputs [#et.test_tensor<float [1] dim_order [0] = dense<0.0> : tensor<1xf32>>] expected []
  }
}

// -----

// expected-error @+1 {{'et.test_suite' op expects parent op 'et.bundle'}}
et.test_suite "forward" {
}

// -----

et.bundle @case_outside {
  et.program @p {
  }
  et.test_suite "forward" {
    // expected-error @+1 {{'et.bundle' op is not allowed in an 'et.test_suite'; only test cases are}}
    et.bundle @inner {
      et.program @q {
      }
    }
  }
}
