#!/usr/bin/env python3
"""Makes the tree that is graded: the course at the instructor's pinned commit, with only the
student's own files copied in (lessons/NN_topic/exercise*, the files a student edits), each
held to the exercise-file policy first (exercise_policy.py).

  course/course-admin grade-tree --student student --course course \
      [--lessons 01,03] [--record overlay.json] [--no-policy]

The tests, the kit, the build files, the tools and the points table all stay the course's, so a
student's edits to tests/, common/, cmake/ or tools/ change nothing in the grade. Of a lesson,
only the exercise files its starter has are taken: a new file (an `exercise_x.cu` the build
would compile) is refused and reported. When the policy refuses any of a lesson's files, the
whole lesson keeps its starter files (and scores as the starter does); the record says why,
line by line. A lesson the student's repository lacks keeps its starter files too. A file is
copied only when it differs from the course's, so an unchanged lesson is not rebuilt.

--student is a checkout of the student's repository, --course a checkout of the course at the
pinned commit (changed in place). --no-policy takes the files unchecked (the record, and the
grade report, say so). Exit status: 0 done, 2 for bad usage or when the policy cannot run.
"""

from __future__ import annotations

import fnmatch
import os
import json
import sys
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from course.model.cli import Parser, run_main, split_list, write_text_atomic
from course.model.course_model import (CourseError, Lesson, STUDENT_FILE_PATTERN, find_lessons,
                                       is_inside, lesson_by_number)
from course.model.manifest import MANIFEST
from course.model.safe_text import one_line
from course.model.starters import course_starters, git
from course.grading.points_table import INSTRUCTOR_TABLE

PROG = "grade_tree"

STUDENTS = "the student's"
STARTER_MISSING = "the starter (not in the student's repository)"
STARTER_REFUSED = "the starter (the student's files are refused by the exercise policy)"
NOT_GRADED = "not graded (--lessons)"


@dataclass
class LessonOverlay:
    """What the graded tree holds of one lesson, and why."""

    label: str
    files: str  # STUDENTS, STARTER_MISSING, STARTER_REFUSED or NOT_GRADED
    taken: List[str] = field(default_factory=list)  # the student's files copied in
    refused: List[str] = field(default_factory=list)  # why the starter stays, one line each
    ignored: List[str] = field(default_factory=list)  # files that are not the starter's
    changed: bool = False  # some file of the course changed


@dataclass
class Overlay:
    policy: bool
    lessons: Dict[str, LessonOverlay] = field(default_factory=dict)

    def as_json(self) -> str:
        """The record the grade report reads (<build>/course/overlay.json)."""
        return json.dumps({"version": 1, "policy": self.policy,
                           "lessons": {k: asdict(v) for k, v in self.lessons.items()}},
                          indent=1) + "\n"

    def lines(self) -> List[str]:
        out = []
        for o in self.lessons.values():
            what = ", ".join(o.taken) if o.files == STUDENTS else o.files
            out.append(f"{o.label}: {what}")
            out += [f"  refused: {r}" for r in o.refused]
            out += [f"  ignored: {r}" for r in o.ignored]
        if not self.policy:
            out.append("warning: the exercise files were NOT checked by the policy (--no-policy)")
        return out



def _student_files(theirs: Path, student: Path, lesson: Lesson, starters: Dict[str, bytes],
                   o: LessonOverlay) -> Optional[Dict[str, bytes]]:
    """The student's exercise files of a lesson, or None when the lesson must keep its
    starter (o.refused says why)."""
    if not is_inside(theirs, student):
        o.refused.append(f"{lesson.rel_dir}: a link out of the student's repository")
        return None
    files: Dict[str, bytes] = {}
    for path in sorted(theirs.iterdir()):
        if not fnmatch.fnmatch(path.name, STUDENT_FILE_PATTERN):
            continue
        rel = f"{lesson.rel_dir}/{one_line(path.name, 120)}"  # a name may hold a line break
        if path.name not in starters:
            o.ignored.append(f"{rel}: not a file of the lesson's starter (a new file is never "
                             f"built)")
            continue
        if path.is_symlink() or not path.is_file():
            o.refused.append(f"{rel}: not a regular file")
            continue
        try:
            files[path.name] = path.read_bytes()
        except OSError as e:
            raise CourseError(f"cannot read {path}: {e.strerror or e}") from None
    return files


def _judge(job) -> List[str]:
    """The policy's findings on one lesson's files, as lines (a worker process's task)."""
    from course.policy import exercise_policy
    course, lesson, files, starters, hidden_tests, cache_dir = job
    return [str(f) for f in exercise_policy.check_lesson(course, lesson, files, starters,
                                                          hidden_tests, cache_dir)]


def overlay(student: Path, course: Path, lessons: Optional[List[str]] = None,
            policy: bool = True, hidden_tests: Optional[Path] = None,
            cache_dir: Optional[Path] = None,
            placed: Optional[Callable[[Lesson], None]] = None) -> Overlay:
    """Copies the student's files onto the course checkout, lesson by lesson, each checked by
    the policy first; returns what it did. `placed` is called with each lesson as soon as its
    files are final (the student's, or the starter's and why), in the order the policy's
    checks end: the grading build starts each lesson's make then."""
    def place(lesson: Lesson, o: LessonOverlay, starters: Dict[str, bytes],
              files: Optional[Dict[str, bytes]]) -> None:
        if files is None or o.refused:
            o.files = STARTER_REFUSED
            o.changed = _write(lesson, starters)
        else:
            o.taken = sorted(files)
            o.changed = _write(lesson, dict(starters, **files))
        if placed is not None:
            placed(lesson)

    if student.resolve() == course.resolve():
        raise CourseError("--student and --course must be two different checkouts")
    if not (student / "lessons").is_dir():
        raise CourseError(f"{student} has no lessons/ folder: is it the student's repository?")
    if policy:
        from course.policy import exercise_policy
        exercise_policy.load_lexer()  # fail now, before anything is copied
    all_lessons = find_lessons(course)
    # The facts the grade reads (the lessons' manifests: their policy, their points; the
    # instructor's points table) as pinned, whatever an earlier grading left on disk.
    restore_pinned(course, [f"{lesson.rel_dir}/{MANIFEST}" for lesson in all_lessons] +
                   [INSTRUCTOR_TABLE.as_posix()])
    chosen = {lesson_by_number(all_lessons, n).label for n in lessons} if lessons else None
    result = Overlay(policy)
    taken: List[Tuple[Lesson, LessonOverlay, Dict[str, bytes], Optional[Dict[str, bytes]]]] = []
    for lesson in all_lessons:
        o = LessonOverlay(lesson.label, STUDENTS)
        result.lessons[lesson.label] = o
        if chosen is not None and lesson.label not in chosen:
            o.files = NOT_GRADED
            o.changed = _write(lesson, course_starters(course, lesson))
            continue
        starters = course_starters(course, lesson)
        theirs = student / "lessons" / lesson.folder
        if not theirs.is_dir():
            o.files = STARTER_MISSING
            o.changed = _write(lesson, starters)
            if placed is not None:
                placed(lesson)
            continue
        taken.append((lesson, o, starters, _student_files(theirs, student, lesson, starters, o)))
    if not policy:
        for entry in taken:
            place(*entry)
        return result
    # The lessons at once, a process each: a check is libclang's parse and Python's walk of it,
    # and threads would share one Python lock (ctypes hands it over on every call). Each lesson
    # is placed as soon as its check ends.
    exercise_policy.library_names(cache_dir)  # made once, before the lessons share it
    for entry in taken:
        if entry[3] is None:
            place(*entry)
    checked = [entry for entry in taken if entry[3] is not None]
    jobs = [(course, lesson, files, starters, hidden_tests, cache_dir)
            for lesson, _o, starters, files in checked]
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    if workers == 1:
        for entry, job in zip(checked, jobs):
            entry[1].refused += _judge(job)
            place(*entry)
        return result
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_judge, job): entry for entry, job in zip(checked, jobs)}
        for future in as_completed(futures):
            entry = futures[future]
            entry[1].refused += future.result()
            place(*entry)
    return result


def restore_pinned(course: Path, paths: List[str]) -> None:
    """Puts these files of the course back as its pinned commit (its git HEAD) has them, and
    removes those it does not have; nothing where the course is not a git checkout."""
    if git(course, "rev-parse", "--verify", "HEAD").returncode != 0:
        return
    for rel in paths:
        pinned = git(course, "show", f"HEAD:{rel}", binary=True)
        target = course / rel
        try:
            if pinned.returncode != 0:
                if target.exists() or target.is_symlink():
                    target.unlink()
            elif target.is_symlink() or not target.is_file() or target.read_bytes() != pinned.stdout:
                if target.is_symlink():
                    target.unlink()
                target.write_bytes(pinned.stdout)
        except OSError as e:
            raise CourseError(f"cannot restore {target}: {e.strerror or e}") from None


def _write(lesson: Lesson, files: Dict[str, bytes]) -> bool:
    """Puts these files in the lesson's folder, each only where it differs (an unchanged file
    keeps its time, so nothing is rebuilt). Returns whether any changed."""
    changed = False
    for name, data in sorted(files.items()):
        target = lesson.dir / name
        if target.is_file() and not target.is_symlink() and target.read_bytes() == data:
            continue
        try:
            if target.is_symlink():
                target.unlink()
            target.write_bytes(data)
        except OSError as e:
            raise CourseError(f"cannot write {target}: {e.strerror or e}") from None
        changed = True
    return changed


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--student", type=Path, required=True, help="the student's checkout")
    ap.add_argument("--course", type=Path, required=True,
                    help="the course at the pinned commit (changed in place)")
    ap.add_argument("--lessons", help="only these lessons, e.g. 01,03 (default: all)")
    ap.add_argument("--record", type=Path, help="write what was taken, and why, here (JSON)")
    ap.add_argument("--hidden-tests", type=Path, help="the instructor's hidden tests folder")
    ap.add_argument("--no-policy", action="store_true",
                    help="take the exercise files without checking them (the record says so)")
    args = ap.parse_args(argv)

    def go() -> int:
        result = overlay(args.student, args.course, split_list(args.lessons) or None,
                         not args.no_policy, args.hidden_tests,
                         args.record.parent if args.record else None)
        if args.record:
            write_text_atomic(args.record, result.as_json())
        for line in result.lines():
            print(line)
        return 0

    return run_main(PROG, go, error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
