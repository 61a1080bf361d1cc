/// @file tools/bank_map/options.hpp
/// @brief The bank-map command line: what to model and where to draw it.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

#include "cli.hpp"
#include "kit/bank_model.hpp"

namespace bank_map {

/// Bad command-line input: reported in one line, exit status 2.
using UsageError = course_tools::UsageError;

/// One request to model, with the words that describe it.
struct Request {
  kit::WarpAccess access;                 ///< Lane offsets, active lanes and width.
  kit::SharedOp op = kit::SharedOp::load; ///< Load or store.
  std::string title;                      ///< "float load, stride 2" or the --title text.
};

/// Everything the command line asks for.
struct Options {
  Request request;                ///< The request to model.
  bool json = false;              ///< Print JSON instead of text.
  bool svg_to_stdout = false;     ///< `--svg` without a file (or `--svg -`): SVG on stdout.
  std::optional<std::string> svg; ///< `--svg FILE`: write the picture there.
  bool help = false;              ///< `--help`: print the usage and stop.
};

/// The usage text printed by `--help`.
extern const char* const kUsage;

/// Parses argv. Throws UsageError naming the problem for any bad input.
Options parse_options(int argc, const char* const* argv);

} // namespace bank_map
