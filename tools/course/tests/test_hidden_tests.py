"""The documented hidden-tests example: laid out like tests/, and picked up by a build that the
`grade` preset points at it (COURSE_HIDDEN_TESTS -> COURSE_EXTRA_TESTS_DIR): each of its tests
registered as student/lessonNN/hidden/<Suite.Name>, with the lesson's labels plus `hidden`, run
by a program of their own (lessonNN_student_hidden_cpu), not by the lesson's. The build
configured here is a tiny one: the course with only the lessons the example covers."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from course_testing import ROOT
from course.model.course_model import find_lessons
from course.model.ctest_results import list_tests

EXAMPLE = ROOT / "docs" / "examples" / "hidden-tests"
NAME = re.compile(r"^(cpu|gpu|perf)_(exercise|guard)_.+_test\.(cpp|cu)$")
TEST = re.compile(r"^\s*TEST(?:_F)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", re.M)


class Layout(unittest.TestCase):
    def test_it_is_laid_out_like_tests(self):
        lessons = {lesson.folder for lesson in find_lessons(ROOT)}
        folders = [p for p in EXAMPLE.iterdir() if p.is_dir()]
        self.assertTrue(folders, f"{EXAMPLE} has no lesson folder")
        for folder in folders:
            self.assertIn(folder.name, lessons, f"{folder.name} is not a lesson of the course")
            files = [p.name for p in folder.iterdir()]
            self.assertTrue(files)
            for name in files:
                self.assertRegex(name, NAME)


def tools_for_a_build():
    cmake = os.environ.get("COURSE_TEST_CMAKE") or shutil.which("cmake")
    ctest = os.environ.get("COURSE_TEST_CTEST") or shutil.which("ctest")
    nvcc = shutil.which("nvcc") or (Path("/usr/local/cuda/bin/nvcc") if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    return cmake, ctest, nvcc


@unittest.skipUnless(all(tools_for_a_build()), "needs cmake, ctest and the CUDA toolkit (nvcc) "
                                               "to configure a build")
class PickedUp(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix="hidden-tests-")
        tmp = Path(cls._tmp.name)
        covered = {p.name for p in EXAMPLE.iterdir() if p.is_dir()}
        cls.source = tmp / "course"

        def ignore(folder: str, names):
            here = Path(folder).resolve()
            skip = {n for n in names if n in (".git", "build", "__pycache__")}
            if here in (ROOT / "lessons", ROOT / "solutions", ROOT / "tests"):
                skip |= {n for n in names if re.match(r"^\d\d_", n) and n not in covered}
            return skip

        shutil.copytree(str(ROOT), str(cls.source), ignore=ignore)
        cmake, cls.ctest, nvcc = tools_for_a_build()
        env = dict(os.environ, COURSE_HIDDEN_TESTS=str(EXAMPLE))
        env["PATH"] = f"{Path(nvcc).parent}{os.pathsep}{env.get('PATH', '')}"
        cls.configure = subprocess.run([cmake, "--preset", "grade"], cwd=str(cls.source), env=env,
                                       capture_output=True, text=True, timeout=240)
        cls.build = cls.source / "build" / "grade"

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def test_the_grade_preset_configures_with_them(self):
        self.assertEqual(self.configure.returncode, 0, self.configure.stdout[-3000:] + self.configure.stderr[-3000:])
        cache = (self.build / "CMakeCache.txt").read_text()
        self.assertIn(f"COURSE_EXTRA_TESTS_DIR:PATH={EXAMPLE}", cache)

    def test_each_test_is_registered_labelled_hidden(self):
        self.assertEqual(self.configure.returncode, 0)
        listed = list_tests(self.build, self.ctest)
        for folder in (p for p in EXAMPLE.iterdir() if p.is_dir()):
            number = folder.name[:2]
            for source in folder.iterdir():
                kind, role = NAME.match(source.name).group(1, 2)
                for suite, case in TEST.findall(source.read_text()):
                    name = f"student/lesson{number}/hidden/{suite}.{case}"
                    with self.subTest(test=name):
                        self.assertIn(name, listed)
                        labels = set(listed[name].labels)
                        self.assertLessEqual({f"lesson{number}", "student", role, "hidden"}, labels)
                        self.assertIn("gpu" if kind != "cpu" else "cpu", labels)
                        # Before the build, ctest finds no program for it: "not built".
                        self.assertIs(listed[name].built, False)

    def test_they_have_a_program_of_their_own(self):
        self.assertEqual(self.configure.returncode, 0)
        lessons = {lesson.folder: lesson for lesson in find_lessons(ROOT)}
        for folder in (p for p in EXAMPLE.iterdir() if p.is_dir()):
            kinds = {"cpu" if NAME.match(s.name).group(1) == "cpu" else "gpu" for s in folder.iterdir()}
            for kind in kinds:
                program = lessons[folder.name].program("student", kind, hidden=True)
                with self.subTest(program=program):
                    self.assertTrue(list(self.build.rglob(f"{program}.dir")),
                                    f"no build target {program}")

    def test_the_tools_know_the_hidden_folder(self):
        import json
        info = json.loads((self.build / "course" / "build.json").read_text())
        self.assertEqual(info["extra_tests_dir"], str(EXAMPLE))


if __name__ == "__main__":
    unittest.main()
