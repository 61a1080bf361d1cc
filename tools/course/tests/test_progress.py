"""./course progress: each lesson built on its own first, then the table (CPU, GPU or
"skipped: <reason>", status), the next step, its error paths. A lesson is done only when its GPU
exercise tests passed. Results come from recorded JUnit reports through a stand-in ctest; the
builds from a stand-in cmake."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from course.student import progress_cache
from course_testing import (CPU, FIXTURES, GPU, TOOLS, ToolTest, failed, junit_case, junit_file,
                            make_build, make_course, passed, passing_output, skipped_gpu,
                            skipped_output, test_list)

GPU_GUARD = "gpu;guard;lesson01;student"


class Progress(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)

    def progress(self, junit: str, listing: str = "", *extra: str):
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / junit) if "/" not in junit else junit
        if listing:
            self.env["FAKE_CTEST_LIST"] = str(FIXTURES / listing)
        return self.run_tool("course.student.main", "--source-dir", self.source, "progress",
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
        self.assertEqual(len(run), 2, self.calls())  # the CPU tests, then the GPU tests
        for call, kind in zip(run, ("cpu", "gpu")):
            self.assertIn("-L ^student$ -L ^(lesson01)$ -L ^" + kind + "$ -LE ^sanitize$", call)
            self.assertIn(str(self.build / "course" / f"progress-{kind}.xml"), call)

    def test_next_names_the_lesson_the_file_and_the_command(self):
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        nxt = next(line for line in proc.stdout.splitlines() if line.startswith("Next:"))
        self.assertIn("lesson 01 (Banks, words and wavefronts)", nxt)
        self.assertIn("lessons/01_no_conflict/README.md", nxt)
        self.assertIn("edit lessons/01_no_conflict/exercise.hpp (2 TODOs left)", nxt)
        self.assertIn(f"then run `./course test 01 --build-dir {self.build}`", nxt)
        self.assertIn("Failing now: Banks.BankOfMatchesTheModel and 7 more.", proc.stdout)
        self.assertIn("`./course hint 01`", proc.stdout)

    def test_next_alone_says_the_same_next_step_without_the_table(self):
        table = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        proc = self.run_tool("course.student.main", "--source-dir", self.source, "next",
                             "--build-dir", self.build)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        wanted = [line for line in table.stdout.splitlines()
                  if line.startswith(("Next:", "Failing now:"))]
        self.assertEqual(len(wanted), 2, table.stdout)
        got = [line for line in proc.stdout.splitlines() if line.strip()]
        self.assertEqual(got[-2:], wanted)
        self.assertIsNone(next((line for line in proc.stdout.splitlines()
                                if line.startswith("01  ")), None), "no table row")
        self.assertIn("Banks, words and wavefronts", proc.stdout)

    def test_the_next_step_names_the_course_command(self):
        # In the preset's build folder the command needs no folder; elsewhere it names it.
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        self.assertIn(f"then run `./course test 01 --build-dir {self.build}`", proc.stdout)
        self.build = make_build(self.source / "build" / "student", self.source)
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        self.assertIn("then run `./course test 01`.", proc.stdout)

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
        # The demos' slowdowns are Part 1's answers: held back while the CPU part (the
        # predictions among it) does not pass.
        self.assertNotIn("measured 1.00x", proc.stdout)
        self.assertIn("Lesson 01: 2 slowdowns measured on this GPU, shown once the lesson's CPU "
                      "tests pass (your predictions are among them).", proc.stdout)

    def test_on_a_gpu_with_counters_only_the_slowdowns_are_listed(self):
        # The starter with hidden tests on an H200 whose counters worked.
        proc = self.progress("junit-starter-hidden-h200.xml")
        row = self.row(proc.stdout, "01")
        self.assertIn("1/11", row)  # the two hidden tests are CPU exercises
        self.assertIn("4/6", row)
        self.assertNotIn("skipped", row)
        self.assertNotIn("'float stride 33' over 'float stride 1': measured", proc.stdout)
        self.assertNotIn("wavefronts/request", proc.stdout)
        self.assertIn("Failing now: Banks.BankOfMatchesTheModel and 11 more.", proc.stdout)

    def test_each_lesson_is_built_on_its_own_first(self):
        self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        calls = self.calls()
        build = next(i for i, c in enumerate(calls) if c.startswith("cmake --build"))
        run = next(i for i, c in enumerate(calls) if "--output-junit" in c)
        self.assertLess(build, run, calls)
        self.assertIn(f"--build {self.build} --target lesson01", calls[build])
        status = json.loads((self.build / "course" / "build-status.json").read_text())
        self.assertEqual(status["lessons"]["lesson01"]["status"], "built")

    def test_no_build_says_the_results_may_be_old(self):
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json", "--no-build")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFalse([c for c in self.calls() if c.startswith("cmake")])
        self.assertIn("Not rebuilt (--no-build)", proc.stdout)

    def test_a_lesson_that_is_not_built(self):
        # Its tests stay registered; ctest finds no program for them ("Unable to find
        # executable"). Seen with --no-build, before the first build.
        proc = self.progress("junit-not-built.xml", "tests-not-built.json", "--no-build")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(self.row(proc.stdout, "01"), r"  -  +-  +not built yet$")
        self.assertIn("Next: lesson 01 (Banks, words and wavefronts) is not built yet: run "
                      f"`./course test 01 --build-dir {self.build}` (it builds the lesson first",
                      proc.stdout)

    def test_a_lesson_that_does_not_build_says_so(self):
        # A stand-in cmake that fails for lesson01: its first error, and its old programs'
        # results are not shown (its tests are not even run); lesson 02, built before (so
        # reached), still builds and runs.
        make_course(self.tmp / "course2", {"01_no_conflict": None, "02_stride_two": None})
        self.source = self.tmp / "course2"
        self.build = make_build(self.tmp / "build2", self.source)
        self.env["FAKE_CMAKE_FAIL"] = "lesson01-cpu"
        program = self.tmp / "lesson02_student_cpu"
        program.write_text("built")
        listing = test_list(self.tmp / "built.json",
                            {"student/lesson01/A.Cpu": CPU,
                             "student/lesson02/A.Cpu": CPU.replace("01", "02")},
                            {"student/lesson01/A.Cpu": "", "student/lesson02/A.Cpu": str(program)})
        proc = self.progress("junit-student-nogpu.xml", str(listing))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(self.row(proc.stdout, "01"), r"  -  +-  +does not build$")
        self.assertIn("Next: lesson 01 (No conflict) does not build", proc.stdout)
        self.assertIn("First error: /src/lessons/exercise.cu(12): error: expected a ';' (the "
                      f"whole log: {self.build / 'course' / 'build-lesson01.log'})", proc.stdout)
        # Lesson 02 is reached: its programs are built (kept current). Both at once first;
        # that failed, so each on its own.
        self.assertEqual(self.targets(),
                         ["lesson01-cpu lesson02-cpu", "lesson01-cpu", "lesson02-cpu"])
        # lesson01's tests are not run; lesson02's are (it has CPU tests only).
        runs = [c for c in self.calls() if "--output-junit" in c]
        self.assertEqual(len(runs), 1, runs)
        self.assertIn("-L ^(lesson02)$ -L ^cpu$", runs[0])

    def two_lessons(self) -> None:
        make_course(self.tmp / "course2", {"01_no_conflict": None, "02_stride_two": None})
        self.source = self.tmp / "course2"
        self.build = make_build(self.tmp / "build2", self.source)

    def targets(self) -> list:
        return [c.split("--target ")[1].split(" -j")[0] for c in self.calls()
                if c.startswith("cmake")]

    def test_a_lesson_past_the_first_unfinished_one_is_built_when_reached(self):
        # The first build makes what the student needs first: lesson 01, whose CPU tests fail.
        self.two_lessons()
        listing = test_list(self.tmp / "two.json",
                            {"student/lesson01/A.Cpu": CPU,
                             "student/lesson02/A.Cpu": CPU.replace("01", "02")},
                            {"student/lesson01/A.Cpu": "", "student/lesson02/A.Cpu": ""})
        proc = self.progress(str(junit_file(self.tmp / "one.xml", [failed("A.Cpu")])),
                             str(listing))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.targets(), ["lesson01-cpu"])
        row = self.row(proc.stdout, "02")
        self.assertRegex(row, r"  not built yet \[\d\]  +-  +not started$")
        self.assertIn("not built yet is not failed: a lesson's CPU tests are built when you reach "
                      "it (the lessons before it pass theirs, or you edit its files), or now with "
                      "`./course test NN --cpu", proc.stdout)
        self.assertIn("Next: lesson 01", proc.stdout)

    def test_the_next_lesson_is_built_once_the_cpu_part_before_it_passes(self):
        self.two_lessons()
        cases = [passed("A.Cpu", CPU), skipped_gpu("B.Gpu"),
                 junit_case("student/lesson02/A.Cpu", labels=CPU.replace("01", "02"),
                            status="fail", failure=True, output="crash")]
        self.env["FAKE_CTEST_LIST"] = str(test_list(
            self.tmp / "two.json", {"student/lesson01/A.Cpu": CPU,
                                    "student/lesson01/B.Gpu": GPU.replace("exercise", "exercise"),
                                    "student/lesson02/A.Cpu": CPU.replace("01", "02")}))
        proc = self.progress(str(junit_file(self.tmp / "two.xml", cases)))
        self.assertEqual(self.targets(), ["lesson01-cpu", "lesson02-cpu"])
        self.assertNotIn("not built yet", self.row(proc.stdout, "02"))
        self.assertIn("Next: lesson 02", proc.stdout)

    def test_a_lesson_built_before_is_kept_current(self):
        self.two_lessons()
        program = self.tmp / "lesson02_student_cpu"
        program.write_text("built")
        self.env["FAKE_CTEST_LIST"] = str(test_list(
            self.tmp / "built.json", {"student/lesson01/A.Cpu": CPU,
                                      "student/lesson02/A.Cpu": CPU.replace("01", "02")},
            {"student/lesson01/A.Cpu": "", "student/lesson02/A.Cpu": str(program)}))
        self.progress(str(junit_file(self.tmp / "one.xml", [failed("A.Cpu")])))
        self.assertEqual(self.targets(), ["lesson01-cpu lesson02-cpu"])

    def test_done_when_the_gpu_exercise_tests_passed(self):
        cases = [passed("A.Cpu", CPU), passed("B.Gpu", GPU)]
        proc = self.progress(str(junit_file(self.tmp / "done.xml", cases)))
        self.assertIn("1/1", self.row(proc.stdout, "01"))
        self.assertRegex(self.row(proc.stdout, "01"), r"\bdone \(GPU exercise tests passed\)$")
        self.assertIn("Every lesson passes every test", proc.stdout)
        # A GPU guard that could not run (e.g. too few warps per SM) does not hold it back.
        cases.append(skipped_gpu("C.GpuGuard", GPU_GUARD))
        proc = self.progress(str(junit_file(self.tmp / "done-guard-skipped.xml", cases)))
        self.assertRegex(self.row(proc.stdout, "01"), r"\bdone \(GPU exercise tests passed\)$")

    def test_a_test_this_gpu_cannot_run_is_beyond_it_and_says_what_it_needs(self):
        need = "needs the TMA (sm_90 and later); this GPU is sm_86"
        beyond = junit_case("student/lesson01/C.Tma", status="notrun", labels=GPU,
                            output=skipped_output("C.Tma", need),
                            skipped="SKIP_REGULAR_EXPRESSION_MATCHED")
        cases = [passed("A.Cpu", CPU), passed("B.Gpu", GPU), beyond]
        proc = self.progress(str(junit_file(self.tmp / "beyond.xml", cases)))
        self.assertIn("1/2, 1 beyond this GPU [1]", self.row(proc.stdout, "01"))
        self.assertIn(f"[1] {need}", proc.stdout)

    def test_without_a_gpu_a_lesson_is_never_done(self):
        # Every CPU test passes; the GPU exercise test is skipped: the kernel is unchecked.
        cases = [passed("A.Cpu", CPU), skipped_gpu("B.Gpu")]
        proc = self.progress(str(junit_file(self.tmp / "cpu-only.xml", cases)))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        row = self.row(proc.stdout, "01")
        self.assertTrue(row.endswith("CPU part done \u2014 kernel not checked on a GPU"), row)
        self.assertNotRegex(proc.stdout, r"(?i)\bdone \(")
        self.assertIn("are not checked on a GPU here, so they are not finished", proc.stdout)
        self.assertIn("On a machine with an NVIDIA GPU", proc.stdout)
        state = json.loads((self.source / ".course" / "state.json").read_text())
        self.assertEqual(state["last_progress"]["01"], "CPU part done \u2014 kernel not checked "
                                                       "on a GPU")

    def test_the_cpu_only_lesson_gives_way_to_the_next(self):
        make_course(self.tmp / "course2", {"01_no_conflict": None, "02_stride_two": None})
        self.source = self.tmp / "course2"
        self.build = make_build(self.tmp / "build2", self.source)
        cases = [passed("A.Cpu", CPU), skipped_gpu("B.Gpu"),
                 junit_case("student/lesson02/A.Cpu", labels=CPU.replace("01", "02"),
                            status="fail", failure=True, output="crash")]
        proc = self.progress(str(junit_file(self.tmp / "two.xml", cases)))
        self.assertIn("Next: lesson 02", proc.stdout)

    def test_every_lesson_gets_a_row_even_without_results(self):
        make_course(self.tmp / "course2", {"01_no_conflict": None, "02_stride_two": None})
        self.source = self.tmp / "course2"
        self.build = make_build(self.tmp / "build2", self.source)
        proc = self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        self.assertIn("No conflict", self.row(proc.stdout, "01"))  # no README: the folder's topic
        self.assertIn("no tests yet", self.row(proc.stdout, "02"))

    def test_the_next_lesson_is_remembered_for_watch(self):
        self.progress("junit-student-nogpu.xml", "tests-student-nogpu.json")
        state = json.loads((self.source / ".course" / "state.json").read_text())
        self.assertEqual(state["next_lesson"], "01")

    def test_it_exits_0_whatever_the_status(self):
        for junit in ("junit-student-nogpu.xml", "junit-not-built.xml", "junit-l01-h200.xml"):
            self.assertEqual(self.progress(junit).returncode, 0, junit)


class ProgressOnAGpu(ToolTest):
    """With GPU test programs (a GPU machine): a lesson's are built once its CPU tests pass;
    results of unchanged lessons are shown again, not re-run."""

    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source, gpu_programs=True)
        # The sanitizer run's program is python, always there: it says nothing of whether the
        # lesson's GPU program is built.
        memcheck = "student/lesson01/memcheck/gpu_exercise_b_test"
        self.listing = test_list(self.tmp / "tests.json",
                                 {"student/lesson01/A.Cpu": CPU, "student/lesson01/B.Gpu": GPU,
                                  memcheck: "gpu;guard;lesson01;memcheck;sanitize;student"},
                                 {"student/lesson01/A.Cpu": "/b/lesson01_student_cpu",
                                  "student/lesson01/B.Gpu": "", memcheck: sys.executable})
        self.env["FAKE_CTEST_LIST"] = str(self.listing)

    def progress(self, cases, *extra: str):
        self.env["FAKE_CTEST_JUNIT"] = str(junit_file(self.tmp / "r.xml", cases))
        self.log.write_text("")
        return self.run_tool("course.student.main", "--source-dir", self.source, "progress",
                             "--build-dir", self.build, *extra)

    def targets(self):
        return [c.split("--target ")[1].split(" -j")[0] for c in self.calls()
                if c.startswith("cmake")]

    def row(self, out: str) -> str:
        return next(line for line in out.splitlines() if line.startswith("01  "))

    def test_a_lesson_whose_cpu_tests_fail_builds_only_its_cpu_programs(self):
        failing = failed("A.Cpu")
        proc = self.progress([failing])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.targets(), ["lesson01-cpu"])
        row = self.row(proc.stdout)
        self.assertIn("0/1", row)
        self.assertIn("not built yet [1]", row)
        self.assertTrue(row.endswith("not started"), row)
        self.assertIn("[1] not built yet is not failed: a lesson's GPU tests are built once its "
                      "CPU tests pass", proc.stdout)

    def test_a_lesson_whose_cpu_tests_pass_builds_its_gpu_programs(self):
        proc = self.progress([passed("A.Cpu", CPU), passed("B.Gpu", GPU)])
        self.assertEqual(self.targets(), ["lesson01-cpu", "lesson01"])
        self.assertIn("Building the GPU tests of lesson(s) 01", proc.stdout)
        runs = [c for c in self.calls() if "--output-junit" in c]
        self.assertEqual(len(runs), 2, self.calls())

    def test_the_measurements_show_once_the_cpu_part_passes(self):
        line = "'float stride 33' over 'float stride 1': measured 1.00x model 1.00x (pass)"
        gpu = junit_case("student/lesson01/B.Gpu", labels=GPU,
                         output=passing_output("B.Gpu", f"[kit-slowdown] {line}\n"))
        proc = self.progress([passed("A.Cpu", CPU), gpu])
        self.assertIn("Lesson 01, measured on this GPU beside the model:", proc.stdout)
        self.assertIn(f"  B.Gpu: {line}", proc.stdout)
        proc = self.progress([failed("A.Cpu"), gpu])
        self.assertNotIn(line, proc.stdout)

    def test_unchanged_lessons_show_their_last_results(self):
        cases = [passed("A.Cpu", CPU), passed("B.Gpu", GPU)]
        self.progress(cases)
        proc = self.progress(cases)
        self.assertEqual([c for c in self.calls() if "--output-junit" in c], [], self.calls())
        self.assertIn("Not run again (their test programs and your files are unchanged since, on "
                      "this machine, GPU and driver): the results of lesson(s) 01 from ", proc.stdout)
        self.assertIn("./course progress --rerun", proc.stdout)
        self.assertIn("1/1", self.row(proc.stdout))
        # --rerun runs them all the same; an edited exercise file runs them again.
        proc = self.progress(cases, "--rerun")
        self.assertEqual(len([c for c in self.calls() if "--output-junit" in c]), 2)
        self.assertNotIn("Not run again", proc.stdout)
        self.progress(cases)
        self.assertEqual([c for c in self.calls() if "--output-junit" in c], [])
        exercise = self.source / "lessons" / "01_no_conflict" / "exercise.cu"
        exercise.write_text(exercise.read_text() + "// edited\n")
        self.progress(cases)
        self.assertEqual(len([c for c in self.calls() if "--output-junit" in c]), 2)

    def test_a_new_self_check_record_is_another_machine(self):
        # The kit reads the record (KIT_SELF_CHECK): with a new one, a test skipped for rules
        # not verified may run, so GPU results kept before it are not shown again.
        before = progress_cache.machine_key(self.build)
        record = self.build / "self-check" / "rules.json"
        record.parent.mkdir()
        record.write_text('{"verified": true}\n')
        verified = progress_cache.machine_key(self.build)
        self.assertNotEqual(before, verified)
        self.assertEqual(verified, progress_cache.machine_key(self.build))
        record.write_text('{"verified": false}\n')
        self.assertNotEqual(verified, progress_cache.machine_key(self.build))

    def test_a_changed_program_runs_its_tests_again(self):
        program = self.tmp / "lesson01_student_cpu"
        program.write_text("one")
        test_list(self.listing, {"student/lesson01/A.Cpu": CPU, "student/lesson01/B.Gpu": GPU},
                  {"student/lesson01/A.Cpu": str(program), "student/lesson01/B.Gpu": ""})
        failing = failed("A.Cpu")
        self.progress([failing])
        self.progress([failing])
        self.assertEqual([c for c in self.calls() if "--output-junit" in c], [])
        program.write_text("two")  # same size, same time would not matter: its hash changed
        self.progress([failing])
        self.assertEqual(len([c for c in self.calls() if "--output-junit" in c]), 1)

    def test_a_crash_is_not_kept(self):
        crashed = junit_case("student/lesson01/A.Cpu", labels=CPU, status="fail", failure=True,
                             output="")
        self.progress([crashed])
        self.progress([crashed])
        self.assertEqual(len([c for c in self.calls() if "--output-junit" in c]), 1)


class ProgressErrors(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)

    def progress(self, *args: str):
        return self.run_tool("course.student.main", "--source-dir", self.source, "progress", *args)

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
        self.assertOneLineError(self.run_tool("course.student.main"), 2)
        self.assertOneLineError(self.run_tool("course.student.main", "grade"), 2, "invalid choice")

    def test_no_cmake_or_no_ctest(self):
        self.env["PATH"] = str(self.tmp / "empty-path")
        proc = self.progress("--build-dir", self.build)
        self.assertOneLineError(proc, 1, "is not installed, or not on PATH")
        only_ctest = self.tmp / "only-ctest"
        only_ctest.mkdir()
        shutil.copy2(self.bin / "ctest", only_ctest / "ctest")
        self.env["PATH"] = str(only_ctest)  # the stand-in ctest, no cmake
        proc = self.progress("--build-dir", self.build)
        self.assertOneLineError(proc, 1, "cmake is not installed, or not on PATH")
        (self.bin / "ctest").unlink()
        self.env["PATH"] = str(self.bin)  # the stand-in cmake, no ctest
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
        shutil.rmtree(self.build / "course")
        (self.build / "course").write_text("not a folder")
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / "junit-student-nogpu.xml")
        proc = self.progress("--build-dir", self.build)
        self.assertOneLineError(proc, 1, "cannot write")


# A lesson's test program for the real build below: a pass, and a GPU test that skips.
FAKE_TEST_PROGRAM = r"""
#include <cstdio>
#include <cstring>
int main(int argc, char** argv) {
  if (argc > 1 && std::strstr(argv[1], "Pass")) {
    std::printf("[ RUN      ] A.Pass\n[       OK ] A.Pass (0 ms)\n[  PASSED  ] 1 test.\n");
  } else {
    std::printf("[ RUN      ] A.Gpu\n/x.cpp:1: Skipped\nno usable GPU: none here\n\n"
                "[  SKIPPED ] A.Gpu (0 ms)\n");
  }
  return 0;
}
"""

TINY_COURSE = r"""
cmake_minimum_required(VERSION 3.20)
project(tiny LANGUAGES CXX)
enable_testing()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(COURSE_TREES student)
add_subdirectory("{tools}" course-tools)
foreach(folder IN ITEMS 01_a 02_b)
  string(SUBSTRING ${{folder}} 0 2 n)
  set_property(GLOBAL APPEND PROPERTY COURSE_LESSONS ${{folder}})
  add_executable(lesson${{n}}_student_cpu tests/${{folder}}/cpu_exercise_x_test.cpp)
  add_custom_target(lesson${{n}})
  add_dependencies(lesson${{n}} lesson${{n}}_student_cpu)
  add_custom_target(lesson${{n}}-cpu)
  add_dependencies(lesson${{n}}-cpu lesson${{n}}_student_cpu)
  foreach(test IN ITEMS Pass Gpu)
    set(name student/lesson${{n}}/A.${{test}})
    add_test(NAME ${{name}} COMMAND lesson${{n}}_student_cpu --gtest_filter=A.${{test}})
    set_tests_properties(${{name}} PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
  endforeach()
  set_tests_properties(student/lesson${{n}}/A.Pass PROPERTIES LABELS "lesson${{n}};student;exercise;cpu")
  set_tests_properties(student/lesson${{n}}/A.Gpu PROPERTIES LABELS "lesson${{n}};student;exercise;gpu")
endforeach()
"""


def real_build_tools() -> str:
    """'' when cmake, ctest and a C++ compiler are here; else what is missing."""
    missing = [t for t in ("cmake", "ctest") if not shutil.which(t)]
    if not (shutil.which("c++") or shutil.which("g++")):
        missing.append("a C++ compiler")
    return ", ".join(missing)


@unittest.skipIf(real_build_tools(), f"needs {real_build_tools()} for a real build")
class RealBuild(unittest.TestCase):
    """`cmake --build <dir> --target progress` on a two-lesson course built by the real cmake
    and run by the real ctest (host code only): lesson 02 does not compile."""

    def test_a_broken_lesson_shows_its_error_and_hides_no_other(self):
        with tempfile.TemporaryDirectory(prefix="tiny-course-") as tmp:
            root = make_course(Path(tmp), {"01_a": None, "02_b": None})
            for folder in ("01_a", "02_b"):
                (root / "tests" / folder / "cpu_exercise_x_test.cpp").write_text(FAKE_TEST_PROGRAM)
            with (root / "tests" / "02_b" / "cpu_exercise_x_test.cpp").open("a") as f:
                f.write("this does not compile;\n")
            (root / "CMakeLists.txt").write_text(TINY_COURSE.format(tools=TOOLS.as_posix()))
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            build = root / "build" / "student"
            run = dict(capture_output=True, text=True, env=env, timeout=300)
            configure = subprocess.run(["cmake", "-S", str(root), "-B", str(build),
                                        f"-DPython3_EXECUTABLE={sys.executable}"], **run)
            self.assertEqual(configure.returncode, 0, configure.stdout + configure.stderr)
            before = subprocess.run([sys.executable, str(TOOLS / "course.py"), "progress",
                                     "--build-dir", str(build), "--no-build"], **run)
            self.assertRegex(before.stdout, r"01  A +-  +-  +not built yet")
            proc = subprocess.run(["cmake", "--build", str(build), "--target", "progress"], **run)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            self.assertIn("building lesson01-cpu (A) ... built", proc.stdout)
            self.assertIn("building lesson02-cpu (B) ... did not build: ", proc.stdout)
            self.assertRegex(proc.stdout, r"01  A +1/1 +skipped: no usable GPU \[1\] +CPU part "
                                          r"done \u2014 kernel not checked on a GPU")
            self.assertRegex(proc.stdout, r"02  B +- +- +does not build")
            self.assertRegex(proc.stdout, r"First error: .*cpu_exercise_x_test\.cpp:\d+:\d+: error")
            self.assertNotRegex(proc.stdout, r"(?i)\bdone \(")


if __name__ == "__main__":
    unittest.main()
