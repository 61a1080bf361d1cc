/// @file bank_model.hpp
/// @brief The CPU model of one shared-memory request: lanes in, wavefronts out.
///
/// The rules, read from the hardware counters of sm_90 (H100 and H200), loads and stores:
///
/// 1. Accesses of 1, 2 or 4 bytes: the whole warp is one phase. A phase costs the largest
///    number of *distinct 32-bit words* that any one bank is asked for (at least 1). Lanes that
///    read the same word share it (broadcast); lanes that store to the same word cost one
///    wavefront and one of them wins.
/// 2. 8-byte accesses: two phases, lanes 0-15 and 16-31, each costed as in rule 1 over every
///    word its lanes touch, then summed (ideal 2). Loads only: the two half-warps share one
///    wavefront when both have active lanes, together they ask no bank for two distinct words,
///    and the active lanes *pack*: every active lane whose partner lane l^1 is active reads the
///    partner's address, or every one whose partner lane l^2 is active does (a lane whose
///    partner is idle packs alone). A broadcast packs; stride 1 does not.
/// 3. 16-byte accesses: four phases of 8 lanes (quarters), summed (ideal 4). Loads only: when
///    every active lane reads one address, the request costs one wavefront per 16 active
///    lanes. Otherwise a half-warp's two quarters share one wavefront when both have active
///    lanes, the half asks no bank for two distinct words, and: for lanes 16-31, the half's
///    active lanes pack (as in rule 2); for lanes 0-15, always while lane 31 is idle, and with
///    lane 31 active only when every active lane of the half has its partner l^1 active on the
///    same address, or every one has its partner l^2 so. Quarters of different half-warps
///    never share a wavefront.
/// 4. Stores follow rules 1 to 3 without the load-only merges.
/// 5. ldmatrix (SASS LDSM, kit/ldmatrix.hpp): one phase per 8 x 8 matrix, lanes 8 i to
///    8 i + 7 giving its 16-byte rows, each costed as in rule 1, then summed (ideal: the number
///    of matrices, 1, 2 or 4). No merges: lane pairs, half-warps or the whole warp on one row
///    still cost one wavefront per matrix. Its counters are the `_op_ldsm` metrics; the
///    `smsp__sass_..._op_shared_ld` ones do not count it (measured on an H100, sm_90).
///
/// Inactive lanes (a partial warp, a branch) take no part; a phase with no active lane costs
/// nothing. A request's ideal is the fewest wavefronts its active lanes could take: one per
/// phase left after the merges their mask and sharing allow were they conflict-free (lanes 0
/// and 8 of a 16-byte load: 1). For the full-warp loads of the course's measurements the load
/// bank-conflict counter reads the wavefronts beyond it; for a partial wide load it subtracts
/// an ideal of its own. An address that is not a multiple of the access width is an error, as
/// on the GPU (a misaligned shared access faults).
///
/// Rules 2 and 3 were fitted on 33,048 single-instruction patterns measured with the counters
/// of an H100 and agree with every one, and with 20,000 fresh random draws measured after
/// (`bank-probe`; docs/measurements.md, "Masked and partial wide loads").
///
/// Everything is `constexpr` and host/device: it runs in `static_assert`s, CPU tests and kernels.
#pragma once

#include <cstdint>

#include "kit/config.hpp"

namespace kit {

/// Whether a shared-memory instruction reads or writes.
enum class SharedOp { load, store };

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
                                           std::uint32_t base = 0, std::uint32_t mask = kFullMask) {
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
  bool active = false;    ///< Whether the lane took part.
  int phase = -1;         ///< The phase that serves the lane (-1 when inactive).
  int bank = -1;          ///< Bank of the lane's first word.
  std::uint32_t word = 0; ///< First 32-bit word the lane touches.
  int words = 0;          ///< Words touched: 1 for widths up to 4 bytes, 2 for 8, 4 for 16.
  int wavefront = -1;     ///< 0-based wavefront (over the whole request) that completes it.
};

/// The model's verdict on one request.
struct BankReport {
  ModelError error = ModelError::none; ///< ModelError::none when the request is valid.
  int error_lane = -1;                 ///< The first offending lane, for ModelError::misaligned.
  int width = 0;                       ///< Bytes per lane.
  int wavefronts = 0;                  ///< Passes through the shared-memory pipeline.
  int ideal = 0;                       ///< One wavefront per phase left after the merges.
  SharedOp op = SharedOp::load;        ///< Load or store (the merges of rules 2-3 are loads only).
  int phases = 0;                      ///< Phases with active lanes, each costed on its own.
  bool paired = false;                 ///< Phases shared a wavefront (8- and 16-byte loads).
  bool uniform = false;                ///< The one-address rule of 16-byte loads applied.
  int phase_wavefronts[4] = {};        ///< Cost of each phase, in lane order.
  LaneDetail lanes[kWarpSize] = {};    ///< Per-lane detail, for drawing bank maps.

  /// True when the request is valid.
  KIT_HD constexpr bool ok() const { return error == ModelError::none; }
  /// Wavefronts beyond the ideal: what the bank-conflict counters report for this request.
  KIT_HD constexpr int excess() const { return wavefronts > ideal ? wavefronts - ideal : 0; }
};

namespace detail {

/// Words a lane touches for a width (a 1- or 2-byte access stays inside one word).
KIT_HD constexpr int words_per_lane(int width) {
  return width <= kBankBytes ? 1 : width / kBankBytes;
}

/// Lanes per phase of the plain split: 32 for widths up to 4, 16 for 8, 8 for 16.
KIT_HD constexpr int base_lanes_per_phase(int width) {
  return width <= kBankBytes ? kWarpSize : kWarpSize * kBankBytes / width;
}

/// The lanes `l0 <= l < l0 + n`, as a mask.
KIT_HD constexpr std::uint32_t lane_range(int l0, int n) {
  return n >= kWarpSize ? kFullMask : ((1u << n) - 1u) << l0;
}

/// Some lane of `lanes` is active.
KIT_HD constexpr bool any_active(const WarpAccess& a, std::uint32_t lanes) {
  return (a.mask & lanes) != 0;
}

/// Every active lane of `lanes` whose partner lane ^ x is active (and in `lanes`) reads the
/// partner's address: the lanes pack in pairs (a lone lane packs with its idle partner).
KIT_HD constexpr bool partners_share(const WarpAccess& a, std::uint32_t lanes, int x) {
  const std::uint32_t on = a.mask & lanes;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int p = lane ^ x;
    if (((on >> lane) & 1u) && ((on >> p) & 1u) && a.address[lane] != a.address[p]) {
      return false;
    }
  }
  return true;
}

/// The active lanes of `lanes` pack: in pairs (l, l^1) that share an address, or in pairs
/// (l, l^2) that do.
KIT_HD constexpr bool packs(const WarpAccess& a, std::uint32_t lanes) {
  return partners_share(a, lanes, 1) || partners_share(a, lanes, 2);
}

/// Every active lane of `lanes` has its partner lane ^ x active, on the same address.
KIT_HD constexpr bool strictly_paired(const WarpAccess& a, std::uint32_t lanes, int x) {
  const std::uint32_t on = a.mask & lanes;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (((on >> lane) & 1u) &&
        (((on >> (lane ^ x)) & 1u) == 0 || a.address[lane] != a.address[lane ^ x])) {
      return false;
    }
  }
  return true;
}

/// The active lanes of `lanes` ask no bank for two distinct words.
KIT_HD constexpr bool conflict_free(const WarpAccess& a, std::uint32_t lanes) {
  std::uint32_t word_of_bank[kNumBanks] = {};
  bool used[kNumBanks] = {};
  const int words = words_per_lane(a.width);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (((lanes >> lane) & 1u) == 0 || !a.active(lane)) {
      continue;
    }
    for (int k = 0; k < words; ++k) {
      const std::uint32_t w = word_of(a.address[lane]) + static_cast<std::uint32_t>(k);
      const int b = static_cast<int>(w % kNumBanks);
      if (used[b] && word_of_bank[b] != w) {
        return false;
      }
      used[b] = true;
      word_of_bank[b] = w;
    }
  }
  return true;
}

/// Every active lane has the same address (and at least one lane is active).
KIT_HD constexpr bool one_address(const WarpAccess& a) {
  int first = -1;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (a.active(lane)) {
      if (first < 0) {
        first = lane;
      } else if (a.address[lane] != a.address[first]) {
        return false;
      }
    }
  }
  return first >= 0;
}

/// 16-byte loads: whether a half-warp's two quarters may share a wavefront (what the mask
/// and the lanes' sharing allow; the shared wavefront also needs the half conflict-free).
/// Half 1: its active lanes pack. Half 0: always, unless lane 31 is active; then only when
/// its active lanes are all paired on one address, (l, l^1) or (l, l^2).
KIT_HD constexpr bool quarters_may_merge(const WarpAccess& a, int half) {
  const std::uint32_t lanes = lane_range(16 * half, 16);
  if (!any_active(a, lane_range(16 * half, 8)) || !any_active(a, lane_range(16 * half + 8, 8))) {
    return false;
  }
  if (half == 1) {
    return packs(a, lanes);
  }
  return !a.active(kWarpSize - 1) || strictly_paired(a, lanes, 1) || strictly_paired(a, lanes, 2);
}

} // namespace detail

/// Models one warp-wide shared-memory instruction.
KIT_HD constexpr BankReport analyze(const WarpAccess& a, SharedOp op = SharedOp::load) {
  BankReport r;
  r.width = a.width;
  r.op = op;
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
  const bool load = op == SharedOp::load;

  // Which phase serves each lane: the plain split, then the load-only merges. `best` is the
  // grouping the lanes would get were they conflict-free: the ideal's phases.
  int group[kWarpSize] = {};
  int best[kWarpSize] = {};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    group[lane] = best[lane] = lane / base_lanes;
  }
  if (load && a.width == 8 && detail::any_active(a, detail::lane_range(0, 16)) &&
      detail::any_active(a, detail::lane_range(16, 16)) && detail::packs(a, kFullMask)) {
    const bool together = detail::conflict_free(a, kFullMask);
    r.paired = together;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      best[lane] = 0;
      group[lane] = together ? 0 : group[lane];
    }
  } else if (load && a.width == 16 && detail::one_address(a)) {
    r.uniform = true;
    int rank = 0;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      group[lane] = best[lane] = a.active(lane) ? rank++ / 16 : 0;
    }
  } else if (load && a.width == 16) {
    for (int half = 0; half < 2; ++half) {
      if (!detail::quarters_may_merge(a, half)) {
        continue;
      }
      const bool together = detail::conflict_free(a, detail::lane_range(16 * half, 16));
      r.paired = r.paired || together;
      for (int lane = half * 16; lane < half * 16 + 16; ++lane) {
        best[lane] = 2 * half;
        group[lane] = together ? 2 * half : group[lane];
      }
    }
  }

  int done = 0; // wavefronts spent by earlier phases
  for (int g = 0; g < 4; ++g) {
    // Distinct words asked of each bank, in order of first request: the k-th distinct word
    // of a bank is served in the phase's k-th wavefront.
    constexpr int kMaxWords = 4 * kWarpSize;
    std::uint32_t seen_word[kMaxWords] = {};
    int seen_rank[kMaxWords] = {};
    int seen = 0;
    int per_bank[kNumBanks] = {};
    int cost = 0;
    bool any = false;
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (!a.active(lane) || group[lane] != g) {
        continue;
      }
      any = true;
      LaneDetail& d = r.lanes[lane];
      d.active = true;
      d.phase = r.phases;
      d.word = word_of(a.address[lane]);
      d.bank = bank_of(a.address[lane]);
      d.words = words;
      int last_rank = 0;
      for (int k = 0; k < words; ++k) {
        const std::uint32_t w = d.word + static_cast<std::uint32_t>(k);
        int rank = -1;
        for (int s = 0; s < seen && rank < 0; ++s) {
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
    if (any) {
      r.phase_wavefronts[r.phases++] = cost;
      done += cost;
    }
  }
  r.wavefronts = done;
  // The ideal: one wavefront per phase the lanes would take were they conflict-free (two
  // quarters that a conflict keeps apart would share one): a request costs its ideal exactly
  // when no bank is asked for two distinct words within a phase that could have been one.
  bool phase_used[4] = {};
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (a.active(lane)) {
      phase_used[best[lane]] = true;
    }
  }
  for (bool used : phase_used) {
    r.ideal += used ? 1 : 0;
  }
  return r;
}

/// Wavefronts of one request (0 for an invalid one: check analyze(a).ok() first).
KIT_HD constexpr int wavefronts(const WarpAccess& a, SharedOp op = SharedOp::load) {
  const BankReport r = analyze(a, op);
  return r.ok() ? r.wavefronts : 0;
}

/// The width's ideal for a full warp: 1 up to 4 bytes, 2 for 8 bytes, 4 for 16 bytes.
KIT_HD constexpr int ideal_wavefronts(int width) {
  return width <= kBankBytes ? 1 : width / kBankBytes;
}

/// The narrowest row pitch, in elements of `elem_bytes`, from `min_pitch` up to twice it, whose
/// rows start `vec`-element aligned and whose column read - lane l reads `vec` elements at the
/// start of row l, strided_access(elem_bytes * vec, pitch / vec) - the model finds at its ideal;
/// 0 when none is. The course's tests find their conflict-free twins so, and no file states the
/// pitch.
KIT_HD constexpr int narrowest_column_pitch(int min_pitch, int elem_bytes, int vec = 1) {
  for (int pitch = min_pitch; pitch <= 2 * min_pitch; ++pitch) {
    if (pitch % vec == 0 &&
        wavefronts(strided_access(elem_bytes * vec, static_cast<std::uint32_t>(pitch / vec))) ==
            ideal_wavefronts(elem_bytes * vec)) {
      return pitch;
    }
  }
  return 0;
}

} // namespace kit
