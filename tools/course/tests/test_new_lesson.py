"""new_lesson.py on a copy of the course: `./course-admin new-lesson 12 ...` writes the lesson's
own folders and the regenerated files, nothing else; the new lesson passes the course's content
checks (its README's form, the generated blocks, the exercise policy, the answers and
predictions checks), configures, builds (both trees, its GPU programs and kernels too), and its
exercise tests fail on the starter and pass on the stub solution (fail-first, CPU side; the GPU
side runs in `cmake --workflow --preset gpu-check` on a scaffolded copy). The arguments a new
lesson refuses are one-line errors. The course's build tools and the lexer are needed: without
them the test skips and says why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import unittest
from pathlib import Path

from course_testing import ROOT, ToolTest, lexer_missing

NUMBER, TOPIC, FOLDER = "12", "staging_layout", "12_staging_layout"


def why_not() -> str:
    """'' when a real build and the checks can run here; else what is missing."""
    missing = [t for t in ("cmake", "ctest", "git", "nvcc") if not shutil.which(t) and
               not (t == "nvcc" and Path("/usr/local/cuda/bin/nvcc").is_file())]
    if not (ROOT / "solutions").is_dir():
        missing.append("the course's solutions/ folder")
    if lexer_missing():
        missing.append("libclang's lexer")
    return ", ".join(missing)


WHY_NOT = why_not()


def course_copy(dest: Path) -> Path:
    """The course's tracked and new files (what a clone of it plus the work in progress holds),
    copied into a fresh git repository with one commit."""
    listing = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-co", "--exclude-standard",
                              "-z"], capture_output=True, check=True).stdout.decode()
    for rel in filter(None, listing.split("\0")):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the course"]):
        subprocess.run(["git", "-C", str(dest), "-c", "user.name=T", "-c", "user.email=t@t",
                        *args], check=True, capture_output=True)
    return dest


@unittest.skipIf(WHY_NOT, f"needs {WHY_NOT}")
class NewLesson(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.course = course_copy(self.tmp / "course")
        self.env["PATH"] = os.pathsep.join([self.env["PATH"].split(os.pathsep, 1)[1],
                                            "/usr/local/cuda/bin"])  # the real cmake and ctest
        self.env["PYTHONPATH"] = str(self.course / "tools")

    def admin(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(self.course / "course-admin"), *map(str, args)],
                              capture_output=True, text=True, env=self.env, cwd=str(self.course),
                              timeout=timeout)

    def docs(self, script: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(self.course / "tools" / "docs" / script),
                               *args, "--root", str(self.course)], capture_output=True, text=True,
                              env=self.env)

    def assertRan(self, proc: subprocess.CompletedProcess, what: str) -> None:
        self.assertEqual(proc.returncode, 0, f"{what}:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")

    def test_a_new_lesson_builds_and_fails_first(self):
        made = self.admin("new-lesson", NUMBER, TOPIC, "--title", "A staging layout",
                          "--teaches", "a staging buffer without conflicts")
        self.assertRan(made, "new-lesson")

        # The command wrote the lesson's folders and the generated files, nothing else.
        status = subprocess.run(["git", "-C", str(self.course), "status", "--porcelain",
                                 "--untracked-files=all"], capture_output=True, text=True).stdout
        changed = sorted(line[3:] for line in status.splitlines())
        own = [p for p in changed if p.split("/")[:2] in (["lessons", FOLDER],
                                                          ["solutions", FOLDER], ["tests", FOLDER])]
        self.assertEqual(sorted(set(changed) - set(own)),
                         [".github/workflows/classroom.yml", "README.md", "docs/instructors.md"])
        self.assertIn(f"lessons/{FOLDER}/lesson.json", own)
        manifest = json.loads((self.course / "lessons" / FOLDER / "lesson.json").read_text())
        self.assertEqual((manifest["lesson"], manifest["title"]), (NUMBER, "A staging layout"))
        self.assertIn(f"| {NUMBER} | [A staging layout](lessons/{FOLDER}/README.md) | "
                      f"a staging buffer without conflicts |",
                      (self.course / "README.md").read_text())
        self.assertIn(f"grade.py lesson {NUMBER}",
                      (self.course / ".github" / "workflows" / "classroom.yml").read_text())

        # The course's content checks hold for it.
        self.assertRan(self.docs("lesson_pages.py", "check"), "lesson pages")
        self.assertRan(self.docs("readme_blocks.py", "check"), "README blocks")
        self.assertRan(self.admin("regenerate", "--check", "--course", self.course), "regenerate")
        self.assertRan(self.admin("policy", "lessons", "--solutions"), "the exercise policy")
        self.assertRan(self.admin("check-answers", "--lesson", NUMBER, "--root", self.course),
                       "answers out of view")

        # It configures and builds, both trees, GPU programs and kernels included.
        build = self.course / "build" / "ci"
        self.assertRan(subprocess.run(["cmake", "--preset", "ci"], cwd=str(self.course),
                                      capture_output=True, text=True, env=self.env,
                                      timeout=600), "configure")
        self.assertRan(subprocess.run(["cmake", "--build", str(build), "--target",
                                       f"lesson{NUMBER}", "-j", "2"], capture_output=True,
                                      text=True, env=self.env, timeout=1200), "build")

        # Fail-first: its exercise tests fail on the starter, pass on the stub solution.
        first = self.admin("fail-first", "--build-dir", build, "--mode", "cpu", "--lesson",
                           f"lesson{NUMBER}")
        self.assertRan(first, "fail-first")
        self.assertIn(f"lesson{NUMBER}: 2 exercise, 1 guard", first.stdout)
        self.assertRan(self.admin("check-predictions", "--build-dir", build, "--lesson", NUMBER),
                       "prediction messages")

    def test_what_a_new_lesson_refuses(self):
        for args, message in (
                (["01", "again", "--title", "T", "--teaches", "x"], "lesson 01 exists already"),
                (["12", "Bad-Topic", "--title", "T", "--teaches", "x"], "is not a topic"),
                (["12", "topic", "--title", 'say "hi"', "--teaches", "x"], "--title"),
                (["1x", "topic", "--title", "T", "--teaches", "x"], "is not a lesson number")):
            with self.subTest(args=args):
                proc = self.admin("new-lesson", *args)
                self.assertNotEqual(proc.returncode, 0)
                self.assertNotIn("Traceback", proc.stderr)
                self.assertIn(message, proc.stderr)
        self.assertFalse(any((self.course / "lessons").glob("12_*")))


if __name__ == "__main__":
    unittest.main()
