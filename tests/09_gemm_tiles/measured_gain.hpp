// The gains recorded on a reference GPU in docs/measurements/gemm_gain.csv (written by the
// GemmTable test with LESSON09_MEASUREMENTS_OUT set): the speed tests hold the lesson's
// kernels to them.
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace lesson09::testing {

/// The recorded gain of `faster` over `slower`: time(slower) / time(faster) - 1, the median
/// of `runs` measurements at m x n x k.
struct RecordedGain {
  std::string device; ///< The `# device:` line, e.g. "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)".
  std::string date;   ///< The `# date:` line.
  int m = 0, n = 0, k = 0, runs = 0;
  double median_gain = 0; ///< g.
  /// The architecture of the device line ("sm_90"), or "" when it names none.
  std::string arch() const {
    const auto at = device.find("(sm_");
    return at == std::string::npos ? ""
                                   : device.substr(at + 1, device.find_first_of(",)", at) - at - 1);
  }
};

/// The file the gains are recorded in.
inline std::string gain_file() {
#if defined(LESSON09_MEASUREMENTS_DIR)
  return std::string(LESSON09_MEASUREMENTS_DIR) + "/gemm_gain.csv";
#else
  return "docs/measurements/gemm_gain.csv";
#endif
}

/// Splits one CSV line (no quoting: the file has none).
inline std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream s(line);
  for (std::string f; std::getline(s, f, ',');) {
    out.push_back(f);
  }
  return out;
}

/// The recorded gain of `faster` over `slower`, or nullopt when the file or the row is missing.
inline std::optional<RecordedGain> recorded_gain(const std::string& slower,
                                                 const std::string& faster,
                                                 const std::string& file = gain_file()) {
  std::ifstream in(file);
  if (!in) {
    return std::nullopt;
  }
  RecordedGain g;
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# device: ", 0) == 0) {
      g.device = line.substr(10);
    } else if (line.rfind("# date: ", 0) == 0) {
      g.date = line.substr(8);
    } else if (line.empty() || line[0] == '#') {
      continue;
    } else if (header.empty()) {
      header = csv_fields(line);
    } else {
      const std::vector<std::string> f = csv_fields(line);
      const auto col = [&](const char* name) -> std::string {
        for (std::size_t i = 0; i < header.size() && i < f.size(); ++i) {
          if (header[i] == name) {
            return f[i];
          }
        }
        return "";
      };
      if (col("slower") == slower && col("faster") == faster) {
        try {
          g.m = std::stoi(col("m")), g.n = std::stoi(col("n")), g.k = std::stoi(col("k"));
          g.runs = std::stoi(col("runs"));
          g.median_gain = std::stod(col("median_gain"));
        } catch (const std::exception&) {
          return std::nullopt;
        }
        return g;
      }
    }
  }
  return std::nullopt;
}

} // namespace lesson09::testing
