"""./course reset: restores a lesson's exercise files as shipped (the starters-vN tag, else the
repository's first commit; never plain HEAD), after asking; keeps a copy in the course's
.course/ folder (outside build/); its error paths."""

from __future__ import annotations

import shutil
import subprocess
import unittest

from course_testing import EXERCISE_CU, ToolTest, exercise_hpp, make_course


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout


@unittest.skipIf(shutil.which("git") is None, "git is not installed")
class Reset(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.repo = make_course(self.tmp / "course")
        git(self.repo, "init", "-q")
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", "course")
        git(self.repo, "tag", "starters-v1")
        self.hpp = self.repo / "lessons" / "01_no_conflict" / "exercise.hpp"
        self.cu = self.repo / "lessons" / "01_no_conflict" / "exercise.cu"
        # The student commits work, and goes on editing: neither HEAD nor the tree is a starter.
        self.hpp.write_text("committed work\n")
        git(self.repo, "commit", "-q", "-am", "my work")
        self.hpp.write_text("work in progress\n")
        self.cu.write_text("kernel in progress\n")
        self.build = self.tmp / "build"

    def reset(self, *args: str, input: str = ""):
        return self.run_tool("course.student.main", "--source-dir", self.repo, "reset", "--build-dir",
                             self.build, *args, input=input)

    def test_yes_restores_the_tagged_starters_not_head(self):
        proc = self.reset("01", "--yes")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.hpp.read_text(), exercise_hpp())
        self.assertEqual(self.cu.read_text(), EXERCISE_CU)
        self.assertIn("from tag starters-v1", proc.stdout)
        backups = list((self.repo / ".course" / "backup").glob("01_no_conflict-*/exercise.hpp"))
        self.assertEqual(len(backups), 1)
        self.assertEqual(backups[0].read_text(), "work in progress\n")
        # Only the exercise files: the demo and the index are untouched.
        self.assertIn("my work", git(self.repo, "log", "-1", "--format=%s"))
        self.assertEqual(git(self.repo, "diff", "--cached", "--name-only"), "")

    def test_it_asks_first(self):
        proc = self.reset("01", input="n\n")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("Reset these files? [y/N]", proc.stdout)
        self.assertIn("exercise.hpp", proc.stdout)
        self.assertIn("Nothing changed.", proc.stdout)
        self.assertEqual(self.hpp.read_text(), "work in progress\n")
        proc = self.reset("01", input="")  # end of input is a no
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(self.hpp.read_text(), "work in progress\n")
        proc = self.reset("01", input="y\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.hpp.read_text(), exercise_hpp())

    def test_nothing_to_do_when_already_shipped(self):
        self.reset("01", "--yes")
        proc = self.reset("01")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("already as shipped", proc.stdout)

    def test_the_newest_starters_tag_wins(self):
        git(self.repo, "tag", "starters-v2")  # at "my work"
        proc = self.reset("01", "--yes")
        self.assertIn("tag starters-v2", proc.stdout)
        self.assertEqual(self.hpp.read_text(), "committed work\n")

    def test_without_a_tag_the_first_commit(self):
        # A repository made from a GitHub template has no tags: its first commit is the starters.
        git(self.repo, "tag", "-d", "starters-v1")
        proc = self.reset("01", "--yes")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("first commit", proc.stdout)
        self.assertEqual(self.hpp.read_text(), exercise_hpp())

    def test_from_a_given_ref(self):
        proc = self.reset("01", "--yes", "--from", "HEAD")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.hpp.read_text(), "committed work\n")

    def test_errors(self):
        self.assertOneLineError(self.reset("01", "--yes", "--from", "no-such-tag"), 1,
                                "no such tag or commit")
        self.assertOneLineError(self.reset("x1", "--yes"), 2, "not a lesson number")
        self.assertOneLineError(self.reset("09", "--yes"), 1, "there is no lesson 09")
        self.assertOneLineError(self.reset("--yes"), 2)
        self.assertOneLineError(self.reset("01", "--force"), 2, "unrecognized arguments")

    def test_a_lesson_that_was_not_shipped(self):
        make_course(self.tmp / "extra", {"02_new": None})
        shutil.copytree(str(self.tmp / "extra" / "lessons" / "02_new"),
                        str(self.repo / "lessons" / "02_new"))
        self.assertOneLineError(self.reset("02", "--yes"), 1, "has no starter files")

    def test_not_a_git_repository(self):
        plain = make_course(self.tmp / "plain")
        proc = self.run_tool("course.student.main", "--source-dir", plain, "reset", "--build-dir",
                             self.build, "01", "--yes")
        self.assertOneLineError(proc, 1, "not a git repository")

    def test_an_unwritable_backup_folder(self):
        (self.repo / ".course").write_text("a file where the student's folder should be")
        proc = self.reset("01", "--yes")
        self.assertOneLineError(proc, 1, "nothing changed")
        self.assertEqual(self.hpp.read_text(), "work in progress\n")


if __name__ == "__main__":
    unittest.main()
