// bank-map: draw one warp-wide shared-memory request as the bank model sees it: which bank and
// word each lane uses, in which phase and wavefront, as text, JSON or an SVG picture.
//
//   bank-map --type float --stride 5
//   bank-map --type float --index '(l%8)*32 + l/8' --json
//   bank-map --type half --layout 32x40 --column 3 --svg half_column.svg
//
// Bad input: a one-line error and exit status 2.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "map.hpp"
#include "options.hpp"
#include "render.hpp"

namespace {

int run(int argc, const char* const* argv) {
  const bank_map::Options o = bank_map::parse_options(argc, argv);
  if (o.help) {
    std::fputs(bank_map::kUsage, stdout);
    return 0;
  }
  const bank_map::BankMap map = bank_map::make_map(o.request);

  if (o.svg) {
    std::ostringstream picture;
    bank_map::write_svg(picture, map);
    std::ofstream f(*o.svg, std::ios::binary);
    f << picture.str();
    f.close();
    if (!f) {
      throw bank_map::UsageError("--svg: cannot write '" + *o.svg + "'");
    }
  }
  if (o.svg_to_stdout) {
    bank_map::write_svg(std::cout, map);
  } else if (o.json) {
    bank_map::write_json(std::cout, map);
  } else {
    bank_map::write_text(std::cout, map);
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const bank_map::UsageError& e) {
    std::fprintf(stderr, "bank-map: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bank-map: internal error: %s\n", e.what());
    return 1;
  }
}
