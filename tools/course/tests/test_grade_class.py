"""grade_class.py: a roster in, a gradebook out. The roster's errors, each one line; and a class
of four graded for real at lesson 01 against a pinned copy of the course (without a GPU its GPU
tests are not gradable here): a solved repository at a tag, the starter, a file the policy
refuses, and a repository that does not exist. The gradebook's totals equal each student's own
report, the summary says who was refused and why, who was not graded, and that every grade is
incomplete here; a second run grades nobody again, and a new commit is graded again. A real
build of one lesson: without the build tools, a sandbox or the lexer the class test skips."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from course_testing import ToolTest
from test_grade_again import EXERCISE, SOLUTION, WHY_NOT

from course.grading.grade_class import Outcome, Student, gradebook, read_roster, summary
from course.grading.hostile.run_hostile import commit_all, pinned_course, student_repo
from course.model.course_model import CourseError


class Roster(ToolTest):
    def roster(self, text: str) -> Path:
        path = self.tmp / "roster.csv"
        path.write_text(text)
        return path

    def test_it_reads(self):
        students = read_roster(self.roster("student,repository,ref\nada, /r/ada ,week3\n\n"
                                           "bob,https://x/bob.git\n"))
        self.assertEqual(students, [Student("ada", "/r/ada", "week3"),
                                    Student("bob", "https://x/bob.git", "")])

    def test_what_it_refuses(self):
        cases = [("", "header"), ("name,repo\nada,/r\n", "header"),
                 ("student,repository\n", "no student"),
                 ("student,repository\n../ada,/r\n", "not a student name"),
                 ("student,repository\nada,/r\nada,/s\n", "twice"),
                 ("student,repository\nada,\n", "no repository"),
                 ("student,repository,ref\nada,/r,--upload-pack=x\n", "may not start with '-'")]
        for text, words in cases:
            with self.subTest(text=text):
                with self.assertRaises(CourseError) as e:
                    read_roster(self.roster(text))
                self.assertIn(words, str(e.exception))
                self.assertNotIn("\n", str(e.exception))

    def test_the_gradebook_and_the_summary_from_scores(self):
        score = {"total": {"score": 7.5, "max": 10, "percent": 75.0},
                 "lessons": {"lesson01": {"score": 7.5, "graded": True, "note": ""},
                             "lesson02": {"score": 0, "graded": False, "note": ""}},
                 "trust": {"trusted": True, "starter": {}}, "complete": False,
                 "not_gradable_points": 2.5, "tests": {}}
        outcomes = [Outcome(Student("ada", "/r/ada", ""), "abc123", score),
                    Outcome(Student("bob", "/r/bob", ""), error="cannot clone /r/bob: no")]
        rows = list(csv.reader(io.StringIO(gradebook(outcomes, ["lesson01", "lesson02"]))))
        self.assertEqual(rows[0], ["student", "commit", "lesson01", "lesson02", "total", "max",
                                   "percent", "trusted", "complete"])
        self.assertEqual(rows[1], ["ada", "abc123", "7.5", "", "7.5", "10", "75", "yes", "no"])
        self.assertEqual(rows[2][:2], ["bob", ""])
        text = summary(outcomes, "pin", "no GPU")
        self.assertIn("1 of 2 students graded", text)
        self.assertIn("- bob: cannot clone /r/bob: no", text)
        self.assertIn("- ada: 2.5 of 10 points not gradable on this machine", text)


def solved_at_a_tag(course: Path, work: Path, name: str) -> Path:
    """A student repository whose tag `week1` holds lesson 01 solved, and whose HEAD has moved
    on after it (a roster that names the tag grades the tag)."""
    solution = SOLUTION.read_bytes()
    solved = student_repo(course, work, name, {EXERCISE: solution})
    commit_all(solved, "Student", "solved")
    subprocess.run(["git", "-C", str(solved), "tag", "week1"], check=True)
    (solved / EXERCISE).write_bytes(b"// after the deadline\n" + solution)
    commit_all(solved, "Student", "late")
    return solved


@unittest.skipIf(WHY_NOT, f"needs {WHY_NOT}")
class AClass(unittest.TestCase):
    def test_a_roster_graded_and_graded_again(self):
        with tempfile.TemporaryDirectory(prefix="course-grade-class-") as tmp:
            work = Path(tmp)
            course = pinned_course(work)
            solution = SOLUTION.read_bytes()
            solved = solved_at_a_tag(course, work, "ada")
            starter = student_repo(course, work, "bob", {})
            commit_all(starter, "Student", "starter")
            refused = student_repo(course, work, "cy", {EXERCISE: b"#include <fstream>\n" + solution})
            commit_all(refused, "Student", "reads files")
            roster = work / "roster.csv"
            roster.write_text(f"student,repository,ref\nada,{solved},week1\nbob,{starter},\n"
                              f"cy,{refused},\ndee,{work / 'nowhere'},\n")
            out = work / "class"
            argv = ["python3", "-m", "course.grading.grade_class", "--roster", str(roster),
                    "--course", str(course), "--out", str(out), "--lessons", "01", "--jobs", "2"]
            env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
            env.pop("COURSE_HIDDEN_TESTS", None)
            proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=3000)
            self.assertEqual(proc.returncode, 1, proc.stdout[-3000:] + proc.stderr[-3000:])

            book = {r["student"]: r
                    for r in csv.DictReader(io.StringIO((out / "gradebook.csv").read_text()))}
            self.assertEqual(sorted(book), ["ada", "bob", "cy", "dee"])
            tag = subprocess.run(["git", "-C", str(solved), "rev-parse", "week1"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            self.assertEqual(book["ada"]["commit"], tag)
            for name in ("ada", "bob", "cy"):
                own = json.loads((out / "students" / name / "score.json").read_text())
                self.assertEqual(float(book[name]["total"]), own["total"]["score"], name)
                self.assertEqual(float(book[name]["lesson01"]), own["lessons"]["lesson01"]["score"])
                self.assertEqual(book[name]["complete"], "no")  # no GPU here
                self.assertTrue((out / "feedback" / f"{name}.md").is_file())
            self.assertGreater(float(book["ada"]["total"]), 0)
            self.assertEqual(float(book["bob"]["total"]), 0)
            self.assertEqual(float(book["cy"]["total"]), 0)  # graded as the starter
            self.assertEqual(book["dee"]["total"], "")
            text = (out / "summary.md").read_text()
            self.assertIn("3 of 4 students graded", text)
            self.assertIn("- dee: cannot clone", text)
            self.assertIn("- cy, lesson01: Graded as", text)
            self.assertIn("fstream", text)

            # Again: nobody at the same commit, pin and machine; a new commit is graded.
            (starter / EXERCISE).write_bytes(solution)
            commit_all(starter, "Student", "solved at last")
            again = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=3000)
            self.assertEqual(again.returncode, 1, again.stdout[-3000:])
            self.assertIn("   ada graded before at", again.stdout)
            self.assertIn("   cy graded before at", again.stdout)
            self.assertNotIn("   bob graded before at", again.stdout)
            book = {r["student"]: r
                    for r in csv.DictReader(io.StringIO((out / "gradebook.csv").read_text()))}
            self.assertGreater(float(book["bob"]["total"]), 0)

    def test_two_students_at_once_each_in_a_copy_of_the_pin(self):
        # --parallel 2 without a GPU (--gpus on a GPU machine makes its slots the same way, one
        # a GPU): three students, two slots, each a course copy with a build of its own.
        with tempfile.TemporaryDirectory(prefix="course-grade-class-") as tmp:
            work = Path(tmp)
            course = pinned_course(work)
            solved = student_repo(course, work, "ada", {EXERCISE: SOLUTION.read_bytes()})
            commit_all(solved, "Student", "solved")
            starter = student_repo(course, work, "bob", {})
            commit_all(starter, "Student", "starter")
            roster = work / "roster.csv"
            roster.write_text(f"student,repository,ref\nada,{solved},\nbob,{starter},\n"
                              f"dee,{work / 'nowhere'},\n")
            out = work / "class"
            env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
            env.pop("COURSE_HIDDEN_TESTS", None)
            proc = subprocess.run(["python3", "-m", "course.grading.grade_class", "--roster",
                                   str(roster), "--course", str(course), "--out", str(out),
                                   "--lessons", "01", "--jobs", "2", "--parallel", "2"],
                                  capture_output=True, text=True, env=env, timeout=3000)
            self.assertEqual(proc.returncode, 1, proc.stdout[-3000:] + proc.stderr[-3000:])
            self.assertIn("cpu 0: == ", proc.stdout)
            self.assertIn("cpu 1: == ", proc.stdout)
            pin = subprocess.run(["git", "-C", str(course), "rev-parse", "HEAD"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            for slot in ("cpu0", "cpu1"):
                copy = out / "slots" / slot / "course"
                head = subprocess.run(["git", "-C", str(copy), "rev-parse", "HEAD"],
                                      capture_output=True, text=True).stdout.strip()
                self.assertEqual(head, pin, slot)
            self.assertFalse((course / "build" / "grade").exists(),
                             "the pinned course itself is not graded in")
            book = {r["student"]: r
                    for r in csv.DictReader(io.StringIO((out / "gradebook.csv").read_text()))}
            self.assertEqual(list(book), ["ada", "bob", "dee"])  # the roster's order
            for name in ("ada", "bob"):
                own = json.loads((out / "students" / name / "score.json").read_text())
                self.assertEqual(float(book[name]["total"]), own["total"]["score"], name)
            self.assertGreater(float(book["ada"]["total"]), 0)
            self.assertEqual(float(book["bob"]["total"]), 0)
            self.assertEqual(book["dee"]["total"], "")


class Slots(ToolTest):
    """Where --gpus and --parallel grade, read from nvidia-smi (a stand-in here)."""

    def smi(self, listing: str) -> str:
        """A PATH whose nvidia-smi prints `listing`, as nvidia-smi --query-gpu=index,uuid does."""
        bin_dir = self.tmp / f"bin{len(listing)}"
        bin_dir.mkdir(exist_ok=True)
        smi = bin_dir / "nvidia-smi"
        smi.write_text(f"#!/bin/sh\nprintf '{listing}'\n")
        smi.chmod(0o755)
        return f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"

    def grade(self, path: str, *args: str):
        roster = self.tmp / "roster.csv"
        roster.write_text("student,repository,ref\nada,/r/ada,\n")
        course = self.tmp / "course"
        if not course.exists():  # a pinned commit with the grading command, and no lesson
            (course / "tools" / "course").mkdir(parents=True)
            (course / "tools" / "course" / "grade_run.sh").write_text("exit 2\n")
            (course / "lessons").mkdir()
            (course / "lessons" / "README.md").write_text("none yet\n")
            commit_all(course, "Student", "pin")
        self.env["PATH"] = path
        return self.run_tool("course.grading.grade_class", "--roster", roster, "--course",
                             course, "--out", self.tmp / "class", *args)

    def test_what_gpus_and_parallel_refuse(self):
        two = self.smi("0, GPU-aaaa\\n1, GPU-bbbb\\n")
        cases = [(two, ["--gpus", "0,5"], "--gpus: no GPU 5 here (nvidia-smi lists 0, 1)"),
                 (two, ["--parallel", "2"], "--parallel is for a machine without a GPU"),
                 (self.smi(""), ["--gpus", "all"], "--gpus: no GPU here"),
                 (two, ["--gpus", "all", "--parallel", "2"], "not allowed with")]
        for path, args, words in cases:
            with self.subTest(args=args):
                proc = self.grade(path, *args)
                self.assertEqual(proc.returncode, 2 if "not allowed" in words else 1,
                                 proc.stderr)
                self.assertIn(words, proc.stderr)


if __name__ == "__main__":
    unittest.main()
