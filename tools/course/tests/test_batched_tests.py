"""batched_tests: a program's tests in as few processes as can be; a process keeps its verdicts
up to its first failure, and a test that skipped or did not finish runs on its own through
ctest. A stand-in GoogleTest program (course_testing.FAKE_GTEST) runs the tests its filter
names, each as $FAKE_BATCH says."""

from __future__ import annotations

import sys
import unittest

from course_testing import FAKE_GTEST, ToolTest, junit_case, junit_file, passing_output

from course.model.ctest_results import ASSERTION, CRASH, PASS, TestInfo, read_junit
from course.model import batched_tests



class Batched(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.program = self.bin / "lesson01_student_gpu"
        self.program.write_text(FAKE_GTEST.format(python=sys.executable))
        self.program.chmod(0o755)
        self.build = self.tmp / "build"
        self.build.mkdir()

    def info(self, short: str, **props) -> TestInfo:
        return TestInfo(f"student/lesson01/{short}", ["lesson01", "student", "gpu", "perf"],
                        [str(self.program), f"--gtest_filter={short}"], True,
                        {"TIMEOUT": 60, **props})

    def run_batch(self, modes: str, alone_cases, shorts):
        import os
        os.environ["FAKE_BATCH"] = modes
        os.environ["FAKE_LOG"] = str(self.log)
        os.environ["PATH"] = self.env["PATH"]
        os.environ["FAKE_CTEST_JUNIT"] = str(junit_file(self.tmp / "alone.xml", alone_cases))
        tests = {i.name: i for i in (self.info(s) for s in shorts)}
        junit = self.build / "out.xml"
        lines = []
        results = batched_tests.run_batched(self.build, tests, list(tests), junit,
                                            say=lambda *a, **k: lines.append(" ".join(a)))
        return results, junit, lines

    def test_a_failure_ends_its_process_and_a_skip_or_a_crash_runs_on_its_own(self):
        alone = [junit_case("student/lesson01/S.Skip", output=passing_output("S.Skip")),
                 junit_case("student/lesson01/S.Crash", status="fail", failure=True,
                            output="[ RUN      ] S.Crash\n")]
        results, junit, lines = self.run_batch("S.Fail=fail,S.Skip=skip,S.Crash=crash",
                                               alone, ["S.Pass", "S.Fail", "S.Skip", "S.Crash",
                                                       "S.After"])
        # S.Pass and S.Fail from the first process (the failure was its first); S.Skip and
        # S.Crash on their own; S.After in a process of its own after the crash.
        self.assertEqual({n.split("/")[-1]: r.status for n, r in results.items()},
                         {"S.Pass": PASS, "S.Fail": ASSERTION, "S.Skip": PASS,
                          "S.Crash": CRASH, "S.After": PASS})
        run = [c for c in self.calls() if c.startswith("ctest")]
        self.assertEqual(len(run), 1, run)
        self.assertIn(r"-R ^(student/lesson01/S\.Skip|student/lesson01/S\.Crash)$", run[0])
        self.assertIn("5 test(s) in 4 process(es), 3 with a verdict", lines[0])
        self.assertEqual(len(read_junit(junit)), 5)
        # A verdict kept from a program's run has its output, with the program's first lines.
        kept = read_junit(junit)["student/lesson01/S.Pass"]
        self.assertIn("[kit-device] Test GPU (sm_90, 1 SMs)", kept.output)
        self.assertIn("[kit-slowdown] measured 2.00x", kept.output)
        self.assertEqual(kept.labels, ["lesson01", "student", "gpu", "perf"])
        failed = read_junit(junit)["student/lesson01/S.Fail"]
        self.assertIn("x.cpp:3: Failure", failed.output)

    def test_every_pass_in_one_process_runs_nothing_again(self):
        results, _, lines = self.run_batch("S.X=pass", [], ["S.A", "S.B"])
        self.assertEqual({r.status for r in results.values()}, {PASS})
        self.assertEqual([c for c in self.calls() if c.startswith("ctest")], [])
        self.assertIn("2 test(s) in 1 process(es)", lines[0])

    def test_the_working_folder_is_ctests(self):
        info = self.info("S.A", WORKING_DIRECTORY=str(self.tmp))
        self.assertEqual(batched_tests.gtest_name(info), "S.A")

    def test_a_test_with_its_own_environment_runs_on_its_own(self):
        info = self.info("S.Env", ENVIRONMENT=["A=1"])
        self.assertIsNone(batched_tests.gtest_name(info))
        self.assertIsNone(batched_tests.gtest_name(TestInfo("x", [], ["p", "--gtest_filter=A.*"])))
        self.assertEqual(batched_tests.gtest_name(self.info("S.A")), "S.A")

    def test_the_output_is_split_by_test(self):
        pre, parts = batched_tests.split_output(
            "[kit-device] G\n[ RUN      ] A.B\nx\n[       OK ] A.B (1 ms)\n"
            "[ RUN      ] A.C\ny.cpp:1: Failure\n[  FAILED  ] A.C (3 ms)\ntrailing\n")
        self.assertEqual(pre, "[kit-device] G")
        self.assertEqual(parts["A.B"], "[ RUN      ] A.B\nx\n[       OK ] A.B (1 ms)\n")
        self.assertEqual(parts["A.C"], "[ RUN      ] A.C\ny.cpp:1: Failure\n[  FAILED  ] A.C (3 ms)\n")


class Programs(unittest.TestCase):
    def test_a_missing_program_gives_no_case(self):
        self.assertEqual(batched_tests.run_program("/nonexistent/program", ["A.B"], 5), [])


if __name__ == "__main__":
    unittest.main()
