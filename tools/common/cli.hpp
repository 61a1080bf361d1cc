/// @file tools/common/cli.hpp
/// @brief The command lines of the course's tools, read one way: arguments left to right, an
/// option's value after it, numbers checked against their range, lists split on commas, every
/// mistake a UsageError whose one line names the option and the value (exit status 2).
///
///     course_tools::Args args(argc, argv);
///     while (!args.done()) {
///       const std::string a = args.next();
///       if (a == "--repeats") {
///         repeats = course_tools::parse_int(args.value(a), a, 10, 1000);
///       } else {
///         throw course_tools::unknown(a);
///       }
///     }
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace course_tools {

/// Bad command-line input: reported in one line, exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The error for an argument no option of the tool takes.
inline UsageError unknown(const std::string& arg) {
  return UsageError("unknown argument '" + arg + "' (try --help)");
}

/// Throws "<option> is given twice" when `given`.
inline void once(bool given, const std::string& option) {
  if (given) {
    throw UsageError(option + " is given twice");
  }
}

/// An integer option value in [lo, hi]. Errors: "<what>: '-1' is negative", "'x' is not a
/// non-negative integer" (or "not a positive integer" when lo >= 1), "'0' is out of range (1
/// to 1000)".
inline long long parse_int(const std::string& s, const std::string& what, long long lo,
                           long long hi) {
  const std::string kind = lo >= 1 ? "a positive integer" : "a non-negative integer";
  if (s.size() > 1 && s[0] == '-' && s.find_first_not_of("0123456789", 1) == std::string::npos) {
    throw UsageError(what + ": '" + s + "' is negative");
  }
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) {
    throw UsageError(what + ": '" + s + "' is not " + kind);
  }
  const bool huge = s.size() > 18;
  const long long v = huge ? 0 : std::stoll(s);
  if (huge || v < lo || v > hi) {
    throw UsageError(what + ": '" + s + "' is out of range (" + std::to_string(lo) + " to " +
                     std::to_string(hi) + ")");
  }
  return v;
}

/// A number option value in (lo, hi]: "<what>: 'abc' is not a number", "'-5' is out of range
/// (above 0, at most 3600)".
inline double parse_number(const std::string& s, const std::string& what, double lo, double hi) {
  char* end = nullptr;
  const double v = s.empty() ? 0.0 : std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0') {
    throw UsageError(what + ": '" + s + "' is not a number");
  }
  if (!(v > lo && v <= hi)) {
    std::ostringstream range;
    range << "above " << lo << ", at most " << hi;
    throw UsageError(what + ": '" + s + "' is out of range (" + range.str() + ")");
  }
  return v;
}

/// The comma-separated items of `s` ("1,2,32"); "<what>: '1,2,' is not a comma-separated list"
/// when it is empty or ends with a comma (an empty item in the middle is the caller's to
/// judge, item by item).
inline std::vector<std::string> split_list(const std::string& s, const std::string& what) {
  std::vector<std::string> items;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    items.push_back(item);
  }
  if (items.empty() || s.back() == ',') {
    throw UsageError(what + ": '" + s + "' is not a comma-separated list");
  }
  return items;
}

/// A command line, read left to right.
class Args {
public:
  /// The arguments after the program's name.
  Args(int argc, const char* const* argv) : args_(argv + 1, argv + (argc > 0 ? argc : 1)) {}

  /// True when every argument has been read.
  bool done() const { return at_ >= args_.size(); }
  /// The next argument, read.
  std::string next() { return args_.at(at_++); }
  /// True when the next argument exists and is a value, not an option ("-" and a negative
  /// number are values).
  bool value_follows() const {
    if (done()) {
      return false;
    }
    const std::string& a = args_[at_];
    return a.rfind("-", 0) != 0 || a == "-" || (a.size() > 1 && a[1] >= '0' && a[1] <= '9');
  }
  /// The value of `option` (the next argument, read); "<option> needs a value" when there is
  /// none.
  std::string value(const std::string& option) {
    if (done()) {
      throw UsageError(option + " needs a value");
    }
    return next();
  }

  /// The command as a table's header records it, so that the table can be taken again: the
  /// program, then every argument (quoted when the shell would split or expand it), without
  /// the options in `dropped` and their values (where the output went), and with the value of
  /// an option in `files` written FILE.
  std::string recorded(const std::string& program, std::initializer_list<std::string> dropped = {},
                       std::initializer_list<std::string> files = {}) const {
    const auto in = [](const std::initializer_list<std::string>& names, const std::string& a) {
      for (const std::string& n : names) {
        if (n == a) {
          return true;
        }
      }
      return false;
    };
    std::string cmd = program;
    for (std::size_t i = 0; i < args_.size(); ++i) {
      const std::string& a = args_[i];
      const bool has_value = i + 1 < args_.size();
      if (in(dropped, a) && has_value) {
        ++i;
        continue;
      }
      cmd += " " + (a.find_first_of(" *()'\"$&|;<>") == std::string::npos ? a : "'" + a + "'");
      if (in(files, a) && has_value) {
        cmd += " FILE";
        ++i;
      }
    }
    return cmd;
  }

private:
  std::vector<std::string> args_;
  std::size_t at_ = 0;
};

/// A measuring tool's main: runs `body`, and turns a UsageError into "<program>: <what>" and
/// exit status 2, any other failure into "<program>: measuring failed: <what>" and 1.
template <class Body>
int run_tool(const char* program, Body&& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: measuring failed: %s\n", program, e.what());
    return 1;
  }
}

} // namespace course_tools
