// What a test needs against what a GPU offers (kit/needs.hpp): the sentences of
// needs_cases.txt, which the grader's tools/course/model/needs.py reads too; the profiles of
// common/gpu_profiles.json; the names a manifest's `tests` entry matches; a test's needs from
// its lesson's and its entries'.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kit/needs.hpp"

namespace {

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream s(text);
  std::string part;
  while (std::getline(s, part, sep)) {
    parts.push_back(part);
  }
  return parts;
}

kit::Needs parse_needs(const std::string& spec) {
  kit::Needs n;
  if (spec == "-") {
    return n;
  }
  for (const std::string& token : split(spec, ',')) {
    if (token.rfind("cc=", 0) == 0) {
      const auto dot = token.find('.');
      n.compute_capability =
          std::stoi(token.substr(3, dot - 3)) * 10 + std::stoi(token.substr(dot + 1));
    } else if (token.rfind("smem=", 0) == 0) {
      n.shared_memory_per_block = std::stoul(token.substr(5));
    } else if (token == "tma") {
      n.tma = true;
    } else if (token == "ldmatrix") {
      n.ldmatrix = true;
    } else if (token == "stmatrix") {
      n.stmatrix = true;
    } else if (token == "wide_rules") {
      n.wide_rules = true;
    } else if (token == "ldmatrix_rule") {
      n.ldmatrix_rule = true;
    } else {
      ADD_FAILURE() << "needs_cases.txt: unknown need '" << token << "'";
    }
  }
  return n;
}

kit::Capabilities profile_capabilities(const std::string& arch) {
  const kit::GpuProfile* p = kit::gpu_profile(arch);
  EXPECT_NE(p, nullptr) << arch << " is not a profile of common/gpu_profiles.json";
  return p ? kit::capabilities_of(p->compute_capability, p->shared_memory_per_block)
           : kit::Capabilities{};
}

TEST(Needs, SentencesAreTheCasesFile) {
  const std::string file =
      std::string(__FILE__).substr(0, std::string(__FILE__).rfind('/')) + "/needs_cases.txt";
  std::ifstream in(file);
  ASSERT_TRUE(in) << "cannot read " << file;
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    const auto cols = split(line, '\t');
    ASSERT_EQ(cols.size(), 3u) << "needs_cases.txt: not three tab-separated columns: " << line;
    const auto why = kit::unmet_need(parse_needs(cols[1]), profile_capabilities(cols[0]));
    EXPECT_EQ(why.value_or("-"), cols[2]) << "profile " << cols[0] << ", needs " << cols[1];
    ++cases;
  }
  EXPECT_GT(cases, 0) << file << " holds no case";
}

TEST(Needs, ASimulatedProfileSaysSo) {
  kit::Capabilities c = profile_capabilities("sm_86");
  c.simulated = "sm_86";
  kit::Needs n;
  n.tma = true;
  EXPECT_EQ(
      kit::unmet_need(n, c).value_or(""),
      "needs the TMA (sm_90 and later); this GPU is sm_86 (simulated: KIT_GPU_PROFILE=sm_86)");
}

TEST(Needs, AnUnlistedArchitectureTakesTheFeaturesBelowItButNotTheRules) {
  // sm_87 (not a row): sm_86's features; sm_91: sm_90's features, but the bank model's rules
  // were measured on sm_90 itself only.
  const kit::Capabilities orin = kit::capabilities_of(87, 166912);
  EXPECT_FALSE(orin.tma);
  EXPECT_TRUE(orin.ldmatrix);
  EXPECT_EQ(orin.arch, "sm_87");
  EXPECT_EQ(orin.shared_memory_per_block, 166912u);
  const kit::Capabilities next = kit::capabilities_of(91, 232448);
  EXPECT_TRUE(next.tma);
  EXPECT_TRUE(next.stmatrix);
  EXPECT_FALSE(next.wide_rules);
  EXPECT_FALSE(next.ldmatrix_rule);
  EXPECT_TRUE(kit::capabilities_of(90, 232448).wide_rules);
}

TEST(Needs, ProfilesAreInOrderAndDistinct) {
  const auto& profiles = kit::gpu_profiles();
  ASSERT_FALSE(profiles.empty());
  for (std::size_t i = 1; i < profiles.size(); ++i) {
    EXPECT_LT(profiles[i - 1].compute_capability, profiles[i].compute_capability)
        << profiles[i - 1].arch << " before " << profiles[i].arch;
  }
  for (const auto& p : profiles) {
    EXPECT_EQ(std::string(p.arch), "sm_" + std::to_string(p.compute_capability));
    EXPECT_LE(p.shared_memory_per_block, p.shared_memory_per_sm) << p.arch;
  }
}

TEST(Needs, NamesMatchWithStars) {
  EXPECT_TRUE(kit::name_matches("LdsmCounters.*", "LdsmCounters.DemosEqualTheModel"));
  EXPECT_TRUE(kit::name_matches("*.CountersEqualTheModel", "ScoreRowsTrace.CountersEqualTheModel"));
  EXPECT_TRUE(kit::name_matches("Demo*.Pair*Model", "DemoCounters.PairStoreEqualsTheModel"));
  EXPECT_TRUE(kit::name_matches("A.B", "A.B"));
  EXPECT_FALSE(kit::name_matches("A.B", "A.BC"));
  EXPECT_FALSE(kit::name_matches("LdsmCounters.*", "FragmentCounters.EveryLdmatrixAtItsIdeal"));
  EXPECT_FALSE(kit::name_matches("*.X", "A.Y"));
}

TEST(Needs, ATestNeedsItsLessonsAndItsEntries) {
  kit::Needs lesson;
  lesson.compute_capability = 75;
  lesson.shared_memory_per_block = 16384;
  kit::Needs more;
  more.wide_rules = true;
  more.shared_memory_per_block = 1024; // less than the lesson's: the lesson's stands
  const std::vector<kit::TestNeeds> tests = {{{"Stores.*", "X.Y"}, more}};
  const kit::Needs named = kit::needs_of(lesson, tests, "Stores.CountersEqualTheModel");
  EXPECT_TRUE(named.wide_rules);
  EXPECT_EQ(named.shared_memory_per_block, 16384u);
  EXPECT_EQ(named.compute_capability, 75);
  EXPECT_FALSE(kit::needs_of(lesson, tests, "Loads.CountersEqualTheModel").wide_rules);
  EXPECT_TRUE(kit::needs_of(lesson, tests, "X.Y").wide_rules);
}

} // namespace
