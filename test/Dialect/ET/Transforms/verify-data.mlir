// RUN: emit-opt %s --split-input-file --et-verify-data --verify-diagnostics | FileCheck %s

// A program and the data files it loads with, as the runtime checks them
// at load: every finding is located, the IR is unchanged.

// CHECK-LABEL: et.program @fits
et.program @fits {
  et.blob @own align 1 = dense<1> : tensor<4xi8>
  et.named_data "own_key" = @own
  et.method @m {
    %0 = et.tensor float [2, 2] dim_order [0, 1] info #et.tensor_info<fqn = "linear.weight", location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
et.data_file @weights {
  et.blob @w align 16 = dense<0> : tensor<16xi8>
  et.named_data "linear.weight" = @w layout #et.tensor_layout<float [2, 2] dim_order [0, 1]>
}

// -----

et.program @missing {
  et.method @m {
    // expected-error @below {{finds its data under 'linear.bias', which none of the data files (@a, @b) has}}
    %0 = et.tensor float [2] dim_order [0] info #et.tensor_info<fqn = "linear.bias", location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
et.data_file @a {
}
et.data_file @b {
}

// -----

et.program @no_name {
  et.method @m {
    // expected-error @below {{has an external location but no fully qualified name to find its data by}}
    %0 = et.tensor float [2] dim_order [0] info #et.tensor_info<location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
et.data_file @a {
}

// -----

et.data_file @a {
  et.blob @w align 1 = dense<0> : tensor<4xi8>
  // expected-note @below {{first here}}
  et.named_data "w" = @w
}
et.data_file @b {
  et.blob @w align 1 = dense<0> : tensor<4xi8>
  // expected-error @below {{key 'w' is also in data file @a; the runtime refuses to load a program with both}}
  et.named_data "w" = @w
}

// -----

et.program @other_layout {
  et.method @m {
    // expected-error @below {{finds its data under 'w' in data file @a, stored as #et.tensor_layout<float [4] dim_order [0]>, which differs from the tensor's element type, sizes or dim order; the runtime refuses it}}
    %0 = et.tensor float [2, 2] dim_order [0, 1] info #et.tensor_info<fqn = "w", location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
et.data_file @a {
  et.blob @w align 1 = dense<0> : tensor<16xi8>
  // expected-note @below {{stored here}}
  et.named_data "w" = @w layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

et.program @no_layout {
  et.method @m {
    // expected-error @below {{finds its data under 'w' in data file @a, which stores it without a tensor layout; the runtime needs one to load the tensor}}
    %0 = et.tensor float [4] dim_order [0] info #et.tensor_info<fqn = "w", location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
et.data_file @a {
  et.blob @w align 1 = dense<0> : tensor<16xi8>
  // expected-note @below {{stored here}}
  et.named_data "w" = @w
}

// -----

et.program @short {
  et.method @m {
    // expected-error @below {{needs 16 bytes, but 'w' in data file @a holds 8; the runtime would read past them}}
    %0 = et.tensor float [4] dim_order [0] info #et.tensor_info<fqn = "w", location = external>
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
}
et.data_file @a {
  et.blob @w align 1 = dense<0> : tensor<8xi8>
  // expected-note @below {{stored here}}
  et.named_data "w" = @w layout #et.tensor_layout<float [4] dim_order [0]>
}

// -----

// A key of the program that a data file also has is no error for the
// runtime: the data file's bytes win, silently.
et.program @shadowed {
  et.blob @own align 1 = dense<1> : tensor<4xi8>
  // expected-warning @below {{key 'w' is also in data file @a, whose bytes backends get instead of these}}
  et.named_data "w" = @own
}
et.data_file @a {
  et.blob @w align 1 = dense<0> : tensor<4xi8>
  // expected-note @below {{the data file's entry}}
  et.named_data "w" = @w
}
