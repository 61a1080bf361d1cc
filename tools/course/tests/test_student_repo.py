"""make_student_repo.py: the student-facing repository (no solutions, no course CI, no presets
that build the solutions) with its own README, a fresh git repository tagged starters-v1 from
which `reset` works; and it still configures with the student preset. The tests that make one
need the course's own git checkout, and skip, saying so, without it (an exported course)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

from course_testing import ROOT, ToolTest, make_course
from course.ci import make_student_repo
from course.model import answers, lesson_table
from course.model.course_model import find_lessons
from course.ci.make_student_repo import student_presets
from course.model.student_repo import left_out


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=T", "-c", "user.email=t@t", *args],
                          check=True, capture_output=True, text=True).stdout


def why_not_a_checkout() -> str:
    """'' when the course is a git checkout of its own with a commit; else why it is not."""
    if shutil.which("git") is None:
        return "git is not installed"
    top = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != ROOT.resolve():
        return f"{ROOT} is not a git checkout of its own (a course exported without .git)"
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode:
        return f"{ROOT} has no commit yet"
    return ""


NOT_A_CHECKOUT = why_not_a_checkout()


class Presets(unittest.TestCase):
    def test_the_presets_that_build_the_solutions_go(self):
        data = json.loads(student_presets((ROOT / "CMakePresets.json").read_text()))
        names = {kind: [p["name"] for p in data.get(kind, [])]
                 for kind in ("configurePresets", "buildPresets", "testPresets", "workflowPresets")}
        self.assertIn("student", names["configurePresets"])
        self.assertIn("grade", names["configurePresets"])
        for gone in ("solutions", "ci", "gpu-check"):
            for kind, have in names.items():
                self.assertNotIn(gone, have, kind)
        self.assertIn("progress", names["buildPresets"])
        self.assertIn("student", names["workflowPresets"])


class TransposeBench(unittest.TestCase):
    def test_the_bench_ships_and_its_variants_wait_for_what_you_should_see(self):
        # Lessons 05 and 08 have the student build and run transpose-bench, which times the
        # student's own lesson 05 kernels: the tool stays in the student repository. Its
        # variants are finished padded transposes, lesson 05's answer in its shape, so no
        # lesson README points at them before its "What you should see".
        self.assertFalse(left_out("tools/transpose_bench/main.cpp"))
        self.assertFalse(left_out("tools/transpose_bench/variants/variants.cu"))
        readmes = sorted((ROOT / "lessons").glob("*/README.md"))
        self.assertTrue(readmes)
        for readme in readmes:
            before = readme.read_text(encoding="utf-8").split("\n## What you should see", 1)[0]
            self.assertNotIn("transpose_bench/variants", before,
                             f"{readme.relative_to(ROOT)} points at the variants before "
                             f"'What you should see'")


@unittest.skipIf(NOT_A_CHECKOUT, f"needs the course's git checkout: {NOT_A_CHECKOUT}")
class StudentRepo(ToolTest):
    def make(self, *args: str):
        return self.run_tool("course.ci.make_student_repo", "--out", self.tmp / "student", *args)

    def test_the_course_at_head_without_solutions(self):
        proc = self.make()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = self.tmp / "student"
        self.assertFalse((out / "solutions").exists())
        self.assertFalse((out / ".ci").exists())
        self.assertFalse((out / ".github" / "workflows" / "ci.yml").exists())
        self.assertTrue((out / ".github" / "workflows" / "grade.yml").is_file())
        self.assertTrue((out / "lessons" / "01_no_conflict" / "exercise.hpp").is_file())
        # The student's command and its package; not the maintainers' command and room.
        self.assertTrue(os.access(out / "course", os.X_OK))
        self.assertTrue((out / "tools" / "course" / "course.py").is_file())
        self.assertFalse((out / "course-admin").exists())
        self.assertFalse((out / "tools" / "course" / "ci").exists())
        listing = subprocess.run([str(out / "course"), "--help"], capture_output=True, text=True)
        self.assertEqual(listing.returncode, 0, listing.stderr)
        for command in ("test", "watch", "hint", "next", "progress", "reset"):
            self.assertIn(command, listing.stdout)
        self.assertEqual(git(out, "tag", "--list"), "starters-v1\n")
        self.assertEqual(git(out, "status", "--porcelain"), "")
        # On `main` whatever git's default, so docs/instructors.md's push works as written: to
        # a bare remote, branch and tag.
        self.assertEqual(git(out, "rev-parse", "--abbrev-ref", "HEAD"), "main\n")
        remote = self.tmp / "remote.git"
        subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
        subprocess.run(["git", "-C", str(out), "remote", "add", "origin", str(remote)], check=True)
        push = subprocess.run(["git", "-C", str(out), "push", "-q", "-u", "origin", "main",
                               "--tags"], capture_output=True, text=True)
        self.assertEqual(push.returncode, 0, push.stderr)
        self.assertEqual(git(remote, "tag", "--list"), "starters-v1\n")
        head = git(ROOT, "rev-parse", "HEAD").strip()
        self.assertIn(head[:10], git(out, "log", "-1", "--format=%s"))

        # reset in the new repository restores from its tag.
        exercise = out / "lessons" / "01_no_conflict" / "exercise.hpp"
        shipped = exercise.read_text()
        exercise.write_text("my answer\n")
        proc = self.run_tool("course.student.main", "--source-dir", out, "reset", "--build-dir",
                             self.tmp / "b", "01", "--yes")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("tag starters-v1", proc.stdout)
        self.assertEqual(exercise.read_text(), shipped)

    def test_a_repository_to_grade_holds_no_answers(self):
        proc = self.make("--no-git")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = self.tmp / "student"
        self.assertFalse((out / answers.PACK_PATH).exists())
        self.assertEqual(sorted(out.rglob(answers.ANSWERS_FILE)), [])
        self.assertIn("left the lessons' answers out", proc.stdout)

    def test_the_measured_figures_stay_with_the_answers(self):
        # The course's measured figures answer predictions: every lesson's (lessons.csv: the
        # demos' wavefronts and slowdowns) and the stride sweeps (lessons 01, 02, 06 and 10 ask
        # what strides cost). The student repository leaves them out, the site's page of them is
        # a stub, and the manifests no longer name them. What a test reads stays: lesson 09's
        # recorded gains, the probe tables tools/bank-probe/measured replays. What is left is
        # consistent: the docs checks pass there.
        self.assertEqual(self.make("--no-git").returncode, 0)
        out = self.tmp / "student"
        measurements = out / "docs" / "measurements"
        for gone in ("lessons.csv", "lesson10_lab_jagged.csv", "transpose.csv",
                     "stride_sweep_float.csv", "stride_sweep_float.svg", "stride_sweep_half.csv"):
            self.assertFalse((measurements / gone).exists(), gone)
        self.assertIn("docs/measurements/gemm_gain.csv", make_student_repo.read_by_tests(out))
        self.assertEqual({f"docs/measurements/{p.name}" for p in measurements.iterdir()
                          if p.is_file()},
                         {p for p in make_student_repo.read_by_tests(out)
                          if p.startswith("docs/measurements/")})
        self.assertTrue([p for p in (measurements / "bank_probe").iterdir() if p.is_file()])
        self.assertEqual((out / "docs" / "measurements.md").read_text(),
                         make_student_repo.MEASUREMENTS_STUB)
        for manifest in ("measured.txt", "pictures.txt"):
            lines = [line for line in (out / "docs" / manifest).read_text().splitlines()
                     if line.strip() and not line.startswith("#")]
            self.assertFalse([line for line in lines if "docs/measurements/" in line], manifest)
        for lesson in find_lessons(out):
            self.assertEqual(lesson.manifest.measured, (), lesson.folder)
            self.assertFalse([p for p in lesson.manifest.pictures if p.svg.startswith("solutions/")])
        docs = ROOT / "tools" / "docs"
        for script in ("readme_blocks.py", "lesson_pages.py"):
            proc = subprocess.run([sys.executable, str(docs / script), "check", "--root", str(out)],
                                  env=dict(os.environ, PYTHONPATH=str(ROOT / "tools")),
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(proc.returncode, 0, f"{script}: {proc.stdout}{proc.stderr}")

    def test_every_link_of_its_pages_is_there(self):
        # What a page of the student repository links — its README, a lesson's README, a page
        # of docs/ — is in the repository, headings included: what is left out (the answers,
        # the measured figures) leaves no link behind.
        self.assertEqual(self.make("--no-git").returncode, 0)
        out = self.tmp / "student"
        # tools/docs is no package: its link reader is loaded by its file.
        spec = importlib.util.spec_from_file_location(
            "docs_common", ROOT / "tools" / "docs" / "docs_common.py")
        docs_common = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(docs_common)
        pages = [out / "README.md", *sorted((out / "lessons").glob("*/README.md")),
                 *sorted((out / "docs").glob("*.md"))]
        self.assertGreater(len(pages), 12)
        broken = []
        for page in pages:
            doc = page.relative_to(out).as_posix()
            targets = []
            for _, line, code in docs_common.prose_lines(page.read_text(encoding="utf-8")):
                if not code:
                    docs_common.map_links(line, lambda _i, _t, target, whole:
                                          targets.append(target) or whole)
            for target in targets:
                if docs_common.is_external(target) or target.startswith(("@", "#")):
                    continue
                path = out / docs_common.resolve(doc, target)
                if not path.exists():
                    broken.append(f"{doc} links to {target}, which is not there")
                elif "#" in target and path.suffix == ".md":
                    anchor = target.split("#", 1)[1]
                    headings = {docs_common.github_slug(line.lstrip("#"))
                                for _, line, code in
                                docs_common.prose_lines(path.read_text(encoding="utf-8"))
                                if not code and line.startswith("#")}
                    if anchor not in headings:
                        broken.append(f"{doc} links to {target}: no such heading")
        self.assertEqual(broken, [])

    def test_the_answers_travel_packed_and_out_of_view(self):
        self.assertEqual(self.make("--no-git", "--with-answers").returncode, 0)
        out = self.tmp / "student"
        lessons = find_lessons(ROOT)
        packed = answers.unpack((out / answers.PACK_PATH).read_text())
        for lesson in lessons:
            own = answers.answer_files(ROOT, lesson)
            self.assertEqual(packed.get(lesson.folder, {}), own, lesson.folder)
        self.assertTrue(packed, "no lesson's answers were packed")
        # Nothing the student reads holds them: no answers file, no answers' picture, and not
        # the test that puts answers back into lessons to check the check.
        self.assertEqual(sorted(out.rglob(answers.ANSWERS_FILE)), [])
        self.assertFalse((out / "tools" / "course" / "tests" / "test_check_answers.py").exists())
        self.assertFalse((out / "tools" / "course" / "tests" / "test_cpu_kernel_mistakes.py").exists())
        self.assertFalse((out / "tools" / "course" / "tests" / "test_layout_mistakes.py").exists())
        for lesson in lessons:
            for name in answers.answer_files(ROOT, lesson):
                if name != answers.ANSWERS_FILE:
                    self.assertFalse((out / "lessons" / lesson.folder / name).exists(), name)

    def test_its_own_readme(self):
        self.assertEqual(self.make("--no-git").returncode, 0)
        out = self.tmp / "student"
        readme = (out / "README.md").read_text()
        self.assertIn("\ncmake --workflow --preset student\n", readme)
        for gone in ("--preset ci", "gpu-check", "solutions/", "fail-first"):
            self.assertNotIn(gone, readme)
        self.assertNotRegex(readme, r"(?i)\bsolution", "the student repository has no solutions")
        self.assertNotRegex(readme, r"@[A-Z_]+@", "a template value was left unfilled")
        self.assertIn("./course hint 01", readme)
        for lesson in find_lessons(out):
            self.assertIn(f"| {lesson.number} | [{lesson.title}]({lesson.rel_dir}/README.md) |",
                          readme)
        # The docs check of the lesson table passes in the student repository too.
        self.assertEqual(lesson_table.problems(readme, find_lessons(out)), [])
        for target in re.findall(r"\]\(([^)#\s]+)", readme):
            if "://" not in target:
                self.assertTrue((out / target).exists(), f"README.md links to {target}, which the "
                                                         f"student repository does not have")

    @unittest.skipUnless(shutil.which("cmake") and (shutil.which("nvcc") or Path("/usr/local/cuda/bin/nvcc").exists()),
                         "needs cmake and the CUDA toolkit to configure")
    def test_it_configures_with_the_student_preset(self):
        self.assertEqual(self.make("--no-git").returncode, 0)
        out = self.tmp / "student"
        env = dict(os.environ)
        env["PATH"] = f"/usr/local/cuda/bin{os.pathsep}{env.get('PATH', '')}"
        proc = subprocess.run([os.environ.get("COURSE_TEST_CMAKE", "cmake"), "--preset", "student"],
                              cwd=str(out), env=env, capture_output=True, text=True, timeout=240)
        self.assertEqual(proc.returncode, 0, proc.stdout[-3000:] + proc.stderr[-3000:])
        self.assertFalse((out / ".git").exists())

    def test_errors(self):
        (self.tmp / "student").mkdir()
        (self.tmp / "student" / "keep.txt").write_text("mine")
        self.assertOneLineError(self.make(), 1, "exists and is not an empty folder")
        self.assertOneLineError(self.run_tool("course.ci.make_student_repo", "--out", self.tmp / "o2",
                                              "--ref", "no-such-ref"), 1, "no such commit")
        plain = make_course(self.tmp / "plain")
        self.assertOneLineError(self.run_tool("course.ci.make_student_repo", "--out", self.tmp / "o3",
                                              "--source", plain), 1, "not a git repository")
        self.assertOneLineError(self.run_tool("course.ci.make_student_repo"), 2, "--out")
        self.assertOneLineError(self.make("--with-solutions"), 2, "unrecognized arguments")


if __name__ == "__main__":
    unittest.main()
