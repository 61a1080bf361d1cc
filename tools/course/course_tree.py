"""The course as the tools see it: its lessons (lessons/NN_topic), a lesson's README (title,
graded hints), the files a student edits, and a configured build folder.

Shared by the student tool (course.py), the grade report (grade.py) and the build helpers.
Standard library only; Python 3.8 or newer.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

#: The course's root folder (this file is tools/course/course_tree.py).
ROOT = Path(__file__).resolve().parents[2]

#: The files of lessons/NN_topic/ that a student edits (and `reset` restores, and the grade
#: workflow takes from the student's repository). Everything else comes from the course.
STUDENT_FILE_PATTERN = "exercise*"

_LESSON_DIR = re.compile(r"^(\d\d)_(.+)$")
_TITLE = re.compile(r"^#\s+Lesson\s+\d+\s*[:.\-]\s*(.+?)\s*$", re.I)
_NOT_BUILT = re.compile(r"^(lesson\d\d)_(student|solution)_(?:hidden_)?(cpu|gpu|perf)_.+_NOT_BUILT$")


class CourseError(Exception):
    """An error the user can fix, said in one line (the tools print it and exit non-zero)."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: `prog: what is wrong (see prog --help)`, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


@dataclass
class Lesson:
    """One lesson folder, lessons/NN_topic."""

    number: str  # "01"
    folder: str  # "01_no_conflict"
    source_dir: Path

    @property
    def label(self) -> str:
        """The ctest label of the lesson's tests, and the name of its build target."""
        return f"lesson{self.number}"

    @property
    def dir(self) -> Path:
        return self.source_dir / "lessons" / self.folder

    @property
    def readme(self) -> Path:
        return self.dir / "README.md"

    @property
    def rel_dir(self) -> str:
        return f"lessons/{self.folder}"

    @property
    def title(self) -> str:
        """The README's `# Lesson NN: Title`, or the folder's topic when there is no README."""
        try:
            with self.readme.open(encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = _TITLE.match(line.strip())
                    if m:
                        return m.group(1)
                    if line.strip():
                        break
        except OSError:
            pass
        topic = self.folder.split("_", 1)[1].replace("_", " ")
        return topic[:1].upper() + topic[1:]

    def student_files(self) -> List[Path]:
        """The files of this lesson a student edits, as they are on disk now."""
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.iterdir()
                      if p.is_file() and fnmatch.fnmatch(p.name, STUDENT_FILE_PATTERN))

    def todo_counts(self) -> Dict[Path, int]:
        """`TODO` markers left in each student file."""
        counts = {}
        for p in self.student_files():
            try:
                counts[p] = p.read_text(encoding="utf-8", errors="replace").count("TODO")
            except OSError:
                counts[p] = 0
        return counts

    def hints(self) -> List[str]:
        """The README's graded hints, in order (see read_hints)."""
        if not self.readme.is_file():
            raise CourseError(f"{self.rel_dir}/README.md: no such file, so no hints for lesson "
                              f"{self.number} yet")
        hints = read_hints(self.readme.read_text(encoding="utf-8", errors="replace"))
        if not hints:
            raise CourseError(f"{self.rel_dir}/README.md has no hints (a '## Hints' section with "
                              f"'### Hint 1', '### Hint 2', ...)")
        return hints


def find_lessons(source_dir: Path) -> List[Lesson]:
    """Every lessons/NN_topic folder, in order."""
    lessons_dir = source_dir / "lessons"
    if not lessons_dir.is_dir():
        raise CourseError(f"{source_dir} has no lessons/ folder (is it the course's root?)")
    found = []
    for d in sorted(lessons_dir.iterdir()):
        m = _LESSON_DIR.match(d.name)
        if d.is_dir() and m:
            found.append(Lesson(m.group(1), d.name, source_dir))
    return found


def parse_lesson_number(text: str) -> str:
    """'3', '03', 'lesson03' -> '03'. Raises CourseError for anything else."""
    m = re.fullmatch(r"(?:lesson)?(\d{1,2})", text.strip(), re.I)
    if not m:
        raise CourseError(f"'{text}' is not a lesson number (write it like 03)")
    return f"{int(m.group(1)):02d}"


def lesson_by_number(lessons: List[Lesson], text: str) -> Lesson:
    number = parse_lesson_number(text)
    for lesson in lessons:
        if lesson.number == number:
            return lesson
    have = ", ".join(lesson.number for lesson in lessons) or "none"
    raise CourseError(f"there is no lesson {number} (lessons: {have})")


def read_hints(readme_text: str) -> List[str]:
    """The graded hints of a lesson README: the `## Hints` section, one hint per `### ...`
    heading (or per <details> block), in order. Returns [] when there is no such section."""
    lines = readme_text.splitlines()
    start = None
    for i, line in enumerate(lines):
        if re.match(r"^##\s+Hints?\s*$", line.strip(), re.I):
            start = i + 1
            break
    if start is None:
        return []
    section: List[str] = []
    for line in lines[start:]:
        if re.match(r"^##\s", line):
            break
        section.append(line)
    hints: List[List[str]] = []
    current: Optional[List[str]] = None
    for line in section:
        stripped = line.strip()
        if re.match(r"^###\s", line) or stripped.lower().startswith("<details"):
            current = []
            hints.append(current)
            rest = re.sub(r"^<details[^>]*>", "", stripped, flags=re.I).strip()
            rest = re.sub(r"<summary>.*?</summary>", "", rest, flags=re.I).strip()
            if rest and not rest.startswith("###"):
                current.append(rest)
            continue
        if current is None:
            continue
        stripped = re.sub(r"</?details[^>]*>|<summary>.*?</summary>", "", line, flags=re.I)
        current.append(stripped.rstrip())
    texts = []
    for h in hints:
        text = "\n".join(h).strip("\n")
        if text.strip():
            texts.append(text)
    return texts


def not_built_lesson(test_name: str) -> Optional[str]:
    """For the placeholder test that ctest runs in place of a test program that did not build
    (`lesson03_student_cpu_exercise_layout_test_NOT_BUILT`), the lesson label; else None."""
    m = _NOT_BUILT.match(test_name)
    return m.group(1) if m else None


def split_test_name(name: str) -> Optional[tuple]:
    """'student/lesson01/Banks.BankOfMatchesTheModel' -> ('student', 'lesson01',
    'Banks.BankOfMatchesTheModel'); hidden tests keep their 'hidden/' prefix in the last part.
    None for tests that are not a lesson's (the kit's, the tools')."""
    parts = name.split("/", 2)
    if len(parts) == 3 and parts[0] in ("student", "solution") and re.fullmatch(r"lesson\d\d", parts[1]):
        return parts[0], parts[1], parts[2]
    return None


class Build:
    """A configured build folder: where the course's sources are, which lessons it builds."""

    def __init__(self, build_dir: Path, source_dir: Optional[Path] = None):
        self.dir = build_dir
        info = self._read_info()
        if source_dir is None:
            source_dir = Path(info["source_dir"]) if info.get("source_dir") else ROOT
        self.source_dir = source_dir
        self.trees = list(info.get("trees", ["student"]))

    def _read_info(self) -> dict:
        path = self.dir / "course" / "build.json"
        if path.is_file():
            try:
                return json.loads(path.read_text())
            except (OSError, ValueError):
                return {}
        cache = self.dir / "CMakeCache.txt"
        if cache.is_file():
            for line in cache.read_text(errors="replace").splitlines():
                if line.startswith("CMAKE_HOME_DIRECTORY:"):
                    return {"source_dir": line.split("=", 1)[1]}
        return {}

    @property
    def configured(self) -> bool:
        return (self.dir / "CTestTestfile.cmake").is_file()

    def require_configured(self, configure_hint: str = "cmake --preset student") -> None:
        if not self.dir.is_dir():
            raise CourseError(f"no build folder {self.dir}: run `{configure_hint}` first")
        if not self.configured:
            raise CourseError(f"{self.dir} is not a configured build folder: run "
                              f"`{configure_hint}` first")

    @property
    def state_dir(self) -> Path:
        """Where the tools keep their files in the build folder."""
        return self.dir / "course"

    def lessons(self) -> List[Lesson]:
        return find_lessons(self.source_dir)


def default_build_dir(source_dir: Path = ROOT) -> Path:
    return source_dir / "build" / "student"


def write_text_atomic(path: Path, text: str) -> None:
    """Writes a file whole or not at all. Raises CourseError (one line) when it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, str(path))
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        raise CourseError(f"cannot write {path}: {e.strerror or e}") from None


def fail(prog: str, message: str, status: int = 1) -> int:
    """Prints the one-line error and returns the exit status."""
    print(f"{prog}: {message}", file=sys.stderr)
    return status
