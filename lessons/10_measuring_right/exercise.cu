#include <exercise.hpp>

#include "kit/buffer.hpp"
#include "kit/cuda_check.hpp"

// Part 3: make this benchmark tell the truth. Write the harness yourself, with CUDA events
// and the occupancy API (cudaOccupancyMaxActiveBlocksPerMultiprocessor): the kit's timer,
// which does all of it, is not allowed here (a test reads this file to check).

namespace lesson10 {

HarnessPlan plan_harness() {
  // TODO: fill every SM of the GPU (the starter below is one warp on one SM). Ask the device
  // how many SMs it has and how many blocks of your block size fit on one SM, launch that many
  // on every SM, give each thread enough reads that a launch lasts long enough to time, and
  // plan the untimed warm-up launches and the timed repeats.
  HarnessPlan plan;
  plan.launch.blocks = 1;
  plan.launch.block_threads = kit::kWarpSize;
  plan.launch.rounds = 512;
  plan.warmup = 1;
  plan.repeats = 1;
  return plan;
}

HarnessResult run_harness(const HarnessPlan& plan) {
  kit::DeviceBuffer<float> sink(1);
  kit::Event start, stop;
  // TODO: this times one launch of each kernel (after plan.warmup untimed ones). Time
  // plan.repeats launches of each, and keep a figure that one slow launch cannot move.
  const auto time_one = [&](Probe p) {
    start.record();
    launch_probe(p, plan.launch, sink.get());
    stop.record();
    stop.synchronize();
    return static_cast<double>(stop.ms_since(start));
  };
  for (int i = 0; i < plan.warmup; ++i) {
    time_one(Probe::conflict);
    time_one(Probe::twin);
  }
  HarnessResult r;
  r.conflict_ms = time_one(Probe::conflict);
  r.twin_ms = time_one(Probe::twin);
  return r;
}

} // namespace lesson10
