"""The fail-first check: exercise tests must fail on the starter with a real assertion and pass
on the solution; guard tests must pass on both. Run against recorded-style JUnit reports."""

from __future__ import annotations

import unittest

from course_testing import (ToolTest, failing_output, junit_case, junit_file, make_build,
                            make_course, passing_output, skipped_output)


def case(tree: str, name: str, role: str, kind: str, output: str, **kw) -> str:
    labels = f"lesson01;{tree};{role};{kind}"
    return junit_case(f"{tree}/lesson01/{name}", labels=labels, output=output, **kw)


class FailFirst(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.build = make_build(self.tmp / "build", make_course(self.tmp / "src"))

    def check(self, cases, *args):
        junit = junit_file(self.tmp / "report.xml", cases)
        self.env["FAKE_CTEST_JUNIT"] = str(junit)
        return self.run_tool("course.ci.fail_first", "--build-dir", self.build, *args)

    def sound(self):
        return [
            case("student", "Banks.BankOf", "exercise", "cpu", failing_output("Banks.BankOf"),
                 status="fail", failure=True),
            case("solution", "Banks.BankOf", "exercise", "cpu", passing_output("Banks.BankOf")),
            case("student", "Layout.Permutation", "guard", "cpu", passing_output("Layout.Permutation")),
            case("solution", "Layout.Permutation", "guard", "cpu",
                 passing_output("Layout.Permutation")),
        ]

    def test_a_sound_course_passes(self):
        p = self.check(self.sound(), "--mode", "cpu")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("lesson01: 1 exercise, 1 guard", p.stdout)

    def test_an_exercise_that_passes_on_the_starter_is_a_violation(self):
        cases = self.sound()
        cases[0] = case("student", "Banks.BankOf", "exercise", "cpu", passing_output("Banks.BankOf"))
        p = self.check(cases, "--mode", "cpu")
        self.assertEqual(p.returncode, 1)
        self.assertIn("Banks.BankOf [student]: an exercise test must fail on the starter", p.stdout)

    def test_a_crash_is_not_an_assertion_failure(self):
        cases = self.sound()
        cases[0] = case("student", "Banks.BankOf", "exercise", "cpu",
                        "[ RUN      ] Banks.BankOf\n", status="fail", failure=True)
        p = self.check(cases, "--mode", "cpu")
        self.assertEqual(p.returncode, 1)
        self.assertIn("got crash", p.stdout)

    def test_a_guard_failing_on_the_starter_is_a_violation(self):
        cases = self.sound()
        cases[2] = case("student", "Layout.Permutation", "guard", "cpu",
                        failing_output("Layout.Permutation"), status="fail", failure=True)
        p = self.check(cases, "--mode", "cpu")
        self.assertEqual(p.returncode, 1)
        self.assertIn("a guard test must pass on the starter", p.stdout)

    def test_a_skip_checks_nothing(self):
        cases = self.sound() + [
            case("student", "Gpu.Reverse", "exercise", "gpu",
                 skipped_output("Gpu.Reverse", "no usable GPU: x"), status="notrun",
                 skipped="SKIP_REGULAR_EXPRESSION_MATCHED"),
            case("solution", "Gpu.Reverse", "exercise", "gpu",
                 skipped_output("Gpu.Reverse", "no usable GPU: x"), status="notrun",
                 skipped="SKIP_REGULAR_EXPRESSION_MATCHED"),
        ]
        p = self.check(cases, "--mode", "gpu", "--junit", self.tmp / "report.xml")
        self.assertEqual(p.returncode, 1)
        self.assertIn("skipped (no usable GPU: x): nothing was checked", p.stdout)

    def test_a_test_in_one_tree_only_is_a_violation(self):
        p = self.check(self.sound()[:3], "--mode", "cpu")
        self.assertEqual(p.returncode, 1)
        self.assertIn("Layout.Permutation: ran in one tree only", p.stdout)

    def test_malformed_and_empty_reports(self):
        bad = self.tmp / "bad.xml"
        bad.write_text("<testsuite><testcase name=")
        p = self.run_tool("course.ci.fail_first", "--build-dir", self.build, "--mode", "cpu",
                          "--junit", bad)
        self.assertOneLineError(p, 1, "not valid JUnit XML")
        bad.write_text("")
        p = self.run_tool("course.ci.fail_first", "--build-dir", self.build, "--mode", "cpu",
                          "--junit", bad)
        self.assertOneLineError(p, 1, "empty")

    def test_bad_usage(self):
        p = self.run_tool("course.ci.fail_first", "--build-dir", self.tmp / "nowhere", "--mode", "cpu")
        self.assertOneLineError(p, 2, "is not a configured build folder")
        p = self.run_tool("course.ci.fail_first", "--build-dir", self.build, "--mode", "fast")
        self.assertEqual(p.returncode, 2)

    def test_gpu_mode_without_a_gpu_skips(self):
        self.env["PATH"] = str(self.bin)  # no nvidia-smi
        p = self.run_tool("course.ci.fail_first", "--build-dir", self.build, "--mode", "gpu")
        self.assertEqual(p.returncode, 77, p.stdout + p.stderr)
        self.assertIn("skipped", p.stdout)


if __name__ == "__main__":
    unittest.main()
