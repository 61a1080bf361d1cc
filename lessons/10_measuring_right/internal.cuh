/// @file lessons/10_measuring_right/internal.cuh
/// @brief Lesson 10's plumbing: event timing of a batch of launches and the RAII helpers the
/// setups share. You do not need to read or edit this file.
#pragma once

#include <cuda_runtime_api.h>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"

namespace lesson10::internal {

/// Milliseconds per launch of `launches` calls of `launch()`, timed with one pair of events
/// around the whole batch (what the small demos do).
template <class Launch>
double events_per_launch(int launches, Launch&& launch) {
  kit::Event start, stop;
  start.record();
  for (int i = 0; i < launches; ++i) {
    launch();
  }
  stop.record();
  stop.synchronize();
  return static_cast<double>(stop.ms_since(start)) / launches;
}

} // namespace lesson10::internal
