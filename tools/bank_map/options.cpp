#include "options.hpp"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <vector>

#include "expression.hpp"
#include "lane_access.hpp"

namespace bank_map {

const char* const kUsage =
    "usage: bank-map [--type float|half|double|float4|u8 | --width BYTES]\n"
    "                (--index EXPR | --layout ROWSxPITCH (--column C | --row R) |\n"
    "                 --stride N | --offsets O0,O1,...,O31)\n"
    "                [--swizzle B,M,S]... [--mask HEX] [--store] [--title TEXT] [--json]\n"
    "                [--svg [FILE]]\n"
    "Draws which bank and word each lane of one warp-wide shared-memory request uses, per\n"
    "phase, and how many wavefronts the bank model says it takes.\n"
    "  --type NAME       the element type, for its size (u8 1, half 2, float 4, double 8,\n"
    "                    float4 16); float when neither --type nor --width is given\n"
    "  --width BYTES     bytes per lane: 1, 2, 4, 8 or 16\n"
    "  --index EXPR      lane l accesses element EXPR, e.g. '5*l + 2' or '(l%8)*32 + l/8':\n"
    "                    integers, l, + - * / % << >> & ^ | ~, ( ), min(a,b), max(a,b), with\n"
    "                    C's precedence and integer division; quote it for the shell\n"
    "  --layout ROWSxPITCH\n"
    "                    a row-major tile (kit::Pitched): ROWS rows, PITCH elements per row\n"
    "                    (padding included), e.g. 32x33; with one of\n"
    "    --column C      lane l accesses element (l, C): offset l*PITCH + C\n"
    "    --row R         lane l accesses element (R, l): offset R*PITCH + l\n"
    "  --stride N        lane l accesses element l*N (0 is a broadcast)\n"
    "  --offsets LIST    the 32 lanes' byte offsets, comma-separated\n"
    "  --swizzle B,M,S   with --index or --layout: the element offset goes through CuTe's\n"
    "                    Swizzle<B,M,S> (kit::Swizzle); repeat to compose, first given first\n"
    "  --mask HEX        active lanes (bit l: lane l), default 0xffffffff\n"
    "  --store           a store (the model's merges of lane pairs are for loads only)\n"
    "  --title TEXT      the picture's title (default: describes the request)\n"
    "  --json            print one JSON object instead of the text map\n"
    "  --svg [FILE]      draw the bank map as SVG into FILE (without FILE, or '-': on stdout)\n"
    "A lane's byte offset is its element's index (or offset) times the element size.\n"
    "Bad input: a one-line error and exit status 2.\n";

namespace {

/// Widths by element type name.
struct TypeWidth {
  const char* name;
  int bytes;
};
constexpr TypeWidth kTypes[] = {
    {"u8", 1}, {"half", 2}, {"float", 4}, {"double", 8}, {"float4", 16}};
/// The element type when neither --type nor --width is given.
constexpr const char* kDefaultType = "float";

std::uint32_t parse_u32(const std::string& s, const std::string& what) {
  return static_cast<std::uint32_t>(course_tools::parse_int(s, what, 0, UINT32_MAX));
}

std::vector<std::uint32_t> parse_offsets(const std::string& s) {
  std::vector<std::uint32_t> v;
  for (const std::string& item : course_tools::split_list(s, "--offsets")) {
    v.push_back(parse_u32(item, "--offsets"));
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

/// "--index '5*l': ": the start of an --index error, on one line whatever the expression holds.
std::string index_error(const std::string& text) {
  std::string shown = text;
  for (char& c : shown) {
    if (!std::isprint(static_cast<unsigned char>(c))) {
      c = ' ';
    }
  }
  return "--index '" + shown + "': ";
}

/// The expression of `--index`, or a UsageError naming where it goes wrong.
Expression parsed_index(const std::string& text) {
  try {
    return Expression(text);
  } catch (const ExpressionError& e) {
    throw UsageError(index_error(text) + e.what());
  }
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
  std::optional<std::uint32_t> stride, mask, column, row;
  std::optional<std::string> index_text, layout_text;
  std::optional<Expression> index;
  std::optional<TileShape> tile;
  std::vector<SwizzleBits> swizzles;
  std::string swizzle_words;
  bool seen_store = false, seen_svg = false;

  course_tools::Args args(argc, argv);
  using course_tools::once;
  while (!args.done()) {
    const std::string a = args.next();
    if (a == "--help" || a == "-h") {
      o.help = true;
      return o;
    } else if (a == "--width") {
      once(width.has_value(), a);
      const std::string v = args.value(a);
      const std::uint32_t w = parse_u32(v, a);
      if (!kit::is_valid_width(static_cast<int>(w))) {
        throw UsageError("--width: unknown width '" + v + "' (1, 2, 4, 8 or 16 bytes)");
      }
      width = static_cast<int>(w);
    } else if (a == "--type") {
      once(type.has_value(), a);
      type = args.value(a);
      type_width(*type);
    } else if (a == "--offsets") {
      once(offsets.has_value(), a);
      offsets = parse_offsets(args.value(a));
    } else if (a == "--stride") {
      once(stride.has_value(), a);
      stride = parse_u32(args.value(a), a);
    } else if (a == "--index") {
      once(index_text.has_value(), a);
      index_text = args.value(a);
      index = parsed_index(*index_text);
    } else if (a == "--layout") {
      once(layout_text.has_value(), a);
      layout_text = args.value(a);
      tile = parse_tile(*layout_text);
    } else if (a == "--column") {
      once(column.has_value(), a);
      column = parse_u32(args.value(a), a);
    } else if (a == "--row") {
      once(row.has_value(), a);
      row = parse_u32(args.value(a), a);
    } else if (a == "--swizzle") {
      const std::string v = args.value(a);
      swizzles.push_back(parse_swizzle(v));
      swizzle_words += ", swizzle " + v;
    } else if (a == "--mask") {
      once(mask.has_value(), a);
      mask = parse_mask(args.value(a));
    } else if (a == "--store") {
      once(seen_store, a);
      seen_store = true;
    } else if (a == "--title") {
      once(title.has_value(), a);
      title = args.value(a);
    } else if (a == "--json") {
      once(o.json, a);
      o.json = true;
    } else if (a == "--svg") {
      once(seen_svg, a);
      seen_svg = true;
      // The file is optional: a next argument that is not an option names it ('-': stdout).
      const std::string file = args.value_follows() ? args.next() : "-";
      if (file == "-") {
        o.svg_to_stdout = true;
      } else {
        o.svg = file;
      }
    } else {
      throw course_tools::unknown(a);
    }
  }

  if (width && type) {
    throw UsageError("give --width or --type, not both");
  }
  if ((column || row) && !tile) {
    throw UsageError(std::string(column ? "--column" : "--row") + " needs --layout ROWSxPITCH");
  }
  const int kinds = int{index.has_value()} + int{tile.has_value()} + int{stride.has_value()} +
                    int{offsets.has_value()};
  if (kinds != 1) {
    throw UsageError(std::string("give one of --index, --layout, --stride or --offsets") +
                     (kinds > 1 ? ", not more" : ""));
  }
  if (tile && !column && !row) {
    throw UsageError("--layout needs --column C or --row R");
  }
  if (column && row) {
    throw UsageError("give --column or --row, not both");
  }
  if (!swizzles.empty() && !index && !tile) {
    throw UsageError("--swizzle needs --index or --layout");
  }
  if (o.json && o.svg_to_stdout) {
    throw UsageError("--json and --svg to stdout: only one can be printed (give --svg a FILE)");
  }

  if (!width && !type) {
    type = kDefaultType;
  }
  Request& r = o.request;
  r.access.width = width ? *width : type_width(*type);
  r.access.mask = mask ? *mask : kit::kFullMask;
  r.op = seen_store ? kit::SharedOp::store : kit::SharedOp::load;
  if (index) {
    try {
      r.access = index_access(*index, swizzles, r.access.width, r.access.mask);
    } catch (const ExpressionError& e) {
      throw UsageError(index_error(*index_text) + e.what());
    }
  } else if (tile) {
    const TileLine line{column.has_value(), column ? *column : *row};
    r.access = tile_access(*tile, line, swizzles, r.access.width, r.access.mask);
  } else if (offsets) {
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
    if (index) {
      what += ", index " + *index_text;
    } else if (tile) {
      what += std::string(column ? ", column " : ", row ") +
              std::to_string(column ? *column : *row) + " of a " + *layout_text + " tile";
    } else {
      what += stride ? ", stride " + std::to_string(*stride) : ", lane offsets";
    }
    what += swizzle_words;
    if (r.access.mask != kit::kFullMask) {
      what += ", lanes " + hex_mask(r.access.mask);
    }
    r.title = what;
  }
  return o;
}

} // namespace bank_map
