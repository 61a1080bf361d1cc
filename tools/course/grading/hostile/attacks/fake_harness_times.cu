// attack: a harness that makes its times up (the model's ratio, 32x) instead of measuring: the speed test trusts the times run_harness returns unless it measures the same plan itself
// lesson: 10
// file: exercise.cu
// refused: nothing (the speed test's own measurement of the same plan stops it, on a GPU)
// @replace-function run_harness
HarnessResult run_harness(const HarnessPlan& plan) {
  kit::DeviceBuffer<float> sink(1);
  for (int i = 0; i < plan.warmup + plan.repeats; ++i) {
    launch_probe(Probe::conflict, plan.launch, sink.get());
    launch_probe(Probe::twin, plan.launch, sink.get());
  }
  HarnessResult r;
  r.conflict_ms = 32.0;
  r.twin_ms = 1.0;
  return r;
}
