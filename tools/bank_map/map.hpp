/// @file tools/bank_map/map.hpp
/// @brief The model's verdict on one request, arranged for drawing: per phase, the words each
/// bank is asked for, in the order of the wavefronts that serve them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kit/bank_model.hpp"
#include "options.hpp"

namespace bank_map {

/// One distinct 32-bit word that a bank is asked for in one phase.
struct WordRequest {
  std::uint32_t word = 0; ///< The word (byte offset / 4).
  int wavefront = 0;      ///< 0-based wavefront of the whole request that serves it.
  std::vector<int> lanes; ///< Lanes that ask for it (more than one: they share it).
};

/// One phase: the lanes it serves and what each bank does for them.
struct Phase {
  int first_wavefront = 0; ///< The phase's first wavefront, counted over the whole request.
  int wavefronts = 0;      ///< What the phase costs.
  std::vector<int> lanes;  ///< Active lanes served by this phase, ascending.
  /// Per bank, the distinct words asked of it, in wavefront order.
  std::array<std::vector<WordRequest>, kit::kNumBanks> banks;
};

/// A request, the model's report on it, and its phases laid out for drawing.
struct BankMap {
  Request request;        ///< What was modelled.
  kit::BankReport report; ///< The model's verdict (report.ok() is true).
  std::vector<Phase> phases;
};

/// Runs the model. Throws UsageError when the request is invalid (misaligned lane, bad width).
BankMap make_map(const Request& request);

/// "0-15, 17, 19-20": a sorted lane list, compressed into ranges.
std::string lane_ranges(const std::vector<int>& lanes);

/// The words `n`-way conflict, broadcast, ... summarised in one line: "2 wavefronts (ideal 1):
/// 2-way bank conflict".
std::string verdict(const kit::BankReport& report);

} // namespace bank_map
