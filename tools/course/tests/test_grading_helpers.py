"""The grading helpers: build_lessons.py (each lesson its own target, keep going, a status file),
grade_tree.py (the student's exercise files on the pinned course, nothing else), gpu-env.sh
(the CUDA toolkit on PATH and LD_LIBRARY_PATH for Classroom's stripped environment), what the
sandbox shows a GPU test (gpu_parts.py) and the libraries a program loads (libraries.py); and
the first three together with the grade report."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import unittest
import unittest.mock

from course_testing import (FIXTURES, TOOLS, ToolTest, exercise_hpp, lesson_files, make_build,
                            make_course)

from course.model.trust import file_hash


#: Stands in for the make program: appends its arguments to $FAKE_LOG, fails for a goal in
#: $FAKE_MAKE_FAIL, else makes the files the build lists for each lesson goal.
FAKE_MAKE = r'''#!{python}
import json, os, sys
args = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("gmake " + " ".join(args) + "\n")
if set(args) & set(os.environ.get("FAKE_MAKE_FAIL", "").split(",")):
    print("make: *** [Makefile:1] Error 1")
    sys.exit(2)
made = json.load(open(os.path.join("course", "lesson-files.json")))["lessons"]
for goal in args:
    for path in made.get(goal.split("/")[-2].split(".")[0] if goal.endswith(".dir/all") else "", []):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").write("made by the build of " + goal + "\n")
'''


def with_fake_make(bin_dir, build) -> None:
    """Makes `build` a Makefile build whose make program is the stand-in (FAKE_MAKE)."""
    make = bin_dir / "gmake"
    make.write_text(FAKE_MAKE.format(python=sys.executable))
    make.chmod(0o755)
    (build / "CMakeCache.txt").write_text(
        f"CMAKE_GENERATOR:INTERNAL=Unix Makefiles\nCMAKE_MAKE_PROGRAM:FILEPATH={make}\n")
    (build / "CMakeFiles").mkdir()


class BuildLessons(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course", {"01_a": None, "02_b": None, "03_c": None})
        self.build = make_build(self.tmp / "build", self.source)

    def test_one_broken_lesson_does_not_stop_the_others(self):
        self.env["FAKE_CMAKE_FAIL"] = "lesson02"
        proc = self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "-j", "3")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        # All three at once first; that failed, so each on its own.
        targets = [c.split("--target ")[1].split(" -j")[0] for c in self.calls()
                   if c.startswith("cmake")]
        self.assertEqual(targets, ["lesson01 lesson02 lesson03", "lesson01", "lesson02", "lesson03"])
        status = json.loads((self.build / "course" / "build-status.json").read_text())["lessons"]
        self.assertEqual(status["lesson01"]["status"], "built")
        self.assertEqual(status["lesson02"]["status"], "did not build")
        self.assertEqual(status["lesson02"]["error"], "/src/lessons/exercise.cu(12): error: expected a ';'")
        self.assertEqual(status["lesson03"]["status"], "built")
        self.assertIn("Error 2", (self.build / "course" / "build-lesson02.log").read_text())
        self.assertIn("2 of 3 lessons built", proc.stdout)

    def test_within_a_lesson_the_build_keeps_going(self):
        (self.build / "CMakeCache.txt").write_text("CMAKE_GENERATOR:INTERNAL=Unix Makefiles\n")
        self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "--lessons", "01")
        self.assertTrue(self.calls()[0].endswith("-- -k"), self.calls())
        (self.build / "CMakeCache.txt").write_text("CMAKE_GENERATOR:INTERNAL=Ninja\n")
        self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "--lessons", "01")
        self.assertTrue(self.calls()[1].endswith("-- -k 0"), self.calls())

    def test_makefiles_build_every_lesson_in_one_pool_of_jobs(self):
        # CMake's top-level Makefile builds several targets one after another (.NOTPARALLEL):
        # the lessons are made in one run on CMakeFiles/Makefile2, after the build system's
        # check that Makefile runs first.
        with_fake_make(self.bin, self.build)
        # (a target of the top folder has no folder before CMakeFiles/)
        (self.build / "CMakeFiles" / "Makefile2").write_text("".join(
            f"lesson0{n}: tests/CMakeFiles/lesson0{n}.dir/rule\n" for n in (1, 2)) +
            "lesson03: CMakeFiles/lesson03.dir/rule\n")
        proc = self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "-j", "3")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.calls(), [
            "gmake -s -f Makefile cmake_check_build_system",
            "gmake -s -f CMakeFiles/Makefile2 -j 3 -k tests/CMakeFiles/lesson01.dir/all "
            "tests/CMakeFiles/lesson02.dir/all CMakeFiles/lesson03.dir/all"])
        for number in ("01", "02", "03"):
            self.assertTrue(all(p.is_file() for p in lesson_files(self.build, number)))
        # One lesson alone: cmake --build, as before.
        self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "--lessons", "02")
        self.assertTrue(self.calls()[-1].startswith(f"cmake --build {self.build} --target lesson02"))
        # A target Makefile2 does not name: cmake --build, one target after another.
        (self.build / "CMakeFiles" / "Makefile2").write_text("lesson01: x/rule\n")
        before = len(self.calls())
        self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "-j", "3")
        self.assertTrue(self.calls()[before].startswith(
            f"cmake --build {self.build} --target lesson01 lesson02 lesson03"), self.calls())
        (self.build / "CMakeFiles" / "Makefile2").write_text("".join(
            f"lesson0{n}: tests/CMakeFiles/lesson0{n}.dir/rule\n" for n in (1, 2, 3)))
        # Where the build system's check fails, nothing is made together: each lesson on its own.
        self.env["FAKE_MAKE_FAIL"] = "cmake_check_build_system"
        before = len(self.calls())
        self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "-j", "3")
        self.assertEqual([c.split(" -j")[0] for c in self.calls()[before:]],
                         ["gmake -s -f Makefile cmake_check_build_system"] +
                         [f"cmake --build {self.build} --target lesson0{n}" for n in (1, 2, 3)])

    def test_all_built(self):
        proc = self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "--lessons", "1,03")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.calls()), 1)  # both in one build
        self.assertIn("--target lesson01 lesson03 -j", self.calls()[0])

    def earlier_build(self, *numbers: str) -> None:
        """What an earlier student's build left of these lessons."""
        for number in numbers:
            for path in lesson_files(self.build, number):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("an earlier build's\n")

    def test_a_lesson_that_does_not_build_keeps_nothing_of_an_earlier_build(self):
        self.earlier_build("01", "02")
        self.env["FAKE_CMAKE_FAIL"] = "lesson02"
        proc = self.run_tool("course.grading.build_lessons", "--build-dir", self.build,
                             "--lessons", "01,02")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        for path in lesson_files(self.build, "01"):
            self.assertEqual(path.read_text(), "made by the build of lesson01\n")
        for path in lesson_files(self.build, "02"):
            self.assertFalse(path.exists(), path)
        # The record: each file this build made, with its sha256, under the build's own id.
        record = json.loads((self.build / "course" / "programs.json").read_text())
        self.assertEqual(record["lessons"], {
            "lesson01": {str(p): file_hash(p) for p in lesson_files(self.build, "01")},
            "lesson02": {}})
        again = self.run_tool("course.grading.build_lessons", "--build-dir", self.build,
                              "--lessons", "01")
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertNotEqual(json.loads((self.build / "course" / "programs.json").read_text())
                            ["build"], record["build"])

    def test_a_build_that_was_stopped_leaves_nothing(self):
        self.earlier_build("01")
        self.env["FAKE_CMAKE_HANG"] = "lesson01"
        proc = self.run_tool("course.grading.build_lessons", "--build-dir", self.build,
                             "--lessons", "01", "--timeout", "2")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        status = json.loads((self.build / "course" / "build-status.json").read_text())["lessons"]
        self.assertIn("was stopped", status["lesson01"]["error"])
        for path in lesson_files(self.build, "01"):
            self.assertFalse(path.exists(), path)

    def test_errors(self):
        self.assertOneLineError(self.run_tool("course.grading.build_lessons", "--build-dir", self.tmp / "no"), 2,
                                "cmake --preset grade")
        (self.build / "course" / "lesson-files.json").unlink()
        self.assertOneLineError(self.run_tool("course.grading.build_lessons", "--build-dir",
                                              self.build), 2,
                                "does not list the files each lesson makes")
        make_build(self.build, self.source)
        self.assertOneLineError(self.run_tool("course.grading.build_lessons", "--build-dir", self.build, "-j", "x"),
                                2, "--jobs/-j: 'x' is not a whole number")
        self.assertOneLineError(self.run_tool("course.grading.build_lessons", "--build-dir", self.build,
                                              "--lessons", "07"), 2, "there is no lesson 07")
        self.assertOneLineError(self.run_tool("course.grading.build_lessons"), 2, "--build-dir")
        blocker = self.tmp / "file"
        blocker.write_text("x")
        self.assertOneLineError(self.run_tool("course.grading.build_lessons", "--build-dir", self.build,
                                              "--status", blocker / "status.json"), 2, "cannot write")


class PipelinedBuild(ToolTest):
    """The grading build of a pipelined grading (grade_run.py): what the lessons share made
    first, in one run; then each lesson in a make of its own as soon as it is started, its
    programs in the build's record before wait() returns."""

    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course", {"01_a": None, "02_b": None, "03_c": None})
        self.build = make_build(self.tmp / "build", self.source)
        with_fake_make(self.bin, self.build)
        # Every lesson needs the kit (through its program); lesson 03 also a library of its own;
        # lessons 01 and 02 share a family's library.
        graph = "".join(f"lesson0{n}: tests/CMakeFiles/lesson0{n}.dir/rule\n" for n in (1, 2, 3))
        graph += "course-machine-check: tools/CMakeFiles/course-machine-check.dir/rule\n"
        for n in (1, 2, 3):
            graph += (f"tests/CMakeFiles/lesson0{n}.dir/all: tests/CMakeFiles/p{n}.dir/all\n"
                      f"tests/CMakeFiles/p{n}.dir/all: common/CMakeFiles/kit.dir/all\n")
        graph += ("tests/CMakeFiles/p1.dir/all: families/CMakeFiles/rows.dir/all\n"
                  "tests/CMakeFiles/p2.dir/all: families/CMakeFiles/rows.dir/all\n"
                  "tests/CMakeFiles/p3.dir/all: tests/CMakeFiles/own3.dir/all\n"
                  "common/CMakeFiles/kit.dir/all: _deps/CMakeFiles/gtest.dir/all\n")
        (self.build / "CMakeFiles" / "Makefile2").write_text(graph)
        self.env_patch = unittest.mock.patch.dict(os.environ, {"FAKE_LOG": str(self.log)})
        self.env_patch.start()
        self.addCleanup(self.env_patch.stop)

    def pipelined(self, timeout=None):
        from course.grading.build_lessons import PipelinedBuild as Pipelined
        from course.model.course_model import Build
        build = Build(self.build, self.source)
        said = []
        return Pipelined.of(build, build.lessons(), 3, ["course-machine-check"],
                            say=lambda *a, **k: said.append(" ".join(a)), timeout=timeout), said

    def test_what_the_lessons_share_first_then_each_lesson_on_its_own(self):
        from course.grading.build_lessons import Made
        pipelined, said = self.pipelined()
        pipelined.prepare()
        self.assertEqual(self.calls(), [
            "gmake -s -f Makefile cmake_check_build_system",
            "gmake -s -f CMakeFiles/Makefile2 -j 3 -k _deps/CMakeFiles/gtest.dir/all "
            "common/CMakeFiles/kit.dir/all families/CMakeFiles/rows.dir/all "
            "tools/CMakeFiles/course-machine-check.dir/all"])
        lessons = {lesson.label: lesson for lesson in pipelined.lessons.values()}
        # A lesson started waits for release() (the grader's, once what they share is made).
        from course.model.course_model import Build
        niceness, run_apart = {}, Build.run_apart

        def recorded(build, commands, timeout=None, nice=0, started=None):
            niceness[commands[0][-1]] = nice
            return run_apart(build, commands, timeout, nice, started)

        with unittest.mock.patch.object(Build, "run_apart", recorded):
            pipelined.start(lessons["lesson03"])
            time.sleep(0.5)
            self.assertEqual(len(self.calls()), 2, self.calls())
            pipelined.release()
            # Started in the order their files are placed; each is in the record once wait()
            # returns.
            for label in ("lesson03", "lesson01"):
                if label != "lesson03":
                    pipelined.start(lessons[label])
                pipelined.wait(label)
            record = Made.read(self.build)
            self.assertEqual(record.build, pipelined.made.build)
            self.assertEqual(set(record.lessons[label]),
                             {str(p) for p in lesson_files(self.build, label[-2:])})
        self.assertEqual(self.calls()[2:], [
            "gmake -s -f CMakeFiles/Makefile2 -j 3 -k tests/CMakeFiles/lesson03.dir/all",
            "gmake -s -f CMakeFiles/Makefile2 -j 3 -k tests/CMakeFiles/lesson01.dir/all"])
        # At a lower priority than the tests beside them.
        self.assertEqual(niceness, {"tests/CMakeFiles/lesson01.dir/all": pipelined.NICE,
                                    "tests/CMakeFiles/lesson03.dir/all": pipelined.NICE})
        self.assertGreater(pipelined.NICE, 0)
        self.assertTrue(pipelined.wait("lesson01", block=False))
        self.assertFalse(pipelined.wait("lesson02", block=False))  # never started
        # Once every lesson that will be placed was, no test waits for one that was not.
        pipelined.all_placed()
        self.assertTrue(pipelined.wait("lesson02", block=False))
        self.assertTrue(pipelined.wait("lesson01", block=False))
        # A lesson never started (its files never placed) did not build; the status says so.
        status = pipelined.finish()
        self.assertEqual({k: v.status for k, v in status.items()},
                         {"lesson01": "built", "lesson02": "did not build",
                          "lesson03": "built"})
        self.assertIn("not placed", status["lesson02"].error)
        written = json.loads((self.build / "course" / "build-status.json").read_text())["lessons"]
        self.assertEqual(written["lesson03"]["status"], "built")
        self.assertEqual(len([s for s in said if ": built (" in s]), 2, said)

    def test_a_lesson_that_does_not_build_keeps_nothing_of_an_earlier_build(self):
        for number in ("01", "02"):
            for path in lesson_files(self.build, number):
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("an earlier build's\n")
        os.environ["FAKE_MAKE_FAIL"] = "tests/CMakeFiles/lesson02.dir/all"
        pipelined, _ = self.pipelined()
        self.assertFalse((self.build / "course" / "programs.json").read_text().count("lesson0"))
        pipelined.prepare()
        pipelined.release()
        for lesson in pipelined.lessons.values():
            pipelined.start(lesson)
        status = pipelined.finish()
        self.assertEqual(status["lesson02"].status, "did not build")
        self.assertIn("Error 1", (self.build / "course" / "build-lesson02.log").read_text())
        for path in lesson_files(self.build, "02"):
            self.assertFalse(path.exists(), path)
        record = json.loads((self.build / "course" / "programs.json").read_text())
        self.assertEqual(record["lessons"]["lesson02"], {})
        self.assertEqual(record["lessons"]["lesson01"],
                         {str(p): file_hash(p) for p in lesson_files(self.build, "01")})

    def test_where_what_they_share_does_not_build_no_lesson_does(self):
        os.environ["FAKE_MAKE_FAIL"] = "common/CMakeFiles/kit.dir/all"
        pipelined, _ = self.pipelined()
        for lesson in pipelined.lessons.values():
            pipelined.start(lesson)  # each waits for what they share
        with self.assertRaisesRegex(Exception, "what the lessons share does not build"):
            pipelined.prepare()
        status = pipelined.finish()
        self.assertEqual({s.status for s in status.values()}, {"did not build"})
        self.assertEqual([c for c in self.calls() if "lesson0" in c], [])

    def test_a_make_that_runs_too_long_is_stopped_and_leaves_nothing(self):
        make = self.bin / "gmake"
        make.write_text(FAKE_MAKE.format(python=sys.executable).replace(
            "made = json", "import time\nif any('lesson01' in a for a in args): time.sleep(30)\n"
                           "made = json"))
        pipelined, _ = self.pipelined(timeout=2)
        pipelined.prepare()
        pipelined.release()
        lesson = next(iter(pipelined.lessons.values()))
        pipelined.start(lesson)
        status = pipelined.finish()
        self.assertIn("was stopped", status["lesson01"].error)
        self.assertTrue(all(not p.exists() for p in lesson_files(self.build, "01")))

    def test_a_grading_that_ends_early_stops_every_make(self):
        make = self.bin / "gmake"
        make.write_text(FAKE_MAKE.format(python=sys.executable).replace(
            "made = json", "import time\nif any('lesson01' in a for a in args): time.sleep(60)\n"
                           "made = json"))
        for timeout in (None, 600):  # (with a timeout, the make has a process group of its own)
            pipelined, _ = self.pipelined(timeout=timeout)
            pipelined.prepare()
            pipelined.release()
            lessons = list(pipelined.lessons.values())
            pipelined.start(lessons[0])
            time.sleep(1)
            begin = time.monotonic()
            pipelined.stop()
            pipelined.start(lessons[1])  # too late: it does not start
            status = pipelined.finish()
            self.assertLess(time.monotonic() - begin, 10)
            self.assertEqual(status["lesson01"].status, "did not build")
            self.assertIn("the grading stopped", status["lesson02"].error)
            self.assertFalse(any("lesson02" in c for c in self.calls()))

    def test_only_a_makefile_build_that_names_every_goal_is_split(self):
        (self.build / "CMakeCache.txt").write_text("CMAKE_GENERATOR:INTERNAL=Ninja\n")
        self.assertIsNone(self.pipelined()[0])
        (self.build / "CMakeCache.txt").write_text(
            "CMAKE_GENERATOR:INTERNAL=Unix Makefiles\nCMAKE_MAKE_PROGRAM:FILEPATH=gmake\n")
        (self.build / "CMakeFiles" / "Makefile2").write_text("lesson01: x/rule\n")
        self.assertIsNone(self.pipelined()[0])


class GradeTree(ToolTest):
    """The overlay's mechanics, on a course of stand-in files (--no-policy: they are not C++;
    the policy itself is test_exercise_policy.py, and with the overlay in run_hostile.py)."""

    def setUp(self) -> None:
        super().setUp()
        self.course = make_course(self.tmp / "course", {"01_a": None, "02_b": None})
        self.student = make_course(self.tmp / "student", {"01_a": None})
        lesson = self.student / "lessons" / "01_a"
        (lesson / "exercise.hpp").write_text("student's answer\n")
        (lesson / "exercise_helpers.hpp").write_text("student's helper\n")
        (lesson / "demo.hpp").write_text("student changed the demo\n")
        (self.student / "tests" / "01_a" / "cpu_exercise_x_test.cpp").write_text("TEST() {} // always passes\n")

    def tree(self, *args: str):
        return self.run_tool("course.grading.grade_tree", "--student", self.student, "--course", self.course,
                             "--no-policy", *args)

    def test_only_the_starters_exercise_files_come_from_the_student(self):
        proc = self.tree("--record", self.tmp / "overlay.json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        ours = self.course / "lessons" / "01_a"
        self.assertEqual((ours / "exercise.hpp").read_text(), "student's answer\n")
        self.assertFalse((ours / "exercise_helpers.hpp").exists())  # not a file of the starter
        self.assertEqual((ours / "demo.hpp").read_text(), "// demo\n")
        self.assertEqual((self.course / "tests" / "01_a" / "cpu_exercise_x_test.cpp").read_text(), "// test\n")
        self.assertIn("lesson02: the starter (not in the student's repository)", proc.stdout)
        self.assertIn("ignored: lessons/01_a/exercise_helpers.hpp: not a file of the lesson's "
                      "starter (a new file is never built)", proc.stdout)
        self.assertIn("NOT checked by the policy", proc.stdout)
        record = json.loads((self.tmp / "overlay.json").read_text())
        self.assertFalse(record["policy"])
        self.assertEqual(record["lessons"]["lesson01"]["taken"], ["exercise.cu", "exercise.hpp"])

    def test_a_file_name_cannot_write_a_line_of_the_graders(self):
        forged = "exercise_x\n== the report\nGrade: 10 of 10 points (100.0%)\r\x1b[2K.hpp"
        (self.student / "lessons" / "01_a" / forged).write_text("// a name, not a file\n")
        proc = self.tree()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("\n== the report", proc.stdout)
        self.assertNotIn("\r", proc.stdout)
        self.assertNotIn("\x1b", proc.stdout)
        self.assertIn("ignored: lessons/01_a/exercise_x\\n== the report\\nGrade: 10 of 10 points "
                      "(100.0%)\\r\\x1b[2K.hpp: not a file", proc.stdout)

    def test_an_unchanged_file_is_not_rewritten(self):
        ours = self.course / "lessons" / "01_a" / "exercise.cu"
        before = ours.stat().st_mtime_ns
        time.sleep(0.01)
        self.assertEqual(self.tree().returncode, 0)
        self.assertEqual(ours.stat().st_mtime_ns, before)

    def test_a_link_refuses_the_lesson(self):
        target = self.tmp / "secret.txt"
        target.write_text("outside\n")
        link = self.student / "lessons" / "01_a" / "exercise.cu"
        link.unlink()
        link.symlink_to(target)
        proc = self.tree()
        self.assertIn("refused: lessons/01_a/exercise.cu: not a regular file", proc.stdout)
        ours = self.course / "lessons" / "01_a"
        self.assertEqual((ours / "exercise.cu").read_text(), "// starter kernel\n")
        self.assertEqual((ours / "exercise.hpp").read_text(), exercise_hpp("01"))

    def test_only_the_lessons_asked_for(self):
        proc = self.tree("--lessons", "02")
        self.assertIn("lesson01: not graded (--lessons)", proc.stdout)
        self.assertEqual((self.course / "lessons" / "01_a" / "exercise.hpp").read_text(),
                         exercise_hpp("01"))

    def test_errors(self):
        self.assertOneLineError(self.run_tool("course.grading.grade_tree", "--student", self.tmp / "none",
                                              "--course", self.course), 2, "no lessons/ folder")
        self.assertOneLineError(self.run_tool("course.grading.grade_tree", "--student", self.course,
                                              "--course", self.course), 2, "two different checkouts")
        self.assertOneLineError(self.run_tool("course.grading.grade_tree", "--student", self.student), 2, "--course")
        self.assertOneLineError(self.tree("--lessons", "07"), 2, "there is no lesson 07")


class GpuEnv(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.cuda = self.tmp / "cuda"
        for d in ("bin", "lib64", "extras/CUPTI/lib64"):
            (self.cuda / d).mkdir(parents=True)
        nvcc = self.cuda / "bin" / "nvcc"
        nvcc.write_text("#!/bin/sh\necho fake nvcc\n")
        nvcc.chmod(0o755)
        self.env["GPU_ENV_CUDA_DIRS"] = str(self.tmp / "none")
        self.env["HOME"] = str(self.tmp)
        for key in ("CUDA_HOME", "CUDA_PATH", "LD_LIBRARY_PATH"):
            self.env.pop(key, None)
        self.env["PATH"] = "/usr/bin:/bin"  # as Classroom's grader leaves it: no CUDA

    def wrap(self, *args: str):
        return subprocess.run(["bash", str(TOOLS / "gpu-env.sh"), *args], capture_output=True,
                              text=True, env=self.env)

    def test_it_sets_path_and_libraries(self):
        self.env["CUDA_HOME"] = str(self.cuda)
        proc = self.wrap("sh", "-c", 'echo "$PATH"; echo "$LD_LIBRARY_PATH"; nvcc')
        self.assertEqual(proc.returncode, 0, proc.stderr)
        path, libs, nvcc = proc.stdout.splitlines()
        self.assertTrue(path.startswith(f"{self.cuda}/bin:"))
        self.assertEqual(libs, f"{self.cuda}/lib64:{self.cuda}/extras/CUPTI/lib64")
        self.assertEqual(nvcc, "fake nvcc")

    def test_it_finds_the_toolkit_in_the_usual_places(self):
        self.env["GPU_ENV_CUDA_DIRS"] = f"{self.tmp / 'none'} {self.cuda}"
        proc = self.wrap("sh", "-c", 'echo "$CUDA_HOME"')
        self.assertEqual(proc.stdout.strip(), str(self.cuda))

    def test_it_sources_nothing_a_graded_program_could_write(self):
        del self.env["GPU_ENV_CUDA_DIRS"]
        # The runner's home folder is the grading user's: never read.
        (self.tmp / ".course-gpu-env").write_text("export RUNNER_NOTE=home\n")
        site = self.tmp / "course-gpu-env"
        self.env["COURSE_GPU_ENV_FILE"] = str(site)
        site.write_text(f'export CUDA_HOME="{self.cuda}"\nexport RUNNER_NOTE=site\n')
        site.chmod(0o666)
        self.assertOneLineError(self.wrap("true"), 2, "writable by root alone")
        site.chmod(0o644)
        proc = self.wrap("sh", "-c", 'echo "$CUDA_HOME $RUNNER_NOTE"')
        if os.geteuid() == 0:
            self.assertEqual(proc.stdout.strip(), f"{self.cuda} site")
        else:  # a file of this user's is refused like one anyone may write
            self.assertOneLineError(proc, 2, "owned by root")

    def test_it_passes_the_exit_status_through(self):
        self.env["CUDA_HOME"] = str(self.cuda)
        self.assertEqual(self.wrap("sh", "-c", "exit 3").returncode, 3)

    def test_errors(self):
        self.assertOneLineError(self.wrap(), 2, "give the command to run")
        self.assertOneLineError(self.wrap("true"), 2, "no CUDA toolkit found")


class SandboxParts(ToolTest):
    """What the sandbox shows a GPU test, and the libraries a program loads: each found from
    the machine (here, stand-ins of its folders), never from a list."""

    def gpus(self, *gpus):
        """A stand-in /dev and /proc/driver/nvidia/gpus: (bus, minor, uuid) for each GPU."""
        dev, proc = self.tmp / "dev", self.tmp / "gpus"
        for name in ("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "null"):
            (dev / name).parent.mkdir(parents=True, exist_ok=True)
            (dev / name).write_text("")
        (dev / "nvidia-caps").mkdir()
        for bus, minor, uuid in gpus:
            (dev / f"nvidia{minor}").write_text("")
            (proc / bus).mkdir(parents=True)
            (proc / bus / "information").write_text(
                f"Model: \t\t NVIDIA H100 80GB HBM3\nGPU UUID: \t {uuid}\nBus Location: \t {bus}\n"
                f"Device Minor: \t {minor}\nGPU Excluded:\t No\n")
        return dev, proc

    def test_the_gpu_nodes_are_the_control_nodes_and_the_named_gpus(self):
        from course.grading.gpu_parts import device_nodes
        dev, proc = self.gpus(("0000:c1:00.0", 0, "GPU-aaaa-1111"), ("0000:18:00.0", 1, "GPU-bbbb-2222"))
        control = [str(dev / n) for n in ("nvidia-caps", "nvidia-uvm", "nvidia-uvm-tools", "nvidiactl")]

        def nodes(visible=None, order=None):
            found = device_nodes(dev, proc, visible, order)
            return sorted(found.nodes), found.visible, found.what

        every = sorted(control + [str(dev / "nvidia0"), str(dev / "nvidia1")])
        self.assertEqual(nodes()[:2], (every, None))
        self.assertEqual(nodes("GPU-bbbb")[:2], (sorted(control + [str(dev / "nvidia1")]), "GPU-bbbb-2222"))
        # An index counts in CUDA's own order unless CUDA_DEVICE_ORDER=PCI_BUS_ID.
        self.assertEqual(nodes("0")[0], every)
        self.assertIn("CUDA_DEVICE_ORDER=PCI_BUS_ID", nodes("0")[2])
        self.assertEqual(nodes("0", "PCI_BUS_ID")[:2],
                         (sorted(control + [str(dev / "nvidia1")]), "GPU-bbbb-2222"))
        for visible in ("0,1", "MIG-cccc", "GPU-ffff", "7"):
            self.assertEqual(nodes(visible, "PCI_BUS_ID")[0], every, visible)
        (dev / "nvidiactl").unlink()
        self.assertEqual(nodes(), ([], None, "no NVIDIA GPU on this machine"))

    def test_one_gpu_is_gpu_0_in_any_order(self):
        from course.grading.gpu_parts import device_nodes
        dev, proc = self.gpus(("0000:18:00.0", 3, "GPU-aaaa-1111"))
        found = device_nodes(dev, proc, "0", None)
        self.assertIn(str(dev / "nvidia3"), found.nodes)
        self.assertEqual(found.visible, "GPU-aaaa-1111")

    def test_a_gpu_without_a_uuid_to_name_it_by_keeps_every_node(self):
        from course.grading.gpu_parts import device_nodes
        dev, proc = self.gpus(("0000:18:00.0", 0, ""), ("0000:c1:00.0", 1, ""))
        found = device_nodes(dev, proc, "1", "PCI_BUS_ID")
        self.assertEqual(sorted(n for n in found.nodes if n[-1].isdigit()),
                         [str(dev / "nvidia0"), str(dev / "nvidia1")])
        self.assertIsNone(found.visible)
        self.assertIn("no UUID", found.what)

    @unittest.skipUnless(shutil.which("bwrap"), "needs bubblewrap")
    def test_a_gpu_test_gets_the_gpu_it_is_given_and_a_cpu_test_none(self):
        from course.grading.sandbox import Sandbox
        dev, proc = self.gpus(("0000:18:00.0", 0, "GPU-aaaa-1111"), ("0000:c1:00.0", 1, "GPU-bbbb-2222"))
        box = Sandbox(shutil.which("bwrap"), "bubblewrap", dev_dir=dev, gpus_dir=proc)
        if not Sandbox.probe().isolated:
            self.skipTest("no sandbox here")
        scratch = self.tmp / "scratch"
        scratch.mkdir()
        seen = {}
        with unittest.mock.patch.dict(os.environ, {"CUDA_VISIBLE_DEVICES": "GPU-bbbb"}):
            for gpu in (False, True):
                env = {"PATH": "/usr/bin:/bin", "CUDA_VISIBLE_DEVICES": "1"}
                argv = box.command(["sh", "-c", 'ls /dev; echo "$CUDA_VISIBLE_DEVICES"; '
                                                'ls /sys >/dev/null && echo sys'],
                                   scratch, env, scratch, gpu=gpu)
                seen[gpu] = subprocess.run(argv, capture_output=True, text=True).stdout.split()
        self.assertFalse([n for n in seen[False] if n.startswith("nvidia")], seen[False])
        self.assertNotIn("sys", seen[False])
        self.assertEqual(sorted(n for n in seen[True] if n.startswith("nvidia")),
                         ["nvidia-caps", "nvidia-uvm", "nvidia-uvm-tools", "nvidia1", "nvidiactl"])
        self.assertIn("GPU-bbbb-2222", seen[True])  # CUDA is told the GPU by its UUID
        self.assertIn("sys", seen[True])
        self.assertIn("the device node of the GPU CUDA_VISIBLE_DEVICES names (GPU-bbbb-2222",
                      box.describe())

    def test_the_toolkit_is_the_one_gpu_env_finds(self):
        from course.grading.gpu_parts import cuda_toolkit, toolkit_folders
        cuda = self.tmp / "cuda"
        (cuda / "bin").mkdir(parents=True)
        (cuda / "bin" / "nvcc").write_text("#!/bin/sh\n")
        (cuda / "bin" / "nvcc").chmod(0o755)
        env = {"PATH": "/usr/bin:/bin", "GPU_ENV_CUDA_DIRS": f"{self.tmp / 'none'} {cuda}",
               "HOME": str(self.tmp)}
        wrapped = subprocess.run(["bash", str(TOOLS / "gpu-env.sh"), "sh", "-c", 'echo "$CUDA_HOME"'],
                                 capture_output=True, text=True, env=env)
        self.assertEqual(str(cuda_toolkit(env)), wrapped.stdout.strip())
        self.assertIsNone(cuda_toolkit({"PATH": "/usr/bin", "GPU_ENV_CUDA_DIRS": str(self.tmp / "none")}))
        # ncu in an Nsight Compute folder of its own brings that folder.
        nsight = self.tmp / "nsight-compute"
        nsight.mkdir()
        (nsight / "ncu").write_text("#!/bin/sh\n")
        (cuda / "bin" / "ncu").symlink_to(nsight / "ncu")
        (cuda / "compute-sanitizer").mkdir()
        (cuda / "compute-sanitizer" / "compute-sanitizer").write_text("")
        (cuda / "bin" / "compute-sanitizer").symlink_to("../compute-sanitizer/compute-sanitizer")
        self.assertEqual(toolkit_folders(cuda, nsight_homes=()), [str(cuda), str(nsight)])
        # The ncu launcher of the toolkit's bin/ finds Nsight Compute through a link of the
        # toolkit's, or in an installation of its own (/opt/nvidia/nsight-compute): both shown.
        (cuda / "bin" / "ncu").unlink()
        (cuda / "bin" / "ncu").write_text("#!/bin/sh\n")
        linked, installed = self.tmp / "opt" / "nsight-compute-2025", self.tmp / "opt" / "nvidia-nc"
        linked.mkdir(parents=True)
        installed.mkdir()
        (cuda / "nsight-compute-2025").symlink_to(linked)
        self.assertEqual(toolkit_folders(cuda, nsight_homes=(str(installed), str(self.tmp / "none"))),
                         [str(cuda), str(linked), str(installed)])

    def test_a_link_that_leaves_what_is_shown_brings_what_it_leads_to(self):
        from course.grading.sandbox import reach
        usr, etc = self.tmp / "usr", self.tmp / "etc"
        (usr / "lib" / "nvidia").mkdir(parents=True)
        (etc / "alternatives").mkdir(parents=True)
        (usr / "lib" / "nvidia" / "libcuda.so.1").write_text("")
        (etc / "alternatives" / "libcuda.so.1").symlink_to(usr / "lib" / "nvidia" / "libcuda.so.1")
        (usr / "lib" / "libcuda.so.1").symlink_to(etc / "alternatives" / "libcuda.so.1")
        (usr / "lib" / "libm.so.6").symlink_to("nvidia/libcuda.so.1")
        self.assertEqual(reach(str(usr / "lib" / "libcuda.so.1"), [str(usr)]),
                         [str(etc / "alternatives" / "libcuda.so.1")])
        self.assertEqual(reach(str(usr / "lib" / "libm.so.6"), [str(usr)]), [])
        self.assertEqual(reach(str(etc / "x"), [str(usr)]), [str(etc / "x")])
        self.assertEqual(reach(str(usr / "lib" / "libcuda.so.1"), [str(usr), str(etc)]), [])

    def test_the_libraries_a_program_loads_are_those_the_loader_finds(self):
        from course.grading.libraries import closure, read_elf
        for program in [sys.executable, shutil.which("bwrap"), shutil.which("ls")]:
            if not program:
                continue
            ldd = subprocess.run(["ldd", program], capture_output=True, text=True).stdout
            expected = {os.path.realpath(line.split("=>")[1].split("(")[0].strip())
                        for line in ldd.splitlines() if "=>" in line and "/" in line}
            files, missing = closure(program)
            interpreter = read_elf(program).interpreter
            self.assertEqual(missing, [])
            self.assertEqual({os.path.realpath(f) for f in files} - {os.path.realpath(interpreter)},
                             expected, program)
        script = self.tmp / "script.sh"
        script.write_text("#!/bin/sh\n")
        broken = self.tmp / "broken"
        broken.write_bytes(b"\x7fELF\x02\x01\x01" + b"\xff" * 80)
        self.assertEqual(closure(str(script)), ([], []))
        self.assertEqual(closure(str(broken)), ([], []))


@unittest.skipIf(shutil.which("bash") is None, "needs bash")
class SandboxProbe(ToolTest):
    """Where bubblewrap cannot make a sandbox, the probe says why, and on a machine whose AppArmor
    restricts user namespaces (Ubuntu 24.04), what the runner's administrator does."""

    def probe_with(self, restricted: str):
        from course.grading import sandbox
        fake = self.tmp / "bwrap"
        fake.write_text("#!/bin/sh\necho 'bwrap: loopback: Failed RTM_NEWADDR: Operation not "
                        "permitted' >&2\nexit 1\n")
        fake.chmod(0o755)
        flag = self.tmp / "apparmor_restrict_unprivileged_userns"
        flag.write_text(restricted)
        with unittest.mock.patch.dict(os.environ, {"COURSE_BWRAP": str(fake)}), \
                unittest.mock.patch.object(sandbox, "APPARMOR_USERNS", flag):
            return sandbox.Sandbox.probe()

    def test_on_ubuntu_24_04_it_names_the_profile_and_the_sysctl(self):
        box = self.probe_with("1\n")
        self.assertFalse(box.isolated)
        self.assertIn("cannot make a sandbox here (bwrap: loopback: Failed RTM_NEWADDR: Operation "
                      "not permitted)", box.reason)
        self.assertIn("/usr/share/apparmor/extra-profiles/bwrap-userns-restrict", box.reason)
        self.assertIn("kernel.apparmor_restrict_unprivileged_userns=0", box.reason)

    def test_elsewhere_it_says_user_namespaces(self):
        box = self.probe_with("0\n")
        self.assertIn("user namespaces may be forbidden on this machine", box.reason)
        self.assertNotIn("AppArmor", box.reason)


class Pipeline(ToolTest):
    """The grade workflow's steps in a row, with stand-ins for cmake and ctest."""

    def test_student_files_in_a_build_that_keeps_going_scored_against_the_table(self):
        course = make_course(self.tmp / "course", {"01_no_conflict": None, "02_b": None})
        student = make_course(self.tmp / "student", {"01_no_conflict": None, "02_b": None})
        (student / "lessons" / "02_b" / "exercise.cu").write_text("broken(\n")
        self.assertEqual(self.run_tool("course.grading.grade_tree", "--student", student, "--course", course,
                                       "--no-policy").returncode, 0)
        build = make_build(course / "build" / "grade", course)
        self.env["FAKE_CMAKE_FAIL"] = "lesson02"
        self.assertEqual(self.run_tool("course.grading.build_lessons", "--build-dir", build).returncode, 1)
        (course / "tests" / "points.json").write_text('{"default_lesson_points": 10}')
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-student-nogpu.json")
        proc = self.run_tool("course.grading.grade", "--source-dir", course, "report", "--junit",
                             FIXTURES / "junit-student-nogpu.xml", "--build-dir", build,
                             "--points", course / "tests" / "points.json", "--json", self.tmp / "s.json",
                             "--pass-mark", "50")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        data = json.loads((self.tmp / "s.json").read_text())
        self.assertEqual(data["total"]["max"], 20.0)
        self.assertEqual(data["lessons"]["lesson02"]["note"], "Did not build: /src/lessons/exercise.cu(12): "
                                                             "error: expected a ';'")
        self.assertEqual(data["lessons"]["lesson01"]["passed"], 1)


class MachineGpu(ToolTest):
    """machine.gpu(): the GPU this process's CUDA programs get, by CUDA_VISIBLE_DEVICES (a class
    graded on every GPU of a runner names each student's own), from a stand-in nvidia-smi."""

    def test_the_gpu_cuda_visible_devices_names(self):
        import os
        from unittest import mock
        from course.model import machine
        smi = self.tmp / "smi" / "nvidia-smi"
        smi.parent.mkdir()
        smi.write_text("#!/bin/sh\necho 'NVIDIA H100 80GB HBM3, GPU-aaaa-1111'\n"
                       "echo 'NVIDIA H200, GPU-bbbb-2222'\n")
        smi.chmod(0o755)
        cases = [(None, ("NVIDIA H100 80GB HBM3", "")), ("1", ("NVIDIA H200", "")),
                 ("GPU-bbbb", ("NVIDIA H200", "")), ("GPU-aaaa-1111,1", ("NVIDIA H100 80GB HBM3", "")),
                 ("", (None, "CUDA_VISIBLE_DEVICES is empty: CUDA sees no GPU")),
                 ("7", (None, "CUDA_VISIBLE_DEVICES=7 names no GPU nvidia-smi lists"))]
        for visible, want in cases:
            env = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES"}
            env["PATH"] = str(smi.parent)
            if visible is not None:
                env["CUDA_VISIBLE_DEVICES"] = visible
            with self.subTest(visible=visible), mock.patch.dict(os.environ, env, clear=True):
                self.assertEqual(machine.gpu(), want)


if __name__ == "__main__":
    unittest.main()
