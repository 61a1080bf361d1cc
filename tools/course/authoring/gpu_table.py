"""The table of docs/instructors.md that says which GPUs grade which lessons, between
`<!-- gpu-table -->` and `<!-- /gpu-table -->`: one row per lesson, one column per GPU
architecture of common/gpu_profiles.json, each cell how many of the lesson's graded GPU tests
run there and, where not all, what stops the others and the points they carry; then the points
each architecture grades, and what the counters and the bank model's rules decide.

Everything comes from what the grader reads itself: the tests are the ones the build registers
for the student tree (every TEST / TEST_F that opens a line of tests/NN_topic/gpu_*_test.cpp and
perf_*_test.cpp, as cmake/CourseLesson.cmake's _course_test_names reads them, and the memcheck
and racecheck runs of each gpu_* file that does not read the counters), what each needs is the
grader's own reading of the lessons' manifests (grading/grade_tests.py's declared_needs, with
model/needs.py), and the points are the grader's share of each lesson's points among its tests
(grading/scoring.py, with the course's points: the manifests, or tests/points.json). The
counters are taken as readable; the text under the table says what changes where they are not.

`./course-admin regenerate` rewrites the block; `./course-admin regenerate --check` says when it
is stale."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from course.model.course_model import CourseError, Lesson, SANITIZE_LABEL
from course.model.ctest_results import PASS, TestResult
from course.model.needs import Capabilities, Needs, Profiles, arch_name, read_profiles, unmet
from course.grading.grade_report import fmt
from course.grading.grade_tests import Planned, cpu_recording_tests, declared_needs
from course.grading.points_table import PointsTable, course_points
from course.grading.scoring import score

#: The generated file, from the course's root, and its block's markers.
GUIDE = Path("docs") / "instructors.md"
BEGIN = "<!-- gpu-table -->"
END = "<!-- /gpu-table -->"
#: The tree the grader grades.
TREE = "student"
#: The compute-sanitizer tools each GPU correctness test file also runs under (the default of
#: cmake/CourseLesson.cmake's COURSE_SANITIZER_TOOLS).
SANITIZER_TOOLS = ("memcheck", "racecheck")
#: The guide's line length, for the notes under the table.
WIDTH = 100

# A test file's name, <kind>_<role>_<what>_test.cpp, and a TEST or TEST_F that opens a line
# (cmake/CourseLesson.cmake: course_add_test_folder and _course_test_names).
_FILE = re.compile(r"^(cpu|gpu|perf)_(exercise|guard)_.+_test$")
_WS = r"[ \t\r\n]*"
_ID = r"[A-Za-z_][A-Za-z0-9_]*"
_TEST = re.compile(rf"(?:^|\n)[ \t]*TEST(?:_F)?{_WS}\({_WS}({_ID}){_WS},{_WS}({_ID}){_WS}\)")


# ------------------------------------------------------------------------------------------
# The lessons' graded tests
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GradedTest:
    """One test the grader runs, as the build registers it."""

    name: str  # after "<tree>/lessonNN/": Suite.Name, or memcheck/<file's stem>
    labels: Tuple[str, ...]
    gtest: Tuple[str, ...]  # the GoogleTest tests it runs (a sanitizer run: its file's)

    @property
    def gpu(self) -> bool:
        return "gpu" in self.labels


def test_names(text: str) -> List[str]:
    """Suite.Name of every TEST / TEST_F that opens a line of a test file's text, but a
    DISABLED_ one (a helper another test runs, which the build does not register)."""
    return [f"{m.group(1)}.{m.group(2)}" for m in _TEST.finditer(text)
            if not (m.group(1).startswith("DISABLED_") or m.group(2).startswith("DISABLED_"))]


def graded_tests(lesson: Lesson, course: Path) -> List[GradedTest]:
    """Every test the build registers for the lesson's student tree (its CPU tests too, which
    share its points with the GPU ones), labelled as the build labels them."""
    folder = course / "tests" / lesson.folder
    sources = sorted(list(folder.glob("*_test.cpp")) + list(folder.glob("*_test.cu"))) \
        if folder.is_dir() else []
    out: List[GradedTest] = []
    for source in sources:
        stem = source.name.rsplit(".", 1)[0]
        m = _FILE.match(stem)
        if not m:
            raise CourseError(f"{source.relative_to(course)}: test files are named "
                              f"<cpu|gpu|perf>_<exercise|guard>_<what>_test.cpp")
        kind, role = m.group(1), m.group(2)
        try:
            names = test_names(source.read_text(encoding="utf-8", errors="replace"))
        except OSError as e:
            raise CourseError(f"cannot read {source}: {e.strerror or e}") from None
        if not names:
            raise CourseError(f"{source.relative_to(course)}: no TEST or TEST_F opens a line of "
                              f"this file")
        labels = [lesson.label, TREE, role]
        if kind == "cpu":
            labels.append("cpu")
            if stem.endswith("_predictions_test"):
                labels.append("predictions")
            if stem.endswith("_kernel_test"):
                labels.append("cpu-kernel")
        else:
            labels.append("gpu")
            if kind == "perf":
                labels.append("perf")
            elif "counters" in stem:
                labels.append("counters")
        if kind == "gpu" and "counters" not in stem:
            # A guard whatever its file's role, judged on the sanitizer's findings alone.
            runs = [label for label in labels if label not in ("exercise", "guard")]
            for tool in SANITIZER_TOOLS:
                out.append(GradedTest(f"{tool}/{stem}",
                                      tuple(runs + ["guard", SANITIZE_LABEL, tool]), tuple(names)))
        out += [GradedTest(name, tuple(labels), (name,)) for name in names]
    return out


# ------------------------------------------------------------------------------------------
# Which run where
# ------------------------------------------------------------------------------------------

def short_unmet(needs: Needs, caps: Capabilities) -> List[str]:
    """Every need of `needs` that `caps` does not meet, in a few words each, in the order of
    model/needs.py's unmet (the table names the first, whose sentence the grader gives)."""
    out = []
    if needs.compute_capability > caps.compute_capability:
        out.append(f"needs {arch_name(needs.compute_capability)}")
    for feature, name in (("tma", "TMA"), ("ldmatrix", "ldmatrix"), ("stmatrix", "stmatrix")):
        if getattr(needs, feature) and not getattr(caps, feature):
            out.append(f"no {name}")
    if needs.shared_memory_per_block > caps.shared_memory_per_block:
        out.append(f"needs {needs.shared_memory_per_block / 1024:g} KB of shared memory a block")
    if needs.wide_rules and not caps.wide_rules:
        out.append("8-/16-byte rules not verified")
    if needs.ldmatrix_rule and not caps.ldmatrix_rule:
        out.append("ldmatrix rule not measured")
    if needs.counters and not caps.counters:
        out.append("counters refused")
    if needs.timing and not caps.timing:
        out.append("no slowdown shown")
    return out


@dataclass
class LessonRow:
    lesson: Lesson
    points: Fraction
    gpu_tests: int
    #: per architecture: {what stops them: (tests, their points)}; empty where every test runs
    stopped: Dict[str, Dict[str, Tuple[int, Fraction]]]
    counter_points: Fraction  # what its counter tests carry
    wide_rules: Tuple[int, Fraction]  # its tests that need the 8- and 16-byte rules
    ldmatrix_rule: Tuple[int, Fraction]  # its tests that need the ldmatrix rule
    #: its counter tests that may take their counts from the CPU recording (gpu.cpu_recording)
    cpu_recording: Tuple[int, Fraction] = (0, Fraction(0))

    def runs(self, arch: str) -> int:
        return self.gpu_tests - sum(n for n, _ in self.stopped[arch].values())

    def gradable(self, arch: str) -> Fraction:
        return self.points - sum((p for _, p in self.stopped[arch].values()), Fraction(0))


@dataclass
class GpuTable:
    profiles: Profiles
    rows: List[LessonRow]


def _points(table: PointsTable, lessons: Sequence[Lesson],
            tests: Dict[str, List[GradedTest]]) -> Dict[str, Dict[str, Fraction]]:
    """label -> {test -> its points}, as the grader shares each lesson's points among its tests
    (a run where every test passes)."""
    results = {f"{TREE}/{label}/{t.name}": TestResult(f"{TREE}/{label}/{t.name}", PASS,
                                                      labels=list(t.labels))
               for label, each in tests.items() for t in each}
    grade = score(table, results, lessons=list(lessons), tree=TREE)
    return {ls.label: {t.name: t.points for t in ls.tests} for ls in grade.lessons}


def gpu_table(course: Path, lessons: Sequence[Lesson]) -> GpuTable:
    """Which of each lesson's graded GPU tests run on each architecture of the course's
    profiles, with their counters readable."""
    profiles = read_profiles(course)
    tests = {lesson.label: graded_tests(lesson, course) for lesson in lessons}
    table = course_points(course, lessons)
    points = _points(table, lessons, tests)
    planned = [Planned(f"{TREE}/{label}/{t.name}", list(t.labels),
                       ["-", "--gtest_filter=" + ":".join(t.gtest)], 0.0, False, 0, "", {}, None)
               for label, each in tests.items() for t in each if t.gpu]
    needs = declared_needs(planned, course)
    recorded = set(cpu_recording_tests(planned, course))
    rows = []
    for lesson in lessons:
        gpu = [t for t in tests[lesson.label] if t.gpu]
        own = points.get(lesson.label, {})

        def need(t: GradedTest) -> Needs:
            return needs.get(f"{TREE}/{lesson.label}/{t.name}", Needs())

        def total(chosen: List[GradedTest]) -> Tuple[int, Fraction]:
            return len(chosen), sum((own.get(t.name, Fraction(0)) for t in chosen), Fraction(0))

        stopped: Dict[str, Dict[str, Tuple[int, Fraction]]] = {}
        for caps in profiles.rows:
            by_reason: Dict[str, List[GradedTest]] = {}
            for t in gpu:
                sentence = unmet(need(t), caps, profiles)
                if sentence is not None:
                    # The first need the GPU lacks, as the grader's sentence says it.
                    why = (short_unmet(need(t), caps) or [sentence])[0]
                    by_reason.setdefault(why, []).append(t)
            stopped[caps.arch] = {why: total(each) for why, each in by_reason.items()}
        spec = table.get(lesson.label)
        rows.append(LessonRow(
            lesson, spec.points if spec else Fraction(0), len(gpu), stopped,
            total([t for t in gpu if need(t).counters])[1],
            total([t for t in gpu if need(t).wide_rules]),
            total([t for t in gpu if need(t).ldmatrix_rule]),
            total([t for t in gpu if f"{TREE}/{lesson.label}/{t.name}" in recorded])))
    return GpuTable(profiles, rows)


# ------------------------------------------------------------------------------------------
# The block
# ------------------------------------------------------------------------------------------

def _cell(row: LessonRow, arch: str) -> str:
    """'4 of 4'; '0 of 4: no TMA; -5 points'; where tests stop for different needs, each with
    how many it stops: '1 of 5: no TMA (3), 8-/16-byte rules not verified (1); -2.5 points'."""
    stopped = row.stopped[arch]
    text = f"{row.runs(arch)} of {row.gpu_tests}"
    if not stopped:
        return text
    if len(stopped) == 1:
        text += f": {next(iter(stopped))}"
    else:
        text += ": " + ", ".join(f"{why} ({n})" for why, (n, _) in stopped.items())
    lost = row.points - row.gradable(arch)
    return text + (f"; -{fmt(lost)} points" if lost else "")


def _lessons_text(rows: List[LessonRow], what) -> str:
    """'07 (3 tests, 2 points), 08 (1 test, 0.5 points)' for the rows where what(row) counts."""
    parts = []
    for row in rows:
        n, p = what(row)
        if n:
            parts.append(f"{row.lesson.number} ({n} test{'s' if n != 1 else ''}, "
                         f"{fmt(p)} point{'s' if p != 1 else ''})")
    return ", ".join(parts)


def render(table: GpuTable) -> List[str]:
    """The block's lines (between the markers)."""
    archs = [caps.arch for caps in table.profiles.rows]
    head = ["lesson", "points"] + [f"{caps.arch} ({caps.gpus})" for caps in table.profiles.rows]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in table.rows:
        cells = [f"{row.lesson.number} {row.lesson.title}", fmt(row.points)]
        lines.append("| " + " | ".join(cells + [_cell(row, a) for a in archs]) + " |")
    course = sum((row.points for row in table.rows), Fraction(0))
    gradable = [fmt(sum((row.gradable(a) for row in table.rows), Fraction(0))) for a in archs]
    lines.append("| " + " | ".join(["points gradable", fmt(course)] + gradable) + " |")
    notes = [
        "A cell counts the lesson's GPU tests as the grader lists them (every test of its "
        "`gpu_*` and `perf_*` files, and the memcheck and racecheck runs of each `gpu_*` file "
        "that does not read the counters: these carry no points, but a failed one costs the "
        "lesson its sanitizer penalty) that run on a GPU of that architecture with its counters "
        "readable, then what stops the others and the points they carry; the last row, the "
        "course's points gradable there."]
    counted = [row for row in table.rows if row.counter_points]
    if counted:
        lost = sum((row.counter_points for row in counted), Fraction(0))
        each = ", ".join(f"{row.lesson.number} ({fmt(row.counter_points)})" for row in counted)
        notes.append(
            f"With the counters refused, the counter tests (those of the files whose name "
            f"holds `counters`) are not gradable either: {fmt(lost)} of the course's "
            f"{fmt(course)} points, by lesson {each}.")
    recorded = _lessons_text(table.rows, lambda row: row.cpu_recording)
    if recorded:
        notes.append(
            f"Of them, those whose lesson runs the student's kernel on the CPU too, by lesson "
            f"{recorded}, then take their counts from the CPU run of the same launches (which "
            f"each lesson's CpuRecording test holds to the counters on a GPU that reads them): "
            f"the report lists them *from the CPU recording*, apart, and they earn their points "
            f"only with `grade_run.sh --cpu-recording-points`.")
    wide = _lessons_text(table.rows, lambda row: row.wide_rules)
    if wide:
        measured = ", ".join(c.arch for c in table.profiles.rows if c.wide_rules) or "none"
        notes.append(
            f"The tests that need the bank model's 8- and 16-byte rules, by lesson {wide}, run "
            f"where the rules were measured ({measured}), and on any other GPU once "
            f"`./course-admin self-check` has verified them there: `grade_run.sh` runs the "
            f"self-check itself on such a GPU whose counters are readable (about two minutes, "
            f"once per GPU, driver and course). The table counts them out elsewhere.")
    ldsm = _lessons_text(table.rows, lambda row: row.ldmatrix_rule)
    if ldsm:
        notes.append(
            f"The tests that need the bank model's ldmatrix rule, by lesson {ldsm}, run only "
            f"where it was measured ({table.profiles.first['ldmatrix_rule']}): no self-check "
            f"measures it.")
    for note in notes:
        lines += [""] + textwrap.wrap(note, WIDTH, break_long_words=False, break_on_hyphens=False)
    return lines


def _block(text: str, where: str) -> Tuple[List[str], int, int]:
    lines = text.split("\n")
    begin = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    end = [i for i, line in enumerate(lines) if line.strip() == END]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise CourseError(f"{where} has no GPU table: one '{BEGIN}' line, then one '{END}'")
    return lines, begin[0], end[0]


def rewrite(text: str, course: Path, lessons: Sequence[Lesson],
            where: Optional[str] = None) -> str:
    """The text with its GPU table made from the lessons' manifests and tests and the course's
    GPU profiles."""
    lines, begin, end = _block(text, where or GUIDE.as_posix())
    return "\n".join(lines[:begin + 1] + render(gpu_table(course, lessons)) + lines[end:])
