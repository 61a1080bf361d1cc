"""model/needs.py: a test's needs from its lesson's manifest against a GPU's capabilities, in
the kit's sentences (tests/common/needs_cases.txt, which the kit's own test reads too); and the
grader listing a test whose need its machine does not meet as not gradable, without running it."""

from __future__ import annotations

import fnmatch
import os
import re
import unittest
from pathlib import Path

from course_testing import ROOT
from course.authoring.gpu_table import graded_tests, test_names
from course.grading import grade_tests
from course.grading.grade_tests import Machine, Planned, Runner, declared_needs
from course.grading.sandbox import Sandbox
from course.model.course_model import find_lessons
from course.model.manifest import GpuNeeds, TestNeeds
from course.model.needs import (PROFILES_CPP, Capabilities, Needs, capabilities_of,
                               from_cpu_recording, needs_of, profiles_cpp, read_profiles, unmet)

CASES = ROOT / "tests" / "common" / "needs_cases.txt"


def parse_needs(spec: str) -> Needs:
    fields = {}
    for token in ([] if spec == "-" else spec.split(",")):
        if token.startswith("cc="):
            major, minor = token[3:].split(".")
            fields["compute_capability"] = int(major) * 10 + int(minor)
        elif token.startswith("smem="):
            fields["shared_memory_per_block"] = int(token[5:])
        else:
            fields[token] = True
    return Needs(**fields)


class Sentences(unittest.TestCase):
    def setUp(self):
        self.profiles = read_profiles(ROOT)

    def caps(self, arch: str) -> Capabilities:
        row = next(r for r in self.profiles.rows if r.arch == arch)
        return capabilities_of(self.profiles, row.compute_capability, row.shared_memory_per_block)

    def test_the_cases_file_as_the_kit_reads_it(self):
        cases = 0
        for line in CASES.read_text().splitlines():
            if not line or line.startswith("#"):
                continue
            arch, spec, sentence = line.split("\t")
            with self.subTest(arch=arch, needs=spec):
                self.assertEqual(unmet(parse_needs(spec), self.caps(arch), self.profiles) or "-",
                                 sentence)
            cases += 1
        self.assertGreater(cases, 0)

    def test_the_kits_profiles_are_the_json_rows(self):
        # The kit reads kit/gpu_profiles.inc (kit/needs.hpp); `regenerate` writes it.
        self.assertEqual((ROOT / PROFILES_CPP).read_text(), profiles_cpp(ROOT),
                         "./course-admin regenerate writes common/include/kit/gpu_profiles.inc")

    def test_refused_counters(self):
        caps = Capabilities("sm_90", 90, 232448, True, True, True, counters=False,
                            counters_reason="ERR_NVGPUCTRPERM")
        self.assertEqual(unmet(Needs(counters=True), caps, self.profiles),
                         "needs the hardware counters, refused on this machine: ERR_NVGPUCTRPERM")
        self.assertIsNone(unmet(Needs(), caps, self.profiles))

    def test_an_unlisted_architecture(self):
        sm87 = capabilities_of(self.profiles, 87, 166912)
        self.assertEqual((sm87.arch, sm87.tma, sm87.ldmatrix, sm87.wide_rules),
                         ("sm_87", False, True, False))
        self.assertFalse(capabilities_of(self.profiles, 91, 232448).wide_rules)
        self.assertTrue(capabilities_of(self.profiles, 90, 232448).wide_rules)


class DeclaredNeeds(unittest.TestCase):
    LESSON = GpuNeeds("7.5", False, True, False, 16384, True,
                      (TestNeeds(("Stores.*",), "8-byte stores", wide_rules=True),
                       TestNeeds(("Ldsm.*",), "ldmatrix", ldmatrix_rule=True)))

    def test_a_test_needs_its_lessons_and_its_entries(self):
        self.assertEqual(needs_of(self.LESSON, "Stores.Pair", counters=True),
                         Needs(75, False, True, False, 16384, True, False, True))
        self.assertEqual(needs_of(self.LESSON, "Loads.Pair", counters=False),
                         Needs(75, False, True, False, 16384, False, False, False))

    def test_every_entry_names_gpu_tests_of_its_lesson(self):
        # A renamed test would leave an entry that names nothing: its need would go unsaid.
        for lesson in find_lessons(ROOT):
            gpu = {t.name for t in graded_tests(lesson, ROOT) if t.gpu}
            for entry in lesson.manifest.gpu.tests:
                for pattern in entry.tests:
                    with self.subTest(lesson=lesson.number, pattern=pattern):
                        self.assertTrue(any(fnmatch.fnmatchcase(n, pattern) for n in gpu),
                                        f"lesson {lesson.number}'s gpu.tests names {pattern}, "
                                        f"which is none of its GPU tests")

    def test_tests_that_call_the_exercises_host_code_are_graded_alone(self):
        # Where a manifest keeps only some tests apart (grade_tests_alone.tests), every GPU test
        # file that names a function of the lesson's exercise .cu files (host code, such as
        # lesson 10's harness) must have each of its tests among them: the others share a
        # process when graded, and none of them may run that code.
        for lesson in find_lessons(ROOT):
            m = lesson.manifest
            if not m.grade_tests_alone_tests:
                continue
            defined = set()
            for cu in sorted((ROOT / "lessons" / lesson.folder).glob("exercise*.cu")):
                defined |= set(re.findall(r"^[A-Za-z_][\w:<>, *&]*?\b(\w+)\([^;]*$",
                                          cu.read_text(), re.M))
            self.assertTrue(defined, f"lesson {lesson.number}: no function found in its "
                                     f"exercise .cu files")
            named_any = False
            for path in sorted((ROOT / "tests" / lesson.folder).glob("*_test.cpp")):
                if not path.name.startswith(("gpu_", "perf_")):
                    continue
                text = path.read_text()
                calls = sorted(f for f in defined if re.search(rf"\b{f}\s*\(", text))
                for name in test_names(text) if calls else ():
                    named_any = True
                    with self.subTest(test=name):
                        self.assertTrue(m.graded_alone(name),
                                        f"{path.name} calls {', '.join(calls)} (the exercise's "
                                        f"host code), and {name} is not among lesson "
                                        f"{lesson.number}'s grade_tests_alone.tests")
            self.assertTrue(named_any, f"lesson {lesson.number}: no GPU test calls its "
                                       f"exercise's host code, yet grade_tests_alone.tests says so")

    def test_the_cpu_recording_names_counter_tests_that_measure_recorded_launches(self):
        # A pattern that names nothing would leave a counter test not gradable where it could
        # be graded; one that names a test reading the counters themselves would fail it from
        # the CPU recording (kit::testing::CounterTest::session throws there).
        for lesson in find_lessons(ROOT):
            counters = {t.name for t in graded_tests(lesson, ROOT) if "counters" in t.labels}
            for pattern in lesson.manifest.gpu.cpu_recording:
                with self.subTest(lesson=lesson.number, pattern=pattern):
                    named = {n for n in counters if fnmatch.fnmatchcase(n, pattern)}
                    self.assertTrue(named, f"lesson {lesson.number}'s gpu.cpu_recording names "
                                           f"{pattern}, which is none of its counter tests")
            for path in sorted((ROOT / "tests" / lesson.folder).glob("gpu_*counters_test.cpp")):
                text = path.read_text()
                for name in test_names(text):
                    if from_cpu_recording(lesson.manifest.gpu, name):
                        with self.subTest(test=name):
                            body = text[text.index(name.split(".")[1]):]
                            body = body[:body.find("\nTEST") if "\nTEST" in body else None]
                            self.assertNotIn("session()", body,
                                             f"{name} reads the counters themselves")

    def test_every_lessons_gpu_tests_from_the_course(self):
        planned = [Planned(f"student/lesson{lesson.number}/Some.Test", [f"lesson{lesson.number}",
                                                                       "student", "gpu"],
                           ["prog", "--gtest_filter=Some.Test"], 60, False, 1, "/", {}, None)
                   for lesson in find_lessons(ROOT)]
        needs = declared_needs(planned, ROOT)
        self.assertEqual(set(needs), {t.name for t in planned})
        lesson11 = needs["student/lesson11/Some.Test"]
        self.assertTrue(lesson11.tma)
        self.assertEqual(lesson11.compute_capability, 90)

    def test_the_sandbox_never_passes_a_simulated_profile(self):
        # KIT_GPU_PROFILE is the kit's own tests' switch: a grading run's tests never see it.
        saved = os.environ.get("KIT_GPU_PROFILE")
        os.environ["KIT_GPU_PROFILE"] = "sm_75"
        try:
            env = Sandbox(None, "none here").environment(Path("/scratch"), {})
        finally:
            if saved is None:
                del os.environ["KIT_GPU_PROFILE"]
            else:
                os.environ["KIT_GPU_PROFILE"] = saved
        self.assertNotIn("KIT_GPU_PROFILE", env)

    def test_not_gradable_without_running(self):
        test = Planned("student/lesson11/Modes.Copy", ["lesson11", "student", "gpu", "counters"],
                       ["/nonexistent/program", "--gtest_filter=Modes.Copy"], 60, True, 1, "/", {},
                       None)
        sm86 = Machine(True, description="NVIDIA A10G (sm_86, 72 SMs)", counters=True,
                       arch="sm_86", compute_capability=86, shared_memory_per_block=101376,
                       ldmatrix=True)
        runner = Runner(None, Path("/nonexistent"), sm86,
                        needs=declared_needs([test], ROOT), profiles=read_profiles(ROOT))
        v = runner.run(test)
        self.assertEqual(v.status, grade_tests.NOT_GRADABLE)
        self.assertEqual(v.detail, "needs compute capability 9.0 (sm_90) or later; this GPU is "
                                   "sm_86")
        refused = Machine(True, counters=False, counters_reason="ERR_NVGPUCTRPERM", arch="sm_90",
                          compute_capability=90, shared_memory_per_block=232448, tma=True,
                          ldmatrix=True, stmatrix=True, wide_rules=True, ldmatrix_rule=True)
        v = Runner(None, Path("/nonexistent"), refused, needs=declared_needs([test], ROOT),
                   profiles=read_profiles(ROOT)).run(test)
        self.assertEqual(v.status, grade_tests.NOT_GRADABLE)
        self.assertIn("counters, refused on this machine: ERR_NVGPUCTRPERM", v.detail)


if __name__ == "__main__":
    unittest.main()
