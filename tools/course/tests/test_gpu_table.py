"""authoring/gpu_table.py: docs/instructors.md's table of which GPUs grade which lessons, made from
the lessons' declared needs, their test files and common/gpu_profiles.json. On a small course:
a lesson that needs the TMA runs none of its GPU tests on sm_86, and says why; a test that needs
the 8- and 16-byte rules is counted out on sm_80 and in on sm_90, with the points it carries;
shared memory above an architecture's most per block counts a lesson out there; the counter
tests' points are said. `regenerate` writes the block and `regenerate --check` fails when it is
stale. On the course itself: the tests it counts are the ones the build registers, the
sanitizer tools are the build's, and the guide's table is current."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import unittest
from pathlib import Path
from typing import Dict, List

from course_testing import ROOT, ToolTest, make_course
from course.authoring import gpu_table
from course.authoring.regenerate import regenerate
from course.model.course_model import CourseError, find_lessons

GUIDE_TEXT = textwrap.dedent("""\
    # Teaching with this course

    ## 2. Set up a self-hosted GPU runner

    <!-- gpu-table -->
    <!-- /gpu-table -->

    More text.
    """)

README_TEXT = "# Course\n\n<!-- lesson-table -->\n<!-- /lesson-table -->\n"


def tests_file(*names: str) -> str:
    return "".join(f"TEST({n.replace('.', ', ')}) {{\n}}\n\n" for n in names)


class FakeCourse:
    """Three lessons: 01 needs the TMA; 02 has a timing test that needs the 8- and 16-byte rules
    and a counter test; 03 needs 120 KB of shared memory a block."""

    def __init__(self, root: Path):
        self.root = make_course(root, {"01_tma": None, "02_wide": None, "03_big_tile": None})
        self.gpu("01_tma", tma=True)
        self.files("01_tma", {"gpu_exercise_tile_test.cpp": tests_file("Tile.Loads", "Tile.Stores")})
        self.gpu("02_wide", tests=[{"tests": ["Wide.*"], "wide_rules": True,
                                    "why": "its pattern is made of 16-byte accesses"}])
        self.files("02_wide", {"perf_exercise_wide_speed_test.cpp": tests_file("Wide.Speed"),
                               "gpu_guard_narrow_test.cpp": tests_file("Narrow.Ok"),
                               "gpu_exercise_narrow_counters_test.cpp":
                                   tests_file("NarrowCounters.Ideal")})
        self.gpu("03_big_tile", shared_memory_per_block=120 * 1024)
        self.files("03_big_tile", {"gpu_exercise_tile_test.cpp": tests_file("Big.Tile")})
        (self.root / "docs").mkdir()
        (self.root / "docs" / "instructors.md").write_text(GUIDE_TEXT)
        (self.root / "README.md").write_text(README_TEXT)

    def gpu(self, folder: str, **needs) -> None:
        path = self.root / "lessons" / folder / "lesson.json"
        data = json.loads(path.read_text())
        data["gpu"].update(needs)
        path.write_text(json.dumps(data, indent=2) + "\n")

    def files(self, folder: str, files: Dict[str, str]) -> None:
        tests = self.root / "tests" / folder
        (tests / "cpu_exercise_x_test.cpp").write_text(tests_file("Layout.Ok"))
        for name, text in files.items():
            (tests / name).write_text(text)

    def table(self) -> gpu_table.GpuTable:
        return gpu_table.gpu_table(self.root, find_lessons(self.root))

    def rows(self) -> Dict[str, List[str]]:
        """The rendered table's rows by their first cell's lesson number ('points' for the
        last), each a list of its cells."""
        out = {}
        for line in gpu_table.render(self.table()):
            if line.startswith("| ") and not line.startswith("| lesson "):
                cells = [c.strip() for c in line.strip("|").split("|")]
                out[cells[0].split()[0]] = cells
        return out


class Table(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="gpu-table-")
        self.course = FakeCourse(Path(self._tmp.name) / "course")
        self.archs = [c.arch for c in self.course.table().profiles.rows]

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def cell(self, number: str, arch: str) -> str:
        return self.course.rows()[number][2 + self.archs.index(arch)]

    def test_the_header_names_each_architecture_with_its_gpus(self):
        head = gpu_table.render(self.course.table())[0]
        self.assertTrue(head.startswith("| lesson | points | sm_75 (T4, RTX 20) | sm_80 (A100"),
                        head)
        self.assertIn("| sm_90 (H100, H200) |", head)

    def test_the_tests_counted_are_the_graded_gpu_tests(self):
        lesson = find_lessons(self.course.root)[1]
        tests = {t.name: t for t in gpu_table.graded_tests(lesson, self.course.root)}
        self.assertEqual(sorted(tests), ["Layout.Ok", "Narrow.Ok", "NarrowCounters.Ideal",
                                         "Wide.Speed", "memcheck/gpu_guard_narrow_test",
                                         "racecheck/gpu_guard_narrow_test"])
        self.assertIn("counters", tests["NarrowCounters.Ideal"].labels)
        self.assertIn("perf", tests["Wide.Speed"].labels)
        self.assertEqual(tests["memcheck/gpu_guard_narrow_test"].gtest, ("Narrow.Ok",))
        self.assertIn("sanitize", tests["memcheck/gpu_guard_narrow_test"].labels)
        self.assertFalse(tests["Layout.Ok"].gpu)

    def test_a_lesson_that_needs_the_tma_runs_nothing_on_sm_86_and_says_why(self):
        # Two tests and the memcheck and racecheck runs of their file; the GPU part's points.
        self.assertEqual(self.cell("01", "sm_86"), "0 of 4: no TMA; -5 points")
        self.assertEqual(self.cell("01", "sm_75"), "0 of 4: no TMA; -5 points")
        self.assertEqual(self.cell("01", "sm_90"), "4 of 4")
        self.assertEqual(self.cell("01", "sm_120"), "4 of 4")

    def test_a_test_that_needs_the_wide_rules_is_out_on_sm_80_and_in_on_sm_90(self):
        # Wide.Speed and NarrowCounters.Ideal share the GPU part's 5 points.
        self.assertEqual(self.cell("02", "sm_80"),
                         "4 of 5: 8-/16-byte rules not verified; -2.5 points")
        self.assertEqual(self.cell("02", "sm_90"), "5 of 5")
        self.assertEqual(self.cell("02", "sm_100"),
                         "4 of 5: 8-/16-byte rules not verified; -2.5 points")
        notes = "\n".join(gpu_table.render(self.course.table())).replace("\n", " ")
        self.assertIn("8- and 16-byte rules, by lesson 02 (1 test, 2.5 points), run where the "
                      "rules were measured (sm_90)", notes)
        self.assertIn("self-check", notes)

    def test_tests_stopped_for_different_needs_are_counted_by_need(self):
        self.course.gpu("02_wide", tests=[
            {"tests": ["Wide.*"], "wide_rules": True, "why": "16-byte accesses"},
            {"tests": ["Narrow.*"], "tma": True, "compute_capability": "9.0", "why": "the TMA"}])
        # Narrow.Ok and the sanitizer runs of its file (which run it) need the TMA; they carry
        # no points (a guard, and the sanitizer's runs).
        # Each by the first need it lacks, as the grader's sentence says it.
        self.assertEqual(self.cell("02", "sm_86"), "1 of 5: needs sm_90 (3), "
                                                    "8-/16-byte rules not verified (1); -2.5 points")
        self.assertEqual(self.cell("02", "sm_120"),
                         "4 of 5: 8-/16-byte rules not verified; -2.5 points")

    def test_shared_memory_above_a_profiles_limit_counts_a_lesson_out(self):
        # 120 KB: more than sm_75's 64 KB and sm_86's 99 KB, less than sm_80's 163 KB.
        for arch in ("sm_75", "sm_86", "sm_89", "sm_120"):
            self.assertEqual(self.cell("03", arch),
                             "0 of 3: needs 120 KB of shared memory a block; -5 points", arch)
        for arch in ("sm_80", "sm_90", "sm_100"):
            self.assertEqual(self.cell("03", arch), "3 of 3", arch)

    def test_the_last_row_gives_the_points_gradable_on_each_architecture(self):
        last = self.course.rows()["points"]
        self.assertEqual(last[:2], ["points gradable", "30"])
        by_arch = dict(zip(self.archs, last[2:]))
        self.assertEqual(by_arch["sm_86"], "17.5")  # 30 - 5 (TMA) - 2.5 (rules) - 5 (memory)
        self.assertEqual(by_arch["sm_80"], "22.5")
        self.assertEqual(by_arch["sm_90"], "30")

    def test_the_counter_tests_points_are_said(self):
        notes = " ".join(gpu_table.render(self.course.table()))
        self.assertIn("With the counters refused, the counter tests", notes)
        self.assertRegex(notes, r"2\.5 of the course's 30\s+points, by lesson 02 \(2\.5\)")

    def test_the_notes_are_wrapped_as_the_guide(self):
        for line in gpu_table.render(self.course.table()):
            if not line.startswith("|"):
                self.assertLessEqual(len(line), gpu_table.WIDTH, line)

    def test_a_guide_without_the_markers_is_an_error(self):
        with self.assertRaises(CourseError) as e:
            gpu_table.rewrite("# Guide\n", self.course.root, find_lessons(self.course.root))
        self.assertIn("has no GPU table", str(e.exception))

    def test_rewrite_keeps_the_text_around_the_block(self):
        text = gpu_table.rewrite(GUIDE_TEXT, self.course.root, find_lessons(self.course.root))
        self.assertTrue(text.startswith(GUIDE_TEXT.split("<!-- gpu-table -->")[0]))
        self.assertTrue(text.endswith("<!-- /gpu-table -->\n\nMore text.\n"))
        self.assertEqual(gpu_table.rewrite(text, self.course.root,
                                           find_lessons(self.course.root)), text)


class TestNames(unittest.TestCase):
    def test_as_the_build_reads_them(self):
        text = ("TEST(A, B) {}\n  TEST_F( Fix ,\n Name ) {}\n// TEST(C, D)\nxTEST(E, F)\n"
                "\tTEST(G,H)\n")
        self.assertEqual(gpu_table.test_names(text), ["A.B", "Fix.Name", "G.H"])


class Regenerate(ToolTest):
    def test_check_fails_when_the_table_is_stale(self):
        course = FakeCourse(self.tmp / "course")
        written = self.run_tool("course.authoring.regenerate", "--course", course.root)
        self.assertEqual(written.returncode, 0, written.stdout + written.stderr)
        self.assertIn("docs/instructors.md: written", written.stdout)
        guide = (course.root / "docs" / "instructors.md").read_text()
        self.assertIn("| 01 Tma | 10 | 0 of 4: no TMA; -5 points |", guide)
        current = self.run_tool("course.authoring.regenerate", "--check", "--course", course.root)
        self.assertEqual(current.returncode, 0, current.stdout + current.stderr)

        # The lesson no longer needs the TMA: the table is stale, and only the table.
        course.gpu("01_tma", tma=False)
        stale = self.run_tool("course.authoring.regenerate", "--check", "--course", course.root)
        self.assertEqual(stale.returncode, 1, stale.stdout + stale.stderr)
        self.assertEqual(stale.stdout.splitlines(),
                         ["docs/instructors.md: stale (./course-admin regenerate writes it)"])
        self.assertEqual((course.root / "docs" / "instructors.md").read_text(), guide)

        # A test added to a lesson's GPU file makes it stale too.
        course.gpu("01_tma", tma=True)
        self.assertEqual(regenerate(course.root, check=True), [])
        path = course.root / "tests" / "03_big_tile" / "gpu_exercise_tile_test.cpp"
        path.write_text(path.read_text() + tests_file("Big.Other"))
        self.assertEqual(regenerate(course.root, check=True),
                         ["docs/instructors.md: stale (./course-admin regenerate writes it)"])


class TheCourse(unittest.TestCase):
    def test_the_sanitizer_tools_are_the_builds(self):
        cmake = (ROOT / "cmake" / "CourseLesson.cmake").read_text()
        m = re.search(r"^set\(COURSE_SANITIZER_TOOLS ([\w ]+?) CACHE", cmake, re.M)
        self.assertIsNotNone(m, "cmake/CourseLesson.cmake no longer sets COURSE_SANITIZER_TOOLS")
        self.assertEqual(tuple(m.group(1).split()), gpu_table.SANITIZER_TOOLS)

    @unittest.skipUnless((ROOT / "docs" / "instructors.md").is_file(), "no instructors' guide")
    def test_the_guides_table_is_current(self):
        path = ROOT / "docs" / "instructors.md"
        text = path.read_text(encoding="utf-8")
        self.assertEqual(gpu_table.rewrite(text, ROOT, find_lessons(ROOT)), text,
                         "docs/instructors.md's GPU table is stale: run `./course-admin "
                         "regenerate`")

    @unittest.skipUnless(shutil.which("cmake") and shutil.which("ctest") and
                         (shutil.which("nvcc") or Path("/usr/local/cuda/bin/nvcc").is_file()),
                         "needs cmake, ctest and the CUDA toolkit (to configure the course)")
    def test_the_tests_counted_are_the_ones_the_build_registers(self):
        with tempfile.TemporaryDirectory(prefix="gpu-table-build-") as tmp:
            build = Path(tmp)
            env = dict(os.environ)
            env["PATH"] = f"{env.get('PATH', '')}{os.pathsep}/usr/local/cuda/bin"
            configure = subprocess.run(
                ["cmake", "-S", str(ROOT), "-B", str(build), "-DCOURSE_BUILD_STUDENT=ON",
                 "-DCOURSE_BUILD_SOLUTIONS=OFF", "-DCOURSE_GPU_TESTS=ON",
                 "-DCMAKE_CUDA_ARCHITECTURES=90"], capture_output=True, text=True, timeout=600,
                env=env)
            self.assertEqual(configure.returncode, 0, configure.stdout[-2000:] +
                             configure.stderr[-2000:])
            listing = subprocess.run(["ctest", "--test-dir", str(build), "--show-only=json-v1"],
                                     capture_output=True, text=True, check=True).stdout
        registered: Dict[str, Dict[str, List[str]]] = {}
        for t in json.loads(listing)["tests"]:
            parts = t["name"].split("/", 2)
            if len(parts) == 3 and parts[0] == gpu_table.TREE:
                labels = next((p["value"] for p in t.get("properties", [])
                               if p["name"] == "LABELS"), [])
                registered.setdefault(parts[1], {})[parts[2]] = sorted(set(labels))
        for lesson in find_lessons(ROOT):
            with self.subTest(lesson=lesson.label):
                counted = {t.name: sorted(set(t.labels))
                           for t in gpu_table.graded_tests(lesson, ROOT)}
                self.assertEqual(counted, registered.get(lesson.label, {}))


if __name__ == "__main__":
    unittest.main()
