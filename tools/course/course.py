#!/usr/bin/env python3
"""The course's command-line tool for students.

  progress        every lesson: CPU and GPU tests passed, status, and what to do next
  hint NN         the next of lesson NN's graded hints, one at a time
  watch [NN]      rebuild and rerun a lesson's tests whenever its files change
  reset NN        put lesson NN's starter files back as shipped (asks first)

Examples:
  python3 tools/course/course.py progress
  python3 tools/course/course.py hint 03
  python3 tools/course/course.py watch 03
  python3 tools/course/course.py reset 03

The tools keep their state (hints shown, the last report) in the build folder, by default
build/student (the `student` preset's). Exit status: 0 when the command did its job (progress
exits 0 whatever the lessons' status), 1 when it could not, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from course_tree import (ROOT, STUDENT_FILE_PATTERN, Build, CourseError, Lesson,  # noqa: E402
                         Parser, default_build_dir, lesson_by_number, parse_lesson_number,
                         write_text_atomic)
from ctest_results import ResultError, list_tests, read_junit, run_ctest  # noqa: E402
import progress_report as report  # noqa: E402

PROG = "course"
STARTERS_TAG_PATTERN = "starters-v*"


# ------------------------------------------------------------------------------------------
# State kept in the build folder
# ------------------------------------------------------------------------------------------

def state_path(build: Build) -> Path:
    return build.state_dir / "state.json"


def load_state(build: Build) -> dict:
    path = state_path(build)
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def save_state(build: Build, state: dict) -> None:
    write_text_atomic(state_path(build), json.dumps(state, indent=2, sort_keys=True) + "\n")


# ------------------------------------------------------------------------------------------
# progress
# ------------------------------------------------------------------------------------------

def build_each_lesson(build: Build, jobs: int) -> None:
    """Builds every lesson target on its own, so one that does not compile hides no other."""
    helper = Path(__file__).resolve().parent / "build_lessons.py"
    subprocess.run([sys.executable, str(helper), "--build-dir", str(build.dir),
                    "--jobs", str(jobs)])


def cmd_progress(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    build.require_configured()
    lessons = build.lessons()
    if args.build:
        build_each_lesson(build, args.jobs)
    try:
        tests = list_tests(build.dir)
    except (ResultError, ValueError) as e:
        raise CourseError(str(e)) from None
    junit = args.junit
    if junit is None:
        junit = build.state_dir / "progress.xml"
        try:
            build.state_dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CourseError(f"cannot write {build.state_dir}: {e.strerror or e}") from None
        print(f"Running the tests of every lesson (ctest --test-dir {build.dir} -L student) ...",
              flush=True)
        run_ctest(build.dir, junit, ["^student$"], jobs=args.jobs)
    try:
        results = read_junit(junit)
    except ResultError as e:
        raise CourseError(str(e)) from None

    status_file = build.state_dir / "build-status.json"
    build_status = {}
    if args.build and status_file.is_file():
        try:
            build_status = json.loads(status_file.read_text()).get("lessons", {})
        except (OSError, ValueError, AttributeError):
            build_status = {}
    progress = report.summarize(lessons, tests, results, build_status=build_status)
    print()
    print(report.Table(progress).render())
    measured = report.render_measurements(progress)
    if measured:
        print()
        print("\n".join(measured))
    print()
    print("\n".join(report.next_step(progress, build.dir, build.source_dir)))

    nxt = next((p.lesson.number for p in progress if not p.finished), None)
    state = load_state(build)
    state["next_lesson"] = nxt
    state["last_progress"] = {p.lesson.number: p.status for p in progress}
    try:
        save_state(build, state)
    except CourseError:
        pass  # the table is what matters; the state is a convenience for `watch`
    return 0


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

    if args.reset:
        shown_all.pop(lesson.number, None)
        save_state(build, state)
        print(f"Lesson {lesson.number}: hints forgotten; the next one is hint 1 of {len(hints)}.")
        return 0
    if args.again:
        if shown == 0:
            print(f"Lesson {lesson.number}: no hint shown yet. Take the first with "
                  f"`python3 tools/course/course.py hint {lesson.number}`.")
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
        print(f"Still stuck after trying it? `python3 tools/course/course.py hint {lesson.number}` "
              f"gives hint {index + 2}.")
    else:
        print(f"That was the last hint: the idea itself. "
              f"`python3 tools/course/course.py hint {lesson.number} --again` shows them all.")
    return 0


# ------------------------------------------------------------------------------------------
# watch
# ------------------------------------------------------------------------------------------

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


def run_lesson_once(build: Build, lesson: Lesson, jobs: int) -> None:
    """Rebuilds one lesson and runs its student tests, then prints its progress line."""
    print(f"\n=== lesson {lesson.number} ({lesson.title}): building "
          f"({datetime.datetime.now():%H:%M:%S}) ===", flush=True)
    built = subprocess.run(["cmake", "--build", str(build.dir), "--target", lesson.label,
                            "-j", str(jobs)])
    if built.returncode != 0:
        print(f"\nLesson {lesson.number} does not build: fix the error above and save.", flush=True)
        return
    junit = build.state_dir / f"watch-{lesson.label}.xml"
    build.state_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["ctest", "--test-dir", str(build.dir), "-L", f"^{lesson.label}$",
                    "-L", "^student$", "--output-on-failure", "--output-junit", str(junit.resolve()),
                    "-j", str(jobs)])
    try:
        results = read_junit(junit)
        tests = list_tests(build.dir)
    except (ResultError, ValueError) as e:
        print(f"{PROG}: {e}", flush=True)
        return
    p = report.summarize([lesson], tests, results)[0]
    table = report.Table([p])
    print(f"\nLesson {lesson.number}: CPU {p.cpu_passed}/{p.cpu_total}, GPU {table.gpu_cell(p)}: "
          f"{p.status}", flush=True)
    for i, reason in enumerate(table.reasons):
        print(f"[{i + 1}] {reason}")
    if p.failing:
        more = f" and {len(p.failing) - 1} more" if len(p.failing) > 1 else ""
        print(f"Failing: {p.failing[0]}{more}.", flush=True)


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
    watched = [lesson.dir, build.source_dir / "tests" / lesson.folder]

    run_lesson_once(build, lesson, args.jobs)
    if args.once:
        return 0
    if args.manual:
        print(f"\nManual mode: press Enter to rebuild and rerun lesson {lesson.number}, "
              f"q then Enter to stop.", flush=True)
    else:
        print(f"\nWatching {lesson.rel_dir}/ and tests/{lesson.folder}/ for changes "
              f"(Enter: run now, q then Enter: stop).", flush=True)
    before = snapshot(watched)
    stdin_open = True
    try:
        while True:
            key = wait_for_key(args.interval) if stdin_open else (time.sleep(args.interval) or None)
            if key is not None:
                if key == "":  # end of input
                    if args.manual:
                        return 0
                    stdin_open = False
                elif key.strip().lower() in ("q", "quit", "exit"):
                    return 0
                else:
                    run_lesson_once(build, lesson, args.jobs)
                    before = snapshot(watched)
                    continue
            if args.manual:
                continue
            now = snapshot(watched)
            if now != before:
                changed = sorted(p for p in set(now) | set(before) if now.get(p) != before.get(p))
                names = ", ".join(os.path.relpath(p, str(build.source_dir)) for p in changed[:3])
                more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
                print(f"\nChanged: {names}{more}", flush=True)
                time.sleep(min(0.3, args.interval))  # let the editor finish writing
                run_lesson_once(build, lesson, args.jobs)
                before = snapshot(watched)
    except KeyboardInterrupt:
        print()
        return 0


# ------------------------------------------------------------------------------------------
# reset
# ------------------------------------------------------------------------------------------

def git(repo: Path, *argv: str, binary: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *argv], capture_output=True,
                          text=not binary)


def starters_ref(repo: Path, explicit: Optional[str]) -> tuple:
    """(commit, how it was chosen): --from, else the newest starters-vN tag, else the
    repository's first commit (a repository made from a template starts with the starters)."""
    if explicit:
        proc = git(repo, "rev-parse", "--verify", "--quiet", f"{explicit}^{{commit}}")
        if proc.returncode != 0:
            raise CourseError(f"--from {explicit}: no such tag or commit in {repo}")
        return proc.stdout.strip(), explicit
    tags = git(repo, "tag", "--list", STARTERS_TAG_PATTERN, "--sort=-v:refname")
    for tag in tags.stdout.split():
        proc = git(repo, "rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}")
        if proc.returncode == 0:
            return proc.stdout.strip(), f"tag {tag}"
    roots = git(repo, "rev-list", "--max-parents=0", "HEAD")
    if roots.returncode == 0 and roots.stdout.split():
        return roots.stdout.split()[-1], "the repository's first commit (no starters-v1 tag)"
    raise CourseError(f"no starters to restore from: {repo} has no starters-v1 tag and no commits")


def cmd_reset(args) -> int:
    build = Build(args.build_dir, args.source_dir)
    lesson = lesson_by_number(build.lessons(), args.lesson)
    if shutil.which("git") is None:
        raise CourseError("reset needs git, and git is not installed")
    top = git(build.source_dir, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise CourseError(f"reset needs the course's git history, and {build.source_dir} is not "
                          f"a git repository")
    repo = Path(top.stdout.strip())
    prefix = git(build.source_dir, "rev-parse", "--show-prefix").stdout.strip()
    commit, how = starters_ref(repo, args.from_ref)
    rel_dir = f"{prefix}{lesson.rel_dir}"
    listing = git(repo, "ls-tree", "--name-only", commit, f"{rel_dir}/")
    paths = [p for p in listing.stdout.splitlines()
             if fnmatch.fnmatch(p.rsplit("/", 1)[-1], STUDENT_FILE_PATTERN)]
    if not paths:
        raise CourseError(f"{lesson.rel_dir} has no starter files ({STUDENT_FILE_PATTERN}) at "
                          f"{commit[:10]} ({how})")
    starters = {}
    for p in paths:
        blob = git(repo, "show", f"{commit}:{p}", binary=True)
        if blob.returncode != 0:
            raise CourseError(f"cannot read {p} at {commit[:10]}")
        starters[repo / p] = blob.stdout
    changed = [p for p, data in starters.items() if not p.is_file() or p.read_bytes() != data]
    names = ", ".join(p.name for p in sorted(starters))
    if not changed:
        print(f"Lesson {lesson.number}: {names} are already as shipped ({how}, {commit[:10]}); "
              f"nothing to do.")
        return 0

    backup = build.state_dir / "backup" / f"{lesson.folder}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    listed = ", ".join(f"{lesson.rel_dir}/{p.name}" for p in sorted(changed))
    if not args.yes:
        print(f"This puts back the starter version of {listed}, from {how} ({commit[:10]}).")
        print(f"Your current version is kept in {backup}.")
        try:
            answer = input("Reset these files? [y/N] ")
        except EOFError:
            answer = ""
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing changed.")
            return 1
    try:
        backup.mkdir(parents=True, exist_ok=True)
        for p in changed:
            if p.is_file():
                shutil.copy2(str(p), str(backup / p.name))
    except OSError as e:
        raise CourseError(f"cannot keep a copy of your files in {backup} ({e.strerror or e}); "
                          f"nothing changed") from None
    for p in changed:
        try:
            p.write_bytes(starters[p])
        except OSError as e:
            raise CourseError(f"cannot write {p}: {e.strerror or e}") from None
    print(f"Lesson {lesson.number}: restored {listed} from {how} ({commit[:10]}). "
          f"Your previous version is in {backup}.")
    return 0


# ------------------------------------------------------------------------------------------

def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a whole number") from None
    if value < 1 or value > 1024:
        raise ValueError(f"{value} is out of range (1-1024)")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a number of seconds") from None
    if not 0 < value <= 60:
        raise ValueError(f"{text} is out of range (more than 0, at most 60 seconds)")
    return value


def lesson_arg(text: str) -> str:
    try:
        return parse_lesson_number(text)
    except CourseError as e:
        raise ValueError(str(e)) from None


def _typed(convert):
    def parse(text: str):
        try:
            return convert(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return parse


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

    jobs = dict(type=_typed(positive_int), default=os.cpu_count() or 1,
                help="tests and compilations at once (default: the number of CPUs)")

    p = command("progress", cmd_progress, "the table of every lesson, and what to do next")
    p.add_argument("--jobs", "-j", **jobs)
    p.add_argument("--build", action="store_true",
                   help="first build each lesson on its own (one that does not compile hides no "
                        "other)")
    p.add_argument("--junit", type=Path, help="read this JUnit report instead of running the tests")

    p = command("hint", cmd_hint, "the next of a lesson's graded hints, one at a time")
    p.add_argument("lesson", type=_typed(lesson_arg), help="lesson number, e.g. 03")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--again", action="store_true", help="show the hints seen so far")
    g.add_argument("--reset", action="store_true", help="forget which hints were shown")

    p = command("watch", cmd_watch, "rebuild and rerun a lesson's tests whenever its files change")
    p.add_argument("lesson", nargs="?", type=_typed(lesson_arg),
                   help="lesson number (default: the next one, from the last progress report)")
    p.add_argument("--manual", action="store_true",
                   help="no change detection, Enter reruns (for file systems where changes are "
                        "not seen, e.g. some network or VM shares)")
    p.add_argument("--interval", type=_typed(seconds), default=1.0,
                   help="seconds between looks for changes (default 1)")
    p.add_argument("--once", action="store_true", help="build and test once, then stop")
    p.add_argument("--jobs", "-j", **jobs)

    p = command("reset", cmd_reset, "put a lesson's starter files back as shipped (asks first)")
    p.add_argument("lesson", type=_typed(lesson_arg), help="lesson number, e.g. 03")
    p.add_argument("--yes", "-y", action="store_true", help="do not ask")
    p.add_argument("--from", dest="from_ref", metavar="REF",
                   help="restore from this tag or commit (default: the newest starters-vN tag)")
    return ap


def main(argv: List[str]) -> int:
    args = make_parser().parse_args(argv)
    source_dir = args.source_dir.resolve() if args.source_dir else None
    args.source_dir = source_dir
    if args.build_dir is None:
        args.build_dir = default_build_dir(source_dir or ROOT)
    try:
        return args.func(args)
    except CourseError as e:
        print(f"{PROG} {args.command}: {e}", file=sys.stderr)
        return 1
    except FileNotFoundError as e:
        if e.filename in ("ctest", "cmake", "git"):
            print(f"{PROG} {args.command}: {e.filename} is not installed, or not on PATH",
                  file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
