// Methods whose names are no C identifiers and read alike as one, one
// without planned memory.
et.program @second {
  et.method @"odd */name\22" {
    et.chain inputs() outputs() {
    }
    et.signature inputs() outputs()
  }
  et.method @"odd_*/name_" buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    et.chain inputs() outputs() {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
