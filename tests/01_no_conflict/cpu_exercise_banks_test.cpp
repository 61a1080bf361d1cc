// Part 2: bank_of and word_of against the bank model's definitions (no GPU needed). A failure
// is reported at the function's line in exercise.hpp.
#include <gtest/gtest.h>

#include <exercise.hpp>

#include "kit/config.hpp"
#include "kit/testing_exercise.hpp"

namespace {

TEST(Banks, BankOfMatchesTheModel) {
  for (unsigned a = 0; a < 4096; ++a) {
    KIT_ASSERT_EQ_AT_EXERCISE("bank_of", lesson01::bank_of(a), kit::bank_of(a))
        << "byte address " << a;
  }
  for (unsigned a : {65536u, 1u << 20, 123456789u, 0xfffffffcu}) {
    KIT_ASSERT_EQ_AT_EXERCISE("bank_of", lesson01::bank_of(a), kit::bank_of(a))
        << "byte address " << a;
  }
}

TEST(Banks, WordOfMatchesTheModel) {
  for (unsigned a = 0; a < 4096; ++a) {
    KIT_ASSERT_EQ_AT_EXERCISE("word_of", lesson01::word_of(a), kit::word_of(a))
        << "byte address " << a;
  }
  for (unsigned a : {65536u, 1u << 20, 123456789u, 0xfffffffcu}) {
    KIT_ASSERT_EQ_AT_EXERCISE("word_of", lesson01::word_of(a), kit::word_of(a))
        << "byte address " << a;
  }
}

} // namespace
