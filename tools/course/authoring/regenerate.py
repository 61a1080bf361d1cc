#!/usr/bin/env python3
"""Writes again what the course generates from its lessons' manifests (lessons/NN_topic/
lesson.json): the course README's lesson table, the GitHub Classroom workflow
(.github/workflows/classroom.yml, one step per lesson worth its points) and the instructors'
guide's table of which GPUs grade which lessons (docs/instructors.md, from the manifests' `gpu`
needs, the lessons' test files and common/gpu_profiles.json), and the kit's copy of those
profiles (common/include/kit/gpu_profiles.inc). With --check, writes nothing and lists what is
stale.

  ./course-admin regenerate            # after adding a lesson or editing a manifest
  ./course-admin regenerate --check    # exit 1 when something is stale

The lessons' pictures and the READMEs' measured blocks and excerpts need the bank-map program:
`cmake --build --preset docs --target docs-sync` draws and writes them.
Exit status: 0 done (or current), 1 stale (--check), 2 bad usage or a course it cannot read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, List, Tuple

from course.authoring import gpu_table
from course.model import lesson_table, needs
from course.model.cli import Parser, run_main, write_text_atomic
from course.model.course_model import CourseError, ROOT, find_lessons
from course.grading.grade import classroom_workflow

PROG = "regenerate"
#: The generated files, from the course's root.
README = Path("README.md")
CLASSROOM = Path(".github") / "workflows" / "classroom.yml"


def generated(course: Path) -> List[Tuple[Path, Callable[[str], str]]]:
    """(file, what it should hold given what it holds now) for every generated file."""
    lessons = find_lessons(course)
    if not lessons:
        raise CourseError(f"{course} has no lessons")
    return [(README, lambda old: lesson_table.rewrite(old, lessons)),
            (CLASSROOM, lambda _old: classroom_workflow(course, lessons)),
            (gpu_table.GUIDE, lambda old: gpu_table.rewrite(old, course, lessons)),
            (needs.PROFILES_CPP, lambda _old: needs.profiles_cpp(course))]


def regenerate(course: Path, check: bool) -> List[str]:
    """What changed (or, with check, what is stale), one line per file."""
    lines = []
    for rel, make in generated(course):
        path = course / rel
        try:
            old = path.read_text(encoding="utf-8") if path.is_file() else ""
        except OSError as e:
            raise CourseError(f"cannot read {path}: {e.strerror or e}") from None
        new = make(old)
        if new == old:
            continue
        if check:
            lines.append(f"{rel.as_posix()}: stale (./course-admin regenerate writes it)")
        else:
            write_text_atomic(path, new)
            lines.append(f"{rel.as_posix()}: written")
    return lines


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--course", type=Path, default=ROOT, help="the course (default: this one)")
    ap.add_argument("--check", action="store_true", help="write nothing: list what is stale")
    args = ap.parse_args(argv)

    def run() -> int:
        lines = regenerate(args.course.resolve(), args.check)
        for line in lines:
            print(line)
        if not lines:
            print("every generated file is current")
        return 1 if args.check and lines else 0

    return run_main(PROG, run, error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
