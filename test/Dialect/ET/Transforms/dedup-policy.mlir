// One program, each policy option against the default (merge everything
// equal, program-wide).
// RUN: emit-opt %s --dedup-delegate-blobs | FileCheck %s --check-prefix=DEFAULT
// RUN: emit-opt %s --dedup-delegate-blobs='scope=method' | FileCheck %s --check-prefix=METHOD
// RUN: emit-opt %s --dedup-delegate-blobs='same-backend=true' | FileCheck %s --check-prefix=BACKEND
// RUN: emit-opt %s --dedup-delegate-blobs='min-size=8' | FileCheck %s --check-prefix=MINSIZE
// RUN: emit-opt %s --dedup-delegate-blobs='dry-run=true' | FileCheck %s --check-prefix=UNCHANGED

// Four calls: A and B in @first, C in @second, all with payload P (8 bytes);
// D in @second with payload Q (4 bytes) twice.

// DEFAULT-LABEL: et.program @policy
// DEFAULT-NEXT: et.blob @[[P:payload_0]] align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// DEFAULT-NEXT: et.method @first
// DEFAULT: et.delegate "Qnn" @[[P]]
// DEFAULT-NEXT: et.delegate "Xnn" @[[P]]
// DEFAULT: et.blob @[[Q:payload_3]] align 1 = dense<[9, 8, 7, 6]>
// DEFAULT-NEXT: et.method @second
// DEFAULT: et.delegate "Qnn" @[[P]]
// DEFAULT-NEXT: et.delegate "Qnn" @[[Q]]
// DEFAULT-NEXT: et.delegate "Qnn" @[[Q]]

// Per method: @second gets its own copy of P.
// METHOD: et.blob @[[P1:payload_0]] align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// METHOD: et.delegate "Qnn" @[[P1]]
// METHOD-NEXT: et.delegate "Xnn" @[[P1]]
// METHOD: et.blob @[[P2:payload_2]] align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// METHOD: et.method @second
// METHOD: et.delegate "Qnn" @[[P2]]

// Same backend only: the Xnn call keeps its own copy of P.
// BACKEND: et.blob @[[QP:payload_0]] align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// BACKEND-NEXT: et.blob @[[XP:payload_1]] align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// BACKEND: et.delegate "Qnn" @[[QP]]
// BACKEND-NEXT: et.delegate "Xnn" @[[XP]]
// BACKEND: et.delegate "Qnn" @[[QP]]

// Payloads under 8 bytes stay inline and unmerged.
// MINSIZE: et.blob @[[P:payload_0]] align 1 = dense<[1, 2, 3, 4, 5, 6, 7, 8]>
// MINSIZE-NOT: et.blob
// MINSIZE: et.delegate "Qnn" @[[P]]
// MINSIZE: et.delegate "Qnn" #et.blob<dense<[9, 8, 7, 6]> : tensor<4xi8>, align 1>
// MINSIZE-NEXT: et.delegate "Qnn" #et.blob<dense<[9, 8, 7, 6]> : tensor<4xi8>, align 1>

// A dry run changes nothing.
// UNCHANGED-NOT: et.blob
// UNCHANGED: et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>

et.program @policy {
  et.method @first {
    %d0 = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    %d1 = et.delegate "Xnn" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
    }
    et.signature inputs() outputs()
  }
  et.method @second {
    %d0 = et.delegate "Qnn" #et.blob<dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi8>, align 1>
    %d1 = et.delegate "Qnn" #et.blob<dense<[9, 8, 7, 6]> : tensor<4xi8>, align 1>
    %d2 = et.delegate "Qnn" #et.blob<dense<[9, 8, 7, 6]> : tensor<4xi8>, align 1>
    et.chain inputs() outputs() {
      et.call_delegate %d0 ()
      et.call_delegate %d1 ()
      et.call_delegate %d2 ()
    }
    et.signature inputs() outputs()
  }
}
