#!/usr/bin/env python3
"""Makes the tree that is graded: the course at the instructor's pinned commit, with only the
student's own files copied in (lessons/NN_topic/exercise*, the files a student edits).

The tests, the kit, the build files, the tools and the points table all stay the course's, so a
student's edits to tests/, common/, cmake/ or tools/ change nothing in the grade.

  python3 course/tools/course/grade_tree.py --student student --course course

--student is a checkout of the student's repository, --course a checkout of the course at the
pinned commit (it is changed in place). A lesson the student's repository lacks keeps its
starter files (and scores as the starter does). Exit status: 0 done, 2 for bad usage.
"""

from __future__ import annotations

import fnmatch
import shutil
import sys
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_cli import Parser, print_lines, run_main  # noqa: E402
from course_model import STUDENT_FILE_PATTERN, CourseError, find_lessons  # noqa: E402

PROG = "grade_tree"


def overlay(student: Path, course: Path) -> List[str]:
    """Copies the student's files onto the course checkout; returns what it did, one line each."""
    if student.resolve() == course.resolve():
        raise CourseError("--student and --course must be two different checkouts")
    if not (student / "lessons").is_dir():
        raise CourseError(f"{student} has no lessons/ folder: is it the student's repository?")
    done = []
    for lesson in find_lessons(course):
        theirs = student / "lessons" / lesson.folder
        if not theirs.is_dir():
            done.append(f"{lesson.rel_dir}: not in the student's repository; the starter stays")
            continue
        ours = {p.name for p in lesson.student_files()}
        for path in sorted(theirs.iterdir()):
            if not fnmatch.fnmatch(path.name, STUDENT_FILE_PATTERN):
                continue
            rel = f"{lesson.rel_dir}/{path.name}"
            if path.is_symlink() or not path.is_file():
                done.append(f"{rel}: skipped (not a regular file)")
                continue
            try:
                shutil.copyfile(str(path), str(lesson.dir / path.name))
            except OSError as e:
                raise CourseError(f"cannot copy {path}: {e.strerror or e}") from None
            done.append(f"{rel}: the student's" + ("" if path.name in ours else " (new file)"))
    return done


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--student", type=Path, required=True, help="the student's checkout")
    ap.add_argument("--course", type=Path, required=True,
                    help="the course at the pinned commit (changed in place)")
    args = ap.parse_args(argv)
    return run_main(PROG, lambda: print_lines(overlay(args.student, args.course)), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
