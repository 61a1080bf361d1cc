"""The student's progress: per lesson, CPU and GPU tests passed, why GPU tests were skipped, a
status, and what to do next. Read from ctest's test list (labels) and its JUnit report, and from
the build of each lesson.

The statuses are course_model's (STATUSES). A lesson is done only when its GPU exercise tests
passed: the kernel was checked on a GPU. Where every CPU test passes and the GPU tests could
not run, the lesson's CPU part is done but its kernel is not checked ("kernel checked on the CPU
— not timed" where its CPU tests ran the kernel itself, label cpu-kernel), and it does not count
as finished. The sanitizer runs (label `sanitize`) are left out of every count, and a footnote
says so: the student's commands do not run them.

Used by `./course progress` (the table) and `./course test` / `watch` (one lesson's line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set

from course.model.course_model import (COMMAND, CPU_PART_DONE, DOES_NOT_BUILD, DONE, IN_PROGRESS,
                                       KERNEL_ON_CPU, Lesson, LessonBuild, NOT_BUILT_YET,
                                       NOT_STARTED, NO_TESTS, SANITIZE_LABEL, kind_of, role_of,
                                       split_test_name)
from course.model.ctest_results import (NOT_BUILT as RESULT_NOT_BUILT, SKIP, TestInfo, TestResult,
                                        measurements)


# The statuses by their old names here (course_model has the words).
NO_BUILD = DOES_NOT_BUILD
NOT_BUILT = NOT_BUILT_YET
#: The statuses of a lesson whose CPU part passes while no GPU checked its kernel.
WAITING_FOR_A_GPU = (CPU_PART_DONE, KERNEL_ON_CPU)
#: The label of the CPU tests that run the student's kernel on the CPU (lessons 05, 06).
CPU_KERNEL_LABEL = "cpu-kernel"

#: The footnote of a row whose sanitizer runs are left out of its counts.
SANITIZER_RUNS_LEFT_OUT = ("the sanitizer runs of the GPU tests are not counted here: they are "
                           "slow, and only grading runs them, or `ctest --test-dir {build} -L "
                           "sanitize` on a GPU")


#: The footnote of a lesson whose CPU test programs are not built yet: not reached.
CPU_ON_DEMAND = ("not built yet is not failed: a lesson's CPU tests are built when you reach it "
                 "(the lessons before it pass theirs, or you edit its files), or now with "
                 "`{command}`")

#: How the kit's sentence for a test whose need this GPU does not meet begins ("needs the TMA
#: (sm_90 and later); this GPU is sm_86"): such a test cannot run here, whatever the student
#: writes (docs/instructors.md lists which GPUs run which lessons).
NEEDS_MORE = "needs "

#: The footnote of a lesson whose GPU test programs are not built yet.
GPU_ON_DEMAND = ("not built yet is not failed: a lesson's GPU tests are built once its CPU tests "
                 "pass (or now, with `{build} --target lessonNN`)")


def short_reason(reason: str, limit: int = 48) -> str:
    """'no usable GPU: CUDA driver version is ...' -> 'no usable GPU'; long reasons are cut."""
    head = reason.split(": ", 1)[0] if ": " in reason else reason.split(" (", 1)[0]
    head = head.strip() or reason
    return head if len(head) <= limit else head[: limit - 3].rstrip() + "..."


@dataclass
class LessonProgress:
    lesson: Lesson
    cpu_passed: int = 0
    cpu_total: int = 0
    gpu_passed: int = 0
    gpu_total: int = 0
    gpu_skipped: int = 0
    gpu_beyond: int = 0  # skipped because this GPU lacks what they need (kit/needs.hpp)
    gpu_exercises: int = 0
    gpu_exercises_passed: int = 0
    exercise_passed: int = 0
    not_built: List[str] = field(default_factory=list)  # test programs that are not built
    gpu_not_built: bool = False  # its GPU test programs are not built yet (built on demand)
    not_reached: bool = False  # its CPU test programs are not built: built once it is reached
    build: Optional[LessonBuild] = None  # this run's build of the lesson, if it built it
    skip_reasons: List[str] = field(default_factory=list)  # distinct, in order
    failing: List[str] = field(default_factory=list)  # short test names
    measured: List[str] = field(default_factory=list)  # "Test.Name: measurement"
    left_out: int = 0  # sanitizer runs: registered, not counted
    cpu_kernel: int = 0  # CPU tests that ran the student's kernel on the CPU

    @property
    def cpu_done(self) -> bool:
        """Every CPU test of the lesson passes (and there is at least one)."""
        return self.counted and self.cpu_total > 0 and self.cpu_passed == self.cpu_total

    @property
    def total(self) -> int:
        return self.cpu_total + self.gpu_total

    @property
    def build_error(self) -> str:
        """The compiler's first error when this run's build of the lesson failed, else ''."""
        return (self.build.error or "see its build log") if self.build and self.build.failed else ""

    @property
    def gpu_failed(self) -> int:
        """GPU tests that neither passed nor were skipped (failed, crashed, or no result)."""
        return self.gpu_total - self.gpu_passed - self.gpu_skipped

    @property
    def status(self) -> str:
        if self.build_error:
            return NO_BUILD
        if self.not_reached:
            return NOT_STARTED
        if self.not_built:
            return NOT_BUILT
        if self.total == 0 and not self.gpu_not_built:
            return NO_TESTS
        cpu_done = self.cpu_passed == self.cpu_total
        # Without the GPU tests: the kernel may have run on the CPU (its cpu-kernel tests, all
        # passed), never "done".
        waiting = KERNEL_ON_CPU if self.cpu_kernel else CPU_PART_DONE
        if cpu_done and self.gpu_not_built:
            return waiting
        if cpu_done and self.gpu_failed == 0:
            if self.gpu_exercises_passed == self.gpu_exercises:
                return DONE
            return waiting
        if self.exercise_passed == 0:
            return NOT_STARTED
        return IN_PROGRESS

    @property
    def finished(self) -> bool:
        return self.status == DONE

    @property
    def counted(self) -> bool:
        """Whether its test counts mean anything (they are stale or absent otherwise)."""
        return not (self.build_error or self.not_built or self.not_reached)

    def add(self, name: str, info: Optional[TestInfo], res: Optional[TestResult]) -> None:
        """Counts one registered test (res None: it has no result, so it did not pass)."""
        labels = (info.labels if info else []) or (res.labels if res else [])
        if SANITIZE_LABEL in labels:
            self.left_out += 1
            return
        passed = res is not None and res.passed
        skipped = res is not None and res.status == SKIP
        exercise = role_of(labels) != "guard"
        if kind_of(labels) == "gpu":
            self.gpu_total += 1
            self.gpu_passed += passed
            self.gpu_exercises += exercise
            self.gpu_exercises_passed += passed and exercise
            if skipped:
                self.gpu_skipped += 1
                self.gpu_beyond += res.reason.startswith(NEEDS_MORE)
                if res.reason not in self.skip_reasons:
                    self.skip_reasons.append(res.reason)
        else:
            self.cpu_total += 1
            self.cpu_passed += passed
            self.cpu_kernel += CPU_KERNEL_LABEL in labels
        self.exercise_passed += passed and exercise
        if not passed and not skipped:
            self.failing.append(name)
        if res is not None:
            self.measured += [f"{name}: {m}" for m in measurements(res.output)]


def _program_not_built(info: Optional[TestInfo], res: Optional[TestResult]) -> str:
    """The program of a test that is not built, or ''."""
    if res is not None and res.status == RESULT_NOT_BUILT:
        return res.program or (info.program if info else "") or "a test program"
    if res is None and info is not None and info.built is False:
        return "a test program"
    return ""


def summarize(lessons: List[Lesson], tests: Dict[str, TestInfo],
              results: Dict[str, TestResult], tree: str = "student",
              builds: Optional[Dict[str, LessonBuild]] = None,
              on_demand: bool = False,
              not_reached: Optional[Set[str]] = None) -> List[LessonProgress]:
    """One LessonProgress per lesson, from the registered tests and the results that ran.
    A registered test with no result counts as not passed. builds: this run's build of each
    lesson, by label. on_demand: GPU test programs are built lesson by lesson when wanted, so
    one that is not built yet is not counted (the GPU cell says so), where its lesson's CPU
    programs are built. not_reached: labels of lessons whose CPU programs this run did not build
    because the student has not reached them yet: not counted (the CPU cell says so) where
    their programs are not built."""
    by_label = {lesson.label: LessonProgress(lesson, build=(builds or {}).get(lesson.label))
                for lesson in lessons}
    for full in list(tests) + [n for n in results if n not in tests]:
        parts = split_test_name(full)
        if not parts or parts.tree != tree or parts.label not in by_label:
            continue
        p = by_label[parts.label]
        info, res = tests.get(full), results.get(full)
        if res is None and parts.label in (not_reached or ()):
            p.not_reached = True
            continue
        program = _program_not_built(info, res)
        if program:
            labels = (info.labels if info else []) or (res.labels if res else [])
            if on_demand and kind_of(labels) == "gpu":
                p.gpu_not_built = True
            elif program not in p.not_built:
                p.not_built.append(program)
            continue
        p.add(parts.name, info, res)
    return [by_label[lesson.label] for lesson in lessons]


class Table:
    """The progress table, with footnotes for skip reasons and for what its counts leave out.
    build_dir: the build folder the footnotes' commands name."""

    def __init__(self, progress: List[LessonProgress], build_dir: str = "build/student"):
        self.progress = progress
        self.reasons: List[str] = []
        self.build_dir = build_dir

    @property
    def build_flag(self) -> str:
        """The course command's `--build-dir` where the build is not the preset's."""
        return "" if self.build_dir == "build/student" else f" --build-dir {self.build_dir}"

    def _mark(self, reason: str) -> str:
        if reason not in self.reasons:
            self.reasons.append(reason)
        return f"[{self.reasons.index(reason) + 1}]"

    def cpu_cell(self, p: LessonProgress) -> str:
        if p.not_reached:
            return "not built yet " + self._mark(CPU_ON_DEMAND.format(
                command=f"{COMMAND} test NN --cpu" + self.build_flag))
        if not p.counted:
            return "-"
        return f"{p.cpu_passed}/{p.cpu_total}" if p.cpu_total else "none"

    def gpu_cell(self, p: LessonProgress) -> str:
        if not p.counted:
            return "-"
        if p.gpu_not_built:
            build = ("cmake --build --preset student" if self.build_dir == "build/student"
                     else f"cmake --build {self.build_dir}")
            return "not built yet " + self._mark(GPU_ON_DEMAND.format(build=build))
        if p.gpu_total == 0:
            return "none"
        marks = "".join(self._mark(r) for r in p.skip_reasons)
        if p.left_out:
            marks += self._mark(SANITIZER_RUNS_LEFT_OUT.format(build=self.build_dir))
        if p.gpu_skipped == p.gpu_total:
            return f"skipped: {short_reason(p.skip_reasons[0])} {marks}"
        if p.gpu_skipped and p.gpu_beyond == p.gpu_skipped:
            return f"{p.gpu_passed}/{p.gpu_total}, {p.gpu_beyond} beyond this GPU {marks}"
        if p.gpu_skipped:
            return f"{p.gpu_passed}/{p.gpu_total}, {p.gpu_skipped} skipped {marks}"
        return f"{p.gpu_passed}/{p.gpu_total}" + (f" {marks}" if marks else "")

    def render(self) -> str:
        rows = [("#", "Lesson", "CPU tests", "GPU tests", "Status")]
        for p in self.progress:
            rows.append((p.lesson.number, p.lesson.title, self.cpu_cell(p), self.gpu_cell(p),
                         p.status))
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = []
        for i, row in enumerate(rows):
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        for i, reason in enumerate(self.reasons):
            lines.append(f"[{i + 1}] {reason}")
        return "\n".join(lines)


def uses_preset(build_dir: Path, source_dir: Path) -> bool:
    """Whether the build folder is the `student` preset's, so commands can name the preset."""
    return build_dir.resolve() == (source_dir / "build" / "student").resolve()


def build_command(target: str, build_dir: Path, source_dir: Path) -> str:
    if uses_preset(build_dir, source_dir):
        return f"cmake --build --preset student --target {target}"
    return f"cmake --build {build_dir} --target {target}"


def commands_for(lesson: Lesson, build_dir: Path, source_dir: Path) -> str:
    """The course's command that rebuilds a lesson and runs its tests, as the student would
    type it (with the build folder where it is not the `student` preset's)."""
    where = "" if uses_preset(build_dir, source_dir) else f" --build-dir {build_dir}"
    return f"{COMMAND} test {lesson.number}{where}"


def next_lesson(progress: List[LessonProgress]) -> Optional[LessonProgress]:
    """The lesson to work on: the first that is neither done nor waiting for a GPU; else the
    first waiting for a GPU; None when every lesson is done."""
    todo = [p for p in progress if p.status != DONE and p.status not in WAITING_FOR_A_GPU]
    waiting = [p for p in progress if p.status in WAITING_FOR_A_GPU]
    return (todo or waiting or [None])[0]


def _build_step(p: LessonProgress, build_dir: Path, source_dir: Path) -> List[str]:
    lesson = p.lesson
    files = ", ".join(f"{lesson.rel_dir}/{f.name}" for f in lesson.student_files())
    build = build_command(lesson.label, build_dir, source_dir)
    if p.status == NOT_BUILT:
        return [f"Next: lesson {lesson.number} ({lesson.title}) is not built yet: run "
                f"`{commands_for(lesson, build_dir, source_dir)}` (it builds the lesson first; "
                f"if it does not compile, the compiler's message says where to "
                f"look in {files or lesson.rel_dir})."]
    log = f" (the whole log: {p.build.log})" if p.build and p.build.log else ""
    return [f"Next: lesson {lesson.number} ({lesson.title}) does not build: run `{build}` "
            f"to see the compiler's message, and fix {files or lesson.rel_dir}.",
            f"First error: {p.build_error}{log}"]


def _edit_step(p: LessonProgress, build_dir: Path, source_dir: Path) -> List[str]:
    lesson = p.lesson
    todos = {f: n for f, n in lesson.todo_counts().items() if n}
    if todos:
        target = min(todos, key=lambda f: (f.suffix != ".hpp", f.name))
        what = (f"edit {lesson.rel_dir}/{target.name} ({todos[target]} TODO"
                f"{'s' if todos[target] != 1 else ''} left)")
    else:
        files = [f.name for f in lesson.student_files()]
        what = f"edit {lesson.rel_dir}/" + (" or ".join(files) if files else "")
    readme = f"read {lesson.rel_dir}/README.md, " if lesson.readme.is_file() else ""
    run = commands_for(lesson, build_dir, source_dir)
    first = f"Next: lesson {lesson.number} ({lesson.title}): {readme}{what}, then run `{run}`."
    second = []
    if p.failing:
        more = f" and {len(p.failing) - 1} more" if len(p.failing) > 1 else ""
        second.append(f"Failing now: {p.failing[0]}{more}.")
    second.append(f"Stuck? `{COMMAND} hint {lesson.number}` gives the "
                  f"next hint.")
    return [first, " ".join(second)]


def next_step(progress: List[LessonProgress], build_dir: Path, source_dir: Path) -> List[str]:
    """What to do next: one line (which lesson, which file, which command), and a second with
    the first failing test and the hint command."""
    p = next_lesson(progress)
    if p is None:
        if not progress:
            return ["There are no lessons in this course yet."]
        return ["Every lesson passes every test, GPU included. Well done."]
    if p.status in (NO_BUILD, NOT_BUILT):
        return _build_step(p, build_dir, source_dir)
    if p.status == NO_TESTS:
        again = ("cmake --workflow --preset student" if uses_preset(build_dir, source_dir) else
                 f"cmake {build_dir} && cmake --build {build_dir}")
        return [f"Next: lesson {p.lesson.number} ({p.lesson.title}) has no tests in this build "
                f"yet: configure and build again with `{again}`."]
    if p.status in WAITING_FOR_A_GPU:
        waiting = ", ".join(q.lesson.number for q in progress if q.status in WAITING_FOR_A_GPU)
        on_cpu = ", ".join(q.lesson.number for q in progress if q.status == KERNEL_ON_CPU)
        ran = (f" (the kernels of lessons {on_cpu} ran on the CPU and passed there: no GPU timed "
               f"them)" if on_cpu else "")
        return [f"Next: the CPU part of every lesson passes{ran}, but the kernels of lessons "
                f"{waiting} are not checked on a GPU here, so they are not finished. On a machine "
                f"with an NVIDIA GPU, run `cmake --workflow --preset student` to check them."]
    return _edit_step(p, build_dir, source_dir)


def render_measurements(progress: List[LessonProgress], limit: int = 6) -> List[str]:
    """The slowdowns measured on this GPU beside the model's, per lesson (the counters' lines
    stay in the JUnit report: there are many, and the tests already hold them to the model). A
    lesson's demos' slowdowns are what its predictions ask: they show once its CPU tests, the
    predictions among them, pass."""
    lines = []
    for p in progress:
        slowdowns = [m for m in p.measured if " over " in m and " measured " in m]
        if not slowdowns:
            continue
        if not p.cpu_done:
            many = len(slowdowns) != 1
            lines.append(f"Lesson {p.lesson.number}: {len(slowdowns)} slowdown{'s' if many else ''} "
                         f"measured on this GPU, shown once the lesson's CPU tests pass (your "
                         f"predictions are among them).")
            continue
        lines.append(f"Lesson {p.lesson.number}, measured on this GPU beside the model:")
        lines += [f"  {m}" for m in slowdowns[:limit]]
        if len(slowdowns) > limit:
            lines.append(f"  ... and {len(slowdowns) - limit} more")
    return lines


def reused_note(progress: List[LessonProgress], taken: Dict[str, str]) -> str:
    """Which lessons' results were shown again, from when, and how to run them anyway."""
    by_time: Dict[str, List[str]] = {}
    for p in progress:
        if p.lesson.label in taken:
            by_time.setdefault(taken[p.lesson.label], []).append(p.lesson.number)
    parts = [f"{', '.join(numbers)} from {when}" for when, numbers in sorted(by_time.items())]
    return (f"Not run again (their test programs and your files are unchanged since, on this "
            f"machine, GPU and driver): the results of lesson(s) {'; '.join(parts)}. "
            f"`{COMMAND} progress --rerun` runs every test again.")


def verdict(p: LessonProgress, table: Table) -> str:
    """One lesson's line after `./course test` or `watch`."""
    return (f"Lesson {p.lesson.number}: CPU {table.cpu_cell(p)}, GPU {table.gpu_cell(p)}: "
            f"{p.status}")
