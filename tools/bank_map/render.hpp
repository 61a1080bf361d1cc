/// @file tools/bank_map/render.hpp
/// @brief The three ways bank-map shows a bank map: text, JSON and SVG.
#pragma once

#include <ostream>

#include "map.hpp"

namespace bank_map {

/// Which lane hits which bank and word in each phase, the conflicts, and last
/// `wavefronts: W (ideal I)`.
void write_text(std::ostream& out, const BankMap& map);

/// One JSON object: width, op, wavefronts, ideal, phases and every lane's detail.
void write_json(std::ostream& out, const BankMap& map);

/// A picture: lanes on top, banks below with the words asked of each, one colour per
/// wavefront. Deterministic: the same request always gives the same bytes.
void write_svg(std::ostream& out, const BankMap& map);

} // namespace bank_map
