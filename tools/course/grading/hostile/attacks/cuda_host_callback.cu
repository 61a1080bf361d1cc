// attack: a CUDA host callback (cudaLaunchHostFunc): student code the CUDA runtime runs on its own thread, whenever the stream reaches it
// lesson: 10
// file: exercise.cu
// refused: CUDA host callbacks and device state
// @replace-function run_harness
HarnessResult run_harness(const HarnessPlan& plan) {
  kit::DeviceBuffer<float> sink(1);
  cudaLaunchHostFunc(nullptr, [](void*) {}, nullptr);
  launch_probe(Probe::conflict, plan.launch, sink.get());
  HarnessResult r;
  r.conflict_ms = 32.0;
  r.twin_ms = 1.0;
  return r;
}
