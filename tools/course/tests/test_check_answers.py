"""check_answers.py: the check that no lesson shows its answers before the student has
committed to them, tested on copies of the course's lessons into which answers are put back —
the places where the lessons once had them — and on small made-up solutions.

The tests copy lessons and their reference solutions from the course, so they need the
course's solutions/ folder (a student repository has none, and leaves this file out)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import textwrap
import unittest
from pathlib import Path
from typing import List

from course_testing import ROOT, ToolTest, lexer_missing
from course.model.course_model import find_lessons
from course.policy import answer_units, check_answers
from course.policy.findings import Finding

HAVE_SOLUTIONS = (ROOT / "solutions").is_dir()


def setUpModule() -> None:
    missing = lexer_missing()
    if missing:
        raise unittest.SkipTest(f"the answers check reads C++ with libclang's lexer: {missing}")


def lesson_folder(number: str) -> str:
    return next(x.folder for x in find_lessons(ROOT) if x.number == number)


class CourseCopy(ToolTest):
    """Copies of the course's lessons to put answers back into."""

    def course(self, *numbers: str) -> Path:
        """A copy of the course's lessons (and their solutions) `numbers`, with a stand-in
        answers file where the course has none yet."""
        root = self.tmp / "course"
        for number in numbers:
            folder = lesson_folder(number)
            shutil.copytree(ROOT / "lessons" / folder, root / "lessons" / folder)
            shutil.copytree(ROOT / "solutions" / folder, root / "solutions" / folder)
            answers = root / "solutions" / folder / "answers.md"
            if not answers.exists():
                answers.write_text(f"# Lesson {number}: answers\n")
        return root

    def append(self, root: Path, number: str, name: str, text: str) -> int:
        """Appends `text` to lessons/NN/<name>; returns the line of its first line."""
        path = root / "lessons" / lesson_folder(number) / name
        old = path.read_text()
        if not old.endswith("\n"):
            old += "\n"
        path.write_text(old + text)
        return old.count("\n") + 1

    def findings(self, root: Path, number: str) -> List[Finding]:
        found, _notes = check_answers.check(root, root, [number], None, None, None)
        return found

    def assertFound(self, root: Path, number: str, name: str, line: int, answer: str) -> None:
        path = f"lessons/{lesson_folder(number)}/{name}"
        found = self.findings(root, number)
        hits = [f for f in found if f.path == path and f.line == line]
        self.assertTrue(hits, f"no finding at {path}:{line}; found:\n" +
                        "\n".join(map(str, found)))
        self.assertIn(answer, hits[0].message)


@unittest.skipUnless(HAVE_SOLUTIONS, f"needs the course's solutions/ folder ({ROOT} has none)")
class PutBack(CourseCopy):
    """An answer put back where a lesson once had it is found, with its file and line."""

    def test_07_the_pitch_alone_in_prose(self):
        root = self.course("07")
        line = self.append(root, "07", "README.md",
                           "For the exercise: pitch 36 (`kTileDim + kVec`), one wavefront per "
                           "phase, and the feature load\n")
        self.assertFound(root, "07", "README.md", line, "kTileDim + kVec")

    def test_11_the_type_alone(self):
        root = self.course("11")
        line = self.append(root, "11", "README.md",
                           "layout Part 2 asks for: `kit::Swizzled<PlainBoxLayout<kBox128Cols>, "
                           "kit::Swizzle<3, 2, 3>>`.\n")
        self.assertFound(root, "11", "README.md", line, "Swizzle<3, 2, 3>")

    def test_08_the_goal_names_part_3s_swizzle(self):
        root = self.course("08")
        line = self.append(root, "08", "README.md",
                           "  hardware counters see it, and you swizzle an `ldmatrix` tile with "
                           "`Swizzle<3,3,3>`;\n")
        self.assertFound(root, "08", "README.md", line, "Swizzle<3, 3, 3>")

    def test_03_the_twins_layout_in_demo_hpp(self):
        root = self.course("03")
        line = self.append(root, "03", "demo.hpp",
                           "/// The twin's tile layout: rows kTileDim + 1 floats apart.\n"
                           "using TwinTileLayout = kit::Pitched<float, kTileRows, kTileDim, "
                           "kTileDim + 1>;\n")
        self.assertFound(root, "03", "demo.hpp", line, "kTileDim + 1")
        self.assertFound(root, "03", "demo.hpp", line + 1, "kTileDim + 1")

    def test_09_parts_2_and_3_verbatim_in_demo_hpp(self):
        root = self.course("09")
        line = self.append(root, "09", "demo.hpp", textwrap.dedent("""\
            namespace lesson09 {
            struct Strided {
              KIT_HD static constexpr int col(int t, int j) { return t + kThreadsX * j; }
            };
            struct StridedByFour {
              KIT_HD static constexpr int col(int t, int j) { return 4 * t + 4 * kThreadsX * (j / 4) + j % 4; }
            };
            }
            """))
        self.assertFound(root, "09", "demo.hpp", line + 2, "t + kThreadsX * j")
        self.assertFound(root, "09", "demo.hpp", line + 5, "4 * t + 4 * kThreadsX * (j / 4)")

    def test_09_part_2_in_prose_with_other_names_and_the_constants_value(self):
        # The README once gave the virtual threads' columns as "t + 16 j": the solution's
        # `t + kThreadsX * j` with the constant's value, the product sign left out, and the
        # lane's name for t.
        root = self.course("09")
        line = self.append(root, "09", "README.md",
                           "Thread column *t* takes column *t* of each group, *tx* + 16 *j*.\n")
        self.assertFound(root, "09", "README.md", line, "t + kThreadsX * j")
        line = self.append(root, "09", "hints.md", "Try `col = lane + kThreadsX * k`.\n")
        self.assertFound(root, "09", "hints.md", line, "t + kThreadsX * j")

    def test_09_a_formula_that_only_shares_the_names_is_no_answer(self):
        root = self.course("09")
        self.append(root, "09", "README.md", "Lane *l* reads word *tx* + 8 *j*, or t + 16 * t.\n")
        self.assertEqual([f for f in self.findings(root, "09") if f.path.endswith("README.md")],
                         [])

    def test_a_prediction_the_listing_leaves_out(self):
        root = self.course("03")
        shutil.copytree(ROOT / "tests" / lesson_folder("03"), root / "tests" / lesson_folder("03"))
        self.assertEqual([f for f in self.findings(root, "03") if "predictions" in f.path], [])
        listing = root / "tests" / lesson_folder("03") / "predictions.hpp"
        listing.write_text(listing.read_text().replace(" kPredictedColumnSlowdown", " 1.0"))
        [found] = [f for f in self.findings(root, "03") if "predictions" in f.path]
        self.assertIn("does not read kPredictedColumnSlowdown", found.message)
        listing.unlink()
        [found] = [f for f in self.findings(root, "03") if "predictions" in f.path]
        self.assertIn("missing", found.message)

    def test_a_comment_of_the_starter_counts(self):
        root = self.course("07")
        line = self.append(root, "07", "exercise.hpp", "// Hint: kTileDim + kVec.\n")
        self.assertFound(root, "07", "exercise.hpp", line, "kTileDim + kVec")

    def test_a_pictures_caption_counts(self):
        root = self.course("08")
        images = root / "lessons" / lesson_folder("08") / "images"
        images.mkdir(exist_ok=True)
        (images / "told.svg").write_text('<svg><title>Column 5 of the Swizzle&lt;5,0,5&gt; tile'
                                         '</title><text>Swizzle<5,0,5></text></svg>\n')
        found = [f for f in self.findings(root, "08") if f.path.endswith("images/told.svg")]
        self.assertTrue(found, "a picture's caption naming the answer was not found")

    def test_the_courses_own_pages_count_for_every_lesson(self):
        # The kit's documentation once gave lesson 08's Part 2 as its example swizzle.
        root = self.course("08")
        (root / "common" / "include" / "kit").mkdir(parents=True, exist_ok=True)
        (root / "common" / "include" / "kit" / "layout.hpp").write_text(
            "/// Example: Swizzle<5, 0, 5> on a 32 x 32 float tile gives r * 32 + (c ^ r).\n"
            "template <int B, int M, int S>\nstruct Swizzle {};\n")
        (root / "docs").mkdir()
        (root / "docs" / "page.md").write_text("# A page\n\nUse `kit::Swizzle<3,3,3>`.\n")
        found = {(f.path, f.line) for f in self.findings(root, "08")}
        self.assertIn(("common/include/kit/layout.hpp", 1), found)
        self.assertIn(("docs/page.md", 3), found)

    def test_the_tools_sources_and_a_manifest_as_the_student_reads_them(self):
        # The answers check's own docstrings once took lesson 08's swizzles as examples; a
        # manifest's answers' pictures and exceptions are not in a student's repository.
        root = self.course("08")
        (root / "tools" / "course").mkdir(parents=True)
        (root / "tools" / "course" / "units.py").write_text(
            '"""e.g. `kit::Swizzle<3, 3, 3>`"""\n')
        manifest = root / "lessons" / lesson_folder("08") / "lesson.json"
        data = json.loads(manifest.read_text())
        self.assertTrue([p for p in data["pictures"] if p["svg"].startswith("solutions/")
                         and "Swizzle<5,0,5>" in json.dumps(p)])
        found = {(f.path, f.line) for f in self.findings(root, "08")}
        self.assertIn(("tools/course/units.py", 1), found)
        self.assertFalse([p for p in found if p[0].endswith("lesson.json")], found)

    def test_a_hidden_test_example_counts(self):
        # The example of a hidden test once spelled lesson 01's reversal.
        root = self.course("01")
        example = root / "docs" / "examples" / "hidden-tests" / "01_no_conflict" / "x_test.cpp"
        example.parent.mkdir(parents=True)
        example.write_text("// Checks the reversal.\nconst int want = count - 1 - t;\n")
        found = [f for f in self.findings(root, "01") if f.path.endswith("x_test.cpp")]
        self.assertTrue(found, "an answer in a hidden-test example was not found")
        self.assertIn("count - 1 - t", found[0].message)

    def test_a_twin_in_the_lessons_tests_counts(self):
        # tests/ travels with the student repository: lesson 04's twin once stated its pitch.
        root = self.course("04")
        twin = root / "tests" / lesson_folder("04") / "twin.hpp"
        twin.parent.mkdir(parents=True)
        twin.write_text("// The twin.\nusing Twin = kit::Pitched<float, 8, kCoefs, kCoefs + 1>;\n")
        found = [f for f in self.findings(root, "04") if f.path.endswith("twin.hpp")]
        self.assertEqual([f.line for f in found], [2], "\n".join(map(str, found)))
        self.assertIn("kCoefs + 1", found[0].message)

    def test_a_measured_block_in_a_readme(self):
        # Lesson 01's README once printed the measured table of its demos below its questions.
        root = self.course("01")
        line = self.append(root, "01", "README.md",
                           "<!-- measured:lesson01 -->\n| demo | `float stride 1` | 1.00 / 1.00 |\n"
                           "<!-- /measured -->\n")
        found = [f for f in self.findings(root, "01")
                 if f.path.endswith("README.md") and f.line == line]
        self.assertTrue(found, "a measured block in a README was not found")
        self.assertIn("measured results in view", found[0].message)

    def test_a_demo_comment_that_states_a_cost(self):
        # Lesson 01's demo.hpp once said what its stride-1 demo costs.
        root = self.course("01")
        for text, cost in (("/// Words 0..31, banks 0..31: one wavefront.\n", "one wavefront"),
                           ("// Any order of one row is conflict-free.\n", "conflict-free"),
                           ("/// A 32-way column read.\n", "32-way")):
            with self.subTest(cost=cost):
                line = self.append(root, "01", "demo.hpp", text)
                found = [f for f in self.findings(root, "01")
                         if f.path.endswith("demo.hpp") and f.line == line]
                self.assertTrue(found, f"'{text.strip()}' was not found")
                self.assertIn(cost, found[0].message)

    def test_a_tests_comment_that_states_a_cost_or_a_slowdown(self):
        # Lesson 02's guard tests once said "stride 2 about 2x" and "one wavefront per request".
        root = self.course("02")
        tests = root / "tests" / lesson_folder("02")
        tests.mkdir(parents=True)
        (tests / "perf_guard_demo_slowdown_test.cpp").write_text(
            "// The demos timed: stride 2 about 2x, stride 6 (model 2.0x).\n"
            "// Stride 3: one wavefront per request.\n"
            "// Each slowdown must land in the band; a 32x32 tile is a shape.\n"
            "TEST(DemoSlowdown, StrideTwoOverStrideOne) {}\n")
        (tests / "cpu_exercise_layout_test.cpp").write_text(
            "// Your layout: every access conflict-free, 1 wavefront a request, as its twin.\n"
            "TEST(Layout, EveryInstructionCostsItsIdeal) {}\n")
        found = [(f.path.rsplit("/", 1)[1], f.line, re.search(r"\('([^']+)'\)", f.message)[1])
                 for f in self.findings(root, "02") if "a test's comment" in f.message]
        self.assertEqual(found, [("perf_guard_demo_slowdown_test.cpp", 2, "one wavefront"),
                                 ("perf_guard_demo_slowdown_test.cpp", 1, "2x"),
                                 ("perf_guard_demo_slowdown_test.cpp", 1, "2.0x")])

    def test_a_demo_comment_may_say_what_a_demo_does(self):
        root = self.course("01")
        self.append(root, "01", "demo.hpp", "/// Lane l reads float 33 l: which bank holds it?\n"
                                            "inline int stride(int lane) { return 33 * lane; }\n")
        found = [f for f in self.findings(root, "01") if f.path.endswith("demo.hpp")]
        self.assertEqual(found, [])

    def test_a_demo_comment_that_puts_a_column_in_one_bank(self):
        # Lesson 05's demo.hpp once said where the plain tile's column lies.
        root = self.course("05")
        line = self.append(root, "05", "demo.hpp",
                           "/// `float tile[32][32]`, rows kTileDim floats apart, so column c\n"
                           "/// of every row is in bank c.\n")
        found = [f for f in self.findings(root, "05") if f.path.endswith("demo.hpp")]
        self.assertEqual([f.line for f in found], [line + 1], found)
        self.assertIn("every row is in bank c", found[0].message)

    def starter_findings(self, root: Path, number: str, name: str) -> List[Finding]:
        return [f for f in self.findings(root, number)
                if f.path == f"lessons/{lesson_folder(number)}/{name}"]

    def test_the_starters_comments_state_no_cost_as_shipped(self):
        for number in ("01", "02", "03", "04", "05", "06", "07", "08", "11"):
            with self.subTest(lesson=number):
                root = self.course(number)
                self.assertEqual(self.starter_findings(root, number, "exercise.hpp")
                                 + self.starter_findings(root, number, "exercise.cu"), [])
                shutil.rmtree(root)

    def test_02_the_tiles_drawing_states_the_stride_two_cost(self):
        # Lesson 02's exercise.hpp once costed the starter's tile: Part 1's stride-2 prediction.
        root = self.course("02")
        line = self.append(root, "02", "exercise.hpp", textwrap.dedent("""\
            ///     offset: 0    1    2    3    4   ...  62    63  | 64   65  ...
            ///     holds:  re0  im0  re1  im1  re2 ...  re31  im31| re32 im32 ...
            ///
            /// Lanes 0..31 reading re0..re31 use the even banks only, two words each: 2 wavefronts; the
            /// same for im0..im31 in the odd banks.
            """))
        found = self.starter_findings(root, "02", "exercise.hpp")
        self.assertEqual([f.line for f in found], [line + 3], found)
        self.assertIn("'2 wavefronts'", found[0].message)

    def test_03_the_tiles_drawing_puts_a_column_in_one_bank(self):
        # Lesson 03's exercise.hpp once drew the starter's column in one bank: Part 1's
        # column prediction.
        root = self.course("03")
        line = self.append(root, "03", "exercise.hpp", textwrap.dedent("""\
            ///     row 0: offsets  0  1  2 ... 31
            ///     row 1: offsets 32 33 34 ... 63        column c: offsets c, 32 + c, 64 + c, ...
            ///     row 2: offsets 64 65 66 ... 95        -> all in bank c
            """))
        found = self.starter_findings(root, "03", "exercise.hpp")
        self.assertEqual([f.line for f in found], [line + 2], found)
        self.assertIn("all in bank c", found[0].message)

    def test_a_kernel_files_comment_counts(self):
        root = self.course("05")
        line = self.append(root, "05", "exercise.cu",
                           "// Phase 2 reads a tile column: a 32-way conflict with the plain tile.\n")
        found = self.starter_findings(root, "05", "exercise.cu")
        self.assertEqual([f.line for f in found], [line], found)
        self.assertIn("32-way", found[0].message)

    def test_a_starter_comment_may_state_the_goal_it_sets(self):
        # "Make both cost 1 wavefront": the cost the student's code must reach, which the README
        # states too. A goal is the ideal: any other cost, or a cost not set as a goal, is found.
        root = self.course("01")
        base = self.append(root, "01", "exercise.hpp", textwrap.dedent("""\
            // Part 4: the tile of another kernel. Make every store and every
            // load cost 1 wavefront, and keep the tile within its capacity.
            inline constexpr int kMore = 0; // TODO: a column read must be conflict-free
            inline constexpr int kLess = 0; // TODO: 8 lanes per bank, an 8-way conflict
            // The padded column costs one wavefront.
            // Make the stride-2 read cost 2 wavefronts.
            """))
        found = self.starter_findings(root, "01", "exercise.hpp")
        self.assertEqual([f.line for f in found], [base + 3, base + 4, base + 5], found)
        self.assertIn("'8-way'", found[0].message)
        self.assertIn("'one wavefront'", found[1].message)
        self.assertIn("'2 wavefronts'", found[2].message)

    def test_a_listed_cost_in_a_starter_comment(self):
        # The manifest may list a starter's cost statement (origin `cost`), with its reason.
        root = self.course("01")
        line = self.append(root, "01", "exercise.hpp",
                           "/// The starter's own staging: 8 lanes per bank, an 8-way conflict.\n"
                           "inline constexpr int kStarterWays = 8;\n")
        self.assertEqual([f.line for f in self.starter_findings(root, "01", "exercise.hpp")],
                         [line])
        manifest = root / "lessons" / lesson_folder("01") / "lesson.json"
        data = json.loads(manifest.read_text())
        data.setdefault("answer_exceptions", []).append(
            {"file": "exercise.hpp", "where": "kStarterWays", "origin": "cost",
             "reason": "the starter's own cost, which the README states; no prediction asks it"})
        manifest.write_text(json.dumps(data, indent=2) + "\n")
        self.assertEqual(self.starter_findings(root, "01", "exercise.hpp"), [])

    def test_a_guard_tests_name_that_states_what_it_finds(self):
        # Lesson 02's demo slowdowns were once named for their results.
        root = self.course("02")
        tests = root / "tests" / lesson_folder("02")
        tests.mkdir(parents=True)
        (tests / "perf_guard_demo_slowdown_test.cpp").write_text(
            "TEST(DemoSlowdown, StrideTwoTwiceAsSlow) {}\n"
            "TEST(DemoSlowdown, StrideThreeAsFastAsStrideOne) {}\n"
            "TEST(DemoSlowdown, StrideSixOverStrideOne) {}\n"
            # Lessons 10 and 11's shapes and modes were once named for their costs too.
            "TEST(Shapes, OffsetZeroIsABroadcastOnlyInThePlainShape) {}\n"
            "TEST(Shapes, JaggedCostsWhatThePlainStrideCostsFromOffset1) {}\n"
            "TEST(Modes, SwizzledChunkReadsAtTheIdealPlainOnesNot) {}\n")
        (tests / "gpu_exercise_counters_test.cpp").write_text(
            "TEST(CorrelateCounters, OneWavefrontPerRequest) {}\n")  # a goal: allowed
        found = [f for f in self.findings(root, "02")
                 if f.path.startswith("tests/") and not f.path.endswith("predictions.hpp")]
        self.assertEqual([(f.path.rsplit("/", 1)[1], f.line) for f in found],
                         [("perf_guard_demo_slowdown_test.cpp", n) for n in (1, 2, 4, 5, 6)],
                         found)
        self.assertIn("'TwiceAsSlow'", found[0].message)

    def test_the_last_hint_is_the_view_too(self):
        root = self.course("07")
        line = self.append(root, "07", "hints.md", "So: `kTileDim + kVec`.\n")  # the last hint
        self.assertFound(root, "07", "hints.md", line, "kTileDim + kVec")

    def test_a_hint_before_the_last_is_the_view(self):
        root = self.course("07")
        hints = root / "lessons" / lesson_folder("07") / "hints.md"
        text = hints.read_text(encoding="utf-8")
        first = text.index("## Hint 1")
        line = text[:first].count("\n") + 2
        hints.write_text(text[:first] + "## Hint 1\nTry `kTileDim + kVec`.\n" + text[first:],
                         encoding="utf-8")
        self.assertFound(root, "07", "hints.md", line, "kTileDim + kVec")

    def test_a_listed_exception_holds_only_where_it_is_listed(self):
        # Lesson 03's padded demo shows +1 (listed); the same words in the README do not.
        root = self.course("03")
        demo = [f for f in self.findings(root, "03")
                if f.path.endswith("demo.hpp") and "PaddedTile" in f.message]
        self.assertEqual(demo, [])
        line = self.append(root, "03", "README.md", "Use a pitch of `kTileDim + 1`.\n")
        self.assertFound(root, "03", "README.md", line, "kTileDim + 1")

    def test_01_the_background_gives_the_formula(self):
        root = self.course("01")
        readme = [f for f in self.findings(root, "01") if f.path.endswith("README.md")
                  and "byte_address" in f.message]
        self.assertEqual(readme, [], "the Background's formula is a listed exception")
        line = self.append(root, "01", "README.md", "## Hints\n\n`(byte_address / 4) % 32`\n")
        self.assertFound(root, "01", "README.md", line + 2, "byte_address / 4")

    def test_an_exception_that_matches_nothing_is_a_finding(self):
        root = self.course("03")
        demo = root / "lessons" / lesson_folder("03") / "demo.hpp"
        demo.write_text("\n".join(line for line in demo.read_text().split("\n")
                                  if "using PaddedTile" not in line))
        stale = [f for f in self.findings(root, "03") if "matches nothing" in f.message]
        self.assertEqual(len(stale), 1, stale)
        self.assertIn("PaddedTile", stale[0].message)

    def test_an_answers_heading_in_a_readme(self):
        root = self.course("10")
        line = self.append(root, "10", "README.md", "### The answers, drawn\n")
        found = [f for f in self.findings(root, "10")
                 if f.line == line and f.path.endswith("README.md")]
        self.assertTrue(found)
        self.assertIn("heading about answers", found[0].message)

    def test_a_lesson_without_its_answers_file(self):
        root = self.course("02")
        (root / "solutions" / lesson_folder("02") / "answers.md").unlink()
        found = [f for f in self.findings(root, "02") if f.path.endswith("answers.md")]
        self.assertTrue(found)
        self.assertIn("missing", found[0].message)

    def test_an_answers_file_shows_only_its_own_pictures(self):
        root = self.course("02")
        answers = root / "solutions" / lesson_folder("02") / "answers.md"
        answers.write_text("# Lesson 02: answers\n\n![x](../../lessons/02_stride_two/images/"
                           "stride_2.svg)\n")
        found = [f for f in self.findings(root, "02") if f.path.endswith("answers.md")]
        self.assertTrue(found)
        self.assertIn("its own pictures", found[0].message)

    def test_the_command_line(self):
        root = self.course("07")
        self.append(root, "07", "README.md", "pitch (`kTileDim + kVec`)\n")
        proc = self.run_tool("course.policy.check_answers", "--root", root, "--lesson", "07")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("README.md:", proc.stdout)
        self.assertIn("finding", proc.stdout)
        units = self.run_tool("course.policy.check_answers", "--root", root, "--lesson", "7", "--units")
        self.assertEqual(units.returncode, 0, units.stderr)
        self.assertIn("value of kTilePitch: kTileDim + kVec", units.stdout)

    def test_bad_input(self):
        self.assertOneLineError(self.run_tool("course.policy.check_answers", "--lesson", "x"), 2, "lesson")
        root = self.course("07")
        self.assertOneLineError(self.run_tool("course.policy.check_answers", "--root", root, "--lesson", "05"),
                                2, "no lesson 05")
        shutil.rmtree(root / "solutions")
        self.assertOneLineError(self.run_tool("course.policy.check_answers", "--root", root), 2,
                                "no solutions")
        self.assertOneLineError(self.run_tool("course.policy.check_answers", "--root", self.tmp), 2,
                                "no lessons/ folder")


BANK_MAP = os.environ.get("COURSE_TEST_BANK_MAP", "")
NO_BANK_MAP = ("needs the bank-map program ($COURSE_TEST_BANK_MAP, which ctest sets)"
               if not (BANK_MAP and Path(BANK_MAP).is_file()) else
               "needs a C++ compiler ($CXX or c++) for the prediction patterns"
               if not shutil.which(os.environ.get("CXX") or "c++") else "")


@unittest.skipUnless(HAVE_SOLUTIONS, f"needs the course's solutions/ folder ({ROOT} has none)")
@unittest.skipIf(NO_BANK_MAP, NO_BANK_MAP)
class DrawnInView(CourseCopy):
    """A bank map that a README prints or shows, or a starter's message offers, must not draw a
    pattern one of the lesson's predictions asks about."""

    def drawn(self, root: Path, number: str) -> List[Finding]:
        found, _notes = check_answers.check(root, root, [number], Path(BANK_MAP), None, None)
        return [f for f in found if "draws" in f.message or "refuses" in f.message]

    def insert_before(self, root: Path, number: str, heading: str, text: str) -> int:
        path = root / "lessons" / lesson_folder(number) / "README.md"
        readme = path.read_text()
        at = readme.index(f"\n## {heading}\n") + 1
        path.write_text(readme[:at] + text + "\n" + readme[at:])
        return readme[:at].count("\n") + 1

    def course(self, *numbers: str) -> Path:
        root = super().course(*numbers)
        for number in numbers:
            shutil.copytree(ROOT / "tests" / lesson_folder(number),
                            root / "tests" / lesson_folder(number))
        shutil.copytree(ROOT / "common", root / "common")
        shutil.copytree(ROOT / "families", root / "families")
        (root / "docs").mkdir()
        shutil.copyfile(ROOT / "docs" / "pictures.txt", root / "docs" / "pictures.txt")
        return root

    def test_07_a_command_that_draws_a_predicted_column(self):
        root = self.course("07")
        self.assertEqual(self.drawn(root, "07"), [])
        line = self.insert_before(root, "07", "Hints",
                                  "```\nbuild/student/bin/bank-map --type float4 --index '8*l'\n```\n")
        found = self.drawn(root, "07")
        self.assertEqual([f.line for f in found], [line + 1])
        self.assertIn("kPredictedFloat4ColumnPitch32Wavefronts", found[0].message)

    def test_after_what_you_should_see_too(self):
        # The README is in view before the predictions are written, every section of it: lesson
        # 03's "What you should see" once had the student draw the 32 x 32 tile's column.
        root = self.course("07")
        line = self.append(root, "07", "README.md",
                           "```\nbuild/student/bin/bank-map --type float4 --index '8*l'\n```\n")
        self.assertEqual([f.line for f in self.drawn(root, "07")], [line + 1])

    def test_09_a_picture_two_lines_before_predict(self):
        root = self.course("09")
        manifest = root / "docs" / "pictures.txt"
        manifest.write_text(manifest.read_text() + "lessons/09_gemm_tiles/images/blocked.svg "
                            "--type float --index '8*(l%16)' --title \"4-way\"\n")
        line = self.insert_before(root, "09", "Predict", "![4 wavefronts](images/blocked.svg)\n")
        found = self.drawn(root, "09")
        self.assertEqual([f.line for f in found], [line])
        self.assertIn("kPredictedBlockedScalar", found[0].message)

    def test_a_picture_after_what_you_should_see_is_in_view_too(self):
        # Lesson 04 once showed a picture of two words in one bank there.
        root = self.course("04")
        manifest = root / "docs" / "pictures.txt"
        manifest.write_text(manifest.read_text() + "lessons/04_broadcast/images/pairs.svg "
                            "--type float --index '(l%2)*32'\n")
        line = self.append(root, "04", "README.md", "![Two words](images/pairs.svg)\n")
        found = self.drawn(root, "04")
        self.assertEqual({f.line for f in found}, {line})
        self.assertIn("kPredictedTwoWordsOneBankWavefronts", " ".join(f.message for f in found))

    def test_a_starters_message_that_has_the_student_draw_a_prediction(self):
        # Lesson 02's layout test once said "Try `bank-map --type float --stride 2`" to a
        # student whose predictions were still 0; a template the tool refuses is left alone.
        root = self.course("02")
        messages = {"lesson02_student_cpu": "costs ?. Try `bank-map --type float --stride 2`.\n"
                                            "Draw `bank-map --type float --index 'EXPR'`.\n"}
        from course.policy import prediction_patterns
        found, _notes = prediction_patterns.check_lesson(root, root, find_lessons(root)[0],
                                                         Path(BANK_MAP), None, messages)
        self.assertEqual(sorted({f.message.split(" asks")[0].split()[-1] for f in found}),
                         ["kPredictedStrideTwoSlowdown", "kPredictedStrideTwoWavefronts"])
        self.assertTrue(all(f.path == "lesson02_student_cpu" for f in found))

    def test_a_hint_that_draws_a_predicted_pattern(self):
        # Lesson 09's hint 1 once drew the blocked float4 read, a Part 1 pattern; a hint may
        # leave a part of a command to the student (`--layout 32xP`).
        root = self.course("07")
        line = self.append(root, "07", "hints.md",
                           "Draw it: `bank-map --type float4 --index '8*l'`, or "
                           "`bank-map --type float --layout 32xP --column 1`.\n")
        found = self.drawn(root, "07")
        self.assertEqual([(f.path.rsplit("/", 1)[1], f.line) for f in found], [("hints.md", line)])
        self.assertIn("kPredictedFloat4ColumnPitch32Wavefronts", found[0].message)

    def test_a_sweep_is_every_value_it_sweeps(self):
        # bank-conflicts over the jagged shape prints offsets 0 and 2: two predictions.
        root = self.course("10")
        self.insert_before(root, "10", "Predict", "`bank-conflicts --type float --index "
                           "'l * s + 32 * l' --sweep 0:3`\n")
        names = " ".join(f.message for f in self.drawn(root, "10"))
        self.assertIn("kPredictedJaggedOffset0Wavefronts", names)
        self.assertIn("kPredictedJaggedOffset2Wavefronts", names)

    def test_a_shifted_pattern_is_the_same_pattern(self):
        # lesson 04's broadcast, every lane at word 64 instead of word 0.
        root = self.course("04")
        self.insert_before(root, "04", "Hints", "`bank-map --type float --index 64`\n")
        self.assertIn("kPredictedOneWordWavefronts",
                      " ".join(f.message for f in self.drawn(root, "04")))

    def test_a_command_bank_map_refuses(self):
        root = self.course("07")
        self.insert_before(root, "07", "Hints", "`bank-map --type float5 --stride 1`\n")
        found = self.drawn(root, "07")
        self.assertEqual(len(found), 1, found)
        self.assertIn("refuses", found[0].message)


class Units(unittest.TestCase):
    """What counts as an answer: values, aliases, bodies and their parts, above a size."""

    def units(self, starter: str, solution: str, kernel: bool = False) -> List[str]:
        return [u.text for u in answer_units.answer_units(starter, solution, kernel)]

    def test_short_changes_never_count(self):
        self.assertEqual(self.units("int f(int t) { return 0 * t; }\n",
                                    "int f(int t) { return t; }\n"), [])
        self.assertEqual(self.units("int f() {\n}\n", "int f() {\n  }\n"), [])

    def test_a_value_and_its_part(self):
        starter = "using Tile = kit::Swizzled<Rows>;\n"
        solution = "using Tile = kit::Swizzled<Rows, kit::Swizzle<3, 3, 3>>;\n"
        self.assertEqual(self.units(starter, solution),
                         ["Swizzled<Rows, Swizzle<3, 3, 3>>", "Swizzle<3, 3, 3>"])

    def test_comments_do_not_count_and_the_starters_code_is_no_answer(self):
        starter = "// TODO\ninline constexpr int kPitch = kTileDim; // TODO\n"
        solution = "/// kTileDim + 1 explained\ninline constexpr int kPitch = kTileDim + 1;\n"
        self.assertEqual(self.units(starter, solution), ["kTileDim + 1"])
        self.assertEqual(self.units("int g = kTileDim + 1;\nint k = 0;\n",
                                    "int g = kTileDim + 1;\nint k = kTileDim + 1;\n"), [])

    def test_a_name_alone_is_no_answer(self):
        # Reading a field names an input (lesson 10's sm.smem_reserved_per_block); the tests
        # and messages name it too. The formula around it is the answer.
        units = self.units("int f(const Sm& sm, int s) { return s; }\n",
                           "int f(const Sm& sm, int s) { return s + sm.smem_reserved_per_block; }\n")
        self.assertEqual(units, ["s + sm.smem_reserved_per_block"])

    def test_a_functions_parameters_and_the_lessons_constants(self):
        starter = "struct C {\n  static int col(int t, int j) { return t * kFragN + j; }\n};\n"
        solution = "struct C {\n  static int col(int t, int j) { return t + kThreadsX * j; }\n};\n"
        [unit] = answer_units.answer_units(starter, solution, constants={"kThreadsX": 16})
        self.assertEqual((unit.params, unit.valued), (("t", "j"), ("t", "+", "16", "*", "j")))
        self.assertEqual(answer_units.occurrences(
            answer_units.text_tokens("a: tx + 16 j\nb: tx + 16 tx\nc: lane l + 16 ask\n"),
            unit), [1])
        self.assertEqual(answer_units.lesson_constants(["constexpr int kA = 16;\n"
                                           "inline constexpr int kB = 128 / kA + (kA - 1) % 4;\n"
                                           "constexpr int kC = kUnknown * 2;\n"]),
                         {"kA": 16, "kB": 11})

    def test_a_product_of_parameters_alone_is_matched_as_written(self):
        solution = "int f(int alpha, int beta) { return alpha * beta + 1; }\n"
        [unit] = [u for u in answer_units.answer_units(
            "int f(int alpha, int beta) { return 0; }\n", solution) if u.kind == "value"]
        self.assertEqual(unit.params, ())

    def test_a_cast_around_a_formula(self):
        units = self.units("int b(int a) { return 0 * a; }\n",
                           "int b(int a) { return static_cast<int>((a / 4) % 32); }\n")
        self.assertIn("(a / 4) % 32", units)

    def test_a_kernels_body_counts_whole(self):
        starter = "__global__ void k(float* p) {\n  p[0] = 0;\n}\n"
        solution = ("__global__ void __launch_bounds__(32) k(float* p) {\n"
                    "  const int lane = static_cast<int>(threadIdx.x);\n"
                    "  p[lane] = 2.0f * p[lane];\n}\n")
        units = answer_units.answer_units(starter, solution, kernel_file=True)
        self.assertEqual([(u.kind, u.origin) for u in units], [("body", "k")])

    def test_where_an_answer_stands(self):
        unit = answer_units.answer_units("int k = kDim;\n", "int k = kDim + kVec;\n")[0]
        text = "Prose: `kDim + kVec`.\nCode:\n    kit::kDim + kVec\n// kDim+kVec\n"
        self.assertEqual(answer_units.occurrences(answer_units.text_tokens(text), unit),
                         [1, 3, 4])


class CountsInMessages(unittest.TestCase):
    """A starter's failure message gives no count a prediction asks for (check_answers
    --build-dir): the lines below are messages the starters printed before they held them back."""

    VALUES = {2.0: ["kPredictedStrideTwoWavefronts"], 32.0: ["kPredictedPlainLdsmWavefronts"],
              4.0: ["kPredictedPaddedLdsmWavefronts"], 8.0: ["kPredictedTilePhaseWavefronts"]}

    def found(self, text):
        return [line for line, _ in check_answers.counts_in_messages(text, self.VALUES)]

    def test_the_phrases_that_gave_counts(self):
        for line in ["stage re (4-byte, n = 1024) costs 2 wavefronts: lane 0 uses bank 0",
                     "  stride 2: conflict_degree says 1, the model 2 (lane 1 is in bank 2)",
                     "the model says correlate spends 2x the wavefronts of its twin",
                     "ldmatrix.x4 k-step 0 costs 32 wavefronts (ideal 4): the 8 rows",
                     "the float4 load of rows 0-31, columns 0-3 (phases 8 + 8 + 8 + 8)",
                     "rows 34 floats apart, whose column reads cost 2): a swizzle"]:
            self.assertEqual(self.found(line), [line.strip()], line)
        which = "Expected equality of these values:\n  r.wavefronts\n    Which is: 2\n  r.ideal\n"
        self.assertEqual(self.found(which), ["Which is: 2"])

    def test_held_back_counts_and_other_numbers_are_not(self):
        for line in ["stage re (4-byte, n = 1024) costs ? wavefronts, its ideal 1: lane 0",
                     "the model says correlate spends ?x the wavefronts of its twin",
                     "(phases ? + ? + ? + ?) (16 B load) costs more wavefronts per request",
                     "word 32 (lane 1), word 64 (lane 2) and more (and 2047 more instructions",
                     "loads 64 wavefronts, ideal 36; stores 36, ideal 36",
                     "blocks of 48 threads (2 warps each): resident_blocks says 1, but 2 fit"]:
            self.assertEqual(self.found(line), [], line)
        # "Which is" under an expression that is no count.
        self.assertEqual(self.found("  lesson05::tile_extent(origin, n)\n    Which is: 32\n"), [])

    def test_the_values_are_the_reference_predictions_of_two_and_more(self):
        lesson = next(x for x in find_lessons(ROOT) if x.number == "02")
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "solutions" / lesson.folder
            folder.mkdir(parents=True)
            (folder / "exercise.hpp").write_text(
                "inline constexpr int kPredictedA = 2;\ninline constexpr int kPredictedB = 1;\n"
                "inline constexpr double kPredictedC = 1.5;\n"
                "inline constexpr double kPredictedD = 32.0; // the slowdown\n"
                "inline constexpr int kPredictedE = 2;\n")
            self.assertEqual(check_answers.prediction_values(Path(tmp), lesson),
                             {2.0: ["kPredictedA", "kPredictedE"], 32.0: ["kPredictedD"]})


if __name__ == "__main__":
    unittest.main()
