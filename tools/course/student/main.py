#!/usr/bin/env python3
"""The course's command for students, `./course` at the course's root.

  test NN         build lesson NN, run its tests, print the verdict (--cpu: the CPU part only)
  watch [NN]      `test NN` again whenever the lesson's files change (default: the next lesson)
  hint NN         the next of lesson NN's graded hints (its hints.md), one at a time
  next            what to do next: the lesson, the file to edit and the command
  progress        build the lessons reached, run their tests: the table, what to do next
  reset NN        put lesson NN's starter files back as shipped (asks first)
  self-check      check the course's bank model against this GPU's counters (about 2 minutes,
                  once per GPU and driver): the 8- and 16-byte rules were measured on an sm_90

Examples:
  ./course test 03 --cpu
  ./course watch 03
  ./course hint 03
  ./course next
  ./course progress
  ./course reset 03
  ./course self-check

A lesson is done when its GPU exercise tests passed; without a GPU its CPU part can pass, but
its kernel is not checked and it is not finished. Once every CPU test of a lesson passes, `test`
and `progress` say where the reasoning behind its answers is (course.model.answers). The build
folder is build/student (the `student` preset's) unless --build-dir says otherwise. The hints seen so far and the copies
`reset` keeps live in .course/ at the course's root, outside build/. Exit status: 0 when the
command did its job (progress exits 0 whatever the lessons' status; test exits 1 when a test
failed or the lesson does not build), 1 when it could not, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

from course.model.cli import (Parser, default_jobs, jobs_option, lesson_number, make_dir,
                              module_command, run_main, seconds, text_output_that_never_fails,
                              write_text_atomic)
from course.model.course_model import (Build, COMMAND, CourseError, Lesson, LessonBuild, ROOT,
                                       SANITIZE_LABEL, build_status_json, default_build_dir,
                                       lesson_by_number, read_build_status, state_dir)
from course.model.ctest_results import (ResultError, TestInfo, TestResult, list_tests, read_junit,
                                        run_ctest)
from course.model.starters import Starters
from course.student import lesson_loop, progress_cache, progress_report as report

PROG = "course"


# ------------------------------------------------------------------------------------------
# The student's state: <course>/.course/state.json
# ------------------------------------------------------------------------------------------

def load_state(build: Build) -> dict:
    try:
        data = json.loads((state_dir(build.source_dir) / "state.json").read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def save_state(build: Build, state: dict) -> None:
    write_text_atomic(state_dir(build.source_dir) / "state.json",
                      json.dumps(state, indent=2, sort_keys=True) + "\n")


# ------------------------------------------------------------------------------------------
# progress
# ------------------------------------------------------------------------------------------

def build_lessons(build: Build, lessons: List[Lesson], jobs: int,
                  cpu_only: bool) -> Dict[str, LessonBuild]:
    """Builds the lessons (cpu_only: their CPU test programs); records how each went."""
    builds = build.build_lessons(lessons, jobs, cpu_only=cpu_only)
    status = {}
    try:
        status = read_build_status(build.status_path)
    except CourseError:
        pass
    status.update(builds)
    write_text_atomic(build.status_path, build_status_json(status))
    return builds


def wants_gpu(build: Build, lesson: Lesson, tests: Dict[str, TestInfo],
              cpu: report.LessonProgress) -> bool:
    """Whether progress builds a lesson's GPU test programs: once its CPU tests pass (its kernel
    is worth checking), or when they are built already (kept current)."""
    return (cpu.cpu_done or cpu.cpu_total == 0
            or progress_cache.programs_built(lesson, tests, "gpu"))


def run_tests(build: Build, lessons: List[Lesson], kind: str, jobs: int, rerun: bool,
              store: progress_cache.ResultStore
              ) -> Tuple[Dict[str, TestInfo], Dict[str, TestResult], Dict[str, str]]:
    """Runs the student tests of one kind ('cpu' or 'gpu') of the lessons, except the sanitizer
    runs (slow; grading and `ctest -L sanitize` run them), and except lessons whose results can
    be shown again (progress_cache). Returns (every registered test, the results, {label: when
    the reused results were taken})."""
    tests = list_tests(build.dir)
    plans = progress_cache.plan(lessons, tests, kind, store,
                                lambda: progress_cache.machine_key(build.dir),
                                leave_out=[SANITIZE_LABEL])
    results: Dict[str, TestResult] = {}
    taken = {}
    to_run = []
    for p in plans:
        if p.reused and not rerun:
            taken[p.lesson.label], kept = p.reused
            results.update(kept)
        else:
            to_run.append(p)
    if to_run:
        junit = make_dir(build.state_dir) / f"progress-{kind}.xml"
        names = ", ".join(p.lesson.number for p in to_run)
        print(f"Running the {kind.upper()} tests of lesson(s) {names} "
              f"(ctest --test-dir {build.dir} -L student -L {kind}) ...", flush=True)
        lesson_regex = "^(" + "|".join(p.lesson.label for p in to_run) + ")$"
        run_ctest(build.dir, junit, ["^student$", lesson_regex, f"^{kind}$"], jobs=jobs,
                  extra=["-LE", f"^{SANITIZE_LABEL}$"])
        ran = read_junit(junit)
        results.update(ran)
        for p in to_run:
            store.keep(p.entry, p.key, {n: r for n, r in ran.items() if n in p.tests})
    return tests, results, taken


def cmd_progress(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    build.require_configured()
    lessons = build.lessons()
    known = [lesson for lesson in lessons if build.knows(lesson)]
    builds: Dict[str, LessonBuild] = {}
    taken: Dict[str, str] = {}
    waiting: List[Lesson] = []
    try:
        if args.junit is not None:
            tests = list_tests(build.dir)
            results = read_junit(args.junit)
        else:
            results, tests, taken, builds, waiting = progress_run(build, known, args)
    except ResultError as e:
        raise CourseError(str(e)) from None

    progress = report.summarize(lessons, tests, results, builds=builds,
                                on_demand=build.gpu_programs,
                                not_reached={lesson.label for lesson in waiting})
    if args.command == "progress":
        print()
        print(report.Table(progress, lesson_loop.shown_path(build.dir, build.source_dir)).render())
        measured = report.render_measurements(progress)
        if measured:
            print()
            print("\n".join(measured))
        if taken:
            print()
            print(report.reused_note(progress, taken))
    print()
    print("\n".join(report.next_step(progress, build.dir, build.source_dir)))
    opened = lesson_loop.open_answers(build, [p for p in progress if p.cpu_done])
    if opened:
        print(opened)
    if args.no_build:
        print("Not rebuilt (--no-build): these results are from the last build, which may be "
              "older than your sources.")
    remember(build, progress)
    return 0


def reached(build: Build, lesson: Lesson, tests: Dict[str, TestInfo]) -> bool:
    """Whether progress builds a lesson's CPU test programs before the lessons ahead of it pass
    theirs: they are built already (kept current), or an exercise file of the lesson is the
    student's (where the starters are known: a repository with its history)."""
    if progress_cache.programs_built(lesson, tests, "cpu"):
        return True
    try:
        return bool(Starters(build.source_dir, lesson, None).changed())
    except CourseError:
        return False


def build_reached(build: Build, lessons: List[Lesson], args, store: progress_cache.ResultStore
                  ) -> Tuple[Dict[str, TestResult], Dict[str, TestInfo], Dict[str, str],
                             Dict[str, LessonBuild], List[Lesson]]:
    """The CPU part of the lessons the student has reached, in order: the first lesson whose CPU
    tests do not pass yet and every lesson before it, and the lessons reached() says were
    reached. Lessons past that are not built (a first build makes what the student needs first;
    `./course test NN` builds any lesson at once). Returns (results, tests, {label: when reused
    results were taken}, {label: this run's build}, the lessons built)."""
    tests = list_tests(build.dir)
    early = {lesson.label for lesson in lessons if reached(build, lesson, tests)}
    results: Dict[str, TestResult] = {}
    taken: Dict[str, str] = {}
    builds: Dict[str, LessonBuild] = {}
    tried: List[Lesson] = []
    passed: set = set()
    # Their CPU test programs: where the build makes no GPU test programs (no GPU), the
    # lesson's own target would add its CUDA library, which no test of the table runs.
    print(f"Building the lessons you have reached (cmake --build {build.dir} --target "
          f"lessonNN-cpu):", flush=True)
    while True:
        frontier = next((x for x in lessons if x.label not in passed), None)
        batch = [x for x in lessons
                 if x not in tried and (x.label in early or x is frontier)]
        if not batch:
            break
        tried += batch
        builds.update(build_lessons(build, batch, args.jobs, cpu_only=True))
        built = [x for x in batch if not builds[x.label].failed]
        tests, ran, reused = run_tests(build, built, "cpu", args.jobs, args.rerun, store)
        results.update(ran)
        taken.update(reused)
        passed |= {p.lesson.label for p in report.summarize(built, tests, results)
                   if p.cpu_done or (p.counted and p.cpu_total == 0)}
        if frontier is None or frontier.label not in passed:
            break
    order = {lesson.label: i for i, lesson in enumerate(lessons)}
    return results, tests, taken, builds, sorted(tried, key=lambda x: order[x.label])


def progress_run(build: Build, lessons: List[Lesson], args):
    """Builds and tests for the progress table: the CPU part of the lessons reached (every
    lesson's with --no-build, as last built), then the GPU part of the lessons that want it
    (wants_gpu; every lesson's where this build makes no GPU programs: its GPU tests then report
    Skipped). Returns (results, tests, {label: when reused results were taken}, {label: this
    run's build}, the lessons not built because not reached yet)."""
    store = progress_cache.ResultStore(build.state_dir)
    on_demand = build.gpu_programs
    builds: Dict[str, LessonBuild] = {}
    if args.no_build:
        tried = lessons
        tests, results, taken = run_tests(build, lessons, "cpu", args.jobs, args.rerun, store)
    else:
        results, tests, taken, builds, tried = build_reached(build, lessons, args, store)
    built = [lesson for lesson in tried if not builds.get(lesson.label, LessonBuild("")).failed]
    if on_demand:
        cpu = {p.lesson.label: p for p in report.summarize(built, tests, results)}
        gpu_lessons = [lesson for lesson in built
                       if wants_gpu(build, lesson, tests, cpu[lesson.label])]
        if gpu_lessons and not args.no_build:
            print(f"Building the GPU tests of lesson(s) "
                  f"{', '.join(lesson.number for lesson in gpu_lessons)} (their CPU tests pass, "
                  f"or they were built before):", flush=True)
            gpu_builds = build_lessons(build, gpu_lessons, args.jobs, cpu_only=False)
            builds.update(gpu_builds)
            gpu_lessons = [lesson for lesson in gpu_lessons if not gpu_builds[lesson.label].failed]
    else:
        gpu_lessons = built
    tests, gpu_results, gpu_taken = run_tests(build, gpu_lessons, "gpu", args.jobs, args.rerun,
                                              store)
    results.update(gpu_results)
    for label, when in gpu_taken.items():
        taken[label] = min(when, taken.get(label, when))
    store.save()
    waiting = [lesson for lesson in lessons if lesson not in tried]
    return results, tests, taken, builds, waiting


def remember(build: Build, progress: List[report.LessonProgress]) -> None:
    """The next lesson and each lesson's status, for `watch` without a lesson number."""
    nxt = report.next_lesson(progress)
    state = load_state(build)
    state["next_lesson"] = nxt.lesson.number if nxt else None
    state["last_progress"] = {p.lesson.number: p.status for p in progress}
    try:
        save_state(build, state)
    except CourseError:
        pass  # the table is what matters; the state is a convenience for `watch`


# ------------------------------------------------------------------------------------------
# hint
# ------------------------------------------------------------------------------------------

def cmd_hint(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    lesson = lesson_by_number(build.lessons(), args.lesson)
    hints = lesson.hints()
    state = load_state(build)
    shown_all: Dict[str, int] = state.setdefault("hints_shown", {})
    shown = min(int(shown_all.get(lesson.number, 0) or 0), len(hints))
    hint_cmd = f"{COMMAND} hint {lesson.number}"

    if args.reset:
        shown_all.pop(lesson.number, None)
        save_state(build, state)
        print(f"Lesson {lesson.number}: hints forgotten; the next one is hint 1 of {len(hints)}.")
        return 0
    if args.again:
        if shown == 0:
            print(f"Lesson {lesson.number}: no hint shown yet. Take the first with `{hint_cmd}`.")
            return 0
        for i in range(shown):
            print(f"--- Lesson {lesson.number}, hint {i + 1} of {len(hints)} ---")
            print(hints[i])
            print()
        return 0

    index = min(shown, len(hints) - 1)
    shown_all[lesson.number] = index + 1
    save_state(build, state)  # before printing: a hint is counted once it is seen
    print(f"--- Lesson {lesson.number} ({lesson.title}), hint {index + 1} of {len(hints)} ---")
    print(hints[index])
    print()
    if index + 1 < len(hints):
        print(f"Still stuck after trying it? `{hint_cmd}` gives hint {index + 2}.")
    else:
        print(f"That was the last hint: the idea itself. `{hint_cmd} --again` shows them all.")
    return 0


# ------------------------------------------------------------------------------------------
# test and watch
# ------------------------------------------------------------------------------------------

def cmd_test(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    build.require_configured()
    lesson = lesson_by_number(build.lessons(), args.lesson)
    return 0 if lesson_loop.run_lesson(build, lesson, args.jobs, args.cpu,
                                       verbose=args.verbose) else 1


def cmd_watch(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    build.require_configured()
    lessons = build.lessons()
    if args.lesson is not None:
        lesson = lesson_by_number(lessons, args.lesson)
    else:
        nxt = load_state(build).get("next_lesson")
        lesson = next((x for x in lessons if x.number == nxt), None) or (lessons[0] if lessons else None)
        if lesson is None:
            raise CourseError("there are no lessons to watch")
    if args.once:
        lesson_loop.run_lesson(build, lesson, args.jobs, args.cpu, watching=True,
                               verbose=args.verbose)
        return 0
    return lesson_loop.watch(build, lesson, args.jobs, args.cpu, args.interval, args.manual,
                             lesson_loop.clears_screen(args.clear), args.verbose)


# ------------------------------------------------------------------------------------------
# reset
# ------------------------------------------------------------------------------------------

def cmd_reset(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    lesson = lesson_by_number(build.lessons(), args.lesson)
    starters = Starters(build.source_dir, lesson, args.from_ref)
    changed = starters.changed()
    if not changed:
        names = ", ".join(p.name for p in sorted(starters.files))
        print(f"Lesson {lesson.number}: {names} are already as shipped ({starters.source}); "
              f"nothing to do.")
        return 0
    backup = starters.backup_dir()
    listed = ", ".join(f"{lesson.rel_dir}/{p.name}" for p in changed)
    if not args.yes:
        print(f"This puts back the starter version of {listed}, from {starters.source}.")
        print(f"Your current version is kept in {backup}.")
        try:
            answer = input("Reset these files? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing changed.")
            return 1
    starters.restore(changed, backup)
    print(f"Lesson {lesson.number}: restored {listed} from {starters.source}. "
          f"Your previous version is in {backup}.")
    return 0


# ------------------------------------------------------------------------------------------
# self-check
# ------------------------------------------------------------------------------------------

def cmd_self_check(args) -> int:
    """The instructors' self-check of the bank model (course.grading.self_check) on this build's
    bank-probe, run as its own program (the student's room does not import grading's); its exit
    status: 0 verified, 3 patterns differ, 1 cannot run here."""
    build = Build(args.build_dir, args.source_dir)
    build.require_configured()
    made = build.build_target("bank-probe", default_jobs(), capture=True)
    if made.returncode != 0:
        raise CourseError(f"bank-probe does not build in {build.dir}: "
                          f"{(made.stdout or '').strip()[-400:]}")
    command = [*module_command("course.grading.self_check"), "--build-dir", str(build.dir)]
    if args.force:
        command.append("--force")
    if args.seed is not None:
        command += ["--seed", args.seed]
    return subprocess.run(command).returncode


# ------------------------------------------------------------------------------------------

def make_parser() -> Parser:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    build_help = "the build folder (default: build/student)"
    ap.add_argument("--build-dir", type=Path, default=None, help=build_help)
    ap.add_argument("--source-dir", type=Path, default=None, help=argparse.SUPPRESS)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def command(name: str, func, help_text: str) -> Parser:
        p = sub.add_parser(name, help=help_text, description=help_text)
        # SUPPRESS: given after the command it is set; not given, the one before it stays.
        p.add_argument("--build-dir", type=Path, default=argparse.SUPPRESS, help=build_help)
        p.set_defaults(func=func)
        return p

    def lesson_arg(p: Parser, **kw) -> None:
        p.add_argument("lesson", type=lesson_number, help="lesson number, e.g. 03", **kw)

    def cpu_flag(p: Parser) -> None:
        p.add_argument("--cpu", action="store_true",
                       help="only the CPU part: build lessonNN-cpu (host compiler, seconds) and "
                            "run the CPU tests")
        p.add_argument("--verbose", action="store_true",
                       help="every line the failing tests print (default: each one's first "
                            "failure)")

    p = command("progress", cmd_progress, "build each lesson, run its tests, print the table")
    jobs_option(p)
    p.add_argument("--no-build", action="store_true",
                   help="do not build first: the results may be older than the sources")
    p.add_argument("--junit", type=Path,
                   help="read this JUnit report instead of building and running the tests")
    p.add_argument("--rerun", action="store_true",
                   help="run every test again, even of lessons whose test programs and files "
                        "are unchanged since their last results")

    p = command("next", cmd_progress, "what to do next: the lesson, the file and the command "
                "(progress without the table)")
    jobs_option(p)
    p.set_defaults(no_build=False, junit=None, rerun=False)

    p = command("test", cmd_test, "build a lesson, run its tests, print the verdict")
    lesson_arg(p)
    cpu_flag(p)
    jobs_option(p)

    p = command("hint", cmd_hint, "the next of a lesson's graded hints, one at a time")
    lesson_arg(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--again", action="store_true", help="show the hints seen so far")
    g.add_argument("--reset", action="store_true", help="forget which hints were shown")

    p = command("watch", cmd_watch, "build and test a lesson again whenever its files change")
    lesson_arg(p, nargs="?")
    p.set_defaults(lesson=None)
    cpu_flag(p)
    p.add_argument("--manual", action="store_true",
                   help="no change detection, Enter reruns (for file systems where changes are "
                        "not seen, e.g. some network or VM shares)")
    p.add_argument("--interval", type=seconds, default=1.0,
                   help="seconds between looks for changes (default 1)")
    p.add_argument("--once", action="store_true", help="build and test once, then stop")
    p.add_argument("--clear", choices=("auto", "always", "never"), default="auto",
                   help="clear the screen before each rerun (auto: when the output is a "
                        "terminal)")
    jobs_option(p)

    p = command("reset", cmd_reset, "put a lesson's starter files back as shipped (asks first)")
    lesson_arg(p)
    p.add_argument("--yes", "-y", action="store_true", help="do not ask")
    p.add_argument("--from", dest="from_ref", metavar="REF",
                   help="restore from this tag or commit (default: the newest starters-vN tag)")

    p = command("self-check", cmd_self_check, "check the course's bank model against this GPU's "
                "counters: a few thousand patterns, about 2 minutes, once per GPU and driver "
                "(the record: <build folder>/self-check/rules.json)")
    p.add_argument("--force", action="store_true", help="measure again, even where a record of "
                   "this GPU, driver and course is there")
    p.add_argument("--seed", metavar="S", help="the random draws' seed (default: a fresh one, "
                   "printed): the same patterns as an earlier run")
    return ap


def main(argv: List[str]) -> int:
    text_output_that_never_fails()
    args = make_parser().parse_args(argv)
    args.source_dir = args.source_dir.resolve() if args.source_dir else None
    if args.build_dir is None:
        args.build_dir = default_build_dir(args.source_dir or ROOT)
    return run_main(f"{PROG} {args.command}", lambda: args.func(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
