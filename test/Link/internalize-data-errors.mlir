// RUN: emit-opt %s --split-input-file --et-internalize-data --verify-diagnostics

// expected-error @below {{et-internalize-data moves data files into one program; the module holds 2}}
module {
  et.program @a {
  }
  et.program @b {
  }
}

// -----

et.program @missing {
  et.method @forward buffers [0, 16] {
    // expected-error @below {{finds its data under 'w', which none of the data files holds}}
    %0 = et.tensor float [4] dim_order [0] info #et.tensor_info<fqn = "w", location = external>
    %2 = et.tensor float [2] dim_order [0] mem(1, 0)
    et.chain inputs(%2) outputs(%2) {
    }
    et.signature inputs(%2) outputs(%2)
  }
}
et.data_file @weights {
}
