#!/usr/bin/env python3
"""The grade report: scores ctest's JUnit output against the lessons' points.

  report      JUnit file(s) + the points -> a Markdown report, a JSON score file; exits 1
              below --pass-mark, 3 with --require-complete where some points were not
              gradable on this machine
  lesson NN   runs one lesson's tests in a build folder and exits 0 only if every one of them
              passed (one GitHub Classroom autograding step per lesson)
  points      writes an instructor's points table that lists every test of a reference run
  classroom   writes .github/workflows/classroom.yml from the lessons' points and
              tools/course/templates/classroom.yml.in

Grading rules. A test scores its points only if it ran and passed. A GPU test that was skipped
scores zero and is listed as "not run: <reason>": no points for skipping. A test whose program
did not build scores zero, "did not build" (with the compiler's first error where
build_lessons.py recorded it). A test of the points table, or of the build's test list, that is
missing from the report scores zero, "not run". The score is taken against the whole table of
the lessons graded (--lessons leaves the others out of the total); a test this machine could not
grade scores zero, "not gradable here", and the report says the grade is incomplete.

Every lesson of the course (its lessons/NN_topic folders) is graded, worth its manifest's
points unless an instructor's points table says otherwise (points_table.py). Without a "tests"
list, a lesson's points are shared by the tests the build registered (give --build-dir) or,
failing that, found in the report. Test names are as ctest prints them after "<tree>/lessonNN/".

Exit status: 0 done (and at or above the pass mark), 1 below the pass mark (or, for `lesson`,
not every test passed), 2 for bad usage or unreadable input, 3 (report --require-complete) a
grade with points this machine could not grade.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, List, Optional

from course.model import templates
from course.model.cli import (Parser, jobs_option, lesson_number, make_dir,
                              percentage, run_main, split_list, write_output)
from course.model.course_model import (Build, CourseError, Lesson, LessonBuild, ROOT, TREES,
                                       find_lessons, lesson_by_number, read_build_status,
                                       split_test_name)
from course.model.ctest_results import ResultError, TestInfo, TestResult, list_tests, read_junit
from course.model.trust import read_trust
from course.grading import grade_tests
from course.grading.grade_report import fmt, incomplete_line, to_json, to_markdown
from course.grading.points_table import (POINTS_RECORD, PointsTable, course_points, load_points,
                                         whole_or_float)
from course.grading.scoring import (EARNS, FROM_CPU_RECORDING, Grade, NOT_BUILT, NOT_GRADABLE,
                                    NOT_RUN, PASSED, score)

PROG = "grade"
#: The exit status of `report --require-complete` for a grade with points not gradable here.
INCOMPLETE = 3


# ------------------------------------------------------------------------------------------
# Inputs
# ------------------------------------------------------------------------------------------

def read_reports(paths: List[Path]) -> Dict[str, TestResult]:
    results: Dict[str, TestResult] = {}
    for path in paths:
        try:
            found = read_junit(path)
        except ResultError as e:
            raise CourseError(str(e)) from None
        if not found:
            raise CourseError(f"{path}: the JUnit file holds no test results (did the tests run?)")
        results.update(found)
    return results


def registered_tests(build_dir: Optional[Path]) -> Optional[Dict[str, TestInfo]]:
    """Every test of a build folder, with its labels and program."""
    if build_dir is None:
        return None
    if not Build(build_dir).configured:
        raise CourseError(f"{build_dir} is not a configured build folder")
    try:
        return list_tests(build_dir)
    except ResultError as e:
        raise CourseError(str(e)) from None


def build_status(explicit: Optional[Path], build_dir: Optional[Path]) -> Dict[str, LessonBuild]:
    """--build-status, else <build-dir>/course/build-status.json where it exists."""
    if explicit is not None:
        return read_build_status(explicit)
    if build_dir is not None and Build(build_dir).status_path.is_file():
        return read_build_status(Build(build_dir).status_path)
    return {}


def course_lessons(source_dir: Path) -> List[Lesson]:
    try:
        return find_lessons(source_dir)
    except CourseError:
        return []


# ------------------------------------------------------------------------------------------
# Commands
# ------------------------------------------------------------------------------------------

def summary(grade: Grade, heading: str) -> List[str]:
    """The report's lines on the terminal: the total, then one line per lesson."""
    line = f"{heading}: {fmt(grade.score)} / {fmt(grade.max)} points ({grade.percent:.1f}%)"
    if grade.pass_mark is not None:
        line += f", pass mark {grade.pass_mark:g}%: {'passed' if grade.passed else 'below'}"
    lines = [line]
    for lesson in grade.lessons:
        if not lesson.graded:
            lines.append(f"  {lesson.label}: not graded")
            continue
        counts = [f"{lesson.count(PASSED)}/{len(lesson.scored_tests)} passed"]
        counts += [f"{lesson.count(s)} {s}"
                   for s in (FROM_CPU_RECORDING, NOT_RUN, NOT_GRADABLE, NOT_BUILT)
                   if lesson.count(s)]
        lines.append(f"  {lesson.label}: {fmt(lesson.score)} / {fmt(lesson.points)}  "
                     f"({', '.join(counts)})")
    if not grade.complete:
        lines.append(f"  INCOMPLETE: {fmt(grade.not_gradable_points)} of {fmt(grade.max)} points "
                     f"not gradable on this machine")
    if grade.trust is not None and not grade.trust.trusted:
        lines.append("  NOT A TRUSTED GRADE: " + " ".join(
            line for line in grade.trust.lines if "NOT" in line or "NONE" in line or
            line.startswith("Not a trusted"))[:400])
    return lines + [f"  warning: {w}" for w in grade.warnings]


def points_of(args, lessons: List[Lesson]) -> PointsTable:
    """The points to grade with: --points (over the lessons' manifests); else the grader's
    record in the build folder (written before any student code ran); else the course's
    manifests and its instructor's table (tests/points.json) where it has one."""
    if args.points is not None:
        return load_points(args.points, lessons)
    build_dir = getattr(args, "build_dir", None)
    if build_dir is not None and (Build(build_dir).state_dir / POINTS_RECORD).is_file():
        return load_points(Build(build_dir).state_dir / POINTS_RECORD, lessons)
    return course_points(args.source_dir, lessons)


def cmd_report(args) -> int:
    lessons = course_lessons(args.source_dir)
    table = points_of(args, lessons)
    results = read_reports(args.junit)
    graded = None
    if args.lessons:
        graded = [lesson_by_number(lessons, n).label for n in split_list(args.lessons)]
    grade = score(table, results, registered_tests(args.build_dir),
                  build_status(args.build_status, args.build_dir), args.tree, lessons,
                  graded=graded)
    grade.trust = read_trust(args.build_dir, args.junit)
    note_refusals(grade)
    grade.pass_mark = args.pass_mark
    if not any(lesson.tests for lesson in grade.lessons):
        grade.warnings.append(f"no {args.tree} test of any lesson in the report")
    markdown = to_markdown(grade, args.heading)
    data = to_json(grade, [str(p) for p in args.junit])
    # Write both or neither: check the JSON path first, it is the machine-read one.
    if args.json:
        write_output(args.json, json.dumps(data, indent=2) + "\n")
    if args.markdown:
        write_output(args.markdown, markdown + "\n")
    print("\n".join(summary(grade, args.heading)))
    if args.require_complete and not grade.complete:
        print(f"grade: {incomplete_line(grade)}", file=sys.stderr)
        return INCOMPLETE
    return 1 if grade.passed is False else 0


def note_refusals(grade: Grade) -> None:
    """A lesson graded as the starter says why, with the policy's first findings."""
    if grade.trust is None:
        return
    for lesson in grade.lessons:
        if lesson.label in grade.trust.starter and lesson.graded:
            findings = grade.trust.refused.get(lesson.label, [])
            text = f"Graded as {grade.trust.starter[lesson.label]}"
            if findings:
                text += ": " + "; ".join(findings[:3]) + \
                    (f"; and {len(findings) - 3} more" if len(findings) > 3 else "")
            lesson.add_note(text + ".")


def lesson_results(args, label: str) -> Dict[str, TestResult]:
    """--junit, or the lesson's tests run now in the build folder, each in a sandbox and
    judged from its own report (grade_tests.py), as grade_run.sh does."""
    if args.junit is not None:
        return read_reports([args.junit])
    state = make_dir(Build(args.build_dir).state_dir)
    tests = grade_tests.planned_tests(args.build_dir, args.tree, [label[len("lesson"):]])
    if not tests:
        raise CourseError(f"{args.build_dir} has no {args.tree} tests of {label}")
    box = grade_tests.grading_sandbox(args.not_isolated)
    machine = grade_tests.Machine.read(state / "machine.json")
    programs = grade_tests.Programs(args.build_dir)
    verdicts = grade_tests.run_tests(tests, box, machine, args.jobs, programs,
                                     say=lambda line: None, build=Build(args.build_dir))
    junit = state / f"grade-{label}.xml"
    grade_tests.write_outputs(verdicts, box, machine, programs, junit,
                              state / f"evidence-{label}.json")
    return read_reports([junit])


def cmd_lesson(args) -> int:
    label = f"lesson{args.lesson}"
    lessons = course_lessons(args.source_dir)
    if lessons and label not in [lesson.label for lesson in lessons]:
        raise CourseError(f"this course has no lesson {args.lesson}")
    table = points_of(args, lessons)
    if table.get(label) is None:
        raise CourseError(f"{table.path} gives no points to {label}")
    registered = registered_tests(args.build_dir)
    results = lesson_results(args, label)
    grade = score(table, results, registered, build_status(None, args.build_dir), args.tree,
                  lessons, only=label)
    if not grade.lessons:
        raise CourseError(f"this course has no lesson {args.lesson}")
    lesson = grade.lessons[0]
    print(f"{label} {lesson.title}: {fmt(lesson.score)} / {fmt(lesson.points)} points".replace("  ", " "))
    if lesson.note:
        print(f"  {lesson.note.strip()}")
    for t in lesson.tests:
        print(f"  {t.status:<14} {t.name}" + (f": {t.detail}" if t.detail else ""))
    scored = lesson.scored_tests
    full = bool(scored) and all(t.status in EARNS for t in scored)
    if not full:
        print(f"Every test of {label} must pass (a skipped GPU test does not) for its "
              f"{fmt(lesson.points)} points.")
    return 0 if full else 1


def cmd_points(args) -> int:
    results = read_reports(args.junit)
    lessons_here = course_lessons(args.source_dir)
    # Each lesson keeps the points it has: in the table written before, else in its manifest.
    kept = load_points(args.output if args.output and str(args.output) != "-" and
                       args.output.is_file() else None, lessons_here)
    lessons: Dict[str, Dict[str, int]] = {}
    for name in results:
        parts = split_test_name(name)
        if parts and parts.tree == args.tree:
            lessons.setdefault(parts.label, {})[parts.name] = 1
    if not lessons:
        raise CourseError(f"no {args.tree} lesson tests in the report")
    data: dict = {"lessons": {}}
    for label in sorted(lessons):
        spec = kept.get(label)
        if spec is None:
            raise CourseError(f"the report has tests of {label}, which this course does not have")
        data["lessons"][label] = {"points": whole_or_float(spec.points),
                                  "tests": dict(sorted(lessons[label].items()))}
    write_output(args.output, json.dumps(data, indent=2) + "\n")
    return 0


def classroom_workflow(course: Path, lessons: List[Lesson],
                       points: Optional[PointsTable] = None) -> str:
    """The GitHub Classroom workflow of these lessons: one step per lesson, worth its points
    (the course's: its manifests and its instructor's table, unless `points` says)."""
    table = points if points is not None else course_points(course, lessons)
    steps = []
    for lesson in lessons:
        spec = table.get(lesson.label)
        if spec is None:
            raise CourseError(f"{table.path} gives no points to {lesson.label}")
        if spec.points.denominator != 1:
            raise CourseError(f"{lesson.label}: Classroom scores are whole numbers, the table "
                              f"gives {fmt(spec.points)}")
        steps.append({"NUMBER": lesson.number, "TITLE": lesson.title.replace('"', "'"),
                      "LABEL": lesson.label, "LABEL_UPPER": lesson.label.upper(),
                      "POINTS": str(int(spec.points))})
    runners = ",".join(lesson.label for lesson in lessons)
    return templates.render("classroom.yml.in", {"RUNNERS": runners}, {"lesson": steps})


def cmd_classroom(args) -> int:
    lessons = course_lessons(args.source_dir)
    if not lessons:
        raise CourseError(f"{args.source_dir} has no lessons")
    points = load_points(args.points, lessons) if args.points is not None else None
    write_output(args.output, classroom_workflow(args.source_dir, lessons, points))
    return 0


# ------------------------------------------------------------------------------------------

def make_parser() -> Parser:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--source-dir", type=Path, default=ROOT, help=argparse.SUPPRESS)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    points_help = ("an instructor's points table over the lessons' manifests (default: the "
                   "grader's record in the build folder, else tests/points.json where there is "
                   "one, else the manifests alone)")

    p = sub.add_parser("report", help="score JUnit results: Markdown, JSON, exit status")
    p.add_argument("--junit", type=Path, action="append", required=True,
                   help="ctest's JUnit output (--output-junit); repeat to merge several")
    p.add_argument("--points", type=Path, help=points_help)
    p.add_argument("--build-dir", type=Path,
                   help="the build folder the tests ran in: its test list finds tests that did "
                        "not run and programs that are not built")
    p.add_argument("--build-status", type=Path,
                   help="build_lessons.py's status file (default: <build-dir>/course/build-status.json)")
    p.add_argument("--tree", choices=TREES, default="student", help="whose tests to score")
    p.add_argument("--markdown", type=Path, help="write the Markdown report here (e.g. $GITHUB_STEP_SUMMARY; - for stdout)")
    p.add_argument("--json", type=Path, help="write the JSON score file here")
    p.add_argument("--pass-mark", type=percentage, help="exit 1 below this percentage")
    p.add_argument("--require-complete", action="store_true",
                   help=f"exit {INCOMPLETE} when some points were not gradable on this machine "
                        "(no GPU, counters refused)")
    p.add_argument("--heading", default="Grade", help="the report's heading (e.g. the student's name)")
    p.add_argument("--lessons", help="the lessons this run graded, e.g. 01,03 (the others are "
                                     "listed as not graded, and left out of the total)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("lesson", help="run one lesson's tests; exit 0 only if all passed")
    p.add_argument("lesson", type=lesson_number, help="lesson number, e.g. 03")
    p.add_argument("--build-dir", type=Path, required=True)
    p.add_argument("--points", type=Path, help=points_help)
    p.add_argument("--tree", choices=TREES, default="student")
    p.add_argument("--junit", type=Path, help="read this report instead of running the tests")
    p.add_argument("--not-isolated", action="store_true",
                   help="where no sandbox can be made, run the tests without one")
    jobs_option(p)
    p.set_defaults(func=cmd_lesson)

    p = sub.add_parser("points", help="a points table listing every test of a reference run")
    p.add_argument("--junit", type=Path, action="append", required=True)
    p.add_argument("--tree", choices=TREES, default="solution")
    p.add_argument("--output", "-o", type=Path,
                   help="the table to write (a lesson keeps the points it has there, else its "
                        "manifest's)")
    p.set_defaults(func=cmd_points)

    p = sub.add_parser("classroom", help="write the GitHub Classroom workflow from the lessons' points")
    p.add_argument("--points", type=Path, help=points_help)
    p.add_argument("--output", "-o", type=Path, help="default: stdout")
    p.set_defaults(func=cmd_classroom)
    return ap


def main(argv: List[str]) -> int:
    args = make_parser().parse_args(argv)
    return run_main(f"{PROG} {args.command}", lambda: args.func(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
