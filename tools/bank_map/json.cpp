#include <cstdio>
#include <string>

#include "json_string.hpp"
#include "render.hpp"

namespace bank_map {

void write_json(std::ostream& out, const BankMap& m) {
  const kit::BankReport& r = m.report;
  const kit::WarpAccess& a = m.request.access;
  char mask[16];
  std::snprintf(mask, sizeof mask, "0x%08x", a.mask);
  out << "{\n  \"title\": " << course_tools::json_string(m.request.title) << ",\n  \"op\": \""
      << (r.op == kit::SharedOp::store ? "store" : "load") << "\",\n  \"width\": " << r.width
      << ",\n  \"mask\": \"" << mask << "\",\n  \"wavefronts\": " << r.wavefronts
      << ",\n  \"ideal\": " << r.ideal << ",\n  \"phases\": " << r.phases
      << ",\n  \"phase_wavefronts\": [";
  for (int p = 0; p < r.phases; ++p) {
    out << (p ? ", " : "") << r.phase_wavefronts[p];
  }
  out << "],\n  \"lanes\": [\n";
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    const kit::LaneDetail& d = r.lanes[lane];
    out << "    {\"lane\": " << lane << ", \"offset\": " << a.address[lane];
    if (d.active) {
      out << ", \"active\": true, \"phase\": " << d.phase << ", \"bank\": " << d.bank
          << ", \"word\": " << d.word << ", \"words\": " << d.words
          << ", \"wavefront\": " << d.wavefront << "}";
    } else {
      out << ", \"active\": false, \"phase\": null, \"bank\": null, \"word\": null, "
             "\"words\": 0, \"wavefront\": null}";
    }
    out << (lane + 1 < kit::kWarpSize ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

} // namespace bank_map
