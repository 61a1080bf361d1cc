#!/usr/bin/env python3
"""The course's command-line tool for students.

  progress        build each lesson, run its tests: the table, the status, what to do next
  test NN         build lesson NN, run its tests, print the verdict (--cpu: the CPU part only)
  hint NN         the next of lesson NN's graded hints (its hints.md), one at a time
  watch [NN]      `test NN` again whenever the lesson's files change
  reset NN        put lesson NN's starter files back as shipped (asks first)

Examples:
  python3 tools/course/course.py progress
  python3 tools/course/course.py test 03 --cpu
  python3 tools/course/course.py hint 03
  python3 tools/course/course.py watch 03
  python3 tools/course/course.py reset 03

A lesson is done when its GPU exercise tests passed; without a GPU its CPU part can pass, but
its kernel is not checked and it is not finished. Once every CPU test of a lesson passes, `test`
and `progress` say where the reasoning behind its answers is (tools/course/answers.py). The build folder is build/student (the
`student` preset's) unless --build-dir says otherwise. The hints seen so far and the copies
`reset` keeps live in .course/ at the course's root, outside build/. Exit status: 0 when the
command did its job (progress exits 0 whatever the lessons' status; test exits 1 when a test
failed or the lesson does not build), 1 when it could not, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_cli import (Parser, jobs_option, lesson_number, make_dir, run_main,  # noqa: E402
                        seconds, text_output_that_never_fails, write_text_atomic)
from course_model import (ROOT, SANITIZE_LABEL, Build, CourseError, LessonBuild,  # noqa: E402
                          build_status_json, default_build_dir, lesson_by_number, state_dir)
from ctest_results import ResultError, list_tests, read_junit, run_ctest  # noqa: E402
import lesson_loop  # noqa: E402
import progress_report as report  # noqa: E402
from starters import Starters  # noqa: E402

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

def build_every_lesson(build: Build, jobs: int) -> Dict[str, LessonBuild]:
    """Builds each lesson the build knows on its own; records how each went."""
    lessons = [lesson for lesson in build.lessons() if build.knows(lesson)]
    print(f"Building each lesson on its own (cmake --build {build.dir} --target lessonNN):",
          flush=True)
    builds = build.build_lessons(lessons, jobs)
    write_text_atomic(build.status_path, build_status_json(builds))
    return builds


def run_student_tests(build: Build, builds: Dict[str, LessonBuild], jobs: int) -> Path:
    """Runs every student test, except those of lessons that did not build (their programs,
    if any, are older than the sources) and the sanitizer runs (slow; grading and
    `ctest -L sanitize` run them). Returns the JUnit report."""
    junit = make_dir(build.state_dir) / "progress.xml"
    failed = [label for label, b in builds.items() if b.failed]
    extra = ["-LE", f"^({'|'.join([SANITIZE_LABEL] + failed)})$"]
    print(f"Running the tests of every lesson (ctest --test-dir {build.dir} -L student) ...",
          flush=True)
    run_ctest(build.dir, junit, ["^student$"], jobs=jobs, extra=extra)
    return junit


def cmd_progress(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    build.require_configured()
    lessons = build.lessons()
    builds = {}
    if args.junit is None and not args.no_build:
        builds = build_every_lesson(build, args.jobs)
    try:
        tests = list_tests(build.dir)
        junit = args.junit or run_student_tests(build, builds, args.jobs)
        results = read_junit(junit)
    except ResultError as e:
        raise CourseError(str(e)) from None

    progress = report.summarize(lessons, tests, results, builds=builds)
    print()
    print(report.Table(progress, lesson_loop.shown_path(build.dir, build.source_dir)).render())
    measured = report.render_measurements(progress)
    if measured:
        print()
        print("\n".join(measured))
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
    hint_cmd = f"python3 tools/course/course.py hint {lesson.number}"

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
    return 0 if lesson_loop.run_lesson(build, lesson, args.jobs, args.cpu) else 1


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
        lesson_loop.run_lesson(build, lesson, args.jobs, args.cpu, watching=True)
        return 0
    return lesson_loop.watch(build, lesson, args.jobs, args.cpu, args.interval, args.manual)


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

    p = command("progress", cmd_progress, "build each lesson, run its tests, print the table")
    jobs_option(p)
    p.add_argument("--no-build", action="store_true",
                   help="do not build first: the results may be older than the sources")
    p.add_argument("--junit", type=Path,
                   help="read this JUnit report instead of building and running the tests")

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
    jobs_option(p)

    p = command("reset", cmd_reset, "put a lesson's starter files back as shipped (asks first)")
    lesson_arg(p)
    p.add_argument("--yes", "-y", action="store_true", help="do not ask")
    p.add_argument("--from", dest="from_ref", metavar="REF",
                   help="restore from this tag or commit (default: the newest starters-vN tag)")
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
