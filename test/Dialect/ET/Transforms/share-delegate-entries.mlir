// RUN: emit-opt %s --et-share-delegate-entries | FileCheck %s
// RUN: emit-opt %s --et-share-delegate-entries='remarks=true' --verify-diagnostics -o /dev/null

// Within a method, calls of entries equal in backend id, compile specs and
// payload blob call the first such entry; the others go. Equal bytes in two
// blobs are not the same payload here (et-share-blobs makes them one), and
// inline payloads are never compared.

// CHECK-LABEL: et.method @m
// CHECK-NEXT: %[[A:.*]] = et.delegate "Qnn" @p0 specs [#et.compile_spec<"g" = "x">]
// CHECK-NEXT: %[[C:.*]] = et.delegate "Qnn" @p1 specs [#et.compile_spec<"g" = "x">]
// CHECK-NEXT: %[[D:.*]] = et.delegate "Qnn" #et.blob
// CHECK-NEXT: %[[E:.*]] = et.delegate "Qnn" #et.blob
// CHECK-NEXT: et.chain
// CHECK-NEXT: et.call_delegate %[[A]] ()
// CHECK-NEXT: et.call_delegate %[[A]] ()
// CHECK-NEXT: et.call_delegate %[[C]] ()
// CHECK-NEXT: et.call_delegate %[[D]] ()
// CHECK-NEXT: et.call_delegate %[[E]] ()
// CHECK-LABEL: et.method @other
// CHECK-NEXT: et.delegate "Qnn" @p0 specs [#et.compile_spec<"g" = "x">]
et.program @entries {
  et.blob @p0 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.blob @p1 align 1 = dense<[1, 2, 3, 4]> : tensor<4xi8>
  et.method @m {
    // expected-remark @below {{shares this delegate entry with an equal one, which is removed: the backend is initialized once for both}}
    %a = et.delegate "Qnn" @p0 specs [#et.compile_spec<"g" = "x">]
    %b = et.delegate "Qnn" @p0 specs [#et.compile_spec<"g" = "x">]
    %c = et.delegate "Qnn" @p1 specs [#et.compile_spec<"g" = "x">]
    %d = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"g" = "x">]
    %e = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 1> specs [#et.compile_spec<"g" = "x">]
    et.chain inputs() outputs() {
      et.call_delegate %a ()
      et.call_delegate %b ()
      et.call_delegate %c ()
      et.call_delegate %d ()
      et.call_delegate %e ()
    }
    et.signature inputs() outputs()
  }
  et.method @other {
    %a = et.delegate "Qnn" @p0 specs [#et.compile_spec<"g" = "x">]
    et.chain inputs() outputs() {
      et.call_delegate %a ()
    }
    et.signature inputs() outputs()
  }
}
