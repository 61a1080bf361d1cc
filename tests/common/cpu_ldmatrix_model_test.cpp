// The ldmatrix model (kit/ldmatrix.hpp): one phase per matrix, no merges, and the readings of
// the H100's counters that it reproduces (lesson 08's LdsmCounters tests take them again).
#include <gtest/gtest.h>

#include <cstdint>

#include "kit/bank_model.hpp"
#include "kit/ldmatrix.hpp"

namespace {

/// Wavefronts of an ldmatrix of `matrices` matrices whose lane l gives row byte `row(l)`.
template <class Fn>
int ldsm(int matrices, Fn row) {
  return kit::ldsm_wavefronts(kit::ldsm_address_pattern("p", row, matrices).access);
}

TEST(LdmatrixModel, MasksAndIdeal) {
  EXPECT_EQ(kit::ldsm_mask(1), 0xffu);
  EXPECT_EQ(kit::ldsm_mask(2), 0xffffu);
  EXPECT_EQ(kit::ldsm_mask(4), kit::kFullMask);
  for (int n : {1, 2, 4}) {
    const kit::BankReport r = kit::analyze_ldsm(kit::ldsm_address_pattern(
                                                    "p", [](int l) { return 16 * l; }, n)
                                                    .access);
    EXPECT_EQ(r.ideal, n);
    EXPECT_EQ(r.wavefronts, n);
    EXPECT_EQ(r.op, kit::SharedOp::load);
  }
}

TEST(LdmatrixModel, WhatTheH100Read) {
  // Per request, x2 and x4 (from 4 warps of one request each: 8/16, 64/128, ... wavefronts).
  for (int n : {2, 4}) {
    EXPECT_EQ(ldsm(n, [](int l) { return 16 * l; }), n);                 // rows 16 bytes apart
    EXPECT_EQ(ldsm(n, [](int l) { return 128 * l; }), 8 * n);            // rows 128 bytes apart
    EXPECT_EQ(ldsm(n, [](int l) { return 64 * l; }), 4 * n);             // rows 64 bytes apart
    EXPECT_EQ(ldsm(n, [](int l) { return 32 * l; }), 2 * n);             // rows 32 bytes apart
    EXPECT_EQ(ldsm(n, [](int l) { return 144 * l; }), n);                // rows 144 bytes apart
    EXPECT_EQ(ldsm(n, [](int l) { return 16 * (l / 2); }), n);           // lanes l, l^1 on one row
    EXPECT_EQ(ldsm(n, [](int) { return 0; }), n);                        // every lane on one row
    EXPECT_EQ(ldsm(n, [](int l) { return 128 * (l / 2); }), 4 * n);      // pairs, 128 bytes apart
    EXPECT_EQ(ldsm(n, [](int l) { return 128 * l + 16 * (l % 8); }), n); // Swizzle<3,3,3> rows
  }
}

TEST(LdmatrixModel, NoMergeUnlikeA16ByteLoad) {
  // The same lanes as one 16-byte load: lane pairs on one row merge into half-warp phases
  // there (2 wavefronts), not in an ldmatrix (4).
  const kit::LdsmPattern p = kit::ldsm_address_pattern("pairs", [](int l) { return 16 * (l / 2); });
  EXPECT_EQ(kit::wavefronts(p.access, kit::SharedOp::load), 2);
  EXPECT_EQ(kit::ldsm_wavefronts(p.access), 4);
}

TEST(LdmatrixModel, MisalignedRowIsAnError) {
  const kit::LdsmPattern p = kit::ldsm_address_pattern("odd", [](int l) { return 16 * l + 8; });
  EXPECT_EQ(kit::analyze_ldsm(p.access).error, kit::ModelError::misaligned);
  EXPECT_EQ(kit::ldsm_wavefronts(p.access), 0);
}

} // namespace
