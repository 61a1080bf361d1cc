#include "options.hpp"

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <vector>

namespace bank_map {

const char* const kUsage =
    "usage: bank-map (--width BYTES | --type float|half|double|float4|u8)\n"
    "                (--offsets O0,O1,...,O31 | --stride N) [--mask HEX] [--store]\n"
    "                [--title TEXT] [--json] [--svg [FILE]]\n"
    "Draws which bank and word each lane of one warp-wide shared-memory request uses, per\n"
    "phase, and how many wavefronts the bank model says it takes.\n"
    "  --width BYTES     bytes per lane: 1, 2, 4, 8 or 16\n"
    "  --type NAME       an element type, for its width (u8 1, half 2, float 4, double 8,\n"
    "                    float4 16)\n"
    "  --offsets LIST    the 32 lanes' byte offsets, comma-separated\n"
    "  --stride N        lane l accesses element l*N (N in elements; 0 is a broadcast)\n"
    "  --mask HEX        active lanes (bit l: lane l), default 0xffffffff\n"
    "  --store           a store (the model's merges of lane pairs are for loads only)\n"
    "  --title TEXT      the picture's title (default: describes the request)\n"
    "  --json            print one JSON object instead of the text map\n"
    "  --svg [FILE]      draw the bank map as SVG into FILE (without FILE, or '-': on stdout)\n"
    "Bad input: a one-line error and exit status 2.\n";

namespace {

/// Widths by element type name.
struct TypeWidth {
  const char* name;
  int bytes;
};
constexpr TypeWidth kTypes[] = {
    {"u8", 1}, {"half", 2}, {"float", 4}, {"double", 8}, {"float4", 16}};

std::uint32_t parse_u32(const std::string& s, const std::string& what) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) {
    const bool negative = !s.empty() && s[0] == '-';
    throw UsageError(what + ": '" + s + "' is " +
                     (negative ? "negative" : "not a non-negative integer"));
  }
  if (s.size() > 10 || std::stoull(s) > UINT32_MAX) {
    throw UsageError(what + ": '" + s + "' is too large (at most 4294967295)");
  }
  return static_cast<std::uint32_t>(std::stoull(s));
}

std::vector<std::uint32_t> parse_offsets(const std::string& s) {
  std::vector<std::uint32_t> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) {
    v.push_back(parse_u32(item, "--offsets"));
  }
  if (!s.empty() && s.back() == ',') {
    throw UsageError("--offsets: '" + s + "' ends with a comma");
  }
  if (v.size() != static_cast<std::size_t>(kit::kWarpSize)) {
    throw UsageError("--offsets: " + std::to_string(v.size()) +
                     " offsets given, a warp has 32 lanes");
  }
  return v;
}

std::uint32_t parse_mask(const std::string& s) {
  std::string digits = s;
  if (digits.rfind("0x", 0) == 0 || digits.rfind("0X", 0) == 0) {
    digits = digits.substr(2);
  }
  if (digits.empty() || digits.size() > 8 ||
      digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
    throw UsageError("--mask: '" + s + "' is not a 32-bit hexadecimal mask");
  }
  const auto mask = static_cast<std::uint32_t>(std::stoul(digits, nullptr, 16));
  if (mask == 0) {
    throw UsageError("--mask: '" + s + "' leaves no lane active");
  }
  return mask;
}

int type_width(const std::string& name) {
  for (const TypeWidth& t : kTypes) {
    if (name == t.name) {
      return t.bytes;
    }
  }
  throw UsageError("--type: unknown type '" + name + "' (float, half, double, float4, u8)");
}

std::string hex_mask(std::uint32_t mask) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", mask);
  return buf;
}

} // namespace

Options parse_options(int argc, const char* const* argv) {
  Options o;
  std::optional<std::string> type, title;
  std::optional<int> width;
  std::optional<std::vector<std::uint32_t>> offsets;
  std::optional<std::uint32_t> stride, mask;
  bool seen_store = false, seen_svg = false;

  auto value = [&](int& i, const std::string& flag) -> std::string {
    if (i + 1 >= argc) {
      throw UsageError(flag + " needs a value");
    }
    return argv[++i];
  };
  auto once = [](bool given, const std::string& flag) {
    if (given) {
      throw UsageError(flag + " is given twice");
    }
  };

  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      return o;
    } else if (a == "--width") {
      once(width.has_value(), a);
      const std::string v = value(i, a);
      const std::uint32_t w = parse_u32(v, a);
      if (!kit::is_valid_width(static_cast<int>(w))) {
        throw UsageError("--width: unknown width '" + v + "' (1, 2, 4, 8 or 16 bytes)");
      }
      width = static_cast<int>(w);
    } else if (a == "--type") {
      once(type.has_value(), a);
      type = value(i, a);
      type_width(*type);
    } else if (a == "--offsets") {
      once(offsets.has_value(), a);
      offsets = parse_offsets(value(i, a));
    } else if (a == "--stride") {
      once(stride.has_value(), a);
      stride = parse_u32(value(i, a), a);
    } else if (a == "--mask") {
      once(mask.has_value(), a);
      mask = parse_mask(value(i, a));
    } else if (a == "--store") {
      once(seen_store, a);
      seen_store = true;
    } else if (a == "--title") {
      once(title.has_value(), a);
      title = value(i, a);
    } else if (a == "--json") {
      once(o.json, a);
      o.json = true;
    } else if (a == "--svg") {
      once(seen_svg, a);
      seen_svg = true;
      // The file is optional: a next argument that is not a flag names it.
      if (i + 1 < argc && (argv[i + 1][0] != '-' || std::string(argv[i + 1]) == "-")) {
        const std::string file = argv[++i];
        if (file == "-") {
          o.svg_to_stdout = true;
        } else {
          o.svg = file;
        }
      } else {
        o.svg_to_stdout = true;
      }
    } else if (a.rfind("-", 0) == 0) {
      throw UsageError("unknown option '" + a + "' (try --help)");
    } else {
      throw UsageError("unexpected argument '" + a + "' (try --help)");
    }
  }

  if (width && type) {
    throw UsageError("give --width or --type, not both");
  }
  if (!width && !type) {
    throw UsageError("give --width BYTES or --type NAME");
  }
  if (offsets && stride) {
    throw UsageError("give --offsets or --stride, not both");
  }
  if (!offsets && !stride) {
    throw UsageError("give --offsets O0,...,O31 or --stride N");
  }
  if (o.json && o.svg_to_stdout) {
    throw UsageError("--json and --svg to stdout: only one can be printed (give --svg a FILE)");
  }

  Request& r = o.request;
  r.access.width = width ? *width : type_width(*type);
  r.access.mask = mask ? *mask : kit::kFullMask;
  r.op = seen_store ? kit::SharedOp::store : kit::SharedOp::load;
  if (offsets) {
    for (int lane = 0; lane < kit::kWarpSize; ++lane) {
      r.access.address[lane] = (*offsets)[static_cast<std::size_t>(lane)];
    }
  } else {
    const std::uint64_t last =
        std::uint64_t{*stride} * (kit::kWarpSize - 1) * static_cast<std::uint64_t>(r.access.width);
    if (last > UINT32_MAX) {
      throw UsageError("--stride: " + std::to_string(*stride) +
                       " puts lane 31 beyond a 32-bit offset");
    }
    r.access = kit::strided_access(r.access.width, *stride, 0, r.access.mask);
  }

  if (title) {
    r.title = *title;
  } else {
    std::string what = type ? *type : std::to_string(r.access.width) + "-byte";
    what += r.op == kit::SharedOp::store ? " store" : " load";
    what += stride ? ", stride " + std::to_string(*stride) : ", lane offsets";
    if (r.access.mask != kit::kFullMask) {
      what += ", lanes " + hex_mask(r.access.mask);
    }
    r.title = what;
  }
  return o;
}

} // namespace bank_map
