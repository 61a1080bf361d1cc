"""The student's loop on one lesson: build its targets, run its tests, print the verdict
(`./course test NN`), and do that again whenever its files change (`./course watch NN`).

`--cpu` builds only the lesson's CPU test programs (`lessonNN-cpu`: the host compiler, seconds)
and runs its CPU tests; the verdict then says the GPU part was not run, never that the lesson is
done. Once every CPU test of the lesson passes, the verdict says where the lesson's answers are
(answers.py): the student has committed to theirs by then."""

from __future__ import annotations

import datetime
import os
import select
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.model import answers
from course.model.cli import make_dir
from course.model.course_model import Build, COMMAND, CourseError, Lesson, SANITIZE_LABEL
from course.model.batched_tests import merge_junit, run_batched
from course.model.ctest_results import (ASSERTION, CRASH, PASS, SKIP, ResultError, TestInfo,
                                        TestResult, first_failure, list_tests, read_junit,
                                        run_ctest)
from course.model.starters import Starters
from course.student import progress_cache, progress_report as report


def run_lesson(build: Build, lesson: Lesson, jobs: int, cpu_only: bool = False,
               watching: bool = False, verbose: bool = False) -> bool:
    """Builds the lesson (or its CPU part), runs its student tests and prints the first failure
    of each failing test (verbose: ctest's whole output of them instead) and the verdict.
    True when it built and no test failed (a skipped test is not a failure)."""
    target = lesson.cpu_target if cpu_only else lesson.label
    print(f"\n=== lesson {lesson.number} ({lesson.title}): building {target} "
          f"({datetime.datetime.now():%H:%M:%S}) ===", flush=True)
    # The policy reads the files as the build does, while it builds and the tests run (libclang's
    # parse of an edited file takes seconds).
    policy = PolicyCheck(build, lesson)
    policy.start()
    if build.build_target(target, jobs, capture=False).returncode != 0:
        then = " and save" if watching else ""
        print(f"\nLesson {lesson.number} does not build: fix the error above{then}.", flush=True)
        return False
    try:
        results, tests = run_tests(build, lesson, jobs, cpu_only, verbose)
    except ResultError as e:
        print(f"course: {e}", flush=True)
        return False
    if cpu_only:
        gpu = {name for name, t in tests.items() if "gpu" in t.labels}
        tests = {name: t for name, t in tests.items() if name not in gpu}
        results = {name: r for name, r in results.items()
                   if name not in gpu and "gpu" not in r.labels}
    progress_cache.keep_lesson(build.state_dir, lesson, tests, results,
                               ("cpu",) if cpu_only else ("cpu", "gpu"), [SANITIZE_LABEL])
    p = report.summarize([lesson], tests, results)[0]
    if not verbose:
        print_first_failures(results, lesson.dir, lesson.rel_dir)
    # Files the grader would refuse unlock no answers: their tests passing proves nothing.
    policy.join()
    refused = policy.findings
    if policy.note:
        print(policy.note, flush=True)
    print_verdict(p, cpu_only, shown_path(build.dir, build.source_dir), refused=bool(refused))
    print_refusals(lesson, refused)
    if p.cpu_done and not refused:
        try:
            opened = open_answers(build, [p], one_lesson=True)
        except CourseError as e:
            opened = f"course: {e}"
        print(opened or f"This repository holds no answers for lesson {lesson.number} (it was made "
                        f"without them): the reasoning and the reference figures are with your "
                        f"instructor.", flush=True)
    return p.counted and not p.failing and not refused


def run_tests(build: Build, lesson: Lesson, jobs: int, cpu_only: bool, verbose: bool
              ) -> Tuple[Dict[str, TestResult], Dict[str, TestInfo]]:
    """Runs the lesson's student tests (cpu_only: its CPU tests) but the sanitizer runs (slow:
    grading and `ctest -L sanitize` run them). Where the lesson's GPU test programs are built,
    ctest runs the others and each GPU program runs its tests in as few processes as they allow
    (batched_tests: a CUDA context's start per program instead of per test; a timing or counter
    test still has the GPU to itself). Returns (the results, every registered test)."""
    state = make_dir(build.state_dir)
    junit = state / f"test-{lesson.label}.xml"
    labels = [f"^{lesson.label}$", "^student$"] + (["^cpu$"] if cpu_only else [])
    tests = list_tests(build.dir)
    mine = progress_cache.lesson_tests(lesson, tests, leave_out=[SANITIZE_LABEL])
    gpu = [] if cpu_only or not progress_cache.programs_built(lesson, tests, "gpu") else \
        [name for name, t in mine.items() if "gpu" in t.labels]
    # The GPU programs run while ctest runs the other tests (those take no GPU); their lines
    # follow ctest's.
    gpu_junit = state / f"test-{lesson.label}-gpu.xml"
    said: List[str] = []
    batch: Dict[str, object] = {}

    def run_gpu() -> None:
        try:
            batch["results"] = run_batched(build.dir, tests, gpu, gpu_junit,
                                           say=lambda *a, **_: said.append(" ".join(map(str, a))))
        except Exception as e:  # raised again below, in the loop's own thread
            batch["error"] = e

    worker = threading.Thread(target=run_gpu, daemon=True)
    if gpu:
        worker.start()
    excluded = SANITIZE_LABEL + ("|gpu" if gpu else "")
    cpu_junit = state / f"test-{lesson.label}-cpu.xml" if gpu else junit
    run_ctest(build.dir, cpu_junit, labels, jobs=jobs, quiet=False, output_on_failure=verbose,
              extra=["-LE", f"^({excluded})$"])
    if not gpu:
        return read_junit(junit), tests
    worker.join()
    if "error" in batch:
        raise batch["error"]  # type: ignore[misc]
    gpu_results: Dict[str, TestResult] = batch["results"]  # type: ignore[assignment]
    for line in said:
        print(line, flush=True)
    for i, name in enumerate(gpu, 1):
        result = gpu_results.get(name)
        word = RESULT_WORDS.get(result.status, "Failed") if result else "Not run"
        print(f"{i:>2}/{len(gpu)} {name} {'.' * max(3, 70 - len(name))} {word:>8}", flush=True)
        if verbose and result and not result.passed:
            print(result.output, flush=True)
    merge_junit(junit, [cpu_junit, gpu_junit])
    return read_junit(junit), tests


#: How a GPU test's verdict reads in the loop's list (as ctest words them).
RESULT_WORDS = {PASS: "Passed", SKIP: "Skipped", ASSERTION: "Failed", CRASH: "Failed"}


def as_shipped(build: Build, lesson: Lesson) -> List[Path]:
    """The lesson's exercise files that are still its starters (where the starters are known:
    a repository with its history). A lesson whose CPU tests pass with a file as shipped (lesson
    10's harness is judged on a GPU alone) keeps its answers closed until that file is the
    student's too."""
    try:
        starters = Starters(build.source_dir, lesson, None)
    except CourseError:
        return []
    changed = set(starters.changed())
    return [path for path in sorted(starters.files) if path not in changed]


def in_lesson(where: str, output: str, lesson_dir: Optional[Path], rel_dir: str) -> str:
    """`where` ("exercise.hpp:38", a failure's file:line) as the path a student opens when the
    failure is in a file of their lesson folder `lesson_dir` ("lessons/05_padded_transpose/
    exercise.hpp:38", `rel_dir` being that folder from the course's root: the tests report a
    failure there when they judge a name of that file); `where` itself otherwise (a test's own
    line)."""
    if not where or lesson_dir is None:
        return where
    for line in output.splitlines():
        if line.endswith(f"/{where}: Failure"):
            path = Path(line[:-len(": Failure")].rsplit(":", 1)[0])
            try:
                rel = path.resolve().relative_to(Path(lesson_dir).resolve())
            except (OSError, ValueError):
                return where
            return f"{rel_dir}/{rel.as_posix()}:{where.rsplit(':', 1)[1]}"
    return where


def print_first_failures(results: Dict[str, TestResult], lesson_dir: Optional[Path] = None,
                         rel_dir: str = "") -> None:
    """Each failing test's first failed assertion, where it is (a file of the student's lesson
    folder by its path from the course's root) and what it says; a message a test shares with one
    printed above is named, not repeated (--verbose: ctest's whole output)."""
    failing = [r for r in results.values() if r.status in (ASSERTION, CRASH)]
    if not failing:
        return
    print("\nWhat failed (each test's first failure; `--verbose` shows all of its output):",
          flush=True)
    seen: Dict[str, str] = {}
    for r in sorted(failing, key=lambda r: r.name):
        name = r.name.split("/", 2)[-1]
        where, message, count = first_failure(r.output)
        where = in_lesson(where, r.output, lesson_dir, rel_dir)
        if not where:
            tail = [line for line in r.output.splitlines() if line.strip()][-4:]
            print(f"\n{name}: {r.reason or 'ended without a failed assertion'}", flush=True)
            for line in tail:
                print(f"  {line}", flush=True)
            continue
        text = "\n".join(message)
        more = f" ({count} failures; the first:)" if count > 1 else ""
        if text and text in seen:
            print(f"\n{name} ({where}): the same message as {seen[text]}.", flush=True)
            continue
        seen.setdefault(text, name)
        print(f"\n{name} ({where}){more}", flush=True)
        for line in message:
            print(f"  {line}", flush=True)


class PolicyCheck(threading.Thread):
    """policy_findings() beside the build: its findings, and a note where it could not check."""

    def __init__(self, build: Build, lesson: Lesson):
        super().__init__(daemon=True)
        self.build, self.lesson = build, lesson
        self.findings: List[str] = []
        self.note = ""

    def run(self) -> None:
        try:
            self.findings, self.note = policy_findings(self.build, self.lesson)
        except Exception as e:  # a thread's error would otherwise be lost: say it
            self.note = f"(The exercise policy was not checked here: {e}.)"


def policy_findings(build: Build, lesson: Lesson) -> Tuple[List[str], str]:
    """The exercise-file policy's findings on the lesson's files, as the grader will hold them
    to it (print_refusals shows them, so that a student learns of them now, not at grading),
    and a note where it could not check them."""
    try:
        from course.policy import exercise_policy
        try:
            starters = {p.name: data for p, data in Starters(build.source_dir, lesson, None).files.items()}
        except CourseError:
            starters = None  # no git history: the files on disk stand for the starter
        files = {p.name: p.read_bytes() for p in lesson.student_files()}
        findings = [str(f) for f in exercise_policy.check_lesson(
            build.source_dir, lesson, files, starters, None, build.state_dir)]
    except CourseError as e:
        return [], f"(The exercise policy was not checked here: {e}.)"
    return findings, ""


def print_refusals(lesson: Lesson, findings: List[str]) -> None:
    """What the exercise-file policy refuses, as the grader would."""
    if findings:
        print(f"\nThe exercise policy refuses your files: at grading, lesson {lesson.number} would "
              f"be graded as its starter. Fix these:", flush=True)
        for line in findings[:10]:
            print(f"  {line}", flush=True)
        if len(findings) > 10:
            print(f"  ... and {len(findings) - 10} more", flush=True)


def shown_path(path: Path, source_dir: Path) -> str:
    """A path as the student types it: from the course's root where it is inside, else whole."""
    try:
        return Path(path).resolve().relative_to(Path(source_dir).resolve()).as_posix()
    except ValueError:
        return str(path)


def open_answers(build: Build, done: List[report.LessonProgress], one_lesson: bool = False) -> str:
    """Shows the answers of lessons whose CPU part passes (answers.reveal) and whose exercise
    files are all the student's (as_shipped); the line that says where they are (one_lesson: as
    a lesson's verdict says it) and which wait, or '' when the course has none for them."""
    opened, waiting = [], []
    for p in done:
        untouched = as_shipped(build, p.lesson)
        if untouched:
            names = " and ".join(path.name for path in untouched)
            verb = "is" if len(untouched) == 1 else "are"
            waiting.append(f"lesson {p.lesson.number}'s wait until {names} {verb} yours: the CPU "
                           f"tests do not judge all of it, and it {verb} still as shipped")
            continue
        path = answers.reveal(build.source_dir, p.lesson)
        if path is not None:
            opened.append((p.lesson.number, shown_path(path, build.source_dir)))
    wait = ("The answers of " + "; ".join(waiting) + ".") if waiting else ""
    if not opened:
        return wait
    if one_lesson and len(opened) == 1:
        number, path = opened[0]
        return f"The reasoning behind lesson {number}'s answers: {path}"
    numbers = ", ".join(n for n, _ in opened)
    unpacked = str(answers.UNPACKED)
    where = (unpacked + "/" if all(path.startswith(unpacked) for _, path in opened)
             else ", ".join(path for _, path in opened))
    return f"Answers of the lessons whose CPU part passes ({numbers}): {where}" + \
        (f"\n{wait}" if wait else "")


def print_gpu_judges(p: report.LessonProgress) -> None:
    """What only a GPU judges of the lesson's exercise (its manifest's `gpu_judges`), once its
    CPU part passes."""
    if p.lesson.manifest.gpu_judges:
        print(f"Not judged on the CPU (this note stays, whatever your kernel does, until a GPU "
              f"runs it): {p.lesson.manifest.gpu_judges}", flush=True)


def print_verdict(p: report.LessonProgress, cpu_only: bool, build_dir: str = "build/student",
                  refused: bool = False) -> None:
    table = report.Table([p], build_dir)
    number = p.lesson.number
    if cpu_only:
        print(f"\nLesson {number}, CPU part: {table.cpu_cell(p)} passed; the GPU tests were not "
              f"run (--cpu).", flush=True)
        if p.counted and not p.failing and p.cpu_total and refused:
            print("The CPU tests pass, but the exercise policy refuses your files (below): the "
                  "part is not done until it accepts them.", flush=True)
        elif p.counted and not p.failing and p.cpu_total:
            print(f"The CPU part passes. `{COMMAND} test {number}` builds "
                  f"the kernel and checks it on a GPU.", flush=True)
            print_gpu_judges(p)
    else:
        print(f"\n{report.verdict(p, table)}", flush=True)
        for i, reason in enumerate(table.reasons):
            print(f"[{i + 1}] {reason}")
        if p.status in report.WAITING_FOR_A_GPU:
            print_gpu_judges(p)
    if p.failing:
        more = f" and {len(p.failing) - 1} more" if len(p.failing) > 1 else ""
        print(f"Failing: {p.failing[0]}{more}.", flush=True)


def snapshot(paths: List[Path]) -> Dict[str, tuple]:
    """(modification time, size) of every file under the watched folders."""
    seen = {}
    for root in paths:
        if not root.exists():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in filenames:
                if name.startswith(".") or name.endswith("~"):
                    continue
                p = os.path.join(dirpath, name)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                seen[p] = (st.st_mtime_ns, st.st_size)
    return seen


def wait_for_key(timeout: float) -> Optional[str]:
    """A line typed on stdin within `timeout` seconds; '' at end of input; None if none came."""
    try:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (OSError, ValueError):
        time.sleep(timeout)
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    return line if line else ""


def changed_files(before: Dict[str, tuple], now: Dict[str, tuple], source_dir: Path) -> str:
    changed = sorted(p for p in set(now) | set(before) if now.get(p) != before.get(p))
    names = ", ".join(os.path.relpath(p, str(source_dir)) for p in changed[:3])
    return names + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")


#: What clears a terminal and puts the cursor at its top (ANSI: erase display, cursor home).
CLEAR_SCREEN = "\x1b[2J\x1b[H"


def clears_screen(mode: str) -> bool:
    """`--clear`: always, never, or auto (when the output is a terminal that is not dumb)."""
    if mode in ("always", "never"):
        return mode == "always"
    return sys.stdout.isatty() and os.environ.get("TERM", "") not in ("", "dumb")


def watch(build: Build, lesson: Lesson, jobs: int, cpu_only: bool, interval: float,
          manual: bool, clear: bool = False, verbose: bool = False) -> int:
    """Reruns the lesson whenever its files change (or, manual, on Enter); q then Enter stops.
    `clear`: each rerun starts on a clear screen, so the verdict in view is the latest one."""
    watched = [lesson.dir, build.source_dir / "tests" / lesson.folder]
    runs = 0

    def rerun() -> Dict[str, tuple]:
        nonlocal runs
        if clear and runs > 0:
            print(CLEAR_SCREEN, end="", flush=True)
        runs += 1
        run_lesson(build, lesson, jobs, cpu_only, watching=True, verbose=verbose)
        return snapshot(watched)

    before = rerun()
    if manual:
        print(f"\nManual mode: press Enter to rebuild and rerun lesson {lesson.number}, "
              f"q then Enter to stop.", flush=True)
    else:
        print(f"\nWatching {lesson.rel_dir}/ and tests/{lesson.folder}/ for changes "
              f"(Enter: run now, q then Enter: stop).", flush=True)
    stdin_open = True
    try:
        while True:
            key = wait_for_key(interval) if stdin_open else (time.sleep(interval) or None)
            if key == "":  # end of input
                if manual:
                    return 0
                stdin_open = False
            elif key is not None:
                if key.strip().lower() in ("q", "quit", "exit"):
                    return 0
                before = rerun()
                continue
            if manual:
                continue
            now = snapshot(watched)
            if now != before:
                print(f"\nChanged: {changed_files(before, now, build.source_dir)}", flush=True)
                time.sleep(min(0.3, interval))  # let the editor finish writing
                before = rerun()
    except KeyboardInterrupt:
        print()
        return 0
