// An instructor's hidden test for lesson 01, the example of docs/instructors.md ("Hidden
// tests"). It is compiled against the student's lessons/01_no_conflict like the course's own
// tests, and its tests are named student/lesson01/hidden/<Suite>.<Name>, labelled `hidden`.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include <exercise.hpp>

#include "kit/config.hpp"

namespace {

// The visible test tries a few block sizes; this one tries them all: the block's thread
// numbers, reversed, are what the readback must give thread by thread.
TEST(HiddenLayout, ReadbackReversesEveryBlockSize) {
  for (int count = 1; count <= lesson01::kBlockThreads; ++count) {
    std::vector<int> reversed(static_cast<std::size_t>(count));
    std::iota(reversed.rbegin(), reversed.rend(), 0);
    for (int t = 0; t < count; ++t) {
      ASSERT_EQ(lesson01::reversed_thread(t, count), reversed[static_cast<std::size_t>(t)])
          << "thread " << t << " of a block of " << count;
    }
  }
}

// Bank and word over the whole 32-bit range, against the kit's definitions (the model).
TEST(HiddenBanks, BankAndWordAgreeWithTheModelEverywhere) {
  constexpr std::uint64_t kStep = 4093; // prime: every bank, every byte offset within a word
  for (std::uint64_t a = 0; a <= 0xffffffffu; a += kStep) {
    const auto address = static_cast<std::uint32_t>(a);
    ASSERT_EQ(lesson01::bank_of(address), kit::bank_of(address)) << "byte address " << address;
    ASSERT_EQ(lesson01::word_of(address), kit::word_of(address)) << "byte address " << address;
  }
}

} // namespace
