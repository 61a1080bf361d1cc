#include "map.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace bank_map {

BankMap make_map(const Request& request) {
  BankMap m;
  m.request = request;
  m.report = kit::analyze(request.access, request.op);
  const kit::BankReport& r = m.report;
  if (r.error == kit::ModelError::misaligned) {
    throw UsageError("lane " + std::to_string(r.error_lane) + ": offset " +
                     std::to_string(request.access.address[r.error_lane]) +
                     " is not aligned to the width (" + std::to_string(r.width) + " bytes)");
  }
  if (!r.ok()) {
    throw UsageError(std::string("the model refused the request: ") + kit::to_string(r.error));
  }

  m.phases.resize(static_cast<std::size_t>(r.phases));
  int first = 0;
  for (int p = 0; p < r.phases; ++p) {
    m.phases[p].first_wavefront = first;
    m.phases[p].wavefronts = r.phase_wavefronts[p];
    first += r.phase_wavefronts[p];
  }

  // Every word a lane touches is served by the wavefront the model gives the lane: the words
  // of one lane are an aligned group whose banks see the same sequence of requests, so they
  // are served together.
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    const kit::LaneDetail& d = r.lanes[lane];
    if (!d.active) {
      continue;
    }
    Phase& phase = m.phases.at(static_cast<std::size_t>(d.phase));
    phase.lanes.push_back(lane);
    for (int k = 0; k < d.words; ++k) {
      const std::uint32_t word = d.word + static_cast<std::uint32_t>(k);
      auto& stack = phase.banks[word % kit::kNumBanks];
      auto it = std::find_if(stack.begin(), stack.end(),
                             [&](const WordRequest& w) { return w.word == word; });
      if (it == stack.end()) {
        stack.push_back(WordRequest{word, d.wavefront, {}});
        it = stack.end() - 1;
      } else if (it->wavefront != d.wavefront) {
        throw std::logic_error("word " + std::to_string(word) + " served by two wavefronts");
      }
      it->lanes.push_back(lane);
    }
  }
  for (Phase& phase : m.phases) {
    for (auto& stack : phase.banks) {
      std::sort(stack.begin(), stack.end(), [](const WordRequest& a, const WordRequest& b) {
        return a.wavefront < b.wavefront;
      });
      // The k-th distinct word asked of a bank is served by the phase's k-th wavefront.
      for (std::size_t k = 0; k < stack.size(); ++k) {
        if (stack[k].wavefront != phase.first_wavefront + static_cast<int>(k)) {
          throw std::logic_error("bank map: word " + std::to_string(stack[k].word) +
                                 " is not served in the wavefront its rank says");
        }
      }
    }
  }
  return m;
}

std::string lane_ranges(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) {
      ++j;
    }
    out += (out.empty() ? "" : ", ") + std::to_string(lanes[i]);
    if (j > i) {
      out += "-" + std::to_string(lanes[j]);
    }
    i = j + 1;
  }
  return out;
}

std::string verdict(const kit::BankReport& r) {
  std::string out = std::to_string(r.wavefronts) +
                    (r.wavefronts == 1 ? " wavefront" : " wavefronts") + " (ideal " +
                    std::to_string(r.ideal) + "): ";
  if (r.wavefronts <= r.ideal) {
    return out + "conflict-free";
  }
  if (r.ideal == 1) {
    return out + std::to_string(r.wavefronts) + "-way bank conflict";
  }
  const int extra = r.wavefronts - r.ideal;
  return out + std::to_string(extra) + (extra == 1 ? " extra wavefront" : " extra wavefronts") +
         " from bank conflicts";
}

} // namespace bank_map
