// RUN: emit-opt %s --split-input-file | emit-opt --split-input-file | FileCheck %s
// RUN: emit-opt %s --split-input-file --mlir-print-op-generic | emit-opt --split-input-file | FileCheck %s
// UNSUPPORTED: verify-roundtrip

// A bundled program: its program, then its test suites, each value kind a
// bundle has; suites and test cases as the file had them, fitting or not.

// CHECK-LABEL: et.bundle @kinds version 3 {
// CHECK-NEXT: et.program @kinds {
// CHECK: et.test_suite "forward" {
// CHECK-NEXT: et.test_case inputs [#et.test_tensor<float [2] dim_order [0] = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>>, 3] expected [#et.test_tensor<float [] dim_order [] = dense<0> : tensor<4xi8>>, -1, true, 2.500000e+00, unit]
// CHECK-NEXT: et.test_case inputs [] expected []
// CHECK-NEXT: }
// CHECK-NEXT: et.test_suite "no_such_method" {
// CHECK-NEXT: }
// CHECK-NEXT: et.test_suite "" {
et.bundle @kinds version 3 {
  et.program @kinds {
    et.method @forward {
      %x = et.tensor float [2] dim_order [0]
      %n = et.int 3
      et.chain inputs() outputs() {
      }
      et.signature inputs(%x, %n) outputs(%x)
    }
  }
  et.test_suite "forward" {
    et.test_case inputs [#et.test_tensor<float [2] dim_order [0] = dense<[0, 0, -128, 63, 0, 0, 0, 64]> : tensor<8xi8>>, 3 : i64]
                 expected [#et.test_tensor<float [] dim_order [] = dense<0> : tensor<4xi8>>, -1 : i64, true, 2.5 : f64, unit]
    et.test_case inputs [] expected []
  }
  et.test_suite "no_such_method" {
  }
  et.test_suite "" {
  }
}

// -----

// A bundle without suites.
// CHECK-LABEL: et.bundle @no_suites {
// CHECK-NEXT: et.program @no_suites {
// CHECK-NEXT: }
// CHECK-NEXT: }
et.bundle @no_suites {
  et.program @no_suites {
  }
}
