/// @file measurement_csv.hpp
/// @brief The one writer of the course's measurement tables (`docs/measurements/*.csv`): the
/// comment lines (`# device:` of the running GPU, `# date:`, `# command:`, the table's own
/// fields such as `# access:`, `# note:`), one header row, the rows; with the CSV field quoting
/// and the fixed-digit numbers every table uses. No GoogleTest: the benchmark tools write their
/// tables with it, and so do the tests that measure what a committed table shows.
///
/// A GPU test writes its table when an environment variable names the file, so the table is
/// taken again by the command its own header names:
///
///     KIT_IDEAL_CSV=docs/measurements/wide_ideal.csv build/gpu-check/tests/kit/kit_gpu ...
///
/// Without the variable the test writes nothing.
#pragma once

#include <cstdio>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "kit/device.hpp"

namespace kit {

/// A measurement table: everything below the `# device:` and `# date:` lines.
struct MeasurementTable {
  std::string command; ///< The `# command:` line: how to write the file again.
  /// Further `# name: value` lines after the command (e.g. {"access", "load"}), in order.
  std::vector<std::pair<std::string, std::string>> fields;
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

/// A number as tables and reports write it.
/// @param value The number.
/// @param digits Decimals after the point.
/// @param unit Text right after the number ("x" for a ratio), or nothing.
/// @return `value` with `digits` decimals ("2.00" for 2 and 2 digits; "2.00x" with unit "x").
inline std::string fixed(double value, int digits, const std::string& unit = "") {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text + unit;
}

/// fixed() of a number that may be missing (not measured): the empty string then.
/// @param value The number, or nothing.
/// @param digits Decimals after the point.
/// @param unit Text right after the number, or nothing.
/// @return `fixed(*value, digits, unit)`, or "" without a value.
inline std::string fixed(const std::optional<double>& value, int digits,
                         const std::string& unit = "") {
  return value ? fixed(*value, digits, unit) : std::string();
}

/// Writes `table` under the header of this GPU (kit::device_description()) and today's date
/// (UTC).
/// @param out Where the CSV text goes.
/// @param table The command, fields, notes, header row and rows.
inline void write_measurement_csv(std::ostream& out, const MeasurementTable& table) {
  out << "# device: " << device_description() << "\n# date: " << utc_date()
      << "\n# command: " << table.command << "\n";
  for (const auto& [name, value] : table.fields) {
    out << "# " << name << ": " << value << "\n";
  }
  for (const std::string& note : table.notes) {
    out << "# note: " << note << "\n";
  }
  out << table.columns << "\n";
  for (const std::string& row : table.rows) {
    out << row << "\n";
  }
}

/// Writes `table` to `path` (replacing the file), as write_measurement_csv(out, table) does.
/// @param path The file to write, e.g. `docs/measurements/wide_ideal.csv`.
/// @param table The command, fields, notes, header row and rows.
/// @return False when the file could not be written.
inline bool write_measurement_csv(const std::string& path, const MeasurementTable& table) {
  std::ofstream out(path);
  write_measurement_csv(out, table);
  out.close();
  return static_cast<bool>(out);
}

} // namespace kit
