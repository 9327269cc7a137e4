// RUN: emit-opt %s --split-input-file --et-hoist-inline-payloads | FileCheck %s
// RUN: emit-opt %s --split-input-file --et-hoist-inline-payloads='min-size=5' | FileCheck %s --check-prefix=MIN

// Every inline payload becomes an et.blob of its program, named payload_N in
// program order, with the payload's alignment, before the method that holds
// it; the entry names it. Equal
// payloads stay two blobs: sharing them is et-share-blobs' job. With
// min-size, payloads under it stay inline.

// CHECK-LABEL: et.program @hoist
// CHECK-NEXT: et.blob @payload_0 align 16 = dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: et.blob @payload_1 align 64 = dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: et.method @prefill
// CHECK-NEXT: et.delegate "A" @payload_0 specs [#et.compile_spec<"k" = "a">]
// CHECK-NEXT: et.delegate "B" @payload_1
// CHECK: et.blob @payload_2 align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>
// CHECK-NEXT: et.method @decode
// CHECK-NEXT: et.delegate "C" @payload_2
// CHECK-NOT: #et.blob

// MIN-LABEL: et.program @hoist
// MIN-NEXT: et.method @prefill
// MIN-NEXT: et.delegate "A" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
// MIN-NEXT: et.delegate "B" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 64>
// MIN: et.blob @payload_0 align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>
// MIN-NEXT: et.method @decode
// MIN-NEXT: et.delegate "C" @payload_0
et.program @hoist {
  et.method @prefill {
    %a = et.delegate "A" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16> specs [#et.compile_spec<"k" = "a">]
    %b = et.delegate "B" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 64>
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %c = et.delegate "C" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %c ()
    }
    et.signature inputs() outputs()
  }
}

// -----

// A data file has no delegates: nothing to hoist.

// CHECK-LABEL: et.data_file @weights
// CHECK-NEXT: et.blob @w align 16 = dense<[1, 2]> : tensor<2xi8>
et.data_file @weights {
  et.blob @w align 16 = dense<[1, 2]> : tensor<2xi8>
  et.named_data "w" = @w
}
