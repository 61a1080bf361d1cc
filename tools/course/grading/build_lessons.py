#!/usr/bin/env python3
"""The grading build: every lesson of a configured build folder built as its own target
(lesson01, lesson02, ...), keeping going, so one lesson that does not compile does not stop the
others (and, within a lesson, one test program that does not compile does not stop the lesson's
other programs). Writes which lessons built to a JSON file that the grade report reads ("did not
build").

  ./course-admin build-lessons --build-dir build/grade

Before it builds, it removes the files an earlier build made of these lessons (their libraries
and test programs, as the build lists them): grading one student after another in the same
course copy, a lesson whose build fails has none of the previous student's programs left to
run. After it, it records each file this build made, with its sha256, under an id of this
build's own (<build>/course/programs.json): the grader runs a test only on a program this record
names, with the same sha256 (grade_tests.py), and the report's trust says so.

Each lesson's build output goes to <build>/course/build-lessonNN.log. Exit status: 0 when
every lesson built, 1 when some did not (the status file says which), 2 for bad usage.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional

from course.model.cli import Parser, jobs_option, run_main, split_list, write_text_atomic
from course.model.course_model import (Build, CourseError, Lesson, LessonBuild, build_status_json,
                                       lesson_by_number, remove_file)
from course.model.trust import PROGRAMS_RECORD, file_hash

PROG = "build_lessons"


@dataclass
class Made:
    """The record of one grading build: its id, and each lesson's files that it made, with
    their sha256 (a lesson that did not build at all has none)."""

    build: str
    lessons: Dict[str, Dict[str, str]]  # lessonNN -> {path: sha256}

    def sha256(self, path: Path) -> Optional[str]:
        """The sha256 this build recorded for the file, None for a file it did not make."""
        wanted = os.path.realpath(path)
        for files in self.lessons.values():
            for made, sha in files.items():
                if os.path.realpath(made) == wanted:
                    return sha
        return None

    def as_json(self) -> str:
        return json.dumps({"version": 1, "build": self.build, "lessons": self.lessons},
                          indent=1) + "\n"

    @classmethod
    def read(cls, build_dir: Path) -> Optional["Made"]:
        """The record in a build folder; None where there is none (or it is not one)."""
        try:
            data = json.loads((Build(build_dir).state_dir / PROGRAMS_RECORD).read_text())
            return cls(str(data["build"]), {str(k): dict(v) for k, v in data["lessons"].items()})
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None


def grading_build(build: Build, lessons: List[Lesson], jobs: int,
                  say: Callable[..., None] = print, timeout: Optional[float] = None,
                  status_path: Optional[Path] = None) -> Dict[str, LessonBuild]:
    """Builds the lessons for grading (Build.build_lessons, fresh: what an earlier build made of
    them is removed first) and writes the build status (to `status_path`, default
    <build>/course/build-status.json) and the record of what this build made (Made). The record
    of an earlier build is removed before anything is built."""
    record = build.state_dir / PROGRAMS_RECORD
    remove_file(record)
    made = Made(f"{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(4)}", {})
    status = build.build_lessons(lessons, jobs, say=say, timeout=timeout, fresh=True)
    for lesson in lessons:
        made.lessons[lesson.label] = {str(p): file_hash(p) for p in build.lesson_files(lesson)
                                      if p.is_file()}
    write_text_atomic(status_path or build.status_path, build_status_json(status))
    write_text_atomic(record, made.as_json())
    return status


def build_lessons(args) -> int:
    build = Build(args.build_dir)
    build.require_configured("cmake --preset grade")
    lessons = build.lessons()
    numbers = split_list(args.lessons)
    if numbers:
        lessons = [lesson_by_number(lessons, n) for n in numbers]
    if not lessons:
        raise CourseError(f"{build.source_dir} has no lessons to build")
    status_path = args.status or build.status_path
    status = grading_build(build, lessons, args.jobs, timeout=args.timeout,
                           status_path=status_path)
    built = sum(not s.failed for s in status.values())
    print(f"{built} of {len(lessons)} lessons built; status in {status_path}")
    return 0 if built == len(lessons) else 1


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path, help="a configured build folder")
    ap.add_argument("--lessons", help="only these lessons, e.g. 01,03 (default: all)")
    jobs_option(ap)
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds a lesson's build may take before it is stopped (default: none)")
    ap.add_argument("--status", type=Path,
                    help="where to write the status JSON (default: <build>/course/build-status.json)")
    args = ap.parse_args(argv)
    return run_main(PROG, lambda: build_lessons(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
