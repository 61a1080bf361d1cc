"""docs/instructors.md followed literally: section 1's commands, run as written in a clone of this
checkout (the only change: the remote is a local bare repository, not GitHub), make the student
repository and push its branch and tag; and every preset the guide's commands name exists, every script it runs is in the
repository, and every option it passes to the course's commands is one they take.

Section 5 is run as written too, in the student repository section 1 makes, without a GPU: the
`grade` preset configured and built, every student test run, and the report made from ctest's
own JUnit file, which says it is NOT a trusted grade, is incomplete here, and is below the pass
mark (the starters score nothing). Sections 2, 3 and 6 set up a GitHub runner and its variables:
the workflow tests (test_workflows.py) and the grading tests hold them.
This file needs the course's own repository (a student repository has no course-admin)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import List

from course_testing import ROOT
from test_workflows import PRESET_KINDS, presets

GUIDE = ROOT / "docs" / "instructors.md"
REMOTE = "git@github.com:YOUR-ORG/bank-conflicts-student.git"


def code_blocks(section: str) -> List[str]:
    """The fenced blocks of the guide's section whose heading starts with `section`."""
    text = GUIDE.read_text(encoding="utf-8")
    m = re.search(rf"^## {re.escape(section)}.*?(?=^## |\Z)", text, re.M | re.S)
    if not m:
        raise AssertionError(f"docs/instructors.md has no section '{section}'")
    return re.findall(r"^```[^\n]*\n(.*?)^```", m.group(0), re.M | re.S)


def commands(block: str) -> List[str]:
    """A block's commands: continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line.split("  #")[0].strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


@unittest.skipUnless((ROOT / "course-admin").is_file() and (ROOT / ".git").exists(),
                     "needs the course's own git checkout (a student repository has no "
                     "course-admin)")
class Section1(unittest.TestCase):
    def test_the_commands_as_written_make_and_push_the_student_repository(self):
        block = code_blocks("1. Make the student-facing repository")[0]
        self.assertIn(REMOTE, block, "section 1 no longer pushes to the remote this test replaces")
        with tempfile.TemporaryDirectory(prefix="instructors-") as tmp:
            base = Path(tmp)
            course = base / "course"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(course)], check=True)
            remote = base / "remote.git"
            subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
            script = "set -e\n" + block.replace(REMOTE, str(remote))
            proc = subprocess.run(["bash", "-c", script], cwd=str(course), capture_output=True,
                                  text=True, timeout=600)
            self.assertEqual(proc.returncode, 0, f"section 1 failed as written:\n{script}\n"
                                                 f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
            heads = subprocess.run(["git", "-C", str(remote), "for-each-ref", "--format=%(refname)"],
                                   capture_output=True, text=True, check=True).stdout.split()
            self.assertIn("refs/heads/main", heads)
            self.assertIn("refs/tags/starters-v1", heads)
            student = base / "bank-conflicts-student"
            self.assertFalse((student / "solutions").exists())
            self.assertTrue((student / "course").is_file())
            shutil.rmtree(student)


@unittest.skipUnless((ROOT / "course-admin").is_file() and (ROOT / ".git").exists()
                     and shutil.which("cmake") and shutil.which("ctest"),
                     "needs the course's own git checkout, cmake and ctest")
class Section5(unittest.TestCase):
    def test_the_grade_report_by_hand_as_written(self):
        block = code_blocks("5. The grade report by hand")[0]
        with tempfile.TemporaryDirectory(prefix="instructors-5-") as tmp:
            student = Path(tmp) / "student"
            made = subprocess.run([str(ROOT / "course-admin"), "student-repo", "--out",
                                   str(student)], capture_output=True, text=True, timeout=600)
            self.assertEqual(made.returncode, 0, made.stderr)
            env = {k: v for k, v in os.environ.items()
                   if k not in ("COURSE_HIDDEN_TESTS", "CUDA_VISIBLE_DEVICES")}
            proc = subprocess.run(["bash", "-c", block], cwd=str(student), capture_output=True,
                                  text=True, timeout=2400, env=env)
            # The starters score nothing: below the pass mark of 60%, the report exits 1.
            self.assertEqual(proc.returncode, 1, f"section 5 as written:\n{block}\n"
                                                 f"{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
            self.assertIn("Grade: 0 / ", proc.stdout)
            report = (student / "report.md").read_text()
            self.assertIn("**NOT a trusted grade.**", report)
            self.assertIn("below the pass mark", report)
            score = json.loads((student / "score.json").read_text())
            lessons = sorted(p.name for p in (student / "lessons").iterdir() if p.is_dir())
            self.assertEqual(len(score["lessons"]), len(lessons))
            self.assertEqual(score["total"]["score"], 0)
            self.assertGreater(score["total"]["max"], 0)
            self.assertTrue((student / "by-hand.xml").is_file())


class EveryCommand(unittest.TestCase):
    def test_the_presets_it_names_exist(self):
        text = GUIDE.read_text(encoding="utf-8")
        data = presets()
        for pattern, kind in PRESET_KINDS.items():
            names = set(data.get(kind, {}))
            for name in re.findall(pattern, text):
                self.assertIn(name, names, f"docs/instructors.md names the {kind[:-7]} preset "
                                           f"'{name}', which CMakePresets.json does not have")

    def test_the_grade_report_options_it_passes_exist(self):
        helps = {}
        for block in code_blocks("5. The grade report by hand"):
            for command in commands(block):
                if "tools/course/grade.py report" not in command:
                    continue
                if "report" not in helps:
                    helps["report"] = subprocess.run(
                        ["python3", str(ROOT / "tools" / "course" / "grade.py"), "report", "--help"],
                        capture_output=True, text=True, timeout=60).stdout
                for option in re.findall(r"(?<=\s)--[\w-]+", command):
                    self.assertIn(option, helps["report"], f"`{command}`: grade.py report has no "
                                                           f"{option}")
        self.assertIn("report", helps, "section 5 no longer runs grade.py report")
        # The options the section describes in its list are the command's too.
        section = GUIDE.read_text(encoding="utf-8").split("## 5. The grade report by hand")[1]
        section = section.split("\n## ")[0]
        for option in re.findall(r"^- `(--[\w-]+)", section, re.M):
            self.assertIn(option, helps["report"], f"section 5 describes {option}, which "
                                                   f"grade.py report does not take")


if __name__ == "__main__":
    unittest.main()
