/// @file measurement_csv.hpp
/// @brief A test's measurements written as a `docs/measurements/` table: the comment lines
/// (`# device:` of the running GPU, `# date:`, `# command:`, `# note:`), one header row, the rows.
///
/// A GPU test that measures what a committed table shows writes it when an environment variable
/// names the file, so the table is taken again by the command its own header names:
///
///     KIT_IDEAL_CSV=docs/measurements/wide_ideal.csv build/gpu-check/tests/kit/kit_gpu ...
///
/// Without the variable the test writes nothing.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "kit/device.hpp"

namespace kit::testing {

/// A measurement table: everything below the `# device:` and `# date:` lines.
struct MeasurementTable {
  std::string command;            ///< The `# command:` line: how to write the file again.
  std::vector<std::string> notes; ///< The `# note:` lines, in order.
  std::string columns;            ///< The header row.
  std::vector<std::string> rows;  ///< The rows, fields joined by commas (text through csv_field).
};

/// One CSV field.
/// @param text The field's text.
/// @return `text` as it is, or in double quotes (inner quotes doubled) when it holds a comma,
/// a quote or a line break.
inline std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) {
    return text;
  }
  std::string quoted = "\"";
  for (const char c : text) {
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  }
  return quoted + "\"";
}

/// A number for a CSV field.
/// @param value The number.
/// @param digits Decimals after the point.
/// @return `value` with `digits` decimals ("2.00" for 2 and 2 digits).
inline std::string csv_fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

/// Writes `table` to `path` under the header of this GPU (kit::device_description()) and
/// today's date (UTC), replacing the file.
/// @param path The file to write, e.g. `docs/measurements/wide_ideal.csv`.
/// @param table The command, notes, header row and rows.
/// @return Success, or a failure naming the file that could not be written.
inline ::testing::AssertionResult write_measurement_csv(const std::string& path,
                                                        const MeasurementTable& table) {
  std::ofstream out(path);
  out << "# device: " << device_description() << "\n# date: " << utc_date()
      << "\n# command: " << table.command << "\n";
  for (const std::string& note : table.notes) {
    out << "# note: " << note << "\n";
  }
  out << table.columns << "\n";
  for (const std::string& row : table.rows) {
    out << row << "\n";
  }
  out.close();
  if (!out) {
    return ::testing::AssertionFailure() << "could not write " << path;
  }
  return ::testing::AssertionSuccess();
}

} // namespace kit::testing
