/// @file pattern_draws.hpp
/// @brief Single-instruction patterns that hold the bank model to the counters: random draws
/// that land on masked and partial wide accesses often, and a structured set that walks the
/// cases one at a time (lane pairs and triples, runs of lanes, the lane^1 pairs).
///
/// Host code only. `bank-probe` measures them on the GPU (tools/bank_probe); the kit's GPU
/// test draws from the same generator. Draw `index` of seed `seed` depends on nothing else,
/// so a long probe resumes at any index and any draw can be replayed alone.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kit/pattern.hpp"

namespace kit {

namespace draws {

/// The generator of one draw.
inline std::mt19937_64 generator(std::uint64_t seed, std::uint64_t index) {
  std::seed_seq s{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                  static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32)};
  return std::mt19937_64(s);
}

/// Lanes first..last (inclusive).
inline std::uint32_t run_mask(int first, int last) {
  std::uint32_t m = 0;
  for (int l = first; l <= last; ++l) {
    m |= 1u << l;
  }
  return m;
}

/// An active-lane mask of one of the shapes kernels give: the full warp, a random set, one
/// half-warp, one lane per quarter, a few scattered lanes, a run, the warp's last lanes,
/// lane pairs (l, l^1) together, whole quarters. Never empty.
inline std::uint32_t mask(std::mt19937_64& g) {
  std::uint32_t m = 0;
  switch (g() % 10) {
  case 0:
  case 1:
    m = kFullMask;
    break;
  case 2:
    m = static_cast<std::uint32_t>(g());
    break;
  case 3:
    m = g() % 2 ? 0xffff0000u : 0x0000ffffu;
    break;
  case 4:
    for (int q = 0; q < 4; ++q) {
      if (g() % 2) {
        m |= 1u << (8 * q + static_cast<int>(g() % 8));
      }
    }
    break;
  case 5:
    for (int k = 1 + static_cast<int>(g() % 8); k > 0; --k) {
      m |= 1u << (g() % 32);
    }
    break;
  case 6: {
    const int a = static_cast<int>(g() % 32), b = static_cast<int>(g() % 32);
    m = run_mask(std::min(a, b), std::max(a, b));
    break;
  }
  case 7:
    m = run_mask(static_cast<int>(g() % 32), 31);
    break;
  case 8:
    for (int p = 0; p < 16; ++p) {
      if (g() % 2) {
        m |= 3u << (2 * p);
      }
    }
    break;
  default:
    for (int q = 0; q < 4; ++q) {
      if (g() % 2) {
        m |= 0xffu << (8 * q);
      }
    }
    break;
  }
  return m != 0 ? m : 1u << (g() % 32);
}

/// Lane addresses of one of the shapes that decide a wide access's cost: spread over 8 KiB,
/// crowded on a few words, a conflict-free permutation of a row's chunks over a few rows,
/// pairs (l, l^1) that share an address, one address with a few exceptions, a small set of
/// addresses. Every address is a multiple of the width.
inline void addresses(std::mt19937_64& g, WarpAccess& a) {
  const std::uint32_t w = static_cast<std::uint32_t>(a.width);
  const std::uint32_t chunks = kWavefrontBytes / w; // width-sized chunks in a 128-byte row
  auto spread = [&] { return static_cast<std::uint32_t>(g() % (8192 / w)) * w; };
  auto crowd = [&] {
    return static_cast<std::uint32_t>(g() % 6) * kWavefrontBytes +
           static_cast<std::uint32_t>(g() % 2) * w;
  };
  switch (g() % 6) {
  case 0:
    for (auto& x : a.address) {
      x = spread();
    }
    break;
  case 1:
    for (auto& x : a.address) {
      x = crowd();
    }
    break;
  case 2: {
    std::vector<std::uint32_t> perm(chunks);
    for (std::uint32_t c = 0; c < chunks; ++c) {
      perm[c] = c;
    }
    std::shuffle(perm.begin(), perm.end(), g);
    const std::uint32_t rows = 1 + static_cast<std::uint32_t>(g() % 4);
    for (int l = 0; l < kWarpSize; ++l) {
      a.address[l] = static_cast<std::uint32_t>(g() % rows) * kWavefrontBytes +
                     perm[static_cast<std::uint32_t>(l) % chunks] * w;
    }
    break;
  }
  case 3: {
    const bool near = g() % 2;
    for (int l = 0; l < kWarpSize; l += 2) {
      a.address[l] = near ? crowd() : spread();
      a.address[l + 1] = g() % 4 != 0 ? a.address[l] : (near ? crowd() : spread());
    }
    break;
  }
  case 4: {
    const std::uint32_t one = g() % 2 ? crowd() : spread();
    for (auto& x : a.address) {
      x = one;
    }
    for (int k = static_cast<int>(g() % 4); k > 0; --k) {
      a.address[g() % 32] = g() % 2 ? crowd() : spread();
    }
    break;
  }
  default: {
    std::uint32_t set[4];
    const int n = 2 + static_cast<int>(g() % 3);
    for (int i = 0; i < n; ++i) {
      set[i] = g() % 2 ? crowd() : spread();
    }
    for (auto& x : a.address) {
      x = set[g() % static_cast<std::uint64_t>(n)];
    }
    break;
  }
  }
}

} // namespace draws

/// Draw `index` of seed `seed`: one warp instruction, 5 times in 8 an 8- or 16-byte one,
/// loads twice as often as stores, with the mask and address shapes of kit::draws.
inline Pattern random_pattern(std::uint64_t seed, std::uint64_t index) {
  std::mt19937_64 g = draws::generator(seed, index);
  static const int kWidths[16] = {1, 2, 4, 4, 4, 4, 8, 8, 8, 8, 8, 16, 16, 16, 16, 16};
  Pattern p;
  p.access.width = kWidths[g() % 16];
  p.op = g() % 3 == 0 ? SharedOp::store : SharedOp::load;
  p.access.mask = draws::mask(g);
  draws::addresses(g, p.access);
  p.name = "draw " + std::to_string(seed) + ":" + std::to_string(index);
  return p;
}

/// The structured set, 8- and 16-byte accesses (the widths whose rules have merges):
/// every pair of lanes in two bank groups, on one bank group and on one address; for 16-byte
/// loads every triple of lanes in three bank groups and lanes 0-15 paired (l, l^2) beside
/// masks of lanes 16-31; every run of lanes with the lanes side by side and with lane pairs
/// (l, l^1) on one address. Loads, and the pairs as stores.
inline std::vector<Pattern> structured_patterns() {
  std::vector<Pattern> out;
  auto add = [&](std::string name, SharedOp op, int width, std::uint32_t mask, auto address_of) {
    Pattern p;
    p.name = std::move(name);
    p.op = op;
    p.access.width = width;
    p.access.mask = mask;
    for (int l = 0; l < kWarpSize; ++l) {
      p.access.address[l] = address_of(l);
    }
    out.push_back(p);
  };
  const std::uint32_t row = kWavefrontBytes;
  for (int width : {8, 16}) {
    const std::uint32_t w = static_cast<std::uint32_t>(width);
    const std::string ws = std::to_string(width) + " B";
    for (SharedOp op : {SharedOp::load, SharedOp::store}) {
      const std::string os = op == SharedOp::store ? " store" : "";
      for (int a = 0; a < kWarpSize; ++a) {
        for (int b = a + 1; b < kWarpSize; ++b) {
          const std::uint32_t m = (1u << a) | (1u << b);
          const std::string lanes = " lanes " + std::to_string(a) + "," + std::to_string(b);
          add(ws + os + lanes + " two groups", op, width, m,
              [&](int l) { return l == b ? row + w : 0u; });
          add(ws + os + lanes + " one group", op, width, m,
              [&](int l) { return l == b ? row : 0u; });
          add(ws + os + lanes + " one address", op, width, m, [](int) { return 0u; });
        }
      }
    }
    for (int a = 0; a < kWarpSize; ++a) {
      for (int b = a; b < kWarpSize; ++b) {
        const std::uint32_t m = draws::run_mask(a, b);
        const std::string lanes = " lanes " + std::to_string(a) + "-" + std::to_string(b);
        add(ws + lanes + " side by side", SharedOp::load, width, m,
            [&](int l) { return static_cast<std::uint32_t>(l) * w; });
        add(ws + lanes + " pairs on one address", SharedOp::load, width, m,
            [&](int l) { return static_cast<std::uint32_t>(l / 2) * w; });
      }
    }
  }
  for (int a = 0; a < kWarpSize; ++a) {
    for (int b = a + 1; b < kWarpSize; ++b) {
      for (int c = b + 1; c < kWarpSize; ++c) {
        add("16 B lanes " + std::to_string(a) + "," + std::to_string(b) + "," + std::to_string(c) +
                " three groups",
            SharedOp::load, 16, (1u << a) | (1u << b) | (1u << c), [&](int l) {
              return l == a ? 0u : l == b ? row + 16u : 2 * row + 32u;
            });
      }
    }
  }
  // 16-byte loads whose lanes 0-15 pair (l, l^2) on one address, with and without lane 31.
  for (std::uint32_t half0 : {0x0000ffffu, 0x00000f0fu, 0x00000505u}) {
    for (std::uint32_t half1 : {0u, 0x80000000u, 0xffff0000u, 0x40000000u}) {
      for (std::uint32_t apart : {16u, 32u}) {
        add("16 B lanes 0-15 paired (l, l^2), " + std::to_string(apart) + " B apart, mask " +
                std::to_string(half0 | half1),
            SharedOp::load, 16, half0 | half1, [&](int l) {
              const std::uint32_t u = static_cast<std::uint32_t>(l);
              return l < 16 ? ((u & 1u) | ((u >> 2) << 1)) * apart : 4 * row + u * 16u;
            });
      }
    }
  }
  return out;
}

} // namespace kit
