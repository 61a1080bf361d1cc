// The kit's probe kernels, launched from host code compiled by the host compiler.
#pragma once

namespace kit {

/// Launches, on the default stream, a kernel of one warp with exactly one shared store and
/// one shared load request (one wavefront each), to check a counter session end to end.
/// `out` is a device array of 32 unsigned.
void launch_counter_probe(unsigned* out);

} // namespace kit
