// The lesson's claims, held to the bank model (no GPU needed): what 512 bytes cost read as
// floats, float2s and float4s; for every pitch from 32 to 64 floats, whether the model finds a
// float2 or float4 column read aligned and at its ideal, against the banks each of its phases
// meets, counted here from the words (the rule behind the verdicts is the lesson's to find;
// its answers state it); the 32 x 32 tile written by 8-byte row stores and read by 4-byte
// columns, at every pitch; loads and stores of shared addresses, each against its ideal.
#include <gtest/gtest.h>

#include <utility>

#include <demo.hpp>

#include "kit/bank_model.hpp"
#include "kit/config.hpp"
#include "kit/trace.hpp"

namespace {

using kit::SharedOp;

// Wavefronts of `requests` requests of a pattern.
int cost(const kit::Pattern& p, int requests) {
  return requests * kit::wavefronts(p.access, p.op);
}

TEST(WideRules, FiveHundredTwelveBytesAtEachWidth) {
  // 512 bytes: 4 float requests, 2 float2 requests, 1 float4 request.
  const int bytes = 4 * kit::kWavefrontBytes;
  const int floats = cost(lesson07::float_stride_one_demo(), bytes / (32 * lesson07::kFloatBytes));
  EXPECT_EQ(cost(lesson07::float2_stride_one_demo(), bytes / (32 * lesson07::kFloat2Bytes)),
            floats);
  EXPECT_EQ(cost(lesson07::float4_stride_one_demo(), bytes / (32 * lesson07::kFloat4Bytes)),
            floats);
}

// Whether every phase of wide_column_demo<Vec, Pitch>() (kWarpSize / Vec lanes; lane l
// touches words Pitch l ... Pitch l + Vec - 1) meets each bank once, counted from the words
// without the model (a phase touches 32 words: Vec from each of its lanes).
template <int Vec, int Pitch>
bool every_phase_meets_every_bank_once() {
  constexpr int lanes_per_phase = kit::kWarpSize / Vec;
  for (int first = 0; first < kit::kWarpSize; first += lanes_per_phase) {
    bool met[kit::kNumBanks] = {};
    for (int lane = first; lane < first + lanes_per_phase; ++lane) {
      for (int i = 0; i < Vec; ++i) {
        const int bank = (Pitch * lane + i) % kit::kNumBanks; // word i of the lane's access
        if (met[bank]) {
          return false;
        }
        met[bank] = true;
      }
    }
  }
  return true;
}

// The model's verdict on one pitch: aligned exactly when a row starts on a Vec-float boundary;
// then at its ideal exactly when every phase meets every bank once.
template <int Vec, int Pitch>
void expect_pitch_verdict() {
  const kit::BankReport r = kit::analyze(lesson07::wide_column_demo<Vec, Pitch>().access);
  const bool aligned = Pitch % Vec == 0;
  EXPECT_EQ(r.ok(), aligned) << "float" << Vec << ", pitch " << Pitch;
  if (aligned) {
    EXPECT_EQ(r.wavefronts == r.ideal, (every_phase_meets_every_bank_once<Vec, Pitch>()))
        << "float" << Vec << ", pitch " << Pitch << ": " << r.wavefronts << " wavefronts";
  }
}

template <int Vec, int... Pitches>
void expect_pitch_verdicts(std::integer_sequence<int, Pitches...>) {
  (expect_pitch_verdict<Vec, 32 + Pitches>(), ...);
}

TEST(WideRules, PitchesOfWideColumnReads) {
  expect_pitch_verdicts<2>(std::make_integer_sequence<int, 33>{}); // pitches 32 ... 64
  expect_pitch_verdicts<4>(std::make_integer_sequence<int, 33>{});
}

template <int Pitch>
bool limit_tile_served() {
  const kit::BankReport store =
      kit::analyze(lesson07::limit_row_store_demo<Pitch>().access, SharedOp::store);
  if (!store.ok() || store.wavefronts != store.ideal) {
    return false;
  }
  for (int c = 0; c < kit::kWarpSize; ++c) {
    if (kit::wavefronts(lesson07::limit_column_read_demo<Pitch>(c).access) != 1) {
      return false;
    }
  }
  return true;
}

template <int... Pitches>
int pitches_serving_the_limit_tile(std::integer_sequence<int, Pitches...>) {
  return (0 + ... + (limit_tile_served<32 + Pitches>() ? 1 : 0));
}

TEST(WideRules, NoPaddingServesRowStoresOfFloat2AndColumnReads) {
  // Pitch 33: the column reads as the model prices them, the row stores misaligned.
  EXPECT_EQ(kit::wavefronts(lesson07::limit_column_read_demo<33>().access), 1);
  EXPECT_EQ(kit::analyze(lesson07::limit_row_store_demo<33>().access, SharedOp::store).error,
            kit::ModelError::misaligned);
  // Pitch 34: the row stores at their ideal, the column reads as the model prices them.
  const kit::BankReport store =
      kit::analyze(lesson07::limit_row_store_demo<34>().access, SharedOp::store);
  EXPECT_EQ(store.wavefronts, store.ideal);
  EXPECT_EQ(kit::wavefronts(lesson07::limit_column_read_demo<34>().access), 2);
  // No pitch from 32 to 64 serves both.
  EXPECT_EQ(pitches_serving_the_limit_tile(std::make_integer_sequence<int, 33>{}), 0);
}

TEST(WideRules, SharedAddressesLoadedAndStored) {
  for (const kit::Pattern& p : {lesson07::float2_broadcast_demo(),
                                lesson07::float4_broadcast_demo(), lesson07::float4_pairs_demo()}) {
    const kit::BankReport r = kit::analyze(p.access, p.op);
    EXPECT_TRUE(r.paired || r.uniform) << p.name;
    EXPECT_EQ(r.wavefronts, r.ideal) << p.name;
  }
  for (const kit::Pattern& p : {lesson07::float2_broadcast_demo(SharedOp::store),
                                lesson07::float4_broadcast_demo(SharedOp::store),
                                lesson07::float4_pairs_demo(SharedOp::store)}) {
    const kit::BankReport r = kit::analyze(p.access, p.op);
    EXPECT_EQ(r.wavefronts, r.ideal) << p.name;
    EXPECT_EQ(r.ideal, kit::ideal_wavefronts(p.access.width)) << p.name << ": stores never merge";
  }
}

} // namespace
