"""./course hint: a lesson's graded hints (its hints.md) one at a time, remembered in the
course's .course/ folder (outside build/); the hints.md reader; every real lesson's hints; the
error paths."""

from __future__ import annotations

import json
import re
import unittest

from course_testing import ROOT, ToolTest, make_course
from course.model.course_model import find_lessons, hint_numbers, read_hints


class Hints(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = self.tmp / "build"  # not configured yet: hints need no build

    def hint(self, *args: str):
        return self.run_tool("course.student.main", "--source-dir", self.source, "hint",
                             "--build-dir", self.build, *args)

    def test_one_at_a_time_then_the_last_again(self):
        seen = []
        for _ in range(4):
            proc = self.hint("01")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            seen.append(proc.stdout)
        self.assertIn("hint 1 of 3", seen[0])
        self.assertIn("A bank holds 4 bytes.", seen[0])
        self.assertNotIn("reversed block", seen[0])
        self.assertIn("hint 2 of 3", seen[1])
        self.assertIn("`out[t] = in[count - 1 - t]`", seen[1])
        self.assertIn("hint 3 of 3", seen[2])
        self.assertIn("That was the last hint", seen[2])
        self.assertIn("hint 3 of 3", seen[3])

    def test_the_count_lives_outside_the_build_folder(self):
        self.hint("1")
        self.hint("lesson01")
        state = json.loads((self.source / ".course" / "state.json").read_text())
        self.assertEqual(state["hints_shown"], {"01": 2})
        self.assertFalse(self.build.exists(), "students delete build/: nothing of theirs goes there")

    def test_again_and_reset(self):
        proc = self.hint("01", "--again")
        self.assertIn("no hint shown yet", proc.stdout)
        self.hint("01")
        self.hint("01")
        proc = self.hint("01", "--again")
        self.assertIn("hint 1 of 3", proc.stdout)
        self.assertIn("hint 2 of 3", proc.stdout)
        self.assertNotIn("hint 3 of 3", proc.stdout)
        self.assertEqual(self.hint("01", "--reset").returncode, 0)
        self.assertIn("hint 1 of 3", self.hint("01").stdout)

    def test_bad_numbers_and_flags(self):
        self.assertOneLineError(self.hint("abc"), 2, "'abc' is not a lesson number")
        self.assertOneLineError(self.hint("123"), 2, "is not a lesson number")
        self.assertOneLineError(self.hint(), 2, "lesson")
        self.assertOneLineError(self.hint("01", "--again", "--reset"), 2, "not allowed with")
        self.assertOneLineError(self.hint("01", "--louder"), 2, "unrecognized arguments")

    def test_no_such_lesson(self):
        self.assertOneLineError(self.hint("07"), 1, "there is no lesson 07 (lessons: 01)")

    def test_no_hints_file_or_no_hints(self):
        # The README's old inline hints are not read: hints.md is the only place.
        old_form = "# Lesson 01: A\n\n## Hints\n\n### Hint 1\ninline\n\n### Hint 2\nmore\n"
        make_course(self.tmp / "c2", {"01_a": old_form, "02_b": None},
                    hints={"02_b": "# Lesson 02: hints\n\nNo headings here.\n"})
        self.source = self.tmp / "c2"
        self.assertOneLineError(self.hint("01"), 1,
                                "lesson 01 has no hints: lessons/01_a/hints.md does not exist")
        self.assertOneLineError(self.hint("02"), 1, "hints.md has no hints (headings '## Hint 1'")

    def test_an_unwritable_state_folder(self):
        (self.source / ".course").write_text("a file where the student's folder should be")
        proc = self.hint("01")
        self.assertOneLineError(proc, 1, "cannot write")
        self.assertNotIn("A bank holds", proc.stdout)  # not shown unless it is counted


class ReadHints(unittest.TestCase):
    def test_headings(self):
        text = ("# Lesson 01: hints\n\nIntro.\n\n## Hint 1\none\n\n## Hint 2\ntwo\nmore\n\n"
                "## Hint 3: the idea\nthree\n### a sub-heading\nstill three\n")
        self.assertEqual(read_hints(text), ["one", "two\nmore", "three\n### a sub-heading\nstill three"])
        self.assertEqual(hint_numbers(text), [1, 2, 3])

    def test_other_sections_end_a_hint(self):
        text = "## Hint 1\none\n## Notes\nnot a hint\n# Title\n## Hint 2\ntwo\n"
        self.assertEqual(read_hints(text), ["one", "two"])

    def test_no_hints(self):
        self.assertEqual(read_hints("# Lesson 01: hints\n## Goal\n### Hint 1\nold form\n"), [])


def old_form(readme: str) -> bool:
    """Hints still written in the README itself (### Hint N under ## Hints)."""
    return re.search(r"^###\s+Hint\s+\d", readme, re.M) is not None


class RealLessons(unittest.TestCase):
    def test_every_lesson_has_graded_hints_in_hints_md(self):
        for lesson in find_lessons(ROOT):
            if not lesson.readme.is_file():
                continue  # a lesson being written; its README check belongs to its author
            with self.subTest(lesson=lesson.folder):
                if not lesson.hints_file.is_file() and old_form(lesson.readme.read_text()):
                    self.skipTest(f"{lesson.rel_dir}: its hints are still in README.md; move "
                                  f"them to hints.md ('## Hint 1', '## Hint 2', ...)")
                text = lesson.hints_file.read_text()
                self.assertGreaterEqual(len(read_hints(text)), 2,
                                        f"{lesson.rel_dir}/hints.md needs graded hints "
                                        f"('## Hint 1', '## Hint 2', ...)")
                numbers = hint_numbers(text)
                self.assertEqual(numbers, list(range(1, len(numbers) + 1)),
                                 f"{lesson.rel_dir}/hints.md: hints are numbered 1, 2, ... in order")


if __name__ == "__main__":
    unittest.main()
