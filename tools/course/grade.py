#!/usr/bin/env python3
"""The grade report: scores ctest's JUnit output against a points table.

  report      JUnit file(s) + points table -> a Markdown report, a JSON score file; exits 1
              below --pass-mark
  lesson NN   runs one lesson's tests in a build folder and exits 0 only if every one of them
              passed (one GitHub Classroom autograding step per lesson)
  points      writes a points table that lists every test of a reference run
  classroom   writes .github/workflows/classroom.yml from the points table

Grading rules. A test scores its points only if it ran and passed. A GPU test that was skipped
scores zero and is listed as "not run: <reason>": no points for skipping. A test of the points
table that is missing from the report scores zero: "did not build" when its lesson or its
program did not build, "not run" otherwise. The score is always taken against the whole table.

The points table (JSON; tests/points.json is the course's):

  {"default_lesson_points": 10,
   "role_weights": {"exercise": 1, "guard": 0},
   "lessons": {"lesson02": 20,
               "lesson03": {"points": 15, "tests": {"Banks.BankOfMatchesTheModel": 2,
                                                    "hidden/Extra.Case": 1}}}}

Every lesson of the course (its lessons/NN_topic folders) is graded, worth its entry's points or
the default. A lesson's points are shared by its tests in proportion to their weights: by role unless
"tests" says otherwise, "role_weights" {"exercise": 1, "guard": 0} by default (guard tests pass
on the starter as shipped: they are shown, and a Classroom step needs them, but they carry no
points unless the table says so). With "tests", that list is the lesson's whole list: a listed
test missing from the report scores 0, a test of the report that is not listed is shown but
scores nothing. Without it, the points are shared by the tests the build registered (give
--build-dir) or, failing that, found in the report; a test program that did not build counts as
one test scoring 0. Test names are as ctest prints them after "<tree>/lessonNN/".

Exit status: 0 done (and at or above the pass mark), 1 below the pass mark (or, for `lesson`,
not every test passed), 2 for bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_tree import (ROOT, CourseError, Lesson, Parser, find_lessons,  # noqa: E402
                         not_built_lesson, parse_lesson_number, split_test_name,
                         write_text_atomic)
from ctest_results import ResultError, TestResult, list_tests, read_junit, run_ctest  # noqa: E402
from progress_report import failure_location, measurements  # noqa: E402

PROG = "grade"
TREES = ("student", "solution")

PASSED = "passed"
FAILED = "failed"
NOT_RUN = "not run"
NOT_BUILT = "did not build"
UNLISTED = "not in the points table"


# ------------------------------------------------------------------------------------------
# The points table
# ------------------------------------------------------------------------------------------

@dataclass
class LessonPoints:
    points: Fraction
    tests: Optional[Dict[str, Fraction]] = None  # the whole list, with weights; None: open


ROLES = ("exercise", "guard")
DEFAULT_ROLE_WEIGHTS = {"exercise": Fraction(1), "guard": Fraction(0)}


@dataclass
class PointsTable:
    lessons: Dict[str, LessonPoints]
    default: Optional[Fraction] = None
    path: str = ""
    role_weights: Dict[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_ROLE_WEIGHTS))

    def get(self, label: str) -> Optional[LessonPoints]:
        if label in self.lessons:
            return self.lessons[label]
        return LessonPoints(self.default) if self.default is not None else None


def _number(value, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CourseError(f"{where}: {json.dumps(value)} is not a number")
    if value < 0:
        raise CourseError(f"{where}: {value} is negative")
    return Fraction(value).limit_denominator(10 ** 6)


def load_points(path: Path) -> PointsTable:
    """Reads and checks a points table. Raises CourseError (one line) when it is wrong."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CourseError(f"{path}: no such points table") from None
    except OSError as e:
        raise CourseError(f"{path}: cannot read it ({e.strerror or e})") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise CourseError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise CourseError(f"{path}: expected an object like {{\"lessons\": {{\"lesson01\": 10}}}}")
    unknown = set(data) - {"lessons", "default_lesson_points", "role_weights"}
    if unknown:
        raise CourseError(f"{path}: unknown key {sorted(unknown)[0]!r} "
                          f"(keys: default_lesson_points, role_weights, lessons)")
    role_weights = dict(DEFAULT_ROLE_WEIGHTS)
    if "role_weights" in data:
        given = data["role_weights"]
        if not isinstance(given, dict) or set(given) - set(ROLES):
            raise CourseError(f"{path}: role_weights: expected {{\"exercise\": 1, \"guard\": 0}}")
        for role, w in given.items():
            role_weights[role] = _number(w, f"{path}: role_weights.{role}")
    lessons = data.get("lessons", {})
    if not isinstance(lessons, dict):
        raise CourseError(f"{path}: \"lessons\" must be an object like {{\"lesson01\": 10}}")
    default = None
    if "default_lesson_points" in data:
        default = _number(data["default_lesson_points"], f"{path}: default_lesson_points")
    table = {}
    for label, spec in lessons.items():
        where = f"{path}: lessons.{label}"
        try:
            number = parse_lesson_number(label)
        except CourseError:
            raise CourseError(f"{where}: a lesson is named like lesson01") from None
        if label != f"lesson{number}":
            raise CourseError(f"{where}: a lesson is named like lesson{number}")
        if isinstance(spec, dict):
            unknown = set(spec) - {"points", "tests"}
            if unknown:
                raise CourseError(f"{where}: unknown key {sorted(unknown)[0]!r} (keys: points, tests)")
            tests = None
            if "tests" in spec:
                if not isinstance(spec["tests"], dict) or not spec["tests"]:
                    raise CourseError(f"{where}.tests: expected an object of test name -> weight")
                tests = {name: _number(w, f"{where}.tests.{name}") for name, w in spec["tests"].items()}
                if sum(tests.values()) == 0:
                    raise CourseError(f"{where}.tests: the weights add up to 0")
            if "points" in spec:
                points = _number(spec["points"], f"{where}.points")
            elif tests is not None:
                points = sum(tests.values(), Fraction(0))
            elif default is not None:
                points = default
            else:
                raise CourseError(f"{where}: give \"points\", \"tests\" or both")
            table[label] = LessonPoints(points, tests)
        else:
            table[label] = LessonPoints(_number(spec, where))
    if not table and default is None:
        raise CourseError(f"{path}: no lessons and no default_lesson_points: nothing to grade")
    return PointsTable(table, default, str(path), role_weights)


# ------------------------------------------------------------------------------------------
# Scoring
# ------------------------------------------------------------------------------------------

@dataclass
class TestScore:
    name: str  # as in the points table: what follows "<tree>/lessonNN/"
    status: str  # passed, failed, not run, did not build, not in the points table
    detail: str = ""
    weight: Fraction = Fraction(1)
    points: Fraction = Fraction(0)
    score: Fraction = Fraction(0)
    measured: List[str] = field(default_factory=list)
    role: str = ""  # exercise, guard, or "" when the report does not say

    @property
    def hidden(self) -> bool:
        return self.name.startswith("hidden/")

    @property
    def result(self) -> str:
        return f"{self.status}: {self.detail}" if self.detail else self.status


@dataclass
class LessonScore:
    label: str
    title: str
    points: Fraction
    tests: List[TestScore] = field(default_factory=list)
    note: str = ""
    in_table: bool = True

    @property
    def score(self) -> Fraction:
        return sum((t.score for t in self.tests), Fraction(0))

    def count(self, status: str) -> int:
        return sum(1 for t in self.tests if t.status == status)

    @property
    def scored_tests(self) -> List[TestScore]:
        return [t for t in self.tests if t.status != UNLISTED]


@dataclass
class Grade:
    tree: str
    lessons: List[LessonScore]
    pass_mark: Optional[float] = None
    warnings: List[str] = field(default_factory=list)
    unknown_roles: int = 0

    @property
    def score(self) -> Fraction:
        return sum((lesson.score for lesson in self.lessons), Fraction(0))

    @property
    def max(self) -> Fraction:
        return sum((lesson.points for lesson in self.lessons if lesson.in_table), Fraction(0))

    @property
    def percent(self) -> float:
        return float(self.score / self.max * 100) if self.max else 0.0

    @property
    def passed(self) -> Optional[bool]:
        if self.pass_mark is None:
            return None
        return self.percent + 1e-9 >= self.pass_mark


def _judge(res: TestResult) -> tuple:
    """(status, detail) of one test's result, in grading terms."""
    if res.status == "pass":
        return PASSED, ""
    if res.status == "skip":
        return NOT_RUN, res.reason
    if res.status == "assertion":
        where = failure_location(res.output)
        return FAILED, f"assertion at {where}" if where else "assertion"
    return FAILED, res.reason or "crashed"


_PROGRAM_ROLE = re.compile(r"_(?:cpu|gpu|perf)_(exercise|guard)_")


def role_of(labels: List[str]) -> str:
    return next((r for r in ROLES if r in labels), "")


def score(table: PointsTable, results: Dict[str, TestResult],
          registered: Optional[Dict[str, List[str]]] = None, build_status: Optional[dict] = None,
          tree: str = "student", lessons: Optional[List[Lesson]] = None,
          only: Optional[str] = None) -> Grade:
    """Scores a report against the points table.

    registered: every test the build folder knows, with its labels (finds tests that did not
    run and programs that did not build, and the roles a report without labels does not say). lessons: the course's lessons; when given, exactly these are
    graded (otherwise the table's and the report's)."""
    titles = {lesson.label: lesson.title for lesson in (lessons or [])}
    build_status = build_status or {}
    registered = registered or {}
    found: Dict[str, Dict[str, Optional[TestResult]]] = {}
    not_built: Dict[str, List[str]] = {}
    for name in list(results) + [n for n in registered if n not in results]:
        label = not_built_lesson(name)
        if label:
            if f"_{tree}_" in name:
                program = name[: -len("_NOT_BUILT")]
                if program not in not_built.setdefault(label, []):
                    not_built[label].append(program)
            continue
        parts = split_test_name(name)
        if parts and parts[0] == tree:
            found.setdefault(parts[1], {})[parts[2]] = results.get(name)

    grade = Grade(tree, [])
    if lessons:
        labels = [lesson.label for lesson in lessons]
        for label in sorted((set(found) | set(not_built)) - set(labels)):
            grade.warnings.append(f"the report has results of {label}, which this course does "
                                  f"not have: not graded")
        for label in sorted(set(table.lessons) - set(labels)):
            grade.warnings.append(f"{table.path} gives points to {label}, which this course "
                                  f"does not have: ignored")
    else:
        labels = sorted(set(table.lessons) | set(found) | set(not_built))
    if only:
        labels = [label for label in labels if label == only]

    for label in labels:
        spec = table.get(label)
        if spec is None and lessons:
            raise CourseError(f"{table.path} gives no points to {label} (add it, or a "
                              f"default_lesson_points)")
        lesson = LessonScore(label, titles.get(label, ""), spec.points if spec else Fraction(0),
                             in_table=spec is not None)
        grade.lessons.append(lesson)
        results_here = found.get(label, {})
        programs = not_built.get(label, [])
        status = build_status.get(label, {})
        lesson_failed = status.get("status") == NOT_BUILT or bool(programs)
        missing_detail = (status.get("error") or "") if lesson_failed else ""

        def missing(name: str) -> TestScore:
            if lesson_failed:
                return TestScore(name, NOT_BUILT, missing_detail)
            return TestScore(name, NOT_RUN, "not in the test report")

        def judged(name: str, res: Optional[TestResult]) -> TestScore:
            t = missing(name) if res is None else TestScore(name, *_judge(res))
            if res is not None:
                t.measured = measurements(res.output)
            full = f"{tree}/{label}/{name}"
            t.role = role_of((res.labels if res is not None else []) or registered.get(full, []))
            return t

        if spec is not None and spec.tests is not None:
            for name, weight in spec.tests.items():
                t = judged(name, results_here.get(name))
                t.weight = weight
                lesson.tests.append(t)
            for name, res in results_here.items():
                if name not in spec.tests:
                    t = judged(name, res)
                    lesson.tests.append(TestScore(name, UNLISTED, t.status, weight=Fraction(0),
                                                  measured=t.measured))
            if programs:
                lesson.note = "Did not build: " + ", ".join(programs) + "."
        else:
            for name, res in results_here.items():
                t = judged(name, res)
                if t.role:
                    t.weight = table.role_weights[t.role]
                else:
                    grade.unknown_roles += 1
                lesson.tests.append(t)
            for program in programs:
                m = _PROGRAM_ROLE.search(program)
                role = m.group(1) if m else ""
                lesson.tests.append(TestScore(f"{program} (test program)", NOT_BUILT,
                                              status.get("error", ""), role=role,
                                              weight=table.role_weights[role] if role else Fraction(1)))
            if not lesson.tests:
                if status.get("status") == NOT_BUILT:
                    lesson.note = f"Did not build: {status.get('error', '')}".rstrip(": ")
                else:
                    lesson.note = "No results: the lesson's tests did not run."
            elif programs:
                lesson.note = "A test program that did not build counts as one test scoring 0."
        if spec is None:
            for t in lesson.tests:
                t.weight = Fraction(0)
            lesson.note = "Not in the points table: scores nothing."
            grade.warnings.append(f"{label} has results but no points in {table.path}")

        if spec is not None and lesson.tests and not any(t.weight for t in lesson.tests):
            lesson.note = (lesson.note + " " if lesson.note else "") + \
                "None of its tests carries points (all are guards, or weigh 0)."
        total_weight = sum((t.weight for t in lesson.tests), Fraction(0))
        for t in lesson.tests:
            t.points = lesson.points * t.weight / total_weight if total_weight else Fraction(0)
            t.score = t.points if t.status == PASSED else Fraction(0)
    if grade.unknown_roles:
        grade.warnings.append(f"the report does not say whether {grade.unknown_roles} tests are "
                              f"exercises or guards: they count as exercises (give --build-dir, "
                              f"or use a ctest that records labels in its JUnit report)")
    return grade


# ------------------------------------------------------------------------------------------
# Outputs
# ------------------------------------------------------------------------------------------

def fmt(x: Fraction) -> str:
    """Points as people write them: 10, 0.67, 3.5."""
    text = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def num(x: Fraction) -> float:
    return round(float(x), 4)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ").replace("<", "&lt;")


def lesson_name(lesson: LessonScore) -> str:
    number = lesson.label[len("lesson"):]
    return f"{number} {lesson.title}".strip()


def to_markdown(grade: Grade, heading: str) -> str:
    out = [f"## {heading}: {fmt(grade.score)} / {fmt(grade.max)} points ({grade.percent:.1f}%)", ""]
    if grade.pass_mark is not None:
        verdict = "passed" if grade.passed else "**below the pass mark**"
        out += [f"Pass mark {grade.pass_mark:g}%: {verdict}.", ""]
    out += ["| Lesson | Points | Passed | Failed | Not run | Did not build |",
            "|---|---:|---:|---:|---:|---:|"]
    for lesson in grade.lessons:
        scored = lesson.scored_tests
        out.append(f"| {_md(lesson_name(lesson))} | {fmt(lesson.score)} / {fmt(lesson.points)} | "
                   f"{lesson.count(PASSED)} / {len(scored)} | {lesson.count(FAILED)} | "
                   f"{lesson.count(NOT_RUN)} | {lesson.count(NOT_BUILT)} |")
    out.append(f"| **Total** | **{fmt(grade.score)} / {fmt(grade.max)}** | | | | |")
    out += ["", "A test scores its points only if it ran and passed. A GPU test that was skipped "
                "(no GPU, counters refused) is *not run* and scores zero. Guard tests (they pass "
                "on the starter) are listed; they carry no points unless the points table says so.",
            ""]
    for warning in grade.warnings:
        out += [f"> Warning: {_md(warning)}", ""]
    for lesson in grade.lessons:
        out.append(f"<details><summary>Lesson {_md(lesson_name(lesson))}: "
                   f"{fmt(lesson.score)} / {fmt(lesson.points)}</summary>")
        out.append("")
        if lesson.note:
            out += [_md(lesson.note.strip()), ""]
        if lesson.tests:
            out += ["| Test | Points | Result |", "|---|---:|---|"]
            for t in lesson.tests:
                name = f"{t.name} (guard)" if t.role == "guard" else t.name
                out.append(f"| {_md(name)} | {fmt(t.score)} / {fmt(t.points)} | {_md(t.result)} |")
            out.append("")
        measured = [(t.name, m) for t in lesson.tests for m in t.measured]
        if measured:
            out.append("Measured:")
            out.append("")
            for name, m in measured[:20]:
                out.append(f"- {_md(name)}: `{m}`")
            if len(measured) > 20:
                out.append(f"- ... and {len(measured) - 20} more (in the JSON score file)")
            out.append("")
        out += ["</details>", ""]
    return "\n".join(out)


def to_json(grade: Grade, sources: List[str]) -> dict:
    return {
        "version": 1,
        "tree": grade.tree,
        "junit": sources,
        "total": {"score": num(grade.score), "max": num(grade.max),
                  "percent": round(grade.percent, 2)},
        "pass_mark": grade.pass_mark,
        "passed": grade.passed,
        "lessons": {
            lesson.label: {
                "title": lesson.title,
                "score": num(lesson.score),
                "max": num(lesson.points),
                "passed": lesson.count(PASSED),
                "tests": len(lesson.scored_tests),
                "in_points_table": lesson.in_table,
                "note": lesson.note.strip(),
            } for lesson in grade.lessons
        },
        "tests": {
            f"{lesson.label}/{t.name}": {
                "lesson": lesson.label,
                "score": num(t.score),
                "max": num(t.points),
                "status": t.status,
                "detail": t.detail,
                "role": t.role,
                "hidden": t.hidden,
                "measured": t.measured,
            } for lesson in grade.lessons for t in lesson.tests
        },
        "warnings": grade.warnings,
    }


def write_output(path: Path, text: str) -> None:
    if str(path) == "-":
        sys.stdout.write(text)
        return
    if path.is_dir():
        raise CourseError(f"cannot write {path}: it is a folder")
    write_text_atomic(path, text)


# ------------------------------------------------------------------------------------------
# Commands
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


def read_build_status(path: Optional[Path]) -> dict:
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
        return dict(data.get("lessons", {}))
    except FileNotFoundError:
        raise CourseError(f"{path}: no such build status file") from None
    except (OSError, ValueError, AttributeError) as e:
        raise CourseError(f"{path}: not a build status file ({e})") from None


def registered_tests(build_dir: Optional[Path]) -> Optional[Dict[str, List[str]]]:
    """Every test of a build folder, with its labels."""
    if build_dir is None:
        return None
    if not (build_dir / "CTestTestfile.cmake").is_file():
        raise CourseError(f"{build_dir} is not a configured build folder")
    try:
        return {name: info.labels for name, info in list_tests(build_dir).items()}
    except (ResultError, ValueError) as e:
        raise CourseError(str(e)) from None


def course_lessons(source_dir: Path) -> List[Lesson]:
    try:
        return find_lessons(source_dir)
    except CourseError:
        return []


def cmd_report(args) -> int:
    table = load_points(args.points)
    results = read_reports(args.junit)
    status_path = args.build_status
    if status_path is None and args.build_dir is not None:
        default = args.build_dir / "course" / "build-status.json"
        status_path = default if default.is_file() else None
    grade = score(table, results, registered_tests(args.build_dir), read_build_status(status_path),
                  args.tree, course_lessons(args.source_dir))
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
    line = f"{args.heading}: {fmt(grade.score)} / {fmt(grade.max)} points ({grade.percent:.1f}%)"
    if grade.pass_mark is not None:
        line += f", pass mark {grade.pass_mark:g}%: {'passed' if grade.passed else 'below'}"
    print(line)
    for lesson in grade.lessons:
        print(f"  {lesson.label}: {fmt(lesson.score)} / {fmt(lesson.points)}"
              f"  ({lesson.count(PASSED)}/{len(lesson.scored_tests)} passed"
              + (f", {lesson.count(NOT_RUN)} not run" if lesson.count(NOT_RUN) else "")
              + (f", {lesson.count(NOT_BUILT)} did not build" if lesson.count(NOT_BUILT) else "")
              + ")")
    for warning in grade.warnings:
        print(f"  warning: {warning}")
    return 1 if grade.passed is False else 0


def cmd_lesson(args) -> int:
    number = args.lesson
    label = f"lesson{number}"
    lessons = course_lessons(args.source_dir)
    if lessons and label not in [lesson.label for lesson in lessons]:
        raise CourseError(f"this course has no lesson {number}")
    table = load_points(args.points)
    if table.get(label) is None:
        raise CourseError(f"{args.points} gives no points to {label}")
    build_dir = args.build_dir
    if not (build_dir / "CTestTestfile.cmake").is_file():
        raise CourseError(f"{build_dir} is not a configured build folder")
    if args.junit is None:
        junit = build_dir / "course" / f"grade-{label}.xml"
        try:
            junit.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CourseError(f"cannot write {junit.parent}: {e.strerror or e}") from None
        run_ctest(build_dir, junit, [f"^{label}$", f"^{args.tree}$"], jobs=args.jobs)
        try:
            results = read_junit(junit)
        except ResultError as e:
            raise CourseError(str(e)) from None
    else:
        results = read_reports([args.junit])
    status_file = build_dir / "course" / "build-status.json"
    status = read_build_status(status_file) if status_file.is_file() else {}
    grade = score(table, results, registered_tests(build_dir), status, args.tree, lessons,
                  only=label)
    if not grade.lessons:
        raise CourseError(f"this course has no lesson {number}")
    lesson = grade.lessons[0]
    print(f"{label} {lesson.title}: {fmt(lesson.score)} / {fmt(lesson.points)} points".replace("  ", " "))
    if lesson.note:
        print(f"  {lesson.note.strip()}")
    for t in lesson.tests:
        print(f"  {t.status:<14} {t.name}" + (f": {t.detail}" if t.detail else ""))
    scored = lesson.scored_tests
    full = bool(scored) and all(t.status == PASSED for t in scored)
    if not full:
        print(f"Every test of {label} must pass (a skipped GPU test does not) for its "
              f"{fmt(lesson.points)} points.")
    return 0 if full else 1


def cmd_points(args) -> int:
    results = read_reports(args.junit)
    old = None
    if args.output and str(args.output) != "-" and args.output.is_file():
        old = load_points(args.output)
    lessons: Dict[str, Dict[str, int]] = {}
    for name in results:
        parts = split_test_name(name)
        if parts and parts[0] == args.tree:
            lessons.setdefault(parts[1], {})[parts[2]] = 1
    if not lessons:
        raise CourseError(f"no {args.tree} lesson tests in the report")
    data: dict = {"lessons": {}}
    if old is not None and old.default is not None:
        data["default_lesson_points"] = int(old.default) if old.default.denominator == 1 else float(old.default)
    for label in sorted(lessons):
        spec = old.get(label) if old else None
        points = spec.points if spec else Fraction(args.lesson_points).limit_denominator(10 ** 6)
        value = int(points) if points.denominator == 1 else float(points)
        data["lessons"][label] = {"points": value, "tests": dict(sorted(lessons[label].items()))}
    write_output(args.output or Path("-"), json.dumps(data, indent=2) + "\n")
    return 0


CLASSROOM_HEAD = """\
# GitHub Classroom autograding on a self-hosted GPU runner: one step per lesson, worth the
# lesson's points in tests/points.json (a step scores only if every test of its lesson passed;
# a skipped GPU test does not pass), and the reporter. Written by
#   python3 tools/course/grade.py classroom > .github/workflows/classroom.yml
# It runs where the repository (or organization) variable COURSE_GRADER is `classroom` or
# `both`; see docs/instructors.md.
name: Autograding

on:
  push:
  repository_dispatch:
  workflow_dispatch:

permissions:
  checks: write
  actions: read
  contents: read

jobs:
  autograding:
    if: >-
      (vars.COURSE_GRADER == 'classroom' || vars.COURSE_GRADER == 'both') &&
      github.actor != 'github-classroom[bot]'
    runs-on: [self-hosted, gpu]
    timeout-minutes: 90
    env:
      COURSE_PIN_REPO: ${{ vars.COURSE_PIN_REPO || github.repository }}
      COURSE_PIN_REF: ${{ vars.COURSE_PIN_REF }}
      COURSE_HIDDEN_TESTS: ${{ vars.COURSE_HIDDEN_TESTS }}
    steps:
      - name: The student's repository
        uses: actions/checkout@v4
        with:
          path: student
      - name: Check that the course is pinned
        run: |
          if [ -z "$COURSE_PIN_REF" ]; then
            echo "::error::Set the variable COURSE_PIN_REF to the course commit to grade against (docs/instructors.md)"
            exit 1
          fi
      - name: The course at the instructor's pinned commit
        uses: actions/checkout@v4
        with:
          repository: ${{ env.COURSE_PIN_REPO }}
          ref: ${{ env.COURSE_PIN_REF }}
          token: ${{ secrets.COURSE_PIN_TOKEN || github.token }}
          path: course
      - name: The tree to grade (the student's exercise files on the pinned course)
        run: python3 course/tools/course/grade_tree.py --student student --course course
      - name: Build every lesson on its own
        working-directory: course
        run: |
          bash tools/course/gpu-env.sh cmake --preset grade
          bash tools/course/gpu-env.sh python3 tools/course/build_lessons.py --build-dir build/grade || true
"""

CLASSROOM_STEP = """\
      - name: "Lesson {number}: {title}"
        id: {label}
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: "Lesson {number}: {title}"
          command: >-
            bash course/tools/course/gpu-env.sh python3 course/tools/course/grade.py lesson {number}
            --build-dir course/build/grade --points course/tests/points.json
          timeout: 30
          max-score: {points}
"""

CLASSROOM_TAIL = """\
      - name: Autograding Reporter
        uses: classroom-resources/autograding-grading-reporter@v1
        env:
{env}
        with:
          runners: {runners}
"""


def cmd_classroom(args) -> int:
    table = load_points(args.points)
    lessons = course_lessons(args.source_dir)
    if not lessons:
        raise CourseError(f"{args.source_dir} has no lessons")
    text = CLASSROOM_HEAD
    for lesson in lessons:
        spec = table.get(lesson.label)
        if spec is None:
            raise CourseError(f"{args.points} gives no points to {lesson.label} (add it, or a "
                              f"default_lesson_points)")
        if spec.points.denominator != 1:
            raise CourseError(f"{lesson.label}: Classroom scores are whole numbers, the table "
                              f"gives {fmt(spec.points)}")
        text += CLASSROOM_STEP.format(number=lesson.number, title=lesson.title.replace('"', "'"),
                                      label=lesson.label, points=int(spec.points))
    env = "\n".join(f"          {lesson.label.upper()}_RESULTS: "
                    f"\"${{{{ steps.{lesson.label}.outputs.result }}}}\"" for lesson in lessons)
    text += CLASSROOM_TAIL.format(env=env, runners=",".join(lesson.label for lesson in lessons))
    write_output(args.output or Path("-"), text)
    return 0


# ------------------------------------------------------------------------------------------

def pass_mark(text: str) -> float:
    try:
        value = float(text.strip().rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a percentage (e.g. 60)") from None
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 100")
    return value


def lesson_number(text: str) -> str:
    try:
        return parse_lesson_number(text)
    except CourseError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def whole(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1 or value > 1024:
        raise argparse.ArgumentTypeError(f"{value} is out of range (1-1024)")
    return value


def points_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def make_parser() -> Parser:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--source-dir", type=Path, default=ROOT, help=argparse.SUPPRESS)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    default_points = ROOT / "tests" / "points.json"

    p = sub.add_parser("report", help="score JUnit results: Markdown, JSON, exit status")
    p.add_argument("--junit", type=Path, action="append", required=True,
                   help="ctest's JUnit output (--output-junit); repeat to merge several")
    p.add_argument("--points", type=Path, default=default_points,
                   help="the points table (default: tests/points.json)")
    p.add_argument("--build-dir", type=Path,
                   help="the build folder the tests ran in: its test list finds tests that did "
                        "not run and programs that did not build")
    p.add_argument("--build-status", type=Path,
                   help="build_lessons.py's status file (default: <build-dir>/course/build-status.json)")
    p.add_argument("--tree", choices=TREES, default="student", help="whose tests to score")
    p.add_argument("--markdown", type=Path, help="write the Markdown report here (e.g. $GITHUB_STEP_SUMMARY; - for stdout)")
    p.add_argument("--json", type=Path, help="write the JSON score file here")
    p.add_argument("--pass-mark", type=pass_mark, help="exit 1 below this percentage")
    p.add_argument("--heading", default="Grade", help="the report's heading (e.g. the student's name)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("lesson", help="run one lesson's tests; exit 0 only if all passed")
    p.add_argument("lesson", type=lesson_number, help="lesson number, e.g. 03")
    p.add_argument("--build-dir", type=Path, required=True)
    p.add_argument("--points", type=Path, default=default_points)
    p.add_argument("--tree", choices=TREES, default="student")
    p.add_argument("--junit", type=Path, help="read this report instead of running the tests")
    p.add_argument("--jobs", "-j", type=whole, default=os.cpu_count() or 1)
    p.set_defaults(func=cmd_lesson)

    p = sub.add_parser("points", help="a points table listing every test of a reference run")
    p.add_argument("--junit", type=Path, action="append", required=True)
    p.add_argument("--tree", choices=TREES, default="solution")
    p.add_argument("--lesson-points", type=points_value, default=10,
                   help="points of a lesson the output file does not have yet (default 10)")
    p.add_argument("--output", "-o", type=Path, help="the table to write (its lessons' points are kept)")
    p.set_defaults(func=cmd_points)

    p = sub.add_parser("classroom", help="write the GitHub Classroom workflow from the points table")
    p.add_argument("--points", type=Path, default=default_points)
    p.add_argument("--output", "-o", type=Path, help="default: stdout")
    p.set_defaults(func=cmd_classroom)
    return ap


def main(argv: List[str]) -> int:
    args = make_parser().parse_args(argv)
    try:
        return args.func(args)
    except CourseError as e:
        print(f"{PROG} {args.command}: {e}", file=sys.stderr)
        return 2
    except FileNotFoundError as e:
        if e.filename == "ctest":
            print(f"{PROG} {args.command}: ctest is not installed, or not on PATH", file=sys.stderr)
            return 2
        raise


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
