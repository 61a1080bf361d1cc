/// @file bands.hpp
/// @brief The one rule that decides whether a measured slowdown agrees with the model.
///
/// A slowdown test measures kernel A against kernel B in one run and asks the model for the
/// ratio r of their wavefronts. The measured ratio passes when it lies in the band around r:
/// for r = 1, between 0.95 and 1.05; otherwise between 0.80 r and 1.15 r (and on the right
/// side of 1). The course aims higher (fidelity, measured / model, of 0.95 or better); the
/// tools report fidelity, the tests assert the band.
#pragma once

#include <algorithm>

namespace kit {

/// Lower edge of the band as a fraction of the model's ratio (r != 1).
inline constexpr double kBandLowFactor = 0.80;
/// Upper edge of the band as a fraction of the model's ratio (r != 1).
inline constexpr double kBandHighFactor = 1.15;
/// Lower edge of the band when the model says "no slowdown" (r = 1).
inline constexpr double kUnitBandLow = 0.95;
/// Upper edge of the band when the model says "no slowdown" (r = 1).
inline constexpr double kUnitBandHigh = 1.05;
/// The fidelity (measured / model) the course aims at; reported, not asserted.
inline constexpr double kTargetFidelity = 0.95;

/// A closed interval of acceptable measured slowdowns.
struct Band {
  double low;  ///< Smallest acceptable ratio.
  double high; ///< Largest acceptable ratio.
  /// True when `measured` lies inside the band.
  constexpr bool contains(double measured) const { return measured >= low && measured <= high; }
};

/// The band of acceptable measured slowdowns for a model ratio `r` (> 0).
constexpr Band slowdown_band(double r) {
  if (r - 1.0 < 1e-9 && 1.0 - r < 1e-9) {
    return {kUnitBandLow, kUnitBandHigh};
  }
  Band b{kBandLowFactor * r, kBandHighFactor * r};
  // A predicted slowdown must not pass as "no change", nor a predicted speed-up.
  if (r > 1.0) {
    b.low = std::max(b.low, kUnitBandHigh);
  } else {
    b.high = std::min(b.high, kUnitBandLow);
  }
  return b;
}

/// True when a measured slowdown agrees with the model ratio `r`.
constexpr bool in_band(double measured, double r) {
  return slowdown_band(r).contains(measured);
}

} // namespace kit
