"""A class across machines: grade-class's --matrix, --only and --merge, the Slurm scripts
(tools/course/grading/slurm/) and the Actions workflow that fans a roster out
(.github/workflows/grade-class.yml, checked in test_workflows.py).

submit.sh runs against a stand-in `sbatch` that records what it was asked (the array over the
roster, one GPU a task unless --no-gpu, the merge after every task whatever its end); a task of
grade-class.sbatch runs for real, without Slurm, as a node would run it: a student graded at
lesson 01 in a course copy of the task's own, another whose repository does not exist; then the
merge writes the gradebook from their folders."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from course_testing import ROOT, ToolTest
from test_grade_again import WHY_NOT

from course.grading.hostile.run_hostile import commit_all, pinned_course, student_repo

SLURM = ROOT / "tools" / "course" / "grading" / "slurm"
FAKE_SBATCH = """#!/bin/sh
echo "$*" >> "$SBATCH_LOG"
echo "${SBATCH_ID:-4242};cluster"
"""


def book_of(path: Path) -> dict:
    return {r["student"]: r for r in csv.DictReader(io.StringIO(path.read_text()))}


class Matrix(ToolTest):
    def roster(self) -> Path:
        path = self.tmp / "roster.csv"
        path.write_text("student,repository,ref\nada,/r/ada,week3\nbob,https://x/bob.git,\n")
        return path

    def test_the_roster_as_a_matrix(self):
        proc = self.run_tool("course.grading.grade_class", "--roster", self.roster(), "--matrix")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout),
                         [{"student": "ada", "repository": "/r/ada", "ref": "week3"},
                          {"student": "bob", "repository": "https://x/bob.git", "ref": ""}])

    def test_only_names_students_of_the_roster(self):
        proc = self.run_tool("course.grading.grade_class", "--roster", self.roster(), "--course",
                             ROOT, "--out", self.tmp / "class", "--only", "ada,zed")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("--only: zed not on the roster", proc.stderr)
        proc = self.run_tool("course.grading.grade_class", "--roster", self.roster(), "--only",
                             "ada")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("--course and --out are needed", proc.stderr)

    def test_the_merge_reads_the_students_folders(self):
        out = self.tmp / "class"
        ada = out / "students" / "ada"
        ada.mkdir(parents=True)
        score = {"total": {"score": 6, "max": 10, "percent": 60.0},
                 "lessons": {"lesson01": {"score": 6, "graded": True, "note": ""}},
                 "trust": {"trusted": True, "starter": {}}, "complete": True, "tests": {}}
        (ada / "score.json").write_text(json.dumps(score))
        (ada / "grade.md").write_text("# ada's report\n")
        key = {"commit": "c0ffee", "pin": "abc", "machine": "NVIDIA H100", "lessons": "01"}
        (ada / "graded.json").write_text(json.dumps({"key": key}))
        (out / "students" / "bob").mkdir()
        (out / "students" / "bob" / "error.txt").write_text("cannot clone https://x/bob.git\n")
        proc = self.run_tool("course.grading.grade_class", "--roster", self.roster(), "--course",
                             ROOT, "--out", out, "--merge")
        self.assertEqual(proc.returncode, 1, proc.stderr)  # bob was not graded
        book = book_of(out / "gradebook.csv")
        self.assertEqual((book["ada"]["commit"], book["ada"]["total"], book["ada"]["lesson01"]),
                         ("c0ffee", "6", "6"))
        self.assertEqual(book["bob"]["total"], "")
        text = (out / "summary.md").read_text()
        self.assertIn("1 of 2 students graded", text)
        self.assertIn("Pinned course abc; machine: NVIDIA H100.", text)
        self.assertIn("- bob: cannot clone https://x/bob.git", text)
        self.assertEqual((out / "feedback" / "ada.md").read_text(), "# ada's report\n")
        # A student whose folder never came back is named as such.
        (out / "students" / "bob" / "error.txt").unlink()
        self.run_tool("course.grading.grade_class", "--roster", self.roster(), "--course", ROOT,
                      "--out", out, "--merge")
        self.assertIn("- bob: no results in students/bob (its grading job did not finish",
                      (out / "summary.md").read_text())


class KeptExercises(ToolTest):
    def test_only_the_checkouts_own_exercise_files(self):
        from course.grading.grade_class import keep_exercises
        checkout = self.tmp / "checkout"
        own = checkout / "lessons" / "01_no_conflict"
        own.mkdir(parents=True)
        (own / "exercise.hpp").write_text("// mine\n")
        (own / "notes.txt").write_text("not an exercise file\n")
        outside = self.tmp / "outside"
        outside.mkdir()
        (outside / "exercise.cu").write_text("secret\n")
        (checkout / "lessons" / "05_padded_transpose").symlink_to(outside)
        (own / "exercise.cu").symlink_to(outside / "exercise.cu")
        into = self.tmp / "kept"
        keep_exercises(ROOT, checkout, into)
        kept = sorted(str(p.relative_to(into)) for p in into.rglob("*") if p.is_file())
        self.assertEqual(kept, ["01_no_conflict/exercise.hpp"])


class Submit(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        sbatch = self.bin / "sbatch"
        sbatch.write_text(FAKE_SBATCH)
        sbatch.chmod(0o755)
        self.calls = self.tmp / "sbatch.log"
        self.env["SBATCH_LOG"] = str(self.calls)
        self.roster = self.tmp / "roster.csv"
        self.roster.write_text("student,repository,ref\nada,/r/ada,\nbob,/r/bob,\ncy,/r/cy,\n")

    def submit(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["bash", str(SLURM / "submit.sh"), *args], capture_output=True,
                              text=True, env=self.env, cwd=str(self.tmp), timeout=120)

    def test_an_array_over_the_roster_then_the_merge(self):
        proc = self.submit("--roster", str(self.roster), "--course", str(ROOT), "--out",
                           str(self.tmp / "class"), "--lessons", "01", "--", "--partition=gpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        array, merge = self.calls.read_text().splitlines()
        self.assertIn("--array=0-2", array)
        self.assertIn("--gres=gpu:1", array)
        self.assertIn("--partition=gpu", array)
        self.assertTrue(array.endswith(str(SLURM / "grade-class.sbatch")), array)
        self.assertIn("--dependency=afterany:4242", merge)
        self.assertIn("--partition=gpu", merge)
        self.assertIn("--merge", merge)
        self.assertNotIn("--gres", merge)
        self.assertIn("3 students in job array 4242", proc.stdout)

    def test_no_gpu_and_bad_usage(self):
        proc = self.submit("--roster", str(self.roster), "--course", str(ROOT), "--out",
                           str(self.tmp / "class"), "--no-gpu")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("--gres", self.calls.read_text())
        for args in ((), ("--roster", str(self.roster)), ("--bogus",),
                     ("--roster", str(self.roster), "--course", str(self.tmp), "--out", "x")):
            with self.subTest(args=args):
                self.assertEqual(self.submit(*args).returncode, 2)


@unittest.skipIf(WHY_NOT, f"needs {WHY_NOT}")
class ATaskOfTheArray(unittest.TestCase):
    def test_tasks_grade_their_students_and_the_merge_writes_the_gradebook(self):
        with tempfile.TemporaryDirectory(prefix="course-slurm-") as tmp:
            work = Path(tmp)
            course = pinned_course(work)
            starter = student_repo(course, work, "bob", {})
            commit_all(starter, "Student", "starter")
            roster = work / "roster.csv"
            roster.write_text(f"student,repository,ref\nbob,{starter},\n"
                              f"dee,{work / 'nowhere'},\n")
            out = work / "class"
            env = dict(os.environ, ROSTER=str(roster), COURSE=str(course), CLASS=str(out),
                       LESSONS="01", GRADE_JOBS="2", TMPDIR=str(work))
            env.pop("COURSE_HIDDEN_TESTS", None)
            env.pop("PYTHONPATH", None)
            task = SLURM / "grade-class.sbatch"

            def run(index: int) -> subprocess.CompletedProcess:
                return subprocess.run(["bash", str(task)], capture_output=True, text=True,
                                      env=dict(env, SLURM_ARRAY_TASK_ID=str(index)), timeout=3000)

            graded = run(0)
            self.assertEqual(graded.returncode, 0, graded.stdout[-3000:] + graded.stderr[-3000:])
            self.assertIn("task 0: bob, against", graded.stdout)
            self.assertTrue((out / "students" / "bob" / "score.json").is_file())
            self.assertFalse((out / "gradebook.csv").exists())  # a task writes its student only
            self.assertFalse(any(p.name.startswith("course-grade-") for p in work.iterdir()),
                             "the task's course copy is removed")
            failed = run(1)
            self.assertEqual(failed.returncode, 1, failed.stderr[-3000:])
            self.assertIn("cannot clone", (out / "students" / "dee" / "error.txt").read_text())
            beyond = run(2)
            self.assertEqual(beyond.returncode, 2)
            self.assertIn("has no student 2", beyond.stderr)

            merge = subprocess.run(["python3", "-m", "course.grading.grade_class", "--roster",
                                    str(roster), "--course", str(course), "--out", str(out),
                                    "--merge"], capture_output=True, text=True, timeout=600,
                                   env=dict(env, PYTHONPATH=str(course / "tools")))
            self.assertEqual(merge.returncode, 1, merge.stderr)
            book = book_of(out / "gradebook.csv")
            own = json.loads((out / "students" / "bob" / "score.json").read_text())
            self.assertEqual(float(book["bob"]["total"]), own["total"]["score"])
            self.assertEqual(book["bob"]["lesson01"], f"{own['lessons']['lesson01']['score']:g}")
            self.assertEqual(book["dee"]["total"], "")
            self.assertIn("- dee: cannot clone", (out / "summary.md").read_text())


if __name__ == "__main__":
    unittest.main()
