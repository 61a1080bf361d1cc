// A kernel measured against the ideal of its trace (GPU tests only): what an exercise's
// counter test expects once every shared-memory instruction is conflict-free.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "kit/counters.hpp"
#include "kit/testing.hpp"
#include "kit/trace.hpp"

namespace lesson04::testing {

/// Measures `launch` in `session`, prints its report line (`what`, against the model of
/// `trace`), and expects the requests of the trace with every load and every store at its
/// ideal wavefronts. `loads` and `stores` name the kernel's loads and stores in the messages.
inline void expect_ideal_counts(kit::CounterSession& session, const std::string& what,
                                const kit::Trace& trace, const std::function<void()>& launch,
                                const std::string& loads, const std::string& stores) {
  const kit::SharedCounters c = session.measure(launch);
  kit::testing::report(what, c, trace.expected());
  const kit::SharedCounts ideal = trace.ideal();
  EXPECT_EQ(c.sass.load_requests, ideal.load_requests)
      << what << " does not issue the loads its trace describes";
  struct Side {
    const std::string& name;
    std::uint64_t wavefronts, ideal, requests;
  };
  for (const Side& s :
       {Side{loads, c.sass.load_wavefronts, ideal.load_wavefronts, c.sass.load_requests},
        Side{stores, c.sass.store_wavefronts, ideal.store_wavefronts, c.sass.store_requests}}) {
    EXPECT_EQ(s.wavefronts, s.ideal)
        << s.name << " conflict: " << s.wavefronts << " wavefronts for " << s.requests
        << " requests ("
        << (s.requests > 0 ? static_cast<double>(s.wavefronts) / static_cast<double>(s.requests)
                           : 0.0)
        << " per request; ideal " << s.ideal << ")";
  }
}

} // namespace lesson04::testing
