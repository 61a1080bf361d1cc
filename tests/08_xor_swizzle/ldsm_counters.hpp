// ldmatrix requests held to the model by the ldmatrix counters (GPU tests only): a fixture with
// a profiler session of the ldmatrix metrics, and the traces of the lesson's ldmatrix kernels.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include <demo.hpp>
#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/device.hpp"
#include "kit/ldmatrix.hpp"
#include "kit/ldsm_counters.hpp"
#include "kit/testing.hpp"
#include "kit/trace.hpp"

namespace lesson08::testing {

/// Requests and wavefronts of ldmatrix, what the model expects.
struct LdsmCounts {
  std::uint64_t requests = 0;   ///< ldmatrix instructions (warp-wide).
  std::uint64_t wavefronts = 0; ///< Wavefronts they take.
};

/// The ldmatrix requests of the microbenchmark running `p`.
inline LdsmCounts bench_counts(const kit::LdsmPattern& p) {
  const std::uint64_t n = static_cast<std::uint64_t>(kLdsmBenchBlocks) * kLdsmBenchRounds;
  return {n, n * static_cast<std::uint64_t>(kit::ldsm_wavefronts(p.access))};
}

/// The ldmatrix requests of load_fragments_tiled<Tile> over `tiles` tiles.
template <class Tile>
LdsmCounts fragment_counts(int tiles) {
  LdsmCounts c;
  for (int step = 0; step < kFragmentSteps; ++step) {
    const kit::LdsmPattern p = ldsm_demo<Tile>("fragment", 4, step);
    c.requests += static_cast<std::uint64_t>(tiles);
    c.wavefronts += static_cast<std::uint64_t>(tiles) * kit::ldsm_wavefronts(p.access);
  }
  return c;
}

/// The 16-byte stores of load_fragments_tiled<Tile> over `tiles` tiles (the shared-memory
/// session sees these; it does not count ldmatrix).
template <class Tile>
kit::Trace fragment_store_trace(int tiles) {
  static_assert(holds_the_fragment_tile<Tile>());
  kit::Trace t;
  for (int i = 0; i < kChunkStores; ++i) {
    t.add(kit::SharedOp::store,
          kit::warp_access(
              Tile{}, [&](int lane) { return chunk_coord(i, lane); }, kChunkHalves),
          static_cast<std::uint64_t>(tiles), "chunk store");
  }
  return t;
}

/// Zeroed input and an output for load_fragments over kTiles tiles (four waves of blocks of
/// one warp on a 132-SM GPU).
struct FragmentBuffers {
  static constexpr int kTiles = 132 * 4; ///< Tiles loaded.
  kit::DeviceBuffer<__half> in{static_cast<std::size_t>(kTiles) * kFragmentRows *
                               kFragmentCols}; ///< The tiles, zeros.
  kit::DeviceBuffer<unsigned> out{static_cast<std::size_t>(kTiles) * kFragmentSteps * 4 *
                                  kit::kWarpSize}; ///< Every lane's registers.
  FragmentBuffers() { in.fill_bytes(0); }
};

/// One session of the ldmatrix metrics per test; skips with the reason when the counters
/// cannot be read, or where the ldmatrix rule was not measured (it was read on sm_90).
class LdsmCounterTest : public ::testing::Test {
protected:
  void SetUp() override {
    KIT_REQUIRE_GPU();
    if (const auto why = kit::testing::ldmatrix_rule_refusal()) {
      GTEST_SKIP() << *why;
    }
    session_ = std::make_unique<kit::LdsmSession>();
    if (!session_->ok()) {
      GTEST_SKIP() << session_->refusal();
    }
  }

  /// Measures `launch` and expects its ldmatrix requests and wavefronts to equal `expected`;
  /// prints `[kit-counters] <what>: ldsm <w> wavefronts/request (model <m>) ...`.
  kit::LdsmCounters expect_ldsm(const std::string& what, const LdsmCounts& expected,
                                const std::function<void()>& launch) {
    const kit::LdsmCounters c = session_->measure(launch);
    std::printf(
        "[kit-counters] %s: ldsm %.2f wavefronts/request (model %.2f), %llu requests "
        "(model %llu), bank conflicts %llu\n",
        what.c_str(),
        c.requests ? static_cast<double>(c.wavefronts) / static_cast<double>(c.requests) : 0.0,
        expected.requests
            ? static_cast<double>(expected.wavefronts) / static_cast<double>(expected.requests)
            : 0.0,
        static_cast<unsigned long long>(c.requests),
        static_cast<unsigned long long>(expected.requests),
        static_cast<unsigned long long>(c.bank_conflicts));
    EXPECT_EQ(c.requests, expected.requests) << what << ": ldmatrix requests";
    EXPECT_EQ(c.wavefronts, expected.wavefronts) << what << ": ldmatrix wavefronts";
    return c;
  }

private:
  std::unique_ptr<kit::LdsmSession> session_;
};

} // namespace lesson08::testing
