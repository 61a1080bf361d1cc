"""course.py progress: the table (CPU, GPU or "skipped: <reason>", status), the next step, its
error paths. Results come from recorded JUnit reports through a stand-in ctest."""

from __future__ import annotations

import json
import unittest

from course_testing import (FIXTURES, ToolTest, junit_case, junit_file, make_build, make_course,
                            passing_output)


class Progress(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)

    def progress(self, junit: str, listing: str = "", *extra: str):
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / junit) if "/" not in junit else junit
        if listing:
            self.env["FAKE_CTEST_LIST"] = str(FIXTURES / listing)
        return self.run_tool("course.py", "--source-dir", self.source, "progress",
                             "--build-dir", self.build, *extra)

    def row(self, out: str, number: str) -> str:
        return next(line for line in out.splitlines() if line.startswith(number + "  "))

    def test_without_a_gpu_the_gpu_column_says_skipped_and_why(self):
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        row = self.row(proc.stdout, "01")
        self.assertIn("Banks, words and wavefronts", row)
        self.assertIn("1/9", row)  # the guard passes on the starter, the 8 exercises fail
        self.assertIn("skipped: no usable GPU [1]", row)
        self.assertIn("not started", row)
        self.assertIn("[1] no usable GPU: CUDA driver version is insufficient for CUDA runtime "
                      "version (no NVIDIA driver or device on this machine)", proc.stdout)
        self.assertNotIn("Measured", proc.stdout)

    def test_it_runs_the_student_tests_into_the_build_folder(self):
        self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        run = [c for c in self.calls() if "--output-junit" in c]
        self.assertEqual(len(run), 1, self.calls())
        self.assertIn("-L ^student$", run[0])
        self.assertIn(str(self.build / "course" / "progress.xml"), run[0])

    def test_next_names_the_lesson_the_file_and_the_command(self):
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        nxt = next(line for line in proc.stdout.splitlines() if line.startswith("Next:"))
        self.assertIn("lesson 01 (Banks, words and wavefronts)", nxt)
        self.assertIn("lessons/01_no_conflict/README.md", nxt)
        self.assertIn("edit lessons/01_no_conflict/exercise.hpp (2 TODOs left)", nxt)
        self.assertIn(f"ctest --test-dir {self.build} -L lesson01", nxt)
        self.assertIn("Failing now: Banks.BankOfMatchesTheModel and 7 more.", proc.stdout)
        self.assertIn("course.py hint 01", proc.stdout)

    def test_the_preset_commands_are_named_for_the_preset_build_folder(self):
        self.build = make_build(self.source / "build" / "student", self.source)
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        self.assertIn("ctest --preset student -L lesson01", proc.stdout)

    def test_on_a_gpu_the_measurements_and_partial_skips_show(self):
        # Recorded on an H200 whose toolkit refused the counters: 2 of 6 GPU tests passed,
        # 3 skipped with the profiler's reason, 1 failed (the starter's reversal is wrong).
        proc = self.progress("junit-l01-h200.xml")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        row = self.row(proc.stdout, "01")
        self.assertIn("1/9", row)
        self.assertIn("2/6, 3 skipped [1]", row)
        self.assertIn("not started", row)  # only guards pass: no exercise yet
        self.assertIn("[1] this CUDA toolkit is too old for the Range Profiler API", proc.stdout)
        self.assertIn("Lesson 01, measured on this GPU beside the model:", proc.stdout)
        self.assertIn("'float stride 33' over 'float stride 1': measured 1.00x model 1.00x "
                      "fidelity 0.999 warps/SM 64 (pass)", proc.stdout)

    def test_on_a_gpu_with_counters_only_the_slowdowns_are_listed(self):
        # The starter with hidden tests on an H200 whose counters worked.
        proc = self.progress("junit-starter-hidden-h200.xml")
        row = self.row(proc.stdout, "01")
        self.assertIn("1/11", row)  # the two hidden tests are CPU exercises
        self.assertIn("4/6", row)
        self.assertNotIn("skipped", row)
        self.assertIn("'float stride 33' over 'float stride 1': measured 1.00x model 1.00x", proc.stdout)
        self.assertNotIn("wavefronts/request", proc.stdout)
        self.assertIn("Failing now: Banks.BankOfMatchesTheModel and 11 more.", proc.stdout)

    def test_a_lesson_that_is_not_built(self):
        proc = self.progress("junit-not-built.xml", "tests-not-built.json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("not built", self.row(proc.stdout, "01"))
        self.assertIn("Next: lesson 01 (Banks, words and wavefronts) is not built yet: run "
                      f"`cmake --build {self.build} --target lesson01`", proc.stdout)

    def test_a_lesson_that_does_not_build_says_so(self):
        # --build builds each lesson on its own first (here a stand-in cmake that fails).
        self.env["FAKE_CMAKE_FAIL"] = "lesson01"
        proc = self.progress("junit-not-built.xml", "tests-not-built.json", "--build")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("does not build", self.row(proc.stdout, "01"))
        self.assertIn("Next: lesson 01 (Banks, words and wavefronts) does not build", proc.stdout)
        self.assertIn("First error: /src/lessons/exercise.cu(12): error: expected a ';'", proc.stdout)

    def test_done_and_done_on_cpu(self):
        cpu = "cpu;exercise;lesson01;student"
        gpu = "exercise;gpu;lesson01;student"
        cases = [junit_case("student/lesson01/A.Cpu", labels=cpu, output=passing_output("A.Cpu")),
                 junit_case("student/lesson01/B.Gpu", labels=gpu, output=passing_output("B.Gpu"))]
        report = junit_file(self.tmp / "done.xml", cases)
        proc = self.progress(str(report))
        self.assertIn("1/1", self.row(proc.stdout, "01"))
        self.assertRegex(self.row(proc.stdout, "01"), r"\bdone$")
        self.assertIn("Every lesson passes every test", proc.stdout)

        skipped = ("[ RUN      ] B.Gpu\n/src/testing.cpp:1: Skipped\nno usable GPU: none here\n\n"
                   "[  SKIPPED ] B.Gpu (0 ms)\n")
        cases[1] = junit_case("student/lesson01/B.Gpu", status="notrun", labels=gpu,
                              output=skipped, skipped="SKIP_REGULAR_EXPRESSION_MATCHED")
        report = junit_file(self.tmp / "cpu-done.xml", cases)
        proc = self.progress(str(report))
        self.assertIn("done on CPU (GPU not run)", self.row(proc.stdout, "01"))
        self.assertIn("On a machine with an NVIDIA GPU", proc.stdout)

    def test_every_lesson_gets_a_row_even_without_results(self):
        make_course(self.tmp / "course2", {"01_no_conflict": None, "02_stride_two": None})
        self.source = self.tmp / "course2"
        self.build = make_build(self.tmp / "build2", self.source)
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        self.assertIn("No conflict", self.row(proc.stdout, "01"))  # no README: the folder's topic
        self.assertIn("no tests yet", self.row(proc.stdout, "02"))

    def test_the_next_lesson_is_remembered_for_watch(self):
        self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        state = json.loads((self.build / "course" / "state.json").read_text())
        self.assertEqual(state["next_lesson"], "01")

    def test_it_exits_0_whatever_the_status(self):
        for junit in ("junit-student-nogpu.xml", "junit-not-built.xml", "junit-l01-h200.xml"):
            self.assertEqual(self.progress(junit).returncode, 0, junit)


class ProgressErrors(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)

    def progress(self, *args: str):
        return self.run_tool("course.py", "--source-dir", self.source, "progress", *args)

    def test_an_unconfigured_build_folder(self):
        proc = self.progress("--build-dir", self.tmp / "nowhere")
        self.assertOneLineError(proc, 1, "cmake --preset student")
        (self.tmp / "empty").mkdir()
        proc = self.progress("--build-dir", self.tmp / "empty")
        self.assertOneLineError(proc, 1, "not a configured build folder")

    def test_bad_flags_and_numbers(self):
        self.assertOneLineError(self.progress("--build-dir", self.build, "--frobnicate"), 2,
                                "unrecognized arguments")
        self.assertOneLineError(self.progress("--build-dir", self.build, "--jobs", "0"), 2, "out of range")
        self.assertOneLineError(self.progress("--build-dir", self.build, "--jobs", "many"), 2,
                                "not a whole number")
        self.assertOneLineError(self.run_tool("course.py"), 2)
        self.assertOneLineError(self.run_tool("course.py", "grade"), 2, "invalid choice")

    def test_no_ctest(self):
        self.env["PATH"] = str(self.tmp / "empty-path")
        proc = self.progress("--build-dir", self.build)
        self.assertOneLineError(proc, 1, "ctest is not installed, or not on PATH")

    def test_missing_empty_and_malformed_reports(self):
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / "junit-student-nogpu.xml")
        proc = self.progress("--build-dir", self.build, "--junit", self.tmp / "none.xml")
        self.assertOneLineError(proc, 1, "no such JUnit file")
        (self.tmp / "empty.xml").write_text("")
        proc = self.progress("--build-dir", self.build, "--junit", self.tmp / "empty.xml")
        self.assertOneLineError(proc, 1, "empty")
        (self.tmp / "bad.xml").write_text("<testsuite><testcase name='x'>")
        proc = self.progress("--build-dir", self.build, "--junit", self.tmp / "bad.xml")
        self.assertOneLineError(proc, 1, "not valid JUnit XML")

    def test_an_unwritable_build_folder(self):
        # A file where the tools' folder should be: not writable, even for root.
        (self.build / "course" / "build.json").unlink()
        (self.build / "course").rmdir()
        (self.build / "course").write_text("not a folder")
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / "junit-student-nogpu.xml")
        proc = self.progress("--build-dir", self.build)
        self.assertOneLineError(proc, 1, "cannot write")


if __name__ == "__main__":
    unittest.main()
