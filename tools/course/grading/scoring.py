"""Scoring a test report against the points table.

A lesson's points go to its parts (predictions, CPU exercise tests, GPU exercise tests) in whole
points, then to the tests of each part (points_table.py); a part scores its passed tests' points
rounded to a whole point, and a failed sanitizer run of the student's kernel costs the lesson
its penalty. A test scores its points only if it ran and passed (a counter test that passed
from the CPU recording, only where the instructor allowed it). A GPU test that was skipped
scores zero and is listed as "not run: <reason>". A test whose program is not built scores
zero, "did not build" (with the compiler's first error where the lesson's build status has it).
A test of the table or of the build's test list that is missing from the report scores zero,
"not run". The score is always taken against the whole table."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Dict, List, Optional

from course.model.course_model import (CourseError, Lesson, LessonBuild, SANITIZE_LABEL, role_of,
                                       split_test_name)
from course.model.ctest_results import (ASSERTION, NOT_BUILT as RESULT_NOT_BUILT, PASS, SKIP,
                                        TestInfo, TestResult, failure_location, measurements)
from course.grading.points_table import PARTS, LessonPoints, PointsTable

if TYPE_CHECKING:
    from course.model.trust import Trust

PASSED = "passed"
FAILED = "failed"
NOT_RUN = "not run"
NOT_BUILT = "did not build"
NOT_GRADABLE = "not gradable here"
#: A counter test that passed with its counts from the CPU run of the same launches, where the
#: machine's counters are refused and the instructor let such tests earn their points
#: (grade_tests.py: the grader lists it so only then; otherwise it is not gradable here).
FROM_CPU_RECORDING = "passed from the CPU recording"
#: The statuses that earn a test its points.
EARNS = (PASSED, FROM_CPU_RECORDING)
UNLISTED = "not in the points table"


@dataclass
class TestScore:
    name: str  # as in the points table: what follows "<tree>/lessonNN/"
    status: str  # passed, failed, not run, did not build, not in the points table
    detail: str = ""
    weight: Fraction = Fraction(1)
    points: Fraction = Fraction(0)
    score: Fraction = Fraction(0)
    measured: List[str] = field(default_factory=list)
    role: str = ""  # exercise, guard, or "" when neither the report nor the build says
    part: str = ""  # predictions, cpu, gpu, or sanitizer (a memcheck or racecheck run)

    @property
    def hidden(self) -> bool:
        return self.name.startswith("hidden/")

    @property
    def result(self) -> str:
        return f"{self.status}: {self.detail}" if self.detail else self.status


def round_half_up(x: Fraction) -> Fraction:
    return Fraction(math.floor(x + Fraction(1, 2)))


def whole_split(points: Fraction, weights: Dict[str, Fraction]) -> Dict[str, Fraction]:
    """`points` shared in proportion to `weights`, in whole points where `points` is whole (the
    largest remainders take the points rounding leaves over)."""
    total = sum(weights.values(), Fraction(0))
    if not total:
        return {k: Fraction(0) for k in weights}
    exact = {k: points * w / total for k, w in weights.items()}
    if points.denominator != 1:
        return exact
    share = {k: Fraction(math.floor(v)) for k, v in exact.items()}
    left = int(points - sum(share.values(), Fraction(0)))
    for k in sorted(exact, key=lambda k: (-(exact[k] - share[k]), list(weights).index(k)))[:left]:
        share[k] += 1
    return share


@dataclass
class LessonScore:
    label: str
    title: str
    points: Fraction
    tests: List[TestScore] = field(default_factory=list)
    note: str = ""
    in_table: bool = True
    graded: bool = True  # False: left out of this run (grade_run.sh --lessons)
    parts: Dict[str, Fraction] = field(default_factory=dict)  # part -> its whole points
    penalty: Fraction = Fraction(0)  # what a failed sanitizer run cost

    def part_score(self, part: str) -> Fraction:
        """A part's score: its passed tests' points, rounded to a whole point (halves up)."""
        return round_half_up(sum((t.score for t in self.tests if t.part == part), Fraction(0)))

    @property
    def score(self) -> Fraction:
        if not self.parts:
            return sum((t.score for t in self.tests), Fraction(0))
        earned = sum((self.part_score(part) for part in self.parts), Fraction(0))
        return max(Fraction(0), earned - self.penalty)

    def count(self, status: str) -> int:
        return sum(1 for t in self.tests if t.status == status)

    @property
    def scored_tests(self) -> List[TestScore]:
        return [t for t in self.tests if t.status != UNLISTED]

    def add_note(self, text: str) -> None:
        self.note = f"{self.note} {text}" if self.note else text


@dataclass
class Grade:
    tree: str
    lessons: List[LessonScore]
    pass_mark: Optional[float] = None
    warnings: List[str] = field(default_factory=list)
    unknown_roles: int = 0
    trust: Optional["Trust"] = None  # what the grade can be trusted for (trust.py)

    @property
    def score(self) -> Fraction:
        return sum((lesson.score for lesson in self.lessons), Fraction(0))

    @property
    def max(self) -> Fraction:
        return sum((lesson.points for lesson in self.lessons if lesson.in_table and lesson.graded),
                   Fraction(0))

    @property
    def percent(self) -> float:
        return float(self.score / self.max * 100) if self.max else 0.0

    @property
    def passed(self) -> Optional[bool]:
        if self.pass_mark is None:
            return None
        return self.percent + 1e-9 >= self.pass_mark

    def not_gradable(self) -> List[TestScore]:
        """The tests of the graded lessons this machine could not grade (no GPU, counters
        refused: the grader's own check): they score zero here, and the grade is incomplete."""
        return [t for lesson in self.lessons if lesson.graded and lesson.in_table
                for t in lesson.tests if t.status == NOT_GRADABLE]

    @property
    def not_gradable_points(self) -> Fraction:
        return sum((t.points for t in self.not_gradable()), Fraction(0))

    @property
    def complete(self) -> bool:
        """Whether every point of the graded lessons could be earned on this machine."""
        return self.not_gradable_points == 0


def part_of(name: str, labels: List[str]) -> str:
    """The part of a lesson a test belongs to: a sanitizer run, the predictions (the label the
    build gives a predictions test file, or its suite's name where a report has no labels), a
    GPU test, or a CPU test."""
    if SANITIZE_LABEL in labels:
        return "sanitizer"
    if "predictions" in labels or name.split("/")[-1].startswith("Predictions."):
        return "predictions"
    return "gpu" if "gpu" in labels else "cpu"


class _Judge:
    """Turns one test of one lesson (its result, or none) into a TestScore."""

    def __init__(self, tree: str, label: str, registered: Dict[str, TestInfo],
                 build: Optional[LessonBuild]):
        self.tree, self.label, self.registered = tree, label, registered
        self.build_error = build.error if build is not None and build.failed else ""

    def __call__(self, name: str, res: Optional[TestResult]) -> TestScore:
        info = self.registered.get(f"{self.tree}/{self.label}/{name}")
        if res is None:
            t = self._missing(info)
        else:
            t = TestScore(name, *self._judge(res))
            t.measured = measurements(res.output)
        t.name = name
        labels = (res.labels if res is not None else []) or (info.labels if info else [])
        t.role = role_of(labels)
        t.part = part_of(name, labels)
        return t

    def _missing(self, info: Optional[TestInfo]) -> TestScore:
        if self.build_error or (info is not None and info.built is False):
            return TestScore("", NOT_BUILT, self.build_error or "its test program is not built")
        return TestScore("", NOT_RUN, "not in the test report")

    def _judge(self, res: TestResult) -> tuple:
        if res.verdict:
            return self._grader_verdict(res)
        if res.status == PASS:
            return PASSED, ""
        if res.status == SKIP:
            return NOT_RUN, res.reason
        if res.status == RESULT_NOT_BUILT:
            return NOT_BUILT, self.build_error or res.reason
        if res.status == ASSERTION:
            where = failure_location(res.output)
            return FAILED, f"assertion at {where}" if where else "assertion"
        return FAILED, res.reason or "crashed"

    def _grader_verdict(self, res: TestResult) -> tuple:
        """The verdict the grader reached from the test's own report (grade_tests.py)."""
        if res.verdict in EARNS:
            return res.verdict, ""
        if res.verdict == "did not build":
            return NOT_BUILT, self.build_error or "its test program is not built"
        if res.verdict in ("skipped", NOT_GRADABLE):
            return (NOT_RUN if res.verdict == "skipped" else NOT_GRADABLE), res.reason
        where = failure_location(res.output) if res.message.startswith("assertion") else ""
        return FAILED, f"assertion at {where}" if where else (res.message or "failed")


def _by_lesson(results: Dict[str, TestResult], registered: Dict[str, TestInfo],
               tree: str) -> Dict[str, Dict[str, Optional[TestResult]]]:
    """label -> {test name -> its result, or None for a registered test that has none}."""
    found: Dict[str, Dict[str, Optional[TestResult]]] = {}
    for full in list(results) + [n for n in registered if n not in results]:
        parts = split_test_name(full)
        if parts and parts.tree == tree:
            found.setdefault(parts.label, {})[parts.name] = results.get(full)
    return found


def _labels(table: PointsTable, found: Dict, lessons: Optional[List[Lesson]],
            warnings: List[str]) -> List[str]:
    """The lessons to grade: the course's when it is known (with warnings for the others),
    else every lesson of the table and of the report."""
    if not lessons:
        return sorted(set(table.lessons) | set(found))
    labels = [lesson.label for lesson in lessons]
    for label in sorted(set(found) - set(labels)):
        warnings.append(f"the report has results of {label}, which this course does not have: "
                        f"not graded")
    for label in sorted(set(table.lessons) - set(labels)):
        warnings.append(f"{table.path} gives points to {label}, which this course does not "
                        f"have: ignored")
    return labels


def _listed_tests(spec: LessonPoints, results: Dict[str, Optional[TestResult]],
                  judge: _Judge) -> List[TestScore]:
    """The table's list of the lesson's tests, with their weights; then the report's other
    tests of the lesson, shown but scoring nothing."""
    tests = []
    for name, weight in spec.tests.items():
        t = judge(name, results.get(name))
        t.weight = weight
        tests.append(t)
    for name, res in results.items():
        if name not in spec.tests:
            t = judge(name, res)
            tests.append(TestScore(name, UNLISTED, t.status, weight=Fraction(0),
                                   measured=t.measured))
    return tests


def _open_tests(table: PointsTable, results: Dict[str, Optional[TestResult]], judge: _Judge,
                grade: Grade) -> List[TestScore]:
    """Every test the report or the build has of the lesson, weighed by its role."""
    tests = []
    for name, res in results.items():
        t = judge(name, res)
        if t.role:
            t.weight = table.role_weights[t.role]
        else:
            grade.unknown_roles += 1
        tests.append(t)
    return tests


def _share_points(lesson: LessonScore) -> None:
    total = sum((t.weight for t in lesson.tests), Fraction(0))
    for t in lesson.tests:
        t.points = lesson.points * t.weight / total if total else Fraction(0)
        t.score = t.points if t.status in EARNS else Fraction(0)


def _share_by_parts(lesson: LessonScore, table: PointsTable) -> None:
    """The lesson's points to its parts in whole points, each part's to its tests by weight;
    the sanitizer's penalty where a run of the student's kernel failed."""
    weighed = [t for t in lesson.tests if t.weight and t.part in PARTS]
    present = {p: table.part_weights[p] for p in PARTS
               if table.part_weights[p] and any(t.part == p for t in weighed)}
    lesson.parts = whole_split(lesson.points, present)
    for t in lesson.tests:
        t.points = Fraction(0)
    for part, points in lesson.parts.items():
        tests = [t for t in weighed if t.part == part]
        total = sum((t.weight for t in tests), Fraction(0))
        for t in tests:
            t.points = points * t.weight / total
    for t in lesson.tests:
        t.score = t.points if t.status in EARNS else Fraction(0)
    failed = [t for t in lesson.tests if t.part == "sanitizer" and t.status == FAILED]
    if failed and lesson.parts:
        lesson.penalty = round_half_up(lesson.points * table.sanitizer_penalty)
        if lesson.penalty:
            lesson.add_note(f"A sanitizer run of the kernel failed ({failed[0].name}"
                            f"{f' and {len(failed) - 1} more' if len(failed) > 1 else ''}): "
                            f"-{lesson.penalty} points.")


def _score_lesson(label: str, title: str, spec: Optional[LessonPoints], table: PointsTable,
                  results: Dict[str, Optional[TestResult]], judge: _Judge,
                  grade: Grade) -> LessonScore:
    lesson = LessonScore(label, title, spec.points if spec else Fraction(0),
                         in_table=spec is not None)
    if spec is not None and spec.tests is not None:
        lesson.tests = _listed_tests(spec, results, judge)
    else:
        lesson.tests = _open_tests(table, results, judge, grade)
    if judge.build_error:
        lesson.note = f"Did not build: {judge.build_error}"
    elif not lesson.tests:
        lesson.note = "No results: the lesson's tests did not run."
    if spec is None:
        for t in lesson.tests:
            t.weight = Fraction(0)
        lesson.note = "Not in the points table: scores nothing."
        grade.warnings.append(f"{label} has results but no points in {table.path}")
    elif lesson.tests and not any(t.weight for t in lesson.tests):
        lesson.add_note("None of its tests carries points (all are guards, or weigh 0).")
    if spec is not None and spec.tests is None:
        _share_by_parts(lesson, table)
    else:
        _share_points(lesson)
    return lesson


def score(table: PointsTable, results: Dict[str, TestResult],
          registered: Optional[Dict[str, TestInfo]] = None,
          builds: Optional[Dict[str, LessonBuild]] = None, tree: str = "student",
          lessons: Optional[List[Lesson]] = None, only: Optional[str] = None,
          graded: Optional[List[str]] = None) -> Grade:
    """Scores a report against the points table.

    registered: every test the build folder knows (finds tests that did not run, programs that
    are not built, and the roles a report without labels does not say). builds: each lesson's
    build status. lessons: the course's lessons; when given, exactly these are graded
    (otherwise the table's and the report's). graded: the labels of the lessons this run
    graded (grade_run.sh --lessons); the others are listed as not graded and left out of the
    total."""
    registered = registered or {}
    builds = builds or {}
    titles = {lesson.label: lesson.title for lesson in (lessons or [])}
    found = _by_lesson(results, registered, tree)
    grade = Grade(tree, [])
    for label in _labels(table, found, lessons, grade.warnings):
        if only and label != only:
            continue
        spec = table.get(label)
        if spec is None and lessons:
            raise CourseError(f"{table.path} gives no points to {label} (add it, or a "
                              f"default_lesson_points)")
        if graded is not None and label not in graded:
            grade.lessons.append(LessonScore(label, titles.get(label, ""),
                                             spec.points if spec else Fraction(0),
                                             note="Not graded in this run (--lessons).",
                                             in_table=spec is not None, graded=False))
            continue
        judge = _Judge(tree, label, registered, builds.get(label))
        grade.lessons.append(_score_lesson(label, titles.get(label, ""), spec, table,
                                           found.get(label, {}), judge, grade))
    if grade.unknown_roles:
        grade.warnings.append(f"the report does not say whether {grade.unknown_roles} tests are "
                              f"exercises or guards: they count as exercises (give --build-dir, "
                              f"or use a ctest that records labels in its JUnit report)")
    return grade
