#!/usr/bin/env python3
"""Builds every lesson of a configured build folder as its own target (lesson01, lesson02, ...)
and keeps going, so one lesson that does not compile does not stop the others (and, within a
lesson, one test program that does not compile does not stop the lesson's other programs).
Writes which lessons built to a JSON file that the grade report reads ("did not build").

  ./course-admin build-lessons --build-dir build/grade

Each lesson's build output goes to <build>/course/build-lessonNN.log. Exit status: 0 when
every lesson built, 1 when some did not (the status file says which), 2 for bad usage.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import List

from course.model.cli import Parser, jobs_option, run_main, split_list, write_text_atomic
from course.model.course_model import Build, CourseError, build_status_json, lesson_by_number

PROG = "build_lessons"


def build_lessons(args) -> int:
    build = Build(args.build_dir)
    build.require_configured("cmake --preset grade")
    lessons = build.lessons()
    numbers = split_list(args.lessons)
    if numbers:
        lessons = [lesson_by_number(lessons, n) for n in numbers]
    if not lessons:
        raise CourseError(f"{build.source_dir} has no lessons to build")
    status = build.build_lessons(lessons, args.jobs, timeout=args.timeout)
    status_path = args.status or build.status_path
    write_text_atomic(status_path, build_status_json(status))
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
