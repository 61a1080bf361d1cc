"""The points of a grade: each lesson's manifest says what it is worth (lesson.json, "points");
an instructor's points table may say otherwise, in the same JSON as the grader's record of it:

  {"default_lesson_points": 10,
   "role_weights": {"exercise": 1, "guard": 0},
   "part_weights": {"predictions": 1, "cpu": 2, "gpu": 2},
   "sanitizer_penalty": 0.2,
   "lessons": {"lesson02": 20,
               "lesson03": {"points": 15, "tests": {"Banks.BankOfMatchesTheModel": 2,
                                                    "hidden/Extra.Case": 1}}}}

A lesson is worth the table's entry, else the table's default, else its manifest's points. Unless
"tests" lists them, its points go to its parts first, in whole points, by "part_weights": the
predictions (its predictions test file), the CPU exercise tests (its code, judged on every
grader: layouts, the kernel run on the CPU) and the GPU exercise tests (counters, timing, the
kernel on the GPU); a part the lesson has no exercise test of takes nothing, and the others share
its weight. Within a part, the tests share its points by their role's weight (guards weigh 0 by
default: they pass on the starter as shipped), and a part's score is rounded to a whole point
(halves up), so a lesson scores whole points. A failed sanitizer run (memcheck, racecheck) of
the student's kernel costs "sanitizer_penalty" of the lesson's points (a share, rounded to a
whole point), down to zero at most. With "tests", that list is the lesson's whole list, weighed
as it says, with no parts and no penalty. The instructor's table of a course is tests/points.json, where
there is one. The grader writes the table it grades with (every lesson's points, resolved) into
its records before any student code runs, and scores from that record."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Dict, Optional, Sequence

from course.model.course_model import CourseError, Lesson, parse_lesson_number

DEFAULT_ROLE_WEIGHTS = {"exercise": Fraction(1), "guard": Fraction(0)}
#: A lesson's parts, and what each weighs: little to predictions, most to the student's code.
PARTS = ("predictions", "cpu", "gpu")
DEFAULT_PART_WEIGHTS = {"predictions": Fraction(1), "cpu": Fraction(2), "gpu": Fraction(2)}
#: The share of a lesson's points a failed sanitizer run of the student's kernel costs.
DEFAULT_SANITIZER_PENALTY = Fraction(1, 5)


@dataclass
class LessonPoints:
    points: Fraction
    tests: Optional[Dict[str, Fraction]] = None  # the whole list, with weights; None: open


@dataclass
class PointsTable:
    lessons: Dict[str, LessonPoints]
    default: Optional[Fraction] = None
    path: str = ""
    role_weights: Dict[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_ROLE_WEIGHTS))
    part_weights: Dict[str, Fraction] = field(default_factory=lambda: dict(DEFAULT_PART_WEIGHTS))
    sanitizer_penalty: Fraction = DEFAULT_SANITIZER_PENALTY

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


def _read_json(path: Path) -> dict:
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
    unknown = set(data) - {"lessons", "default_lesson_points", "role_weights", "part_weights",
                           "sanitizer_penalty"}
    if unknown:
        raise CourseError(f"{path}: unknown key {sorted(unknown)[0]!r} (keys: "
                          f"default_lesson_points, role_weights, part_weights, "
                          f"sanitizer_penalty, lessons)")
    return data


def _weights(data: dict, path: Path, key: str, defaults: Dict[str, Fraction]) -> Dict[str, Fraction]:
    """The table's `key` ("role_weights", "part_weights") over its defaults: the same names,
    each a number."""
    weights = dict(defaults)
    if key in data:
        given = data[key]
        if not isinstance(given, dict) or set(given) - set(defaults):
            example = ", ".join(f'"{k}": {whole_or_float(w)}' for k, w in defaults.items())
            raise CourseError(f"{path}: {key}: expected {{{example}}}")
        for name, w in given.items():
            weights[name] = _number(w, f"{path}: {key}.{name}")
    return weights


def _part_weights(data: dict, path: Path) -> Dict[str, Fraction]:
    weights = _weights(data, path, "part_weights", DEFAULT_PART_WEIGHTS)
    if not any(weights.values()):
        raise CourseError(f"{path}: part_weights: every part weighs 0")
    return weights


def _sanitizer_penalty(data: dict, path: Path) -> Fraction:
    if "sanitizer_penalty" not in data:
        return DEFAULT_SANITIZER_PENALTY
    share = _number(data["sanitizer_penalty"], f"{path}: sanitizer_penalty")
    if share > 1:
        raise CourseError(f"{path}: sanitizer_penalty: a share of the lesson's points, 0 to 1")
    return share


def _lesson_points(label: str, spec, default: Optional[Fraction], where: str) -> LessonPoints:
    try:
        number = parse_lesson_number(label)
    except CourseError:
        raise CourseError(f"{where}: a lesson is named like lesson01") from None
    if label != f"lesson{number}":
        raise CourseError(f"{where}: a lesson is named like lesson{number}")
    if not isinstance(spec, dict):
        return LessonPoints(_number(spec, where))
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
    return LessonPoints(points, tests)


#: An instructor's points table in a course, where there is one.
INSTRUCTOR_TABLE = Path("tests") / "points.json"
#: The grader's record of the points it grades with, in the build's state folder.
POINTS_RECORD = "points.json"


def load_points(path: Optional[Path], lessons: Sequence[Lesson] = ()) -> PointsTable:
    """The points of a grade: the lessons' manifests, then the table at `path` (an instructor's,
    or the grader's record) over them. Raises CourseError (one line) when either is wrong."""
    table = {lesson.label: LessonPoints(_number(lesson.manifest.points,
                                                f"{lesson.rel_dir}/lesson.json: points"))
             for lesson in lessons}
    if path is None:
        if not table:
            raise CourseError("no lessons and no points table: nothing to grade")
        return PointsTable(table, None, "the lessons' manifests")
    data = _read_json(path)
    role_weights = _weights(data, path, "role_weights", DEFAULT_ROLE_WEIGHTS)
    part_weights = _part_weights(data, path)
    penalty = _sanitizer_penalty(data, path)
    given = data.get("lessons", {})
    if not isinstance(given, dict):
        raise CourseError(f"{path}: \"lessons\" must be an object like {{\"lesson01\": 10}}")
    default = None
    if "default_lesson_points" in data:
        default = _number(data["default_lesson_points"], f"{path}: default_lesson_points")
        table = {label: LessonPoints(default) for label in table}
    table.update({label: _lesson_points(label, spec, default, f"{path}: lessons.{label}")
                  for label, spec in given.items()})
    if not table and default is None:
        raise CourseError(f"{path}: no lessons and no default_lesson_points: nothing to grade")
    return PointsTable(table, default, str(path), role_weights, part_weights, penalty)


def course_points(course: Path, lessons: Sequence[Lesson]) -> PointsTable:
    """A course's points: its lessons' manifests, with its instructor's table where it has
    one (tests/points.json)."""
    own = course / INSTRUCTOR_TABLE
    return load_points(own if own.is_file() else None, lessons)


def table_json(table: PointsTable) -> str:
    """A points table as the grader records it: every lesson with its points (and its tests'
    weights where the table gives them), and the role weights."""
    lessons = {}
    for label, spec in sorted(table.lessons.items()):
        entry: dict = {"points": whole_or_float(spec.points)}
        if spec.tests is not None:
            entry["tests"] = {name: whole_or_float(w) for name, w in spec.tests.items()}
        lessons[label] = entry
    data = {"role_weights": {role: whole_or_float(w) for role, w in table.role_weights.items()},
            "part_weights": {part: whole_or_float(w) for part, w in table.part_weights.items()},
            "sanitizer_penalty": whole_or_float(table.sanitizer_penalty),
            "lessons": lessons}
    return json.dumps(data, indent=1) + "\n"


def whole_or_float(x: Fraction):
    """10 for 10, 2.5 for 5/2: how the table writes points."""
    return int(x) if x.denominator == 1 else float(x)
