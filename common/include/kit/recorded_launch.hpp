/// @file recorded_launch.hpp
/// @brief A launch of one of a lesson's matrix kernels, named so that the lesson's CPU kernel
/// program can repeat it: how a GPU counter test asks that program for its CPU recording where
/// the counters are refused (kit/testing_cpu_run.hpp), and how the program reads the request
/// (kit/cpu_run.hpp). Host code only; included by both sides.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kit {

/// One launch of a lesson's kernel on a rows x cols matrix.
struct RecordedLaunch {
  std::string kernel; ///< The name the lesson's tests call it by ("transpose_padded").
  int rows = 0;       ///< Rows of the input.
  int cols = 0;       ///< Columns of the input.
};

/// The variable that names the launches a GPU test asks the CPU kernel program to run and
/// record: `<kernel> <rows> <cols>` entries separated by `;`.
inline constexpr const char* kRecordedLaunchesVariable = "KIT_CPU_RUNS";

/// The launches as the variable holds them.
inline std::string launches_text(const std::vector<RecordedLaunch>& launches) {
  std::string text;
  for (const RecordedLaunch& l : launches) {
    text += (text.empty() ? "" : ";") + l.kernel + " " + std::to_string(l.rows) + " " +
            std::to_string(l.cols);
  }
  return text;
}

/// The launches of `text` (launches_text's form). Throws std::invalid_argument, naming the
/// entry, on one that is not a name and two positive sizes.
inline std::vector<RecordedLaunch> parse_launches(const std::string& text) {
  std::vector<RecordedLaunch> launches;
  std::istringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ';')) {
    std::istringstream s(entry);
    RecordedLaunch l;
    std::string rest;
    if (!(s >> l.kernel >> l.rows >> l.cols) || (s >> rest) || l.rows <= 0 || l.cols <= 0) {
      throw std::invalid_argument(std::string(kRecordedLaunchesVariable) + ": '" + entry +
                                  "' is not '<kernel> <rows> <cols>'");
    }
    launches.push_back(l);
  }
  return launches;
}

} // namespace kit
