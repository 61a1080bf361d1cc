#!/usr/bin/env python3
"""Measures the student's edit-test loop on this machine, in a scratch copy of the course.

Steps, each timed by the wall clock:
  first build     a fresh `cmake --workflow --preset student` (configure, build, progress table)
  cpu verdict     edit lesson NN's exercise.hpp, rebuild what its CPU tests need, run them
  gpu verdict     edit it again, rebuild the lesson, run all of its tests (GPU machines only)
  progress        edit it again, `cmake --build --preset progress`

Prints a Markdown table with the machine's cores and GPU. The copy lives in a temporary folder
(kept with --keep); the checkout you run it from is not touched. The loop commands default to
the ones the README teaches; --cpu-build and friends time other ones (an older checkout's, say).

Examples:
  ./course-admin loop-bench
  taskset -c 0,1 ./course-admin loop-bench --lesson 05
  ./course-admin loop-bench --dry-run

Exit status: 0 when every step ran, 1 when a step failed (its output is printed), 2 for bad
usage.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Tuple

from course.model import machine
from course.model.cli import Parser, run_main
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


def plan(lesson: Lesson, args) -> List[Tuple[str, List[str], bool]]:
    """(step, commands, edits the header first) in order."""
    label = lesson.label
    cpu_build = args.cpu_build or f"cmake --build --preset student --target {lesson.cpu_target}"
    gpu_build = args.gpu_build or f"cmake --build --preset student --target {label}"
    steps = [("first build", [args.first_build], False),
             ("cpu verdict", [cpu_build, f"ctest --preset student -L {label} -L cpu"], True)]
    if args.gpu:
        steps.append(("gpu verdict", [gpu_build, f"ctest --preset student -L {label}"], True))
    steps.append(("progress", ["cmake --build --preset progress"], True))
    return steps


def run_step(commands: List[str], cwd: Path, env: dict) -> Tuple[float, Optional[str]]:
    start = time.monotonic()
    for command in commands:
        proc = subprocess.run(shlex.split(command), cwd=cwd, env=env, capture_output=True,
                              text=True)
        if proc.returncode != 0 and "ctest" not in command.split()[0]:
            return time.monotonic() - start, f"`{command}` exited {proc.returncode}:\n" + \
                (proc.stdout + proc.stderr)[-4000:]
    return time.monotonic() - start, None


def table(rows: List[Tuple[str, str, Optional[float]]], cores: int, gpu: Optional[str]) -> str:
    out = [f"loop on {cores} core(s), GPU: {gpu or 'none'}", "",
           "| step | commands | seconds |", "|---|---|---|"]
    for step, commands, secs in rows:
        out.append(f"| {step} | {commands} | {'failed' if secs is None else f'{secs:.1f}'} |")
    return "\n".join(out)


def make_parser() -> Parser:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=ROOT, help="the course checkout to copy")
    ap.add_argument("--lesson", default="03", help="the lesson whose header is edited (NN)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copy and print where")
    ap.add_argument("--dry-run", action="store_true", help="print the steps, run nothing")
    ap.add_argument("--first-build", default="cmake --workflow --preset student")
    ap.add_argument("--cpu-build", help="rebuild command before the CPU verdict")
    ap.add_argument("--gpu-build", help="rebuild command before the GPU verdict")
    ap.add_argument("--no-gpu", dest="gpu", action="store_false", default=None,
                    help="skip the GPU verdict even on a GPU machine")
    return ap


def measure(steps, lesson: Lesson, source: Path, keep: bool, cores: int) -> Tuple[list, bool]:
    """Runs the steps in a scratch copy of the course: (table rows, whether one failed)."""
    work = Path(tempfile.mkdtemp(prefix="course-loop-"))
    # ccache stays out of the timings: a cache filled by earlier builds of the same sources
    # would make the first build look faster than a student's first build is.
    env = dict(os.environ, CMAKE_BUILD_PARALLEL_LEVEL=str(cores), CCACHE_DISABLE="1")
    rows, failed = [], False
    try:
        copy_course(source.resolve(), work)
        header = work / lesson.rel_dir / "exercise.hpp"
        for i, (step, commands, edits) in enumerate(steps):
            if edits:
                with header.open("a") as f:
                    f.write(f"// edited by loop_bench ({i})\n")
            secs, error = run_step(commands, work, env)
            rows.append((step, " && ".join(f"`{c}`" for c in commands), None if error else secs))
            if error:
                print(f"{PROG}: step '{step}' failed: {error}", file=sys.stderr)
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
    lesson = lesson_by_number(find_lessons(args.source), args.lesson)
    cores, (gpu, _) = machine.cores(), machine.gpu()
    if args.gpu is None:
        args.gpu = gpu is not None
    steps = plan(lesson, args)
    if args.dry_run:
        for step, commands, edits in steps:
            print(f"{step}: {'edit exercise.hpp; ' if edits else ''}{' && '.join(commands)}")
        return 0
    rows, failed = measure(steps, lesson, args.source, args.keep, cores)
    print(table(rows, cores, gpu))
    return 1 if failed else 0


def main(argv: List[str]) -> int:
    args = make_parser().parse_args(argv)
    return run_main(PROG, lambda: bench(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
