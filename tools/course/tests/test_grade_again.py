"""Grading one student after another in the same copy of the course (a class run, a runner that
is not wiped, an instructor grading by hand): what one student's build made is never graded for
the next. A copy of the course, pinned as an instructor pins it, graded through grade_run.sh with
lesson 01's reference exercise file (its CPU tests pass; without a GPU its GPU tests are not
gradable here), then again with an exercise file that does not compile, graded without the
policy (which refuses a file that does not compile, as the course's CPU build reads it: a build
may still fail where the policy cannot see, at link time, in nvcc, past its time): lesson 01
scores zero, each test "did not build" with the compiler's error, and none of the first build's
programs ran or is left. A real build of one lesson, so the build tools, a
sandbox and the lexer are needed: without them the test skips and says why."""

from __future__ import annotations

import json
import shutil
import tempfile
import unittest
from pathlib import Path

from course_testing import ROOT, lexer_missing

from course.grading.hostile.run_hostile import Grader, pinned_course, student_repo
from course.grading.sandbox import Sandbox

EXERCISE = "lessons/01_no_conflict/exercise.hpp"
SOLUTION = ROOT / "solutions" / "01_no_conflict" / "exercise.hpp"
#: A type error inside a function's body.
BROKEN_LINE = '  return "x" * 2;'


def why_not() -> str:
    """'' where a real grading can run here; else what is missing."""
    missing = [t for t in ("cmake", "ctest", "git", "make") if not shutil.which(t)]
    if not shutil.which("nvcc") and not Path("/usr/local/cuda/bin/nvcc").is_file():
        missing.append("nvcc")
    if not SOLUTION.is_file():
        missing.append("the course's solutions/ folder")
    box = Sandbox.probe()
    if not box.isolated:
        missing.append(f"a sandbox ({box.reason})")
    if lexer_missing():
        missing.append("libclang's lexer")
    return ", ".join(missing)


WHY_NOT = why_not()


@unittest.skipIf(WHY_NOT, f"needs {WHY_NOT}")
class GradeAgain(unittest.TestCase):
    maxDiff = None

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="course-grade-again-")
        self.work = Path(self._tmp.name)
        self.course = pinned_course(self.work)
        self.grader = Grader(self.course, self.work, jobs=2, build_timeout=600)
        self.build = self.course / "build" / "grade"

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def grade(self, name: str, exercise: str, policy: bool = True) -> dict:
        student = student_repo(self.course, self.work, name, {EXERCISE: exercise.encode()})
        graded = self.grader.grade(student, ["01"], policy)
        self.assertEqual(graded.problems, [], graded.log[-3000:])
        return json.loads((self.build / "score.json").read_text())

    def lesson01_tests(self, score: dict) -> dict:
        return {name: t for name, t in score["tests"].items() if t["lesson"] == "lesson01"}

    def test_a_lesson_that_does_not_compile_scores_zero_after_one_that_passed(self):
        solution = SOLUTION.read_text()
        self.assertIn("  return t;\n", solution)
        broken = solution.replace("  return t;\n", BROKEN_LINE + "\n", 1)

        first = self.grade("solved", solution)
        self.assertTrue(first["trust"]["trusted"], first["trust"])
        cpu = {name for name, t in self.lesson01_tests(first).items() if t["status"] == "passed"}
        self.assertTrue(cpu, self.lesson01_tests(first))
        self.assertGreater(first["lessons"]["lesson01"]["score"], 0)
        record = self.build / "course" / "programs.json"
        made_first = json.loads(record.read_text())

        second = self.grade("broken", broken, policy=False)
        lesson = second["lessons"]["lesson01"]
        self.assertEqual(lesson["score"], 0, self.lesson01_tests(second))
        self.assertEqual(lesson["passed"], 0)
        self.assertIn("error: invalid operands", lesson["note"])
        for name in cpu:
            t = second["tests"][name]
            self.assertEqual(t["status"], "did not build", name)
            self.assertIn("exercise.hpp:", t["detail"], name)
            self.assertIn("error: invalid operands", t["detail"], name)
        # None of the first build's programs is left, and the grader's record of the files each
        # build made says so (each with its sha256, under the build's own id).
        program = self.build / "tests" / "student" / "lesson01_student_cpu"
        self.assertFalse(program.exists())
        self.assertIn(str(program), made_first["lessons"]["lesson01"])
        made_second = json.loads(record.read_text())
        self.assertEqual(made_second["lessons"]["lesson01"], {})
        self.assertNotEqual(made_second["build"], made_first["build"])
        evidence = json.loads((self.build / "course" / "evidence.json").read_text())
        ran = [t["name"] for t in evidence["tests"] if t.get("exit_code") is not None]
        self.assertEqual(ran, [])
        # Not trusted for the one reason that the policy did not run; the programs are the build's.
        self.assertFalse(second["trust"]["trusted"], second["trust"])
        self.assertTrue(any(line.startswith("Exercise files: NOT held to the exercise-file policy")
                            for line in second["trust"]["lines"]), second["trust"])
        programs_line = "Programs: every test that ran, ran a program the grading build made"
        self.assertTrue(any(line.startswith(programs_line) for line in second["trust"]["lines"]),
                        second["trust"])


if __name__ == "__main__":
    unittest.main()
