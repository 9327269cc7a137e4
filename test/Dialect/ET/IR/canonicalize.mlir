// RUN: emit-opt %s --split-input-file --canonicalize | FileCheck %s

// Canonical form: inline payloads become program-level blobs, in program
// order, placed before the method that uses them. Equal bytes are not merged
// here (that needs the whole program's bytes: --dedup-delegate-blobs).

// CHECK-LABEL: et.program @hoist
// CHECK-NEXT: et.blob @payload_0 align 16 = dense<[1, 2]> : tensor<2xi8>
// CHECK-NEXT: et.blob @payload_1 align 32 = dense<[1, 2]> : tensor<2xi8>
// CHECK-NEXT: et.method @first
// CHECK: et.delegate "A" @payload_0 specs [#et.compile_spec<"k" = "a">]
// CHECK: et.delegate "B" @payload_1 specs [#et.compile_spec<"k" = "b">]
// CHECK: et.blob @payload_2 align 8 = dense<3> : tensor<4xi8>
// CHECK-NEXT: et.method @second
// CHECK: et.delegate "A" @payload_2
et.program @hoist {
  et.method @first {
    %d0 = et.delegate "A" #et.blob<dense<[1, 2]> : tensor<2xi8>, align 16> specs [#et.compile_spec<"k" = "a">]
    %d1 = et.delegate "B" #et.blob<dense<[1, 2]> : tensor<2xi8>, align 32> specs [#et.compile_spec<"k" = "b">]
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
  et.method @second {
    %d0 = et.delegate "A" #et.blob<dense<3> : tensor<4xi8>, align 8>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

// Hoisted names skip names the program already uses.
// CHECK-LABEL: et.program @taken_names
// CHECK-NEXT: et.blob @payload_0 align 1
// CHECK-NEXT: et.blob @payload_1 align 4
// CHECK: et.delegate "A" @payload_1
// CHECK: et.delegate "A" @payload_0
et.program @taken_names {
  et.blob @payload_0 align 1 = dense<[9]> : tensor<1xi8>
  et.method @m {
    %d0 = et.delegate "A" #et.blob<dense<[7]> : tensor<1xi8>, align 4>
    %d1 = et.delegate "A" @payload_0
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
}

// -----

// Already canonical: nothing changes.
// CHECK-LABEL: et.program @canonical
// CHECK-NEXT: et.blob @kept align 2
// CHECK-NEXT: et.method @m
// CHECK: et.delegate "A" @kept
et.program @canonical {
  et.blob @kept align 2 = dense<[1]> : tensor<1xi8>
  et.method @m {
    %d0 = et.delegate "A" @kept
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
    }
    et.signature inputs() outputs()
  }
}
