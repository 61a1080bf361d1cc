"""similarity.py, and grade-class's similarity section: a student's own work (what their file adds
to the starter) against the reference solution's and each other's, by sim_c++'s C++ tokens.
Lesson 05's real starter and reference solution: a copied solution is a high match (its tokens,
its comments, its `@file solutions/...` line), a copy with the comments stripped and the layout
changed still is, a student at the starter has nothing to compare, two students with one file are
a high pair, and work of one's own is not high. Without sim_c++ the section says so."""

from __future__ import annotations

import json
import re
import subprocess
import unittest

from course_testing import ROOT, ToolTest

from course.grading import similarity

LESSON = "05_padded_transpose"
FILES = ("exercise.cu", "exercise.hpp")
WHY_NOT = similarity.available()


def starter(name: str) -> str:
    return subprocess.run(["git", "show", f"HEAD:lessons/{LESSON}/{name}"], cwd=str(ROOT),
                          capture_output=True, text=True, check=True).stdout


def solution(name: str) -> str:
    return (ROOT / "solutions" / LESSON / name).read_text()


def stripped(text: str) -> str:
    """A copy that hides: no comments, other indentation and line breaks."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"//.*", "", line).strip()
        if line:
            out.append("    " + line.replace("(", "( ").replace(")", " )"))
    return "\n".join(out) + "\n"


OWN_WORK = """
template <class Tile>
__global__ void __launch_bounds__(kBlockThreads)
    transpose_tile_kernel(const float* in, float* out, int rows, int cols) {
  KIT_SHARED kit::SharedTile<Tile> t;
  int lane = threadIdx.x, warp = threadIdx.y;
  int by = blockIdx.y * kTileDim, bx = blockIdx.x * kTileDim;
  int h = tile_extent(by, rows), w = tile_extent(bx, cols);
  for (int r = warp; r < h; r += kBlockWarps) {
    if (lane < w) { kit::Coord s = store_coord(lane, r); t(s.row, s.col) = in[(by + r) * cols + bx + lane]; }
  }
  __syncthreads();
  for (int c = warp; c < w; c += kBlockWarps) {
    if (lane < h) { kit::Coord l = load_coord(lane, c); out[(bx + c) * rows + by + lane] = t(l.row, l.col); }
  }
}
"""


class OwnLines(unittest.TestCase):
    def test_what_a_file_adds_to_its_starter(self):
        self.assertEqual(similarity.own_lines("a\nb\nc\n", "a\nc\n"), ["b"])
        self.assertEqual(similarity.own_lines("a\nX\nc\n", "a\nb\nc\n"), ["X"])
        self.assertEqual(similarity.own_lines("a\nb\n", "a\nb\n"), [])

    def test_comment_lines_long_enough_to_tell(self):
        self.assertEqual(similarity.comment_lines(["/// One tile of the transpose, staged",
                                                  "x = 1; // the lane of this thread", "// ok",
                                                  "int y;"]),
                         ["One tile of the transpose, staged", "the lane of this thread"])


@unittest.skipIf(WHY_NOT, f"needs {WHY_NOT}")
class Compare(unittest.TestCase):
    def setUp(self) -> None:
        self.starters = {f"{LESSON}/{n}": starter(n) for n in FILES}
        self.reference = {f"{LESSON}/{n}": solution(n) for n in FILES}
        cu = f"{LESSON}/exercise.cu"
        start = starter("exercise.cu")
        own = start[:start.index("template <class Tile>")] + OWN_WORK.lstrip() + \
            start[start.index("} // namespace\n"):]
        self.students = {
            "ada": {k: v for k, v in self.reference.items()},             # the solution, copied
            "ben": {cu: stripped(solution("exercise.cu"))},               # a copy that hides
            "cy": {k: v for k, v in self.starters.items()},              # the starter
            "dee": {cu: own},                                              # work of one's own
            "eve": {cu: own},                                              # dee's, copied
        }
        self.matches = similarity.compare(self.students, self.starters, self.reference)

    def match(self, who: str, other: str = "reference", file: str = "exercise.cu"):
        return next(m for m in self.matches
                    if m.who == who and m.other == other and m.file == f"{LESSON}/{file}")

    def test_a_copied_solution_is_high(self):
        ada = self.match("ada")
        self.assertGreaterEqual(ada.percent, 95)
        self.assertTrue(ada.high)
        self.assertEqual(ada.comments[0], ada.comments[1])
        self.assertGreater(ada.comments[1], 0)
        self.assertTrue(self.match("ada", file="exercise.hpp").names_solutions)

    def test_a_copy_without_comments_or_layout_still_is(self):
        ben = self.match("ben")
        self.assertGreaterEqual(ben.percent, similarity.HIGH_PERCENT)
        self.assertEqual(ben.comments[0], 0)
        self.assertTrue(ben.high)

    def test_the_starter_has_nothing_to_compare(self):
        self.assertFalse([m for m in self.matches if m.who == "cy"])

    def test_work_of_ones_own_is_not_high_and_two_alike_are(self):
        dee = self.match("dee")
        self.assertLess(dee.percent, similarity.HIGH_PERCENT, dee.describe())
        self.assertFalse(dee.high)
        pair = self.match("dee", "eve")
        self.assertEqual(pair.percent, 100)
        self.assertTrue(pair.high)

    def test_the_report(self):
        text = "\n".join(similarity.report(self.matches, None))
        self.assertIn("- ada, 05_padded_transpose/exercise.cu: ", text)
        self.assertIn("of ada's own work", text)
        self.assertIn("the file names the solutions' folder", text)
        self.assertIn("- dee, 05_padded_transpose/exercise.cu: 100% of dee's own work", text)
        self.assertNotIn("- dee, 05_padded_transpose/exercise.cu: " +
                         f"{self.match('dee').percent}% of dee's own work ({self.match('dee').tokens}"
                         " tokens) is the reference", text)

    def test_a_short_answer_is_too_short_to_say_anything(self):
        hpp = f"{LESSON}/exercise.hpp"
        one_line = {hpp: starter("exercise.hpp").replace("= 0; // TODO", "= 4;", 1)}
        matches = similarity.compare({"fay": one_line}, self.starters, self.reference)
        self.assertEqual(len(matches), 1)
        self.assertIsNone(matches[0].percent)
        self.assertIn("too little of fay's own to compare", matches[0].note)


class InTheClassSummary(ToolTest):
    def test_merge_with_a_reference(self):
        out = self.tmp / "class"
        for name, text in (("ada", solution("exercise.cu")), ("bob", starter("exercise.cu"))):
            folder = out / "students" / name
            (folder / "exercise" / LESSON).mkdir(parents=True)
            (folder / "exercise" / LESSON / "exercise.cu").write_text(text)
            (folder / "score.json").write_text(json.dumps(
                {"total": {"score": 1, "max": 10, "percent": 10.0}, "lessons": {},
                 "trust": {"trusted": True, "starter": {}}, "complete": True, "tests": {}}))
            (folder / "graded.json").write_text(json.dumps({"key": {"commit": "c", "pin": "p",
                                                                    "machine": "m"}}))
        roster = self.tmp / "roster.csv"
        roster.write_text("student,repository,ref\nada,/r/ada,\nbob,/r/bob,\n")
        argv = ["--roster", roster, "--course", ROOT, "--out", out, "--merge"]
        proc = self.run_tool("course.grading.grade_class", *argv, "--reference", ROOT)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        text = (out / "summary.md").read_text()
        self.assertIn("## Similarity (information for you, never a grade)", text)
        if WHY_NOT:
            self.assertIn(f"Not checked: {WHY_NOT}.", text)
        else:
            self.assertRegex(text, r"- ada, 05_padded_transpose/exercise\.cu: \d+% of ada's own")
            self.assertIn("ada,05_padded_transpose/exercise.cu,reference,",
                          (out / "similarity.csv").read_text())
        proc = self.run_tool("course.grading.grade_class", *argv, "--reference", self.tmp)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("no solutions/ folder there", proc.stderr)
        proc = self.run_tool("course.grading.grade_class", *argv)
        self.assertNotIn("Similarity", (out / "summary.md").read_text())


if __name__ == "__main__":
    unittest.main()
