#!/usr/bin/env python3
"""Times the GPU side of the course, step by step, on a GPU machine, and writes the table
docs/measurements/suite_times.csv (columns step,seconds,goal_seconds):

  student    first `cmake --workflow --preset student` on a fresh copy, on 2 cores
  progress   `cmake --build --preset progress` after one edit (lesson 03's exercise.hpp), 2 cores
  lesson     edit -> GPU verdict of one lesson: `cmake --build --preset student --target
             lesson03` and `ctest --preset student -L lesson03`, 2 cores
  gpu-check  the test step of `cmake --workflow --preset gpu-check` (configure and build first,
             not timed), every core
  sanitize   `cmake --build build/gpu-check --target sanitize`, every core
  grade      grading one student's whole repository (the reference solutions as the student's
             files) with grade_run.sh, every core

The student steps run under `taskset -c <--student-cores>` (a laptop's two cores). Every step runs
on its own copy of --source (its files, without build/), with ccache off. Each step's log, and
the JUnit reports of the gpu-check and grade steps, go to --log-dir (tools/course/ci/slowest_tests.py
reads them). A step that fails is reported, its time not written, and the exit status is 1. Where
--csv exists already, from the same device, the rows of the steps not measured now are kept
(and a note says so): the steps can be timed in separate runs.

  python3 tools/reliability/suite_times.py --source . --work /tmp/times \\
      --csv docs/measurements/suite_times.csv --log-dir /tmp/times/logs

Exit status: 0 when every step ran, 1 when one failed, 2 for bad usage, 77 without a GPU.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List

from course.model import machine


@dataclass
class Step:
    key: str
    name: str  # the table's first column: the command, as the course's docs name it
    goal: float
    student: bool  # runs on the student's cores


STEPS = [
    Step("student", "first `cmake --workflow --preset student` (taskset -c 0,1)", 90, True),
    Step("progress", "`cmake --build --preset progress` after one edit (taskset -c 0,1)", 20, True),
    Step("lesson", "edit -> GPU verdict of one lesson (`--target lesson03` + "
                   "`ctest -L lesson03`, taskset -c 0,1)", 10, True),
    Step("gpu-check", "`cmake --workflow --preset gpu-check` test step", 150, False),
    Step("sanitize", "`cmake --build build/gpu-check --target sanitize`", 120, False),
    Step("grade", "grading one student's whole repository (`grade_run.sh`)", 60, False),
]


def copy_course(source: Path, dest: Path) -> Path:
    """The course's files (not its build folders or its git history) at `dest`."""
    if dest.exists():
        shutil.rmtree(dest)
    ignore = shutil.ignore_patterns("build", ".git", ".course", ".device", "__pycache__")
    shutil.copytree(source, dest, ignore=ignore, symlinks=True)
    return dest


def git_repo(path: Path) -> None:
    """Makes a folder a git repository of one commit (the grading steps read the course from
    git)."""
    env = dict(os.environ, GIT_AUTHOR_NAME="course", GIT_AUTHOR_EMAIL="course@localhost",
               GIT_COMMITTER_NAME="course", GIT_COMMITTER_EMAIL="course@localhost")
    for argv in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "course"]):
        subprocess.run(argv, cwd=str(path), env=env, check=True, stdout=subprocess.DEVNULL)


def edit(course: Path, lesson: str = "03") -> Path:
    """One edit a student makes: a line appended to the lesson's exercise.hpp."""
    target = next((course / "lessons").glob(f"{lesson}_*")) / "exercise.hpp"
    with open(target, "a") as f:
        f.write(f"// edited at {time.time():.3f}\n")
    return target


class Runner:
    def __init__(self, args):
        self.args = args
        self.log_dir: Path = args.log_dir
        self.env = dict(os.environ, CCACHE_DISABLE="1")
        self.prefix = ["taskset", "-c", args.student_cores]
        self.failed: List[str] = []  # steps that failed but let the others run

    def run(self, key: str, argv: List[str], cwd: Path, student: bool = False,
            timeout: float = 3600, ok: tuple = (0,)) -> float:
        """Runs one command, its output to <log-dir>/<key>.log; its seconds. Raises
        RuntimeError when it exits with a status not in `ok`."""
        cmd = (self.prefix if student else []) + argv
        log = self.log_dir / f"{key}.log"
        start = time.monotonic()
        with open(log, "a") as f:
            f.write(f"$ {' '.join(cmd)}  (in {cwd})\n")
            f.flush()
            proc = subprocess.run(cmd, cwd=str(cwd), env=self.env, stdout=f,
                                  stderr=subprocess.STDOUT, timeout=timeout)
        seconds = time.monotonic() - start
        if proc.returncode not in ok:
            raise RuntimeError(f"`{' '.join(cmd)}` exited {proc.returncode} (its log: {log})")
        return seconds


def student_steps(r: Runner, work: Path, wanted: List[str]) -> Dict[str, float]:
    out: Dict[str, float] = {}
    if not {"student", "progress", "lesson"} & set(wanted):
        return out
    course = copy_course(r.args.source, work / "student")
    out["student"] = r.run("student", ["cmake", "--workflow", "--preset", "student"], course,
                           student=True)
    if "progress" in wanted:
        edit(course)
        out["progress"] = r.run("progress", ["cmake", "--build", "--preset", "progress"], course,
                                student=True)
    if "lesson" in wanted:
        # The lesson's GPU programs once (a student working on it has them), then the edit.
        r.run("lesson-warm-up", ["cmake", "--build", "--preset", "student", "--target",
                                 "lesson03"], course, student=True)
        edit(course)
        build = r.run("lesson", ["cmake", "--build", "--preset", "student", "--target",
                                 "lesson03"], course, student=True)
        # Exit 8: some of the starter's tests fail, as they should; anything else is an error.
        out["lesson"] = build + r.run("lesson", ["ctest", "--preset", "student", "-L",
                                                 "lesson03"], course, student=True, ok=(0, 8))
    return out


def gpu_check_steps(r: Runner, work: Path, wanted: List[str]) -> Dict[str, float]:
    out: Dict[str, float] = {}
    if not {"gpu-check", "sanitize"} & set(wanted):
        return out
    course = copy_course(r.args.source, work / "gpu-check")
    r.run("gpu-check-build", ["cmake", "--preset", "gpu-check"], course)
    r.run("gpu-check-build", ["cmake", "--build", "--preset", "gpu-check", "-j",
                              str(machine.cores())], course)
    if "gpu-check" in wanted:
        junit = r.log_dir / "gpu-check.xml"
        try:
            out["gpu-check"] = r.run("gpu-check", ["ctest", "--preset", "gpu-check",
                                                   "--output-junit", str(junit)], course)
        except RuntimeError as e:
            r.failed.append(str(e))
        for report in (course / "build" / "gpu-check").glob("failfirst-gpu*.xml"):
            shutil.copy(report, r.log_dir / report.name)
    if "sanitize" in wanted:
        out["sanitize"] = r.run("sanitize", ["cmake", "--build", "build/gpu-check", "--target",
                                             "sanitize"], course)
    return out


def grade_step(r: Runner, work: Path, wanted: List[str]) -> Dict[str, float]:
    if "grade" not in wanted:
        return {}
    root = work / "grade"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    source = copy_course(r.args.source, root / "source")
    git_repo(source)
    bootstrap = source / "tools" / "course" / "bootstrap.py"
    r.run("grade-setup", [sys.executable, str(bootstrap), "course.ci.make_student_repo", "--source",
                          str(source), "--out", str(root / "course")], root)
    student = root / "student"
    shutil.copytree(root / "course", student, ignore=shutil.ignore_patterns(".git"))
    for solved in sorted((source / "solutions").iterdir()):
        if solved.is_dir():
            for f in solved.glob("exercise*"):
                shutil.copy(f, student / "lessons" / solved.name / f.name)
    seconds = r.run("grade", ["bash", str(root / "course" / "tools" / "course" / "grade_run.sh"),
                              "--student", "student", "--course", "course"], root)
    for name in ("junit.xml", "grade.md"):
        path = root / "course" / "build" / "grade" / name
        if path.is_file():
            shutil.copy(path, r.log_dir / f"grade-{name}")
    return {"grade": seconds}


def device_description() -> str:
    """The GPU as nvidia-smi names it, with its architecture: 'NVIDIA H100 80GB HBM3 (sm_90)'."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60).stdout.splitlines()
        name, cap = [x.strip() for x in out[0].split(",")]
        return f"{name} (sm_{cap.replace('.', '')})"
    except (OSError, ValueError, IndexError, subprocess.TimeoutExpired):
        return machine.gpu()[0] or "unknown"


def kept_rows(path: Path, device: str, measured: Dict[str, float]) -> Dict[str, str]:
    """The rows of an existing table, from the same device, of the steps not measured now (one
    device call may not hold every step): {step key: its CSV line}."""
    try:
        text = path.read_text()
    except OSError:
        return {}
    if f"# device: {device}\n" not in text:
        return {}
    kept = {}
    for step in STEPS:
        if step.key in measured:
            continue
        for line in text.splitlines():
            if line.startswith(f"\"{step.name.split(' (taskset')[0]}"):
                kept[step.key] = line
    return kept


def write_csv(path: Path, device: str, times: Dict[str, float], cores: str) -> None:
    kept = kept_rows(path, device, times)
    lines = [f"# device: {device}",
             f"# date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}",
             "# command: tools/reliability/suite_times.py",
             f"# note: wall seconds of each step on a fresh copy of the course, ccache off; "
             f"the student steps on cores {cores} only (taskset), the others on every core "
             f"({machine.cores()})",
             "# note: goal_seconds: the goal the course set for the step",
             "step,seconds,goal_seconds"]
    if kept:
        lines.insert(4, f"# note: the rows of {', '.join(sorted(kept))} are kept from an "
                        f"earlier run of this tool on the same device")
    for step in STEPS:
        if step.key in times:
            name = step.name.replace("0,1", cores)
            lines.append(f"\"{name}\",{times[step.key]:.1f},{step.goal:g}")
        elif step.key in kept:
            lines.append(kept[step.key])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, required=True, help="the course to time")
    ap.add_argument("--work", type=Path, required=True, help="a scratch folder (emptied)")
    ap.add_argument("--csv", type=Path, help="where to write the table")
    ap.add_argument("--log-dir", type=Path, help="logs and reports (default: <work>/logs)")
    ap.add_argument("--steps", default=",".join(s.key for s in STEPS),
                    help="comma list of " + ", ".join(s.key for s in STEPS) + " (default: all)")
    ap.add_argument("--student-cores", default="0,1",
                    help="the cores of the student steps, as taskset takes them (default 0,1)")
    args = ap.parse_args(argv)
    wanted = [s for s in args.steps.split(",") if s]
    unknown = [s for s in wanted if s not in {step.key for step in STEPS}]
    if unknown:
        print(f"suite_times: unknown step(s) {', '.join(unknown)}", file=sys.stderr)
        return 2
    if not (args.source / "CMakePresets.json").is_file():
        print(f"suite_times: {args.source} is not the course (no CMakePresets.json)",
              file=sys.stderr)
        return 2
    if machine.gpu()[0] is None:
        print(f"suite_times: skipped: {machine.gpu()[1]}")
        return 77
    if shutil.which("taskset") is None and {"student", "progress", "lesson"} & set(wanted):
        print("suite_times: taskset not found (util-linux)", file=sys.stderr)
        return 2
    args.source = args.source.resolve()
    args.work.mkdir(parents=True, exist_ok=True)
    args.log_dir = (args.log_dir or args.work / "logs").resolve()
    args.log_dir.mkdir(parents=True, exist_ok=True)
    r = Runner(args)
    times: Dict[str, float] = {}
    failed: List[str] = []
    parts: List[Callable[[Runner, Path, List[str]], Dict[str, float]]] = [
        student_steps, gpu_check_steps, grade_step]
    for part in parts:
        try:
            got = part(r, args.work.resolve(), wanted)
        except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            failed.append(str(e))
            continue
        times.update(got)
        for key, secs in got.items():
            step = next(s for s in STEPS if s.key == key)
            print(f"{secs:8.1f} s  (goal {step.goal:g} s)  {step.name}", flush=True)
    if args.csv and times:
        write_csv(args.csv, device_description(), times, args.student_cores)
    failed += r.failed
    for f in failed:
        print(f"suite_times: {f}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
