"""One status vocabulary for a lesson, the counts behind it, and the answers it unlocks:

- `./course progress` and `./course test NN` say a lesson's status in the course's words
  (course_model.STATUSES), and every count in a row adds up, or a footnote says what is left
  out (the sanitizer runs, which neither command runs);
- `./course test NN` without --cpu does not list a sanitizer run it did not run as failing;
- once every CPU test of a lesson passes, `./course test NN` says where the lesson's answers
  are: solutions/NN_topic/answers.md in the course's own checkout, or the copy it unpacks
  from tools/course/answers.pack into .course/answers/ in a student repository; never before.

ctest is a stand-in that answers from recorded or made-up reports."""

from __future__ import annotations

import json
import subprocess
import unittest
from pathlib import Path

from course_testing import (CPU, GPU, ToolTest, failed, junit_case, junit_file, make_build,
                            make_course, passed, skipped_gpu, test_list)
from course.model import answers, course_model

SANITIZE = "gpu;guard;lesson01;memcheck;sanitize;student"


class LessonFixture(ToolTest):
    """A lesson of two CPU tests, one GPU test and two sanitizer runs of it (registered; neither
    `progress` nor `test` runs them)."""

    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)
        self.env["FAKE_CTEST_LIST"] = str(test_list(self.tmp / "tests.json", {
            "student/lesson01/A.Cpu": CPU, "student/lesson01/B.Cpu": CPU,
            "student/lesson01/C.Gpu": GPU,
            "student/lesson01/memcheck/gpu_exercise_c_test": SANITIZE,
            "student/lesson01/racecheck/gpu_exercise_c_test": SANITIZE.replace("memcheck",
                                                                               "racecheck")}))

    def report(self, *cases: str) -> None:
        self.env["FAKE_CTEST_JUNIT"] = str(junit_file(self.tmp / "junit.xml", list(cases)))

    def progress(self):
        # --rerun: each report here stands for a new run of the same programs, which progress
        # would otherwise show again from the first (test_progress tests that).
        proc = self.run_tool("course.student.main", "--source-dir", self.source, "progress", "--build-dir",
                             self.build, "--rerun")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return proc.stdout

    def course_test(self, *extra: str):
        return self.run_tool("course.student.main", "--source-dir", self.source, "test", "--build-dir",
                             self.build, "01", *extra)

    def row(self, out: str) -> str:
        return next(line for line in out.splitlines() if line.startswith("01  "))


class Status(LessonFixture):
    def test_the_words(self):
        self.assertEqual(course_model.STATUSES, (
            "not started", "in progress", "CPU part done \u2014 kernel not checked on a GPU",
            "kernel checked on the CPU \u2014 not timed", "done (GPU exercise tests passed)",
            "not built yet", "does not build", "no tests yet"))

    def test_not_started_and_in_progress(self):
        self.report(failed("A.Cpu"), failed("B.Cpu"), skipped_gpu("C.Gpu"))
        self.assertTrue(self.row(self.progress()).endswith("  not started"))
        self.report(passed("A.Cpu"), failed("B.Cpu"), skipped_gpu("C.Gpu"))
        self.assertTrue(self.row(self.progress()).endswith("  in progress"))

    def test_the_cpu_part_done_is_not_in_progress(self):
        # Before: the two sanitizer runs had no result, counted as failed GPU tests, and the row
        # said "0/3, 1 skipped ... in progress", like a lesson not started on its kernel.
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        out = self.progress()
        row = self.row(out)
        self.assertTrue(row.endswith("  CPU part done \u2014 kernel not checked on a GPU"), row)
        self.assertIn("  2/2  ", row)
        self.assertIn("skipped: no usable GPU [1][2]", row)
        self.assertIn("[2] the sanitizer runs of the GPU tests are not counted here", out)
        self.assertIn("ctest --test-dir", out)
        self.assertIn("-L sanitize", out)

    def test_a_kernel_checked_on_the_cpu_is_not_done(self):
        # Lessons 05 and 06 run the student's kernel on the CPU (label cpu-kernel): once those
        # tests pass and no GPU ran, the status says so, never "done".
        kernel = "cpu;cpu-kernel;exercise;lesson01;student"
        self.env["FAKE_CTEST_LIST"] = str(test_list(self.tmp / "tests2.json", {
            "student/lesson01/A.Cpu": CPU, "student/lesson01/K.Kernel": kernel,
            "student/lesson01/C.Gpu": GPU}))
        self.report(passed("A.Cpu"), passed("K.Kernel", kernel), skipped_gpu("C.Gpu"))
        out = self.progress()
        self.assertTrue(self.row(out).endswith("  kernel checked on the CPU \u2014 not timed"),
                        self.row(out))
        self.assertNotIn("done (GPU", out)
        self.assertIn("the kernels of lessons 01 ran on the CPU and passed there: no GPU timed "
                      "them", out)
        # A kernel test that fails is the lesson in progress, as any CPU test.
        self.report(passed("A.Cpu"), failed("K.Kernel", kernel), skipped_gpu("C.Gpu"))
        self.assertTrue(self.row(self.progress()).endswith("  in progress"))

    def test_what_only_a_gpu_judges_once_the_cpu_part_passes(self):
        # Lesson 05's manifest says what the CPU run cannot show of its exercise (its speed).
        manifest = next((self.source / "lessons").glob("01_*")) / "lesson.json"
        data = json.loads(manifest.read_text())
        data["gpu_judges"] = "Speed: the bandwidth test needs a GPU."
        manifest.write_text(json.dumps(data))
        self.report(passed("A.Cpu"), failed("B.Cpu"), skipped_gpu("C.Gpu"))
        self.assertNotIn("Not judged on the CPU", self.course_test("--cpu").stdout)
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        for extra in ((), ("--cpu",)):
            out = self.course_test(*extra).stdout
            self.assertIn("Not judged on the CPU (this note stays, whatever your kernel does, "
                          "until a GPU runs it): Speed: the bandwidth test needs a GPU.", out)

    def test_every_count_adds_up(self):
        # On a GPU: one GPU test passed; the sanitizer runs are still left out, and said so.
        self.report(passed("A.Cpu"), passed("B.Cpu"), passed("C.Gpu", GPU))
        out = self.progress()
        row = self.row(out)
        self.assertIn("1/1 [1]", row)
        self.assertTrue(row.endswith("  done (GPU exercise tests passed)"), row)
        self.assertIn("[1] the sanitizer runs of the GPU tests are not counted here", out)

    def test_test_without_cpu_lists_no_sanitizer_run_as_failing(self):
        # `./course test 01` without a GPU: the sanitizer runs are not run (-LE sanitize), so
        # they are not failing either.
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertNotIn("Failing:", proc.stdout)
        self.assertNotIn("memcheck", proc.stdout)
        self.assertIn("Lesson 01: CPU 2/2, GPU skipped: no usable GPU [1][2]: CPU part done "
                      "\u2014 kernel not checked on a GPU", proc.stdout)
        self.assertIn("[2] the sanitizer runs of the GPU tests are not counted here", proc.stdout)

    def test_a_failing_test_is_still_failing(self):
        self.report(passed("A.Cpu"), failed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test()
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("Failing: B.Cpu.", proc.stdout)

    def test_each_failing_test_shows_its_first_failure_once(self):
        message = "stage store costs 8 wavefronts: lane 0 uses bank 0, lane 1 bank 0"
        two = (f"[ RUN      ] L.A\n/x/layout_test.cpp:59: Failure\nExpected equality\n{message}\n"
               f"/x/layout_test.cpp:59: Failure\nExpected equality\nthe second\n"
               f"[  FAILED  ] L.A (0 ms)\n")
        same = f"[ RUN      ] L.B\n/x/other_test.cpp:7: Failure\nExpected equality\n{message}\n"
        crash = "[ RUN      ] L.C\nstarting\n"
        self.report(junit_case("student/lesson01/L.A", status="fail", labels=CPU, failure=True,
                               output=two),
                    junit_case("student/lesson01/L.B", status="fail", labels=CPU, failure=True,
                               output=same),
                    junit_case("student/lesson01/L.C", status="fail", labels=CPU, failure=True,
                               output=crash))
        out = self.course_test("--cpu").stdout
        self.assertIn("L.A (layout_test.cpp:59) (2 failures; the first:)\n  Expected equality\n"
                      f"  {message}\n", out)
        self.assertNotIn("the second", out)
        self.assertIn("L.B (other_test.cpp:7): the same message as L.A.", out)
        self.assertIn("L.C: ", out)
        self.assertIn("  starting", out)
        verbose = self.course_test("--cpu", "--verbose").stdout
        self.assertNotIn("What failed", verbose)

    def test_a_failure_in_the_students_file_is_shown_by_its_path(self):
        # A test that judges a name of exercise.hpp reports its failure at that name's line: the
        # view gives the path the student opens, from the course's root; a test's own line and a
        # file outside the lesson folder stay as they were.
        exercise = self.source / "lessons" / "01_no_conflict" / "exercise.hpp"
        mine = (f"[ RUN      ] L.A\n{exercise}:20: Failure\nYour kPredictedX is 0\n"
                f"[  FAILED  ] L.A (0 ms)\n")
        other = (f"[ RUN      ] L.B\n{self.source}/tests/01_no_conflict/layout_test.cpp:9: Failure\n"
                 f"the test's own line\n[  FAILED  ] L.B (0 ms)\n")
        self.report(junit_case("student/lesson01/L.A", status="fail", labels=CPU, failure=True,
                               output=mine),
                    junit_case("student/lesson01/L.B", status="fail", labels=CPU, failure=True,
                               output=other))
        out = self.course_test("--cpu").stdout
        self.assertIn("L.A (lessons/01_no_conflict/exercise.hpp:20)\n  Your kPredictedX is 0\n", out)
        self.assertIn("L.B (layout_test.cpp:9)\n  the test's own line\n", out)


class Answers(LessonFixture):
    """The lesson's answers, shown once its CPU part passes."""

    ANSWERS = "# Lesson 01: answers\n\nStride 33 is bank l.\n\n![1](images/one.svg)\n"

    def with_solutions(self) -> Path:
        folder = self.source / "solutions" / "01_no_conflict"
        (folder / "images").mkdir(parents=True)
        (folder / "answers.md").write_text(self.ANSWERS)
        (folder / "images" / "one.svg").write_text("<svg/>\n")
        return folder / "answers.md"

    def with_pack(self) -> None:
        packed = answers.pack({"01_no_conflict": {"answers.md": self.ANSWERS,
                                                  "images/one.svg": "<svg/>\n"}})
        (self.source / answers.PACK_PATH).parent.mkdir(parents=True, exist_ok=True)
        (self.source / answers.PACK_PATH).write_text(packed)

    def unpacked(self) -> Path:
        return self.source / ".course" / "answers" / "01_no_conflict" / "answers.md"

    def test_not_before_the_cpu_part_passes(self):
        self.with_pack()
        self.report(passed("A.Cpu"), failed("B.Cpu"), skipped_gpu("C.Gpu"))
        for extra in ((), ("--cpu",)):
            proc = self.course_test(*extra)
            self.assertNotIn("answers", proc.stdout.lower())
        self.assertFalse(self.unpacked().exists())

    def test_a_repository_without_answers_says_where_they_are(self):
        # Made without --with-answers: the README's promise ("./course test NN says where the
        # reasoning is") is kept by saying they are not here.
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test("--cpu")
        self.assertIn("This repository holds no answers for lesson 01 (it was made without them)",
                      proc.stdout)

    def test_from_the_pack_in_a_student_repository(self):
        self.with_pack()
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test("--cpu")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("The reasoning behind lesson 01's answers: .course/answers/01_no_conflict/"
                      "answers.md", proc.stdout)
        self.assertEqual(self.unpacked().read_text(), self.ANSWERS)
        self.assertEqual((self.unpacked().parent / "images" / "one.svg").read_text(), "<svg/>\n")

    def test_from_the_solutions_in_the_courses_checkout(self):
        own = self.with_solutions()
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test()
        self.assertIn("The reasoning behind lesson 01's answers: solutions/01_no_conflict/"
                      "answers.md", proc.stdout)
        self.assertTrue(own.is_file())
        self.assertFalse(self.unpacked().exists())

    def test_not_while_an_exercise_file_is_as_shipped(self):
        # Lesson 10's CPU tests pass with its harness (exercise.cu) still the starter: the
        # answers, which hold the harness, wait until every exercise file is the student's.
        self.with_pack()
        ident = ["-c", "user.name=S", "-c", "user.email=s@s"]
        for argv in (["init", "-q"], ["add", "-A"], [*ident, "commit", "-q", "-m", "starters"]):
            subprocess.run(["git", *argv], cwd=str(self.source), check=True, capture_output=True)
        lesson = self.source / "lessons" / "01_no_conflict"
        (lesson / "exercise.hpp").write_text("// mine\n")
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test("--cpu")
        self.assertIn("The answers of lesson 01's wait until exercise.cu is yours: the CPU tests "
                      "do not judge all of it, and it is still as shipped.", proc.stdout)
        self.assertNotIn("The reasoning behind", proc.stdout)
        self.assertFalse(self.unpacked().exists())
        self.assertNotIn("Answers of the lessons", self.progress())
        (lesson / "exercise.cu").write_text((lesson / "exercise.cu").read_text() + "// mine\n")
        proc = self.course_test("--cpu")
        self.assertIn("The reasoning behind lesson 01's answers: .course/answers/", proc.stdout)

    def test_progress_names_the_lessons_whose_answers_are_open(self):
        self.with_pack()
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        out = self.progress()
        self.assertIn("Answers of the lessons whose CPU part passes (01): .course/answers/", out)
        self.assertTrue(self.unpacked().is_file())

    def test_a_broken_pack_is_one_line_not_a_traceback(self):
        (self.source / answers.PACK_PATH).parent.mkdir(parents=True, exist_ok=True)
        (self.source / answers.PACK_PATH).write_text("{not json")
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test("--cpu")
        self.assertNotIn("Traceback", proc.stdout + proc.stderr)
        self.assertIn("is not a pack of answers", proc.stdout + proc.stderr)

    def test_a_pack_cannot_write_outside_its_folder(self):
        packed = json.loads(answers.pack({"01_no_conflict": {"answers.md": "x\n"}}))
        packed["lessons"]["01_no_conflict"]["../../escape.md"] = \
            packed["lessons"]["01_no_conflict"]["answers.md"]
        (self.source / answers.PACK_PATH).parent.mkdir(parents=True, exist_ok=True)
        (self.source / answers.PACK_PATH).write_text(json.dumps(packed))
        self.report(passed("A.Cpu"), passed("B.Cpu"), skipped_gpu("C.Gpu"))
        proc = self.course_test("--cpu")
        self.assertIn("not a path inside a lesson's answers", proc.stdout + proc.stderr)
        self.assertFalse((self.source / ".course" / "escape.md").exists())


class Pack(unittest.TestCase):
    def test_round_trip_and_not_readable_by_accident(self):
        lessons = {"07_wide": {"answers.md": "pitch kTileDim + kVec\n", "images/a.svg": "<svg/>"}}
        text = answers.pack(lessons)
        self.assertNotIn("kTileDim", text)
        self.assertEqual(answers.unpack(text), lessons)

    def test_bad_packs(self):
        for text in ("", "[]", '{"version": 2, "lessons": {}}',
                     '{"version": 1, "lessons": {"01": {"answers.md": "not base64!"}}}'):
            with self.assertRaises(course_model.CourseError, msg=text):
                answers.unpack(text)


if __name__ == "__main__":
    unittest.main()
