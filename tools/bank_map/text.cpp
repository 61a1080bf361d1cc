#include <cstdio>
#include <string>

#include "render.hpp"

namespace bank_map {
namespace {

/// "3" for a one-word lane, "3-4" for a lane that spans words (8- and 16-byte accesses).
std::string span(std::uint32_t first, int count, std::uint32_t modulo) {
  const std::uint32_t last = first + static_cast<std::uint32_t>(count) - 1;
  if (count == 1) {
    return std::to_string(first % modulo);
  }
  return std::to_string(first % modulo) + "-" + std::to_string(last % modulo);
}

} // namespace

void write_text(std::ostream& out, const BankMap& m) {
  const kit::BankReport& r = m.report;
  const kit::WarpAccess& a = m.request.access;
  std::vector<int> inactive;
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    if (!a.active(lane)) {
      inactive.push_back(lane);
    }
  }
  out << m.request.title << ": " << r.width << (r.width == 1 ? " byte" : " bytes") << " per lane, "
      << (kit::kWarpSize - static_cast<int>(inactive.size())) << " of " << kit::kWarpSize
      << " lanes active\n";

  for (std::size_t p = 0; p < m.phases.size(); ++p) {
    const Phase& phase = m.phases[p];
    const int last = phase.first_wavefront + phase.wavefronts - 1;
    out << "phase " << p << ": lanes " << lane_ranges(phase.lanes) << ", " << phase.wavefronts
        << (phase.wavefronts == 1 ? " wavefront" : " wavefronts") << " (" << phase.first_wavefront;
    if (last != phase.first_wavefront) {
      out << "-" << last;
    }
    out << ")\n";
    out << "  lane   offset  bank   word           wavefront\n";
    for (int lane : phase.lanes) {
      const kit::LaneDetail& d = r.lanes[lane];
      char line[128];
      std::snprintf(line, sizeof line, "  %4d %8u  %-5s  %-13s  %d\n", lane, a.address[lane],
                    span(d.word, d.words, kit::kNumBanks).c_str(),
                    span(d.word, d.words, UINT32_MAX).c_str(), d.wavefront);
      out << line;
    }
    for (int bank = 0; bank < kit::kNumBanks; ++bank) {
      const auto& stack = phase.banks[bank];
      if (stack.size() < 2) {
        continue;
      }
      out << "  conflict: bank " << bank << " serves " << stack.size() << " words:";
      for (const WordRequest& w : stack) {
        out << " " << w.word << " (lane" << (w.lanes.size() > 1 ? "s " : " ")
            << lane_ranges(w.lanes) << ")";
      }
      out << "\n";
    }
  }
  if (!inactive.empty()) {
    out << "inactive lanes: " << lane_ranges(inactive) << "\n";
  }
  out << "wavefronts: " << r.wavefronts << " (ideal " << r.ideal << ")\n";
}

} // namespace bank_map
