"""./course watch: rebuilds and reruns a lesson's tests when its files change, or on Enter in
manual mode; stops on q. cmake and ctest are stand-ins that log their calls."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import unittest

from course_testing import (CPU, FAKE_GTEST, FIXTURES, GPU, TOOLS, ToolTest, junit_case,
                            junit_file, make_build, make_course, passed, passing_output, test_list)

#: The labels of a GPU guard test of lesson 01 (must pass on the starter too).
GPU_GUARD = "gpu;guard;lesson01;student"


class Watch(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course", {"01_no_conflict": None, "02_stride_two": None})
        self.build = make_build(self.tmp / "build", self.source)
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / "junit-student-nogpu.xml")
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-student-nogpu.json")

    def builds(self):
        return [c for c in self.calls() if c.startswith("cmake --build")]

    def start(self, *args: str) -> subprocess.Popen:
        proc = subprocess.Popen(
            [sys.executable, str(TOOLS / "course.py"), "--source-dir", str(self.source), "watch",
             "--build-dir", str(self.build), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env=self.env)
        self.lines = []
        self.reader = threading.Thread(target=lambda: self.lines.extend(iter(proc.stdout.readline, "")),
                                       daemon=True)
        self.reader.start()
        self.addCleanup(self.stop, proc)
        return proc

    def stop(self, proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        self.reader.join(timeout=5)
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def wait_for(self, predicate, what: str, timeout: float = 20) -> None:
        end = time.time() + timeout
        while time.time() < end:
            if predicate():
                return
            time.sleep(0.05)
        self.fail(f"timed out waiting for {what}; output:\n{''.join(self.lines)}\ncalls: {self.calls()}")

    def test_once(self):
        proc = self.run_tool("course.student.main", "--source-dir", self.source, "watch", "--build-dir",
                             self.build, "01", "--once")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.builds()), 1)
        self.assertIn("--target lesson01", self.builds()[0])
        run = [c for c in self.calls() if c.startswith("ctest") and "--output-junit" in c]
        self.assertIn("-L ^lesson01$ -L ^student$", run[0])
        self.assertIn("Lesson 01: CPU 1/9, GPU skipped: no usable GPU [1]: not started", proc.stdout)
        self.assertIn("Failing: Banks.BankOfMatchesTheModel and 7 more.", proc.stdout)

    def test_cpu_builds_the_cpu_programs_and_runs_the_cpu_tests(self):
        proc = self.run_tool("course.student.main", "--source-dir", self.source, "watch", "--build-dir",
                             self.build, "01", "--once", "--cpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--target lesson01-cpu", self.builds()[0])
        run = [c for c in self.calls() if c.startswith("ctest") and "--output-junit" in c]
        self.assertIn("-L ^lesson01$ -L ^student$ -L ^cpu$", run[0])
        self.assertIn("Lesson 01, CPU part: 1/9 passed; the GPU tests were not run (--cpu).",
                      proc.stdout)

    def test_a_lesson_that_does_not_build(self):
        self.env["FAKE_CMAKE_FAIL"] = "lesson01"
        proc = self.run_tool("course.student.main", "--source-dir", self.source, "watch", "--build-dir",
                             self.build, "01", "--once")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("error: expected a ';'", proc.stdout)
        self.assertIn("Lesson 01 does not build: fix the error above and save.", proc.stdout)
        self.assertFalse([c for c in self.calls() if c.startswith("ctest")])

    def test_the_next_lesson_by_default(self):
        (self.source / ".course").mkdir()
        (self.source / ".course" / "state.json").write_text('{"next_lesson": "02"}')
        proc = self.run_tool("course.student.main", "--source-dir", self.source, "watch", "--build-dir",
                             self.build, "--once")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--target lesson02", self.builds()[0])

    def test_a_change_reruns_and_q_stops(self):
        proc = self.start("01", "--interval", "0.1")
        self.wait_for(lambda: any("Watching" in line for line in self.lines), "the first run")
        self.assertEqual(len(self.builds()), 1)
        time.sleep(0.2)
        exercise = self.source / "lessons" / "01_no_conflict" / "exercise.hpp"
        exercise.write_text("edited\n")
        st = exercise.stat()
        os.utime(str(exercise), ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
        self.wait_for(lambda: len(self.builds()) == 2 and sum("Lesson 01: CPU" in x for x in self.lines) == 2,
                      "a rerun after the change")
        self.assertTrue(any("Changed: lessons/01_no_conflict/exercise.hpp" in x for x in self.lines))
        proc.stdin.write("q\n")
        proc.stdin.flush()
        self.assertEqual(proc.wait(timeout=10), 0)

    def test_a_rerun_starts_on_a_clear_screen(self):
        # --clear always, as a terminal would get by default; a pipe (auto) never does.
        for mode, clears in (("always", True), ("auto", False)):
            with self.subTest(mode=mode):
                self.lines = []
                proc = self.start("01", "--manual", "--interval", "0.1", "--clear", mode)
                self.wait_for(lambda: any("Manual mode" in line for line in self.lines),
                              "the first run")
                proc.stdin.write("\n")
                proc.stdin.flush()
                self.wait_for(lambda: sum("Lesson 01: CPU" in x for x in self.lines) == 2,
                              "a rerun on Enter")
                proc.stdin.close()
                self.assertEqual(proc.wait(timeout=10), 0)
                text = "".join(self.lines)
                first = text.index("Lesson 01: CPU")
                self.assertNotIn("\x1b[2J", text[:first], "the first run keeps what came before")
                self.assertEqual("\x1b[2J\x1b[H" in text[first:], clears)

    def test_manual_mode_reruns_on_enter_only(self):
        proc = self.start("01", "--manual", "--interval", "0.1")
        self.wait_for(lambda: any("Manual mode" in line for line in self.lines), "the first run")
        (self.source / "lessons" / "01_no_conflict" / "exercise.hpp").write_text("edited\n")
        time.sleep(0.5)
        self.assertEqual(len(self.builds()), 1, "manual mode must not react to changes")
        proc.stdin.write("\n")
        proc.stdin.flush()
        self.wait_for(lambda: len(self.builds()) == 2, "a rerun on Enter")
        proc.stdin.close()  # end of input ends manual mode
        self.assertEqual(proc.wait(timeout=10), 0)

    def test_errors(self):
        def watch(*args):
            return self.run_tool("course.student.main", "--source-dir", self.source, "watch", *args)
        self.assertOneLineError(watch("--build-dir", self.tmp / "nowhere", "01"), 1, "cmake --preset student")
        self.assertOneLineError(watch("--build-dir", self.build, "01", "--interval", "soon"), 2,
                                "not a number of seconds")
        self.assertOneLineError(watch("--build-dir", self.build, "01", "--interval", "0"), 2, "out of range")
        self.assertOneLineError(watch("--build-dir", self.build, "99"), 1, "there is no lesson 99")
        self.assertOneLineError(watch("--build-dir", self.build, "one"), 2, "not a lesson number")


class LessonTest(ToolTest):
    """./course test NN [--cpu]: build the lesson's target, run its tests, print the verdict."""

    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)

    def lesson_test(self, junit, *args: str):
        self.env["FAKE_CTEST_JUNIT"] = str(junit)
        return self.run_tool("course.student.main", "--source-dir", self.source, "test", "--build-dir",
                             self.build, "01", *args)

    def test_failing_tests_exit_1(self):
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-student-nogpu.json")
        proc = self.lesson_test(FIXTURES / "junit-student-nogpu.xml")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("--target lesson01 ", self.calls()[0] + " ")
        self.assertIn("Lesson 01: CPU 1/9, GPU skipped: no usable GPU [1]: not started", proc.stdout)

    def test_the_cpu_part_passing_is_not_done(self):
        cases = [junit_case("student/lesson01/A.Cpu", labels="cpu;exercise;lesson01;student",
                            output=passing_output("A.Cpu"))]
        # Both tests are registered; the --cpu run has a result for the CPU one only.
        self.env["FAKE_CTEST_LIST"] = str(test_list(self.tmp / "list.json", {
            "student/lesson01/A.Cpu": "cpu;exercise;lesson01;student",
            "student/lesson01/B.Gpu": "exercise;gpu;lesson01;student"}))
        proc = self.lesson_test(junit_file(self.tmp / "cpu.xml", cases[:1]), "--cpu")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("Lesson 01, CPU part: 1/1 passed; the GPU tests were not run (--cpu).",
                      proc.stdout)
        self.assertIn("The CPU part passes. `./course test 01` builds the "
                      "kernel and checks it on a GPU.", proc.stdout)
        self.assertNotRegex(proc.stdout, r"(?i)\bdone\b")

    def gpu_lesson(self, batch: str):
        """Lesson 01 on a GPU machine: a CPU test through ctest, three GPU exercise tests and a
        GPU guard of one built program (a stand-in that runs them as `batch` says)."""
        program = self.tmp / "lesson01_student_gpu"
        program.write_text(FAKE_GTEST.format(python=sys.executable))
        program.chmod(0o755)
        gpu = {"student/lesson01/G.Counters": GPU, "student/lesson01/G.Output": GPU,
               "student/lesson01/G.Speed": GPU, "student/lesson01/G.Guard": GPU_GUARD}
        self.env["FAKE_CTEST_LIST"] = str(test_list(
            self.tmp / "list.json", {"student/lesson01/A.Cpu": CPU, **gpu},
            programs={n: str(program) for n in gpu}))
        self.env["FAKE_BATCH"] = batch
        return self.lesson_test(junit_file(self.tmp / "cpu.xml", [passed("A.Cpu")]))

    def test_on_a_gpu_the_gpu_tests_run_in_one_process_and_each_keeps_its_verdict(self):
        proc = self.gpu_lesson("")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        # ctest runs the CPU tests; the GPU program runs its three tests in one process.
        run = [c for c in self.calls() if c.startswith("ctest") and "--output-junit" in c]
        self.assertEqual(len(run), 1, self.calls())
        self.assertIn("-L ^lesson01$ -L ^student$", run[0])
        self.assertIn("-LE ^(sanitize|gpu)$", run[0])
        programs = [c for c in self.calls() if c.startswith("lesson01_student_gpu")]
        self.assertEqual(programs, ["lesson01_student_gpu G.Counters:G.Output:G.Speed:G.Guard"])
        self.assertRegex(proc.stdout, r"student/lesson01/G\.Speed \.+ +Passed")
        self.assertIn("Lesson 01: CPU 1/1, GPU 4/4", proc.stdout)

    def test_on_a_gpu_a_failing_gpu_test_is_named_and_the_rest_still_run(self):
        proc = self.gpu_lesson("G.Output=fail")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        programs = [c for c in self.calls() if c.startswith("lesson01_student_gpu")]
        # The tests after a failure run again in a new process (a kernel's sticky CUDA error
        # would fail them all).
        self.assertEqual(programs, ["lesson01_student_gpu G.Counters:G.Output:G.Speed:G.Guard",
                                    "lesson01_student_gpu G.Speed:G.Guard"])
        self.assertRegex(proc.stdout, r"student/lesson01/G\.Output \.+ +Failed")
        self.assertIn("x.cpp:3", proc.stdout)
        self.assertIn("GPU 3/4", proc.stdout)

    def test_a_lesson_that_does_not_build_exits_1(self):
        self.env["FAKE_CMAKE_FAIL"] = "lesson01-cpu"
        proc = self.lesson_test(FIXTURES / "junit-student-nogpu.xml", "--cpu")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("Lesson 01 does not build: fix the error above.", proc.stdout)
        self.assertFalse([c for c in self.calls() if c.startswith("ctest")])

    def test_errors(self):
        self.assertOneLineError(self.run_tool("course.student.main", "--source-dir", self.source, "test",
                                              "--build-dir", self.tmp / "nowhere", "01"),
                                1, "cmake --preset student")
        self.assertOneLineError(self.run_tool("course.student.main", "--source-dir", self.source, "test"),
                                2, "lesson")


if __name__ == "__main__":
    unittest.main()
