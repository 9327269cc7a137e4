// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s --check-prefix=OFF
// RUN: emit-opt %s --dedup-delegate-blobs='share-entries=true' | FileCheck %s --check-prefix=ON
// RUN: emit-opt %s --dedup-delegate-blobs='share-entries=true remarks=true' --verify-diagnostics -o /dev/null

// Off (the default): every delegate entry stays, each with its own calls.
// On: within a method, calls of entries equal in backend id, compile specs
// and payload share the first such entry (the backend is initialized once
// for them). Entries that differ in any of the three, or live in another
// method, are never shared.

// OFF-LABEL: et.method @prefill
// OFF-NEXT: %[[T:.*]] = et.tensor
// OFF-NEXT: %[[A:.*]] = et.delegate "Qnn" @[[P:payload_0]] specs [#et.compile_spec<"graph" = "prefill">]
// OFF-NEXT: %[[B:.*]] = et.delegate "Qnn" @[[P]] specs [#et.compile_spec<"graph" = "prefill">]
// OFF-NEXT: %[[C:.*]] = et.delegate "Qnn" @[[P]] specs [#et.compile_spec<"graph" = "decode">]
// OFF-NEXT: %[[D:.*]] = et.delegate "Xnn" @[[P]] specs [#et.compile_spec<"graph" = "prefill">]
// OFF-NEXT: %[[E:.*]] = et.delegate "Qnn" @[[Q:payload_4]] specs [#et.compile_spec<"graph" = "prefill">]
// OFF-NEXT: et.chain
// OFF-NEXT: et.call_delegate %[[A]]
// OFF-NEXT: et.call_delegate %[[B]]
// OFF-NEXT: et.call_delegate %[[C]]
// OFF-NEXT: et.call_delegate %[[D]]
// OFF-NEXT: et.call_delegate %[[E]]
// OFF-LABEL: et.method @decode
// OFF-NEXT: %[[T2:.*]] = et.tensor
// OFF-NEXT: et.delegate "Qnn" @payload_0 specs [#et.compile_spec<"graph" = "prefill">]

// ON-LABEL: et.method @prefill
// ON-NEXT: %[[T:.*]] = et.tensor
// ON-NEXT: %[[A:.*]] = et.delegate "Qnn" @[[P:payload_0]] specs [#et.compile_spec<"graph" = "prefill">]
// ON-NEXT: %[[C:.*]] = et.delegate "Qnn" @[[P]] specs [#et.compile_spec<"graph" = "decode">]
// ON-NEXT: %[[D:.*]] = et.delegate "Xnn" @[[P]] specs [#et.compile_spec<"graph" = "prefill">]
// ON-NEXT: %[[E:.*]] = et.delegate "Qnn" @[[Q:payload_4]] specs [#et.compile_spec<"graph" = "prefill">]
// ON-NEXT: et.chain
// ON-NEXT: et.call_delegate %[[A]] (%[[T]])
// ON-NEXT: et.call_delegate %[[A]] (%[[T]], %[[T]])
// ON-NEXT: et.call_delegate %[[C]]
// ON-NEXT: et.call_delegate %[[D]]
// ON-NEXT: et.call_delegate %[[E]]
// ON-LABEL: et.method @decode
// ON-NEXT: %[[T2:.*]] = et.tensor
// ON-NEXT: et.delegate "Qnn" @payload_0 specs [#et.compile_spec<"graph" = "prefill">]
et.program @share {
  et.method @prefill {
    %0 = et.tensor float [1] dim_order [0]
    // expected-remark @below {{stores 4 bytes once for 5 payloads, alignment 1}}
    // expected-remark @below {{shares this delegate entry with an equal one, which is removed: the backend is initialized once for both}}
    %a = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"graph" = "prefill">]
    %b = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"graph" = "prefill">]
    %c = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"graph" = "decode">]
    %d = et.delegate "Xnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"graph" = "prefill">]
    %e = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 5]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs() outputs() {
      et.call_delegate %a (%0)
      et.call_delegate %b (%0, %0)
      et.call_delegate %c ()
      et.call_delegate %d ()
      et.call_delegate %e ()
    }
    et.signature inputs() outputs()
  }
  et.method @decode {
    %0 = et.tensor float [1] dim_order [0]
    %a = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"graph" = "prefill">]
    et.chain inputs() outputs() {
      et.call_delegate %a (%0)
    }
    et.signature inputs() outputs()
  }
}
