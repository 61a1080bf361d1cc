/// @file bank_model.hpp
/// @brief The CPU model of one shared-memory request: lanes in, wavefronts out.
///
/// The rules (measured with hardware counters on sm_90, see the course's HARDWARE notes):
///
/// 1. Accesses of 1, 2 or 4 bytes: the whole warp is one phase. The phase costs the largest
///    number of *distinct 32-bit words* that any one bank is asked for (at least 1). Lanes that
///    read the same word share it (broadcast); lanes that store to the same word cost one
///    wavefront and one of them wins.
/// 2. 8-byte accesses: two phases, lanes 0-15 and 16-31, each costed as in rule 1 over every
///    word its lanes touch, then summed (ideal 2). When every lane has the same address as its
///    neighbour lane^1 (a broadcast, for one), the warp is a single phase.
/// 3. 16-byte accesses: four phases of 8 lanes, summed (ideal 4). When every lane has the same
///    address as lane^1, the phases are half-warps instead (a broadcast costs 2).
/// 4. Stores follow the same rules as loads.
///
/// Inactive lanes (a partial warp, a branch) take no part; a phase with no active lane costs
/// nothing. An address that is not a multiple of the access width is an error, as on the GPU
/// (a misaligned shared access faults).
///
/// Everything is `constexpr` and host/device: it runs in `static_assert`s, CPU tests and kernels.
#pragma once

#include <cstdint>

#include "kit/config.hpp"

namespace kit {

/// Why a request could not be modelled.
enum class ModelError : std::uint8_t {
  none,       ///< The request is valid.
  bad_width,  ///< The width is not 1, 2, 4, 8 or 16 bytes.
  misaligned, ///< An active lane's address is not a multiple of the width.
};

/// A short text for a ModelError, for messages.
KIT_HD constexpr const char* to_string(ModelError e) {
  switch (e) {
  case ModelError::none:
    return "none";
  case ModelError::bad_width:
    return "width must be 1, 2, 4, 8 or 16 bytes";
  case ModelError::misaligned:
    return "address is not a multiple of the access width";
  }
  return "unknown";
}

/// True for the access widths a shared-memory instruction can have.
KIT_HD constexpr bool is_valid_width(int width) {
  return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

/// One warp-wide shared-memory instruction: each lane's byte address, which lanes take part,
/// and how many bytes each lane moves. Addresses may be offsets from any base that is a
/// multiple of 128 bytes (the bank pattern repeats every 128 bytes).
struct WarpAccess {
  std::uint32_t address[kWarpSize] = {}; ///< Byte address (or offset) of each lane.
  std::uint32_t mask = kFullMask;        ///< Bit l set: lane l is active.
  int width = 4;                         ///< Bytes per lane: 1, 2, 4, 8 or 16.

  /// True when lane `lane` takes part in the request.
  KIT_HD constexpr bool active(int lane) const { return ((mask >> lane) & 1u) != 0; }
};

/// Lane l accesses `base + l * stride_elems * elem_bytes`: the classic stride experiment.
KIT_HD constexpr WarpAccess strided_access(int elem_bytes, std::uint32_t stride_elems,
                                           std::uint32_t base = 0,
                                           std::uint32_t mask = kFullMask) {
  WarpAccess a;
  a.width = elem_bytes;
  a.mask = mask;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    a.address[lane] = base + static_cast<std::uint32_t>(lane) * stride_elems *
                                 static_cast<std::uint32_t>(elem_bytes);
  }
  return a;
}

/// What the model says about one lane of a request.
struct LaneDetail {
  bool active = false;     ///< Whether the lane took part.
  int phase = -1;          ///< The phase that serves the lane (-1 when inactive).
  int bank = -1;           ///< Bank of the lane's first word.
  std::uint32_t word = 0;  ///< First 32-bit word the lane touches.
  int words = 0;           ///< Words touched: 1 for widths up to 4 bytes, 2 for 8, 4 for 16.
  int wavefront = -1;      ///< 0-based wavefront (over the whole request) that completes it.
};

/// The model's verdict on one request.
struct BankReport {
  ModelError error = ModelError::none; ///< ModelError::none when the request is valid.
  int error_lane = -1;                 ///< The first offending lane, for ModelError::misaligned.
  int width = 0;                       ///< Bytes per lane.
  int wavefronts = 0;                  ///< Passes through the shared-memory pipeline.
  int ideal = 0;                       ///< The fewest wavefronts this width needs for these lanes.
  int phases = 0;                      ///< Phases the warp was split into.
  int lanes_per_phase = 0;             ///< Lanes in each phase.
  bool paired = false;                 ///< The lane^1 rule merged phases (8- and 16-byte only).
  int phase_wavefronts[4] = {};        ///< Cost of each phase.
  LaneDetail lanes[kWarpSize] = {};    ///< Per-lane detail, for drawing bank maps.

  /// True when the request is valid.
  KIT_HD constexpr bool ok() const { return error == ModelError::none; }
  /// Wavefronts beyond the ideal: what the bank-conflict counters report for this request.
  KIT_HD constexpr int excess() const { return wavefronts > ideal ? wavefronts - ideal : 0; }
};

namespace detail {

/// Words a lane touches for a width (a 1- or 2-byte access stays inside one word).
KIT_HD constexpr int words_per_lane(int width) { return width <= kBankBytes ? 1 : width / kBankBytes; }

/// Lanes per phase before the lane^1 rule: 32 for widths up to 4, 16 for 8, 8 for 16.
KIT_HD constexpr int base_lanes_per_phase(int width) {
  return width <= kBankBytes ? kWarpSize : kWarpSize * kBankBytes / width;
}

/// The lane^1 rule: every active lane shares its address with an active neighbour lane^1.
KIT_HD constexpr bool lanes_paired(const WarpAccess& a) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int partner = lane ^ 1;
    if (a.active(lane) != a.active(partner)) {
      return false;
    }
    if (a.active(lane) && a.address[lane] != a.address[partner]) {
      return false;
    }
  }
  return true;
}

} // namespace detail

/// Models one warp-wide shared-memory instruction (a load or a store: the rules are the same).
KIT_HD constexpr BankReport analyze(const WarpAccess& a) {
  BankReport r;
  r.width = a.width;
  if (!is_valid_width(a.width)) {
    r.error = ModelError::bad_width;
    return r;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (a.active(lane) && a.address[lane] % static_cast<std::uint32_t>(a.width) != 0) {
      r.error = ModelError::misaligned;
      r.error_lane = lane;
      return r;
    }
  }

  const int words = detail::words_per_lane(a.width);
  const int base_lanes = detail::base_lanes_per_phase(a.width);
  r.paired = a.width > kBankBytes && a.mask != 0 && detail::lanes_paired(a);
  r.lanes_per_phase = r.paired ? 2 * base_lanes : base_lanes;
  r.phases = kWarpSize / r.lanes_per_phase;

  // The ideal: one wavefront per phase of the plain split that has an active lane.
  for (int first = 0; first < kWarpSize; first += base_lanes) {
    bool any = false;
    for (int lane = first; lane < first + base_lanes; ++lane) {
      any = any || a.active(lane);
    }
    r.ideal += any ? 1 : 0;
  }

  int done = 0; // wavefronts spent by earlier phases
  for (int phase = 0; phase < r.phases; ++phase) {
    // Distinct words asked of each bank, in order of first request: the k-th distinct word
    // of a bank is served in the phase's k-th wavefront.
    constexpr int kMaxWords = 2 * kWarpSize;
    std::uint32_t seen_word[kMaxWords] = {};
    int seen_rank[kMaxWords] = {};
    int seen = 0;
    int per_bank[kNumBanks] = {};
    int cost = 0;
    for (int lane = phase * r.lanes_per_phase; lane < (phase + 1) * r.lanes_per_phase; ++lane) {
      LaneDetail& d = r.lanes[lane];
      if (!a.active(lane)) {
        continue;
      }
      d.active = true;
      d.phase = phase;
      d.word = word_of(a.address[lane]);
      d.bank = bank_of(a.address[lane]);
      d.words = words;
      int last_rank = 0;
      for (int k = 0; k < words; ++k) {
        const std::uint32_t w = d.word + static_cast<std::uint32_t>(k);
        int rank = -1;
        for (int s = 0; s < seen; ++s) {
          if (seen_word[s] == w) {
            rank = seen_rank[s];
          }
        }
        if (rank < 0) {
          const int b = static_cast<int>(w % kNumBanks);
          rank = per_bank[b]++;
          seen_word[seen] = w;
          seen_rank[seen] = rank;
          ++seen;
        }
        last_rank = rank > last_rank ? rank : last_rank;
        cost = rank + 1 > cost ? rank + 1 : cost;
      }
      d.wavefront = done + last_rank;
    }
    r.phase_wavefronts[phase] = cost;
    done += cost;
  }
  r.wavefronts = done;
  return r;
}

/// Wavefronts of one request (0 for an invalid one: check analyze(a).ok() first).
KIT_HD constexpr int wavefronts(const WarpAccess& a) {
  const BankReport r = analyze(a);
  return r.ok() ? r.wavefronts : 0;
}

/// The width's ideal for a full warp: 1 up to 4 bytes, 2 for 8 bytes, 4 for 16 bytes.
KIT_HD constexpr int ideal_wavefronts(int width) {
  return width <= kBankBytes ? 1 : width / kBankBytes;
}

} // namespace kit
