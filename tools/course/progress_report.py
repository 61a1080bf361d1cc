"""The student's progress: per lesson, CPU and GPU tests passed, why GPU tests were skipped, a
status, and what to do next. Read from ctest's test list (labels) and its JUnit report.

Used by `course.py progress` (the table) and `course.py watch` (one lesson's line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from course_tree import Lesson, not_built_lesson, split_test_name
from ctest_results import TestInfo, TestResult

MEASUREMENT_PREFIXES = ("[kit-slowdown]", "[kit-counters]")
_FAILURE_AT = re.compile(r"^(?:.*/)?([^/\s]+:\d+): Failure$", re.M)

DONE = "done"
DONE_CPU = "done on CPU (GPU not run)"
IN_PROGRESS = "in progress"
NOT_STARTED = "not started"
NO_BUILD = "does not build"
NOT_BUILT = "not built"
NO_TESTS = "no tests yet"


def short_reason(reason: str, limit: int = 48) -> str:
    """'no usable GPU: CUDA driver version is ...' -> 'no usable GPU'; long reasons are cut."""
    head = reason.split(": ", 1)[0] if ": " in reason else reason.split(" (", 1)[0]
    head = head.strip() or reason
    return head if len(head) <= limit else head[: limit - 3].rstrip() + "..."


def measurements(output: str) -> List[str]:
    """The kit's measurement lines of one test's output, without their tag."""
    found = []
    for line in output.splitlines():
        for prefix in MEASUREMENT_PREFIXES:
            if line.startswith(prefix):
                found.append(line[len(prefix):].strip())
    return found


def failure_location(output: str) -> str:
    """'cpu_exercise_banks_test.cpp:12' for the first failed assertion of a test's output."""
    m = _FAILURE_AT.search(output)
    return m.group(1) if m else ""


@dataclass
class LessonProgress:
    lesson: Lesson
    cpu_passed: int = 0
    cpu_total: int = 0
    gpu_passed: int = 0
    gpu_total: int = 0
    gpu_skipped: int = 0
    exercise_passed: int = 0
    not_built: List[str] = field(default_factory=list)  # test programs that are not built
    build_error: str = ""  # the compiler's first error, when a build of the lesson failed
    skip_reasons: List[str] = field(default_factory=list)  # distinct, in order
    failing: List[str] = field(default_factory=list)  # short test names
    measured: List[str] = field(default_factory=list)  # "Test.Name: measurement"

    @property
    def total(self) -> int:
        return self.cpu_total + self.gpu_total

    @property
    def status(self) -> str:
        if self.build_error:
            return NO_BUILD
        if self.not_built:
            return NOT_BUILT
        if self.total == 0:
            return NO_TESTS
        cpu_done = self.cpu_passed == self.cpu_total
        if cpu_done and self.gpu_passed == self.gpu_total:
            return DONE
        if cpu_done and self.gpu_skipped and self.gpu_passed + self.gpu_skipped == self.gpu_total:
            return DONE_CPU
        if self.exercise_passed == 0:
            return NOT_STARTED
        return IN_PROGRESS

    @property
    def finished(self) -> bool:
        return self.status in (DONE, DONE_CPU)


def _kind(info: Optional[TestInfo], result: Optional[TestResult]) -> str:
    labels = (info.labels if info else []) or (result.labels if result else [])
    return "gpu" if "gpu" in labels else "cpu"


def _role(info: Optional[TestInfo], result: Optional[TestResult]) -> str:
    labels = (info.labels if info else []) or (result.labels if result else [])
    return "guard" if "guard" in labels else "exercise"


def summarize(lessons: List[Lesson], tests: Dict[str, TestInfo],
              results: Dict[str, TestResult], tree: str = "student",
              build_status: Optional[dict] = None) -> List[LessonProgress]:
    """One LessonProgress per lesson, from the registered tests and the results that ran.
    A registered test with no result counts as not passed. build_status: build_lessons.py's
    record of which lessons did not compile."""
    by_label = {lesson.label: LessonProgress(lesson) for lesson in lessons}
    for label, status in (build_status or {}).items():
        if label in by_label and status.get("status") == "did not build":
            by_label[label].build_error = status.get("error") or "see its build log"
    names = list(tests) + [n for n in results if n not in tests]
    for name in names:
        lesson_label = not_built_lesson(name)
        if lesson_label:
            if lesson_label in by_label and f"_{tree}_" in name:
                by_label[lesson_label].not_built.append(name[: -len("_NOT_BUILT")])
            continue
        parts = split_test_name(name)
        if not parts or parts[0] != tree or parts[1] not in by_label:
            continue
        p = by_label[parts[1]]
        info, res = tests.get(name), results.get(name)
        passed = res is not None and res.passed
        if _kind(info, res) == "gpu":
            p.gpu_total += 1
            p.gpu_passed += passed
            if res is not None and res.status == "skip":
                p.gpu_skipped += 1
                if res.reason not in p.skip_reasons:
                    p.skip_reasons.append(res.reason)
        else:
            p.cpu_total += 1
            p.cpu_passed += passed
        if passed and _role(info, res) == "exercise":
            p.exercise_passed += 1
        if not passed and not (res is not None and res.status == "skip"):
            p.failing.append(parts[2])
        if res is not None:
            p.measured += [f"{parts[2]}: {m}" for m in measurements(res.output)]
    return [by_label[lesson.label] for lesson in lessons]


class Table:
    """The progress table, with footnotes for skip reasons."""

    def __init__(self, progress: List[LessonProgress]):
        self.progress = progress
        self.reasons: List[str] = []

    def _mark(self, reason: str) -> str:
        if reason not in self.reasons:
            self.reasons.append(reason)
        return f"[{self.reasons.index(reason) + 1}]"

    def gpu_cell(self, p: LessonProgress) -> str:
        if p.not_built:
            return "-"
        if p.gpu_total == 0:
            return "none"
        marks = "".join(self._mark(r) for r in p.skip_reasons)
        if p.gpu_skipped == p.gpu_total:
            return f"skipped: {short_reason(p.skip_reasons[0])} {marks}"
        if p.gpu_skipped:
            return f"{p.gpu_passed}/{p.gpu_total}, {p.gpu_skipped} skipped {marks}"
        return f"{p.gpu_passed}/{p.gpu_total}"

    def render(self) -> str:
        rows = [("#", "Lesson", "CPU tests", "GPU tests", "Status")]
        for p in self.progress:
            cpu = "-" if p.not_built else (f"{p.cpu_passed}/{p.cpu_total}" if p.cpu_total else "none")
            rows.append((p.lesson.number, p.lesson.title, cpu, self.gpu_cell(p), p.status))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = []
        for i, row in enumerate(rows):
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        for i, reason in enumerate(self.reasons):
            lines.append(f"[{i + 1}] {reason}")
        return "\n".join(lines)


def commands_for(lesson: Lesson, build_dir: Path, source_dir: Path) -> str:
    """The command that rebuilds a lesson and runs its tests, as the student would type it."""
    if build_dir.resolve() == (source_dir / "build" / "student").resolve():
        return f"cmake --build --preset student && ctest --preset student -L {lesson.label}"
    return (f"cmake --build {build_dir} --target {lesson.label} && "
            f"ctest --test-dir {build_dir} -L {lesson.label}")


def next_step(progress: List[LessonProgress], build_dir: Path, source_dir: Path) -> List[str]:
    """What to do next: one line (which lesson, which file, which command), and a second with
    the first failing test and the hint command."""
    for p in progress:
        if p.finished:
            continue
        lesson = p.lesson
        run = commands_for(lesson, build_dir, source_dir)
        if p.status in (NO_BUILD, NOT_BUILT):
            files = ", ".join(f"{lesson.rel_dir}/{f.name}" for f in lesson.student_files())
            build = (f"cmake --build --preset student --target {lesson.label}"
                     if "&& ctest --preset" in run else
                     f"cmake --build {build_dir} --target {lesson.label}")
            if p.status == NOT_BUILT:
                return [f"Next: lesson {lesson.number} ({lesson.title}) is not built yet: run "
                        f"`{build}` (if it does not compile, the compiler's message says where to "
                        f"look in {files or lesson.rel_dir})."]
            return [f"Next: lesson {lesson.number} ({lesson.title}) does not build: run `{build}` "
                    f"to see the compiler's message, and fix {files or lesson.rel_dir}.",
                    f"First error: {p.build_error}"]
        if p.status == NO_TESTS:
            again = ("cmake --workflow --preset student" if "--preset" in run else
                     f"cmake {build_dir} && cmake --build {build_dir}")
            return [f"Next: lesson {lesson.number} ({lesson.title}) has no tests in this build "
                    f"yet: configure and build again with `{again}`."]
        todos = {f: n for f, n in lesson.todo_counts().items() if n}
        if todos:
            target = min(todos, key=lambda f: (f.suffix != ".hpp", f.name))
            what = f"edit {lesson.rel_dir}/{target.name} ({todos[target]} TODO" \
                   f"{'s' if todos[target] != 1 else ''} left)"
        else:
            files = [f.name for f in lesson.student_files()]
            what = f"edit {lesson.rel_dir}/" + (" or ".join(files) if files else "")
        readme = f"read {lesson.rel_dir}/README.md, " if lesson.readme.is_file() else ""
        first = f"Next: lesson {lesson.number} ({lesson.title}): {readme}{what}, then run `{run}`."
        second = []
        if p.failing:
            more = f" and {len(p.failing) - 1} more" if len(p.failing) > 1 else ""
            second.append(f"Failing now: {p.failing[0]}{more}.")
        second.append(f"Stuck? `python3 tools/course/course.py hint {lesson.number}` gives the "
                      f"next hint.")
        return [first, " ".join(second)]
    if any(p.status == DONE_CPU for p in progress):
        return ["Next: every lesson passes its CPU tests; the GPU tests did not run here. On a "
                "machine with an NVIDIA GPU, run `cmake --workflow --preset student` to check them."]
    if not progress:
        return ["There are no lessons in this course yet."]
    return ["Every lesson passes every test, GPU included. Well done."]


def render_measurements(progress: List[LessonProgress], limit: int = 6) -> List[str]:
    """The slowdowns measured on this GPU beside the model's, per lesson (the counters' lines
    stay in the JUnit report: there are many, and the tests already hold them to the model)."""
    lines = []
    for p in progress:
        slowdowns = [m for m in p.measured if " over " in m and " measured " in m]
        if not slowdowns:
            continue
        lines.append(f"Lesson {p.lesson.number}, measured on this GPU beside the model:")
        lines += [f"  {m}" for m in slowdowns[:limit]]
        if len(slowdowns) > limit:
            lines.append(f"  ... and {len(slowdowns) - limit} more")
    return lines
