// RUN: not emit-opt %s 2>&1 | FileCheck %s

// A resource whose alignment word is not a power of two is rejected by the
// parser, at the resource, before any emit code sees it.
// CHECK: error: expected hex string blob for key 'bad'{{.*}}alignment
et.program @p {
  et.blob @b align 4 = dense_resource<bad> : tensor<2xi8>
}

{-#
  dialect_resources: {
    builtin: {
      bad: "0x030000000102"
    }
  }
#-}
