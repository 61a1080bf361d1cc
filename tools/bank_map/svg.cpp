#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "render.hpp"

namespace bank_map {
namespace {

// The picture, left to right: a label column, then one column per lane / bank.
//
//          lane  [0][1][2] ... [31]      lanes of this phase, coloured by wavefront
//                  \  |  /               a line per word a lane touches
//          bank  [0][1][2] ... [31]      red frame: the bank is asked for more than one word
//          wf 0  [w0][w1]  ...           the words each bank serves, one row per wavefront
//          wf 1  [w32] ...
constexpr int kMargin = 16;
constexpr int kLabelWidth = 56;
constexpr int kColumn = 28;                  // one lane / bank column
constexpr int kLeft = kMargin + kLabelWidth; // x of column 0
constexpr int kWidth = kLeft + kit::kNumBanks * kColumn + kMargin;
constexpr int kBox = 18;      // lane and bank box height
constexpr int kRow = 18;      // one wavefront row of words
constexpr int kLineDrop = 54; // room for the lane -> bank lines
constexpr int kHeader = 58;   // title and verdict
constexpr int kPanelTop = 24; // phase heading above the lanes
constexpr int kLegendRow = 22;
constexpr const char* kFont = "DejaVu Sans,Verdana,Arial,sans-serif";
constexpr const char* kConflict = "#c0392b";

/// A colour per wavefront: a qualitative palette while it lasts, then evenly spaced hues.
std::string wavefront_colour(int wavefront, int total) {
  static const char* const kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1",
                                         "#edc948", "#76b7b2", "#ff9da7", "#9c755f", "#bab0ac"};
  constexpr int kPaletteSize = sizeof kPalette / sizeof kPalette[0];
  if (total <= kPaletteSize) {
    return kPalette[wavefront];
  }
  // HSL(h, 60%, 55%) -> RGB, integer hue steps so every platform prints the same bytes.
  const double h = 360.0 * wavefront / total, s = 0.60, l = 0.55;
  const double c = (1 - std::fabs(2 * l - 1)) * s;
  const double x = c * (1 - std::fabs(std::fmod(h / 60.0, 2.0) - 1));
  const double m = l - c / 2;
  double r = 0, g = 0, b = 0;
  if (h < 60) {
    r = c, g = x;
  } else if (h < 120) {
    r = x, g = c;
  } else if (h < 180) {
    g = c, b = x;
  } else if (h < 240) {
    g = x, b = c;
  } else if (h < 300) {
    r = x, b = c;
  } else {
    r = c, b = x;
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround((r + m) * 255)),
                static_cast<int>(std::lround((g + m) * 255)),
                static_cast<int>(std::lround((b + m) * 255)));
  return buf;
}

/// Dark text on light fills, white on dark ones.
const char* text_on(const std::string& fill) {
  const int r = std::stoi(fill.substr(1, 2), nullptr, 16);
  const int g = std::stoi(fill.substr(3, 2), nullptr, 16);
  const int b = std::stoi(fill.substr(5, 2), nullptr, 16);
  return (299 * r + 587 * g + 114 * b) / 1000 > 150 ? "#1b1b1b" : "#ffffff";
}

std::string escaped(const std::string& s) {
  std::string e;
  for (const char c : s) {
    switch (c) {
    case '&':
      e += "&amp;";
      break;
    case '<':
      e += "&lt;";
      break;
    case '>':
      e += "&gt;";
      break;
    case '"':
      e += "&quot;";
      break;
    default:
      e += c;
    }
  }
  return e;
}

int column_x(int column) {
  return kLeft + column * kColumn;
}
int column_centre(int column) {
  return column_x(column) + kColumn / 2;
}

int depth(const Phase& phase) {
  std::size_t d = 1;
  for (const auto& stack : phase.banks) {
    d = std::max(d, stack.size());
  }
  return static_cast<int>(d);
}

int panel_height(const Phase& phase) {
  return kPanelTop + kBox + kLineDrop + kBox + 6 + depth(phase) * kRow + 18;
}

/// A labelled box; `tip` becomes a tooltip.
void box(std::ostream& out, int x, int y, int w, int h, const std::string& fill,
         const std::string& stroke, const std::string& label, const char* text,
         const std::string& tip, const char* extra = "") {
  out << "<g><title>" << escaped(tip) << "</title><rect x=\"" << x + 1 << "\" y=\"" << y
      << "\" width=\"" << w - 2 << "\" height=\"" << h << "\" rx=\"3\" fill=\"" << fill
      << "\" stroke=\"" << stroke << "\"" << extra << "/>";
  const int size = label.size() >= 4 ? 8 : (label.size() == 3 ? 9 : 11);
  out << "<text x=\"" << x + w / 2 << "\" y=\"" << y + h / 2 + size / 2 - 1 << "\" font-size=\""
      << size << "\" text-anchor=\"middle\" fill=\"" << text << "\">" << escaped(label)
      << "</text></g>\n";
}

void label(std::ostream& out, int y, const std::string& text, const char* fill = "#555555") {
  out << "<text x=\"" << kLeft - 8 << "\" y=\"" << y << "\" font-size=\"11\" text-anchor=\"end\" "
      << "fill=\"" << fill << "\">" << escaped(text) << "</text>\n";
}

void write_phase(std::ostream& out, const BankMap& m, int index, int y0) {
  const Phase& phase = m.phases[static_cast<std::size_t>(index)];
  const kit::BankReport& r = m.report;
  const kit::WarpAccess& a = m.request.access;
  const int total = r.wavefronts;

  std::string heading = "phase " + std::to_string(index) + ": lanes " + lane_ranges(phase.lanes) +
                        ", " + std::to_string(phase.wavefronts) +
                        (phase.wavefronts == 1 ? " wavefront" : " wavefronts");
  out << "<text x=\"" << kMargin << "\" y=\"" << y0 + 15
      << "\" font-size=\"12\" font-weight=\"bold\" fill=\"#333333\">" << escaped(heading)
      << "</text>\n";

  const int lane_y = y0 + kPanelTop;
  const int bank_y = lane_y + kBox + kLineDrop;
  const int word_y = bank_y + kBox + 6;

  // Lines first, so the boxes sit on top of them.
  for (int lane : phase.lanes) {
    const kit::LaneDetail& d = r.lanes[lane];
    const std::string colour = wavefront_colour(d.wavefront, total);
    for (int k = 0; k < d.words; ++k) {
      const int bank = static_cast<int>((d.word + static_cast<std::uint32_t>(k)) % kit::kNumBanks);
      out << "<line x1=\"" << column_centre(lane) << "\" y1=\"" << lane_y + kBox << "\" x2=\""
          << column_centre(bank) << "\" y2=\"" << bank_y << "\" stroke=\"" << colour
          << "\" stroke-width=\"1.5\" stroke-opacity=\"0.85\"/>\n";
    }
  }

  label(out, lane_y + 13, "lane");
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {
    const kit::LaneDetail& d = r.lanes[lane];
    const std::string n = std::to_string(lane);
    const std::string where = "lane " + n + ": offset " + std::to_string(a.address[lane]);
    if (!d.active) {
      box(out, column_x(lane), lane_y, kColumn, kBox, "#f4f4f4", "#bbbbbb", n, "#aaaaaa",
          where + ", inactive", " stroke-dasharray=\"3,2\"");
    } else if (d.phase != index) {
      box(out, column_x(lane), lane_y, kColumn, kBox, "#ffffff", "#dddddd", n, "#bbbbbb",
          where + ", served in phase " + std::to_string(d.phase));
    } else {
      const std::string fill = wavefront_colour(d.wavefront, total);
      box(out, column_x(lane), lane_y, kColumn, kBox, fill, "#ffffff", n, text_on(fill),
          where + ", bank " + std::to_string(d.bank) + ", word " + std::to_string(d.word) +
              ", wavefront " + std::to_string(d.wavefront));
    }
  }

  label(out, bank_y + 13, "bank");
  for (int bank = 0; bank < kit::kNumBanks; ++bank) {
    const auto& stack = phase.banks[bank];
    const bool conflict = stack.size() > 1;
    const std::string tip = "bank " + std::to_string(bank) + ": " + std::to_string(stack.size()) +
                            (stack.size() == 1 ? " word" : " words");
    box(out, column_x(bank), bank_y, kColumn, kBox, conflict ? "#fdecea" : "#ffffff",
        conflict ? kConflict : "#999999", std::to_string(bank), conflict ? kConflict : "#333333",
        tip, conflict ? " stroke-width=\"2\"" : "");
  }

  for (int row = 0; row < depth(phase); ++row) {
    label(out, word_y + row * kRow + 12, "wf " + std::to_string(phase.first_wavefront + row));
  }
  for (int bank = 0; bank < kit::kNumBanks; ++bank) {
    const auto& stack = phase.banks[bank];
    for (std::size_t k = 0; k < stack.size(); ++k) {
      const WordRequest& w = stack[k];
      const std::string fill = wavefront_colour(w.wavefront, total);
      box(out, column_x(bank), word_y + static_cast<int>(k) * kRow, kColumn, kRow - 2, fill,
          "#ffffff", std::to_string(w.word), text_on(fill),
          "word " + std::to_string(w.word) + " (bank " + std::to_string(bank) + "), wavefront " +
              std::to_string(w.wavefront) + ", lane" + (w.lanes.size() > 1 ? "s " : " ") +
              lane_ranges(w.lanes));
    }
  }
}

} // namespace

void write_svg(std::ostream& out, const BankMap& m) {
  const kit::BankReport& r = m.report;
  const int total = r.wavefronts;
  const int per_row = kit::kNumBanks;
  const int legend_rows = (total + per_row - 1) / per_row;

  int height = kHeader;
  for (const Phase& phase : m.phases) {
    height += panel_height(phase);
  }
  const int caption_y = height + 4;
  const int legend_y = height + kLegendRow;
  height = legend_y + legend_rows * kLegendRow + kMargin;

  std::string summary = verdict(r);
  if (r.phases > 1) {
    summary += " — " + std::to_string(r.phases) + " phases: ";
    for (int p = 0; p < r.phases; ++p) {
      summary += (p ? " + " : "") + std::to_string(r.phase_wavefronts[p]);
    }
  }

  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kWidth << " " << height
      << "\" role=\"img\" aria-labelledby=\"title\" font-family=\"" << kFont << "\">\n";
  out << "<title id=\"title\">" << escaped(m.request.title + ": " + summary) << "</title>\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  out << "<text x=\"" << kMargin << "\" y=\"26\" font-size=\"16\" font-weight=\"bold\" "
      << "fill=\"#1b1b1b\">" << escaped(m.request.title) << "</text>\n";
  out << "<text x=\"" << kMargin << "\" y=\"46\" font-size=\"13\" fill=\""
      << (r.wavefronts > r.ideal ? kConflict : "#2e7d32") << "\">" << escaped(summary)
      << "</text>\n";

  int y = kHeader;
  for (std::size_t p = 0; p < m.phases.size(); ++p) {
    write_phase(out, m, static_cast<int>(p), y);
    y += panel_height(m.phases[p]);
  }

  out << "<text x=\"" << kLeft << "\" y=\"" << caption_y << "\" font-size=\"11\" fill=\"#555555\">"
      << "Under each bank: the words it is asked for, one row per wavefront. A red bank is asked "
         "for more than one word: a conflict.</text>\n";
  label(out, legend_y + 13, "wavefront");
  for (int w = 0; w < total; ++w) {
    const std::string fill = wavefront_colour(w, total);
    box(out, column_x(w % per_row), legend_y + (w / per_row) * kLegendRow, kColumn, kBox, fill,
        "#ffffff", std::to_string(w), text_on(fill), "wavefront " + std::to_string(w));
  }
  out << "</svg>\n";
}

} // namespace bank_map
