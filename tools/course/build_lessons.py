#!/usr/bin/env python3
"""Builds every lesson of a configured build folder as its own target (lesson01, lesson02, ...)
and keeps going, so one lesson that does not compile does not stop the others (and, within a
lesson, one test program that does not compile does not stop the lesson's other programs). Writes which
lessons built to a JSON file that the grade report reads ("did not build").

  python3 tools/course/build_lessons.py --build-dir build/grade

Each lesson's build output goes to <build>/course/build-lessonNN.log. Exit status: 0 when
every lesson built, 1 when some did not (the status file says which), 2 for bad usage.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_tree import Build, CourseError, Parser, lesson_by_number, write_text_atomic  # noqa: E402

PROG = "build_lessons"
_ERROR_LINE = re.compile(r"(\berror\b|\bError \d+\b)", re.I)


def first_error(log: str) -> str:
    """The compiler's first error line of a build log (or its last line)."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for line in lines:
        if _ERROR_LINE.search(line) and not line.startswith(("make", "gmake", "ninja:")):
            return line[:300]
    for line in lines:
        if _ERROR_LINE.search(line):
            return line[:300]
    return lines[-1][:300] if lines else "no output"


def keep_going(build_dir: Path) -> List[str]:
    """The native build tool's keep-going flag, so that within a lesson one test program that
    does not compile does not stop the lesson's other programs from building."""
    try:
        cache = (build_dir / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return []
    m = re.search(r"^CMAKE_GENERATOR:INTERNAL=(.*)$", cache, re.M)
    generator = m.group(1).strip() if m else ""
    if "Makefiles" in generator:
        return ["--", "-k"]
    if "Ninja" in generator:
        return ["--", "-k", "0"]
    return []


def build_lessons(build: Build, numbers: Optional[List[str]], jobs: int,
                  status_path: Path) -> int:
    lessons = build.lessons()
    if numbers:
        lessons = [lesson_by_number(lessons, n) for n in numbers]
    if not lessons:
        raise CourseError(f"{build.source_dir} has no lessons to build")
    status = {}
    try:
        build.state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CourseError(f"cannot write {build.state_dir}: {e.strerror or e}") from None
    env = dict(os.environ)
    env.pop("MAKEFLAGS", None)  # a parent make's jobserver is not ours
    failed = 0
    for lesson in lessons:
        log_path = build.state_dir / f"build-{lesson.label}.log"
        print(f"building {lesson.label} ({lesson.folder}) ...", end=" ", flush=True)
        proc = subprocess.run(["cmake", "--build", str(build.dir), "--target", lesson.label,
                               "-j", str(jobs), *keep_going(build.dir)], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace", env=env)
        try:
            log_path.write_text(proc.stdout)
        except OSError as e:
            raise CourseError(f"cannot write {log_path}: {e.strerror or e}") from None
        if proc.returncode == 0:
            print("built", flush=True)
            status[lesson.label] = {"status": "built", "log": str(log_path)}
        else:
            failed += 1
            error = first_error(proc.stdout)
            print(f"did not build: {error}", flush=True)
            status[lesson.label] = {"status": "did not build", "error": error, "log": str(log_path)}
    write_text_atomic(status_path, json.dumps({"version": 1, "lessons": status}, indent=2) + "\n")
    print(f"{len(lessons) - failed} of {len(lessons)} lessons built; status in {status_path}")
    return 1 if failed else 0


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path, help="a configured build folder")
    ap.add_argument("--lessons", help="only these lessons, e.g. 01,03 (default: all)")
    ap.add_argument("--jobs", "-j", default=str(os.cpu_count() or 1), help="parallel compilations")
    ap.add_argument("--status", type=Path,
                    help="where to write the status JSON (default: <build>/course/build-status.json)")
    args = ap.parse_args(argv)
    try:
        jobs = int(args.jobs)
        if jobs < 1 or jobs > 1024:
            raise ValueError
    except ValueError:
        return fail(f"--jobs {args.jobs}: give a whole number from 1 to 1024")
    try:
        build = Build(args.build_dir)
        build.require_configured("cmake --preset grade")
        numbers = [n for n in args.lessons.split(",") if n.strip()] if args.lessons else None
        return build_lessons(build, numbers, jobs,
                             args.status or build.state_dir / "build-status.json")
    except CourseError as e:
        return fail(str(e))
    except FileNotFoundError as e:
        if e.filename == "cmake":
            return fail("cmake is not installed, or not on PATH")
        raise


def fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
