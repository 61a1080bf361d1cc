#!/usr/bin/env python3
"""Measures the student's edit-test loop on this machine, in a scratch copy of the course, with
the commands the README teaches, against the course's goals for its loop (GOALS).

Steps, each timed by the wall clock:
  first build     a fresh `cmake --workflow --preset student` (configure, build what the
                  student has reached - lesson 01 and the tools - test it, the progress table)
  cpu verdict     `./course test NN --cpu` once, untimed (the lesson reached and built), then
                  edit one of its exercise files (--edit NN:FILE, repeatable; default 01 and
                  03's exercise.hpp, 05's exercise.cu) and time `./course test NN --cpu`
  gpu verdict     the same with `./course test NN` (GPU machines only; --gpu-edit)
  progress        edit lesson 01's exercise.hpp, then `./course progress`
A step after an edit is timed --repeat times (default 3), an edit before each: its row gives the
median.

Each row names the translation units the step compiled (the object files it wrote), its
seconds and the goal. Prints a Markdown table with the machine's cores and GPU; --csv writes
the same rows for docs/measurements/. The copy lives in a temporary folder (kept with --keep);
the checkout you run it from is not touched.

Examples:
  ./course-admin loop-bench
  taskset -c 0,1 ./course-admin loop-bench --csv docs/measurements/loop_times_h100.csv
  ./course-admin loop-bench --edit 06:exercise.cu --dry-run

Exit status: 0 when every step ran (within its goal or not: the table says), 1 when a step
failed (its output is printed), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from dataclasses import dataclass
from typing import List, Optional, Tuple

from course.model import machine
from course.model.cli import Parser, lesson_number, positive_int, run_main
from course.model.course_model import (CourseError, Lesson, ROOT, STATE_FOLDER, find_lessons,
                                       lesson_by_number)

PROG = "loop_bench"


def copy_course(source: Path, dest: Path) -> None:
    """Copies the files of the checkout (tracked and untracked, not ignored) or, outside git,
    every file but the build folders and the student's state."""
    top = subprocess.run(["git", "-C", str(source), "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    names = []
    if top.returncode == 0 and Path(top.stdout.strip()).resolve() == source.resolve():
        proc = subprocess.run(["git", "-C", str(source), "ls-files", "-co", "--exclude-standard",
                               "-z"], capture_output=True)
        names = [n for n in proc.stdout.decode().split("\0") if n]
    if not names:  # not a checkout of its own (an export, or a folder inside another repository)
        names = [str(p.relative_to(source)) for p in source.rglob("*")
                 if p.is_file() and p.relative_to(source).parts[0] not in ("build", STATE_FOLDER)]
    for name in names:
        src = source / name
        if not src.is_file():
            continue  # deleted in the working tree
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


#: The course's goals for the loop, in seconds (docs/maintainers.md, "The student's loop"):
#: a first build on a 2-core laptop without a GPU, and on a GPU machine; a CPU verdict after an
#: edit of a header, and of a kernel file (the kernel then runs on the CPU too); a GPU verdict.
GOALS = {"first build": 30.0, "first build, GPU machine": 90.0, "cpu verdict": 2.0,
         "cpu verdict, kernel": 5.0, "gpu verdict": 10.0}
#: What a compile leaves in the build folder: an object file, a precompiled header.
OBJECT_SUFFIXES = (".o", ".obj", ".gch")


@dataclass
class Step:
    name: str
    commands: List[str]
    edit: Optional[str] = None  # the file edited first, from the course's root
    goal: Optional[float] = None
    ok_status: Tuple[int, ...] = (0,)  # `./course test` exits 1 when a test fails: a verdict
    warm: bool = False  # run once before the edit, untimed: the lesson is reached and built


def edit_arg(text: str) -> Tuple[str, str]:
    """'05:exercise.cu' -> ('05', 'exercise.cu')."""
    number, sep, name = text.partition(":")
    if not sep or not name or "/" in name:
        raise argparse.ArgumentTypeError(f"'{text}' is not NN:FILE (e.g. 05:exercise.cu)")
    return lesson_number(number), name


def plan(lessons: List[Lesson], args) -> List[Step]:
    """The steps in order."""
    by_number = {lesson.number: lesson for lesson in lessons}

    def file_of(number: str, name: str) -> str:
        lesson = lesson_by_number(lessons, number)
        if not (lesson.dir / name).is_file():
            raise CourseError(f"lesson {number} has no {name}")
        return f"{by_number[number].rel_dir}/{name}"

    first_goal = GOALS["first build, GPU machine" if args.gpu else "first build"]
    steps = [Step("first build", [args.first_build], goal=first_goal)]
    for number, name in args.edit or [("01", "exercise.hpp"), ("03", "exercise.hpp"),
                                      ("05", "exercise.cu")]:
        kernel = name.endswith(".cu")
        steps.append(Step(f"cpu verdict, lesson {number}, {name} edited",
                          [f"./course test {number} --cpu"], file_of(number, name),
                          GOALS["cpu verdict, kernel" if kernel else "cpu verdict"], (0, 1),
                          warm=True))
    if args.gpu:
        for number, name in args.gpu_edit or [("03", "exercise.hpp")]:
            steps.append(Step(f"gpu verdict, lesson {number}, {name} edited",
                              [f"./course test {number}"], file_of(number, name),
                              GOALS["gpu verdict"], (0, 1), warm=True))
    steps.append(Step("progress, lesson 01 edited", ["./course progress"],
                      file_of("01", "exercise.hpp")))
    return steps


def compiled_since(build: Path, since: float) -> List[str]:
    """The translation units compiled in `build` since the time `since` (time.time()): the
    object files and precompiled headers written since, by name, without their suffix."""
    if not build.is_dir():
        return []
    units = []
    for path in build.rglob("*"):
        if path.suffix in OBJECT_SUFFIXES and path.is_file():
            try:
                written = path.stat().st_mtime
            except OSError:
                continue
            if written >= since:
                units.append(path.name[:-len(path.suffix)])
    return sorted(units)


def run_step(step: Step, cwd: Path, env: dict,
             build: Optional[Path] = None) -> Tuple[float, List[str], Optional[str]]:
    """(seconds, the translation units compiled in `build`, an error or None)."""
    wall = time.time()
    start = time.monotonic()
    for command in step.commands:
        proc = subprocess.run(shlex.split(command), cwd=cwd, env=env, capture_output=True,
                              text=True)
        if proc.returncode not in step.ok_status:
            return time.monotonic() - start, compiled_since(build, wall) if build else [], (
                f"`{command}` exited {proc.returncode}:\n" + (proc.stdout + proc.stderr)[-4000:])
    secs = time.monotonic() - start
    return secs, compiled_since(build, wall) if build else [], None


Row = Tuple[Step, Optional[float], List[str]]


def within(step: Step, secs: Optional[float]) -> str:
    if secs is None:
        return "failed"
    if step.goal is None:
        return ""
    return "yes" if secs <= step.goal else "no"


def units_cell(compiled: List[str], limit: int = 4) -> str:
    shown = ", ".join(compiled[:limit]) + (f" and {len(compiled) - limit} more"
                                           if len(compiled) > limit else "")
    return f"{len(compiled)}" + (f" ({shown})" if compiled else "")


def table(rows: List[Row], cores: int, gpu: Optional[str]) -> str:
    out = [f"loop on {cores} core(s), GPU: {gpu or 'none'}", "",
           "| step | command | compiled | seconds | goal | within |", "|---|---|---|---|---|---|"]
    for step, secs, compiled in rows:
        shown = "failed" if secs is None else f"{secs:.1f}"
        goal = f"{step.goal:g}" if step.goal is not None else ""
        out.append(f"| {step.name} | {' && '.join(f'`{c}`' for c in step.commands)} | "
                   f"{units_cell(compiled)} | {shown} | {goal} | {within(step, secs)} |")
    return "\n".join(out)


def write_csv(path: Path, rows: List[Row], cores: int, gpu: Optional[str],
              repeat: int = 1) -> None:
    buf = io.StringIO()
    buf.write(f"# device: {gpu or 'none'}, {cores} core(s)\n"
              f"# date: {datetime.date.today().isoformat()}\n"
              f"# command: tools/course/ci/loop_bench.py (./course-admin loop-bench)\n"
              f"# note: wall seconds of each step in a fresh copy of the course"
              f"{f' (after an edit: the median of {repeat} edits)' if repeat > 1 else ''}, "
              f"ccache off, "
              f"CMAKE_BUILD_PARALLEL_LEVEL={cores}; compiled: the object files and precompiled "
              f"headers the step wrote\n")
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["step", "command", "compiled", "seconds", "goal", "within"])
    for step, secs, compiled in rows:
        writer.writerow([step.name, " && ".join(step.commands), " ".join(compiled) or "-",
                         "failed" if secs is None else f"{secs:.1f}",
                         f"{step.goal:g}" if step.goal is not None else "",
                         within(step, secs)])
    try:
        path.write_text(buf.getvalue(), encoding="utf-8")
    except OSError as e:
        raise CourseError(f"cannot write {path}: {e.strerror or e}") from None


def make_parser() -> Parser:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=ROOT, help="the course checkout to copy")
    ap.add_argument("--edit", type=edit_arg, action="append",
                    help="a CPU verdict after editing this lesson's file, NN:FILE (repeatable; "
                         "default 01:exercise.hpp, 03:exercise.hpp, 05:exercise.cu)")
    ap.add_argument("--gpu-edit", type=edit_arg, action="append",
                    help="a GPU verdict after editing this file (default 03:exercise.hpp)")
    ap.add_argument("--repeat", type=positive_int, default=3,
                    help="times each step after an edit runs, an edit before each; its row gives "
                         "the median (default 3)")
    ap.add_argument("--csv", type=Path, help="also write the rows here (docs/measurements/)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copy and print where")
    ap.add_argument("--dry-run", action="store_true", help="print the steps, run nothing")
    ap.add_argument("--first-build", default="cmake --workflow --preset student",
                    help="the first build's command (default: the README's)")
    ap.add_argument("--no-gpu", dest="gpu", action="store_false", default=None,
                    help="skip the GPU verdict even on a GPU machine")
    return ap


def measure(steps: List[Step], source: Path, keep: bool, cores: int,
            repeat: int = 1) -> Tuple[List[Row], bool]:
    """Runs the steps in a scratch copy of the course: (table rows, whether one failed). A step
    after an edit runs `repeat` times, an edit before each, and gives the median."""
    work = Path(tempfile.mkdtemp(prefix="course-loop-"))
    # ccache stays out of the timings: a cache filled by earlier builds of the same sources
    # would make the first build look faster than a student's first build is.
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=str(cores), CCACHE_DISABLE="1")
    rows: List[Row] = []
    failed = False
    try:
        copy_course(source.resolve(), work)
        for i, step in enumerate(steps):
            if step.warm:
                run_step(step, work, env)  # the lesson built once, as a student reaching it
            times = []
            for r in range(repeat if step.edit else 1):
                if step.edit:
                    with (work / step.edit).open("a") as f:
                        f.write(f"// edited by loop_bench ({i}.{r})\n")
                secs, compiled, error = run_step(step, work, env, work / "build" / "student")
                if error:
                    break
                times.append(secs)
            rows.append((step, None if error else statistics.median(times), compiled))
            if error:
                print(f"{PROG}: step '{step.name}' failed: {error}", file=sys.stderr)
                failed = True
                break
    finally:
        if keep:
            print(f"{PROG}: the copy is kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return rows, failed


def bench(args) -> int:
    if not (args.source / "CMakePresets.json").is_file():
        raise CourseError(f"{args.source} is not the course (no CMakePresets.json)")
    lessons = find_lessons(args.source)
    cores, (gpu, _) = machine.cores(), machine.gpu()
    if args.gpu is None:
        args.gpu = gpu is not None
    steps = plan(lessons, args)
    if args.dry_run:
        for step in steps:
            edit = f"edit {step.edit}; " if step.edit else ""
            goal = f" (goal {step.goal:g} s)" if step.goal is not None else ""
            times = f" [the median of {args.repeat}]" if step.edit and args.repeat > 1 else ""
            print(f"{step.name}: {edit}{' && '.join(step.commands)}{goal}{times}")
        return 0
    rows, failed = measure(steps, args.source, args.keep, cores, args.repeat)
    print(table(rows, cores, gpu))
    if args.csv:
        write_csv(args.csv, rows, cores, gpu, args.repeat)
    return 1 if failed else 0


def main(argv: List[str]) -> int:
    args = make_parser().parse_args(argv)
    return run_main(PROG, lambda: bench(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
