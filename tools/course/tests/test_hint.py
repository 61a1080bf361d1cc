"""course.py hint: the README's graded hints one at a time, remembered in the build folder;
the README parser; every real lesson's README has graded hints; the error paths."""

from __future__ import annotations

import json
import textwrap
import unittest

from course_testing import ROOT, ToolTest, make_course
from course_tree import find_lessons, read_hints


class Hints(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = self.tmp / "build"  # not configured yet: hints need no build

    def hint(self, *args: str):
        return self.run_tool("course.py", "--source-dir", self.source, "hint",
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

    def test_the_count_lives_in_the_build_folder(self):
        self.hint("1")
        self.hint("lesson01")
        state = json.loads((self.build / "course" / "state.json").read_text())
        self.assertEqual(state["hints_shown"], {"01": 2})

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

    def test_no_readme_or_no_hints(self):
        make_course(self.tmp / "c2", {"01_a": None, "02_b": "# Lesson 02: B\n\n## Goal\nx\n"})
        self.source = self.tmp / "c2"
        self.assertOneLineError(self.hint("01"), 1, "README.md: no such file")
        self.assertOneLineError(self.hint("02"), 1, "has no hints")

    def test_an_unwritable_build_folder(self):
        self.build.mkdir()
        (self.build / "course").write_text("a file where the tools' folder should be")
        proc = self.hint("01")
        self.assertOneLineError(proc, 1, "cannot write")
        self.assertNotIn("A bank holds", proc.stdout)  # not shown unless it is counted


class ReadHints(unittest.TestCase):
    def test_headings(self):
        text = "## Goal\nx\n## Hints\n\n### Hint 1\none\n\n### Hint 2\ntwo\nmore\n\n## Next\n### Not a hint\n"
        self.assertEqual(read_hints(text), ["one", "two\nmore"])

    def test_details_blocks(self):
        text = textwrap.dedent("""\
            ## Hints
            <details><summary>Hint 1</summary>

            first
            </details>
            <details>
            <summary>Hint 2</summary>
            second
            </details>
            """)
        self.assertEqual(read_hints(text), ["first", "second"])

    def test_no_section(self):
        self.assertEqual(read_hints("# Lesson 01: x\n## Goal\n"), [])


class RealLessons(unittest.TestCase):
    def test_every_lesson_readme_has_graded_hints(self):
        for lesson in find_lessons(ROOT):
            if not lesson.readme.is_file():
                continue  # a lesson being written; its README check belongs to its author
            with self.subTest(lesson=lesson.folder):
                hints = read_hints(lesson.readme.read_text())
                self.assertGreaterEqual(len(hints), 2, f"{lesson.rel_dir}/README.md: '## Hints' "
                                        f"needs graded hints ('### Hint 1', '### Hint 2', ...)")


if __name__ == "__main__":
    unittest.main()
