/// @file json_string.hpp
/// @brief A string as a JSON string literal, for the tools that write JSON.
#pragma once

#include <cstdio>
#include <string>

namespace course_tools {

/// `s` quoted for JSON: quotes and backslashes escaped, control characters as \uXXXX.
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace course_tools
