#!/usr/bin/env python3
"""The grading run (tools/course/grade_run.sh runs it with the CUDA toolkit's environment).
From the folder that holds both checkouts:

  bash course/tools/course/grade_run.sh --student student --course course \
       [--lessons 01,03] [--build-only] [--pass-mark PERCENT] [--require-complete]
       [--heading TEXT] [--counters-refused] [--cpu-recording-points]

  1. the tree to grade: the student's exercise files, each held to the exercise-file policy,
     on the course at the pinned commit (grade_tree.py);
  2. the grader's own check of the machine: a GPU (nvidia-smi)? Without one, the GPU test
     programs are not built and the GPU tests are listed as not gradable here. With one, the
     machine check (step 4) also says what it offers the tests, whether its counters can be
     read, and whether it shows a slowdown at all (a timing probe of the kit's own kernels,
     judged as a timing test is): where it does not, the timing tests are not gradable here;
  3. configure the `grade` preset (the instructor's hidden tests from $COURSE_HIDDEN_TESTS);
  4. build every lesson on its own, each within --build-timeout: one that does not compile (or
     compiles for ever) scores 0, the others count. What an earlier build made of the graded
     lessons (a student graded before in this course copy) is removed first, so a lesson that
     does not build has no program left to run; each program this build makes is recorded with
     its sha256 (course/programs.json), and no test runs any other. With a GPU, the machine
     check's program (built from the kit alone) says whether counters can be read;
  5. every student test of the graded lessons, each in a sandbox of its own that shows it only
     what it reads (the tests of one program that need the GPU alone share one process, unless
     --tests-apart), judged from GoogleTest's own report (grade_tests.py):
     course/build/grade/junit.xml, which keeps of what the tests printed only the kit's
     measurement lines and each failing test's first failed assertion (--keep-failing-output:
     also the end of a failing test's output). Where the counters are refused (or treated as
     refused: --counters-refused), the counter tests of a lesson whose kernel runs on the CPU
     and whose manifest allows it take their counts from the CPU run of the same launches:
     listed "from the CPU recording", they earn points only with --cpu-recording-points;
  6. the grade report: course/build/grade/grade.md and score.json, with what the run can be
     trusted for (sandbox, policy, evidence, machine).
In a build configured already (each grading after the first in a course copy), the steps
overlap, and no student code runs any earlier: what the lessons share is made (once, in one
run) and the machine checked while the policy reads the files; each lesson's make starts as
soon as its files are placed, beside the others (at a lower priority than the tests); the tests
that need the GPU alone run first, lesson after lesson, each as soon as its lesson is built;
then those that share the GPU. --steps-apart takes the steps one after another.
--build-only stops after step 4 (GitHub Classroom then runs `grade.py lesson NN` per lesson).
--lessons grades only those lessons (a week's): the others are listed as not graded.
Exit status: the report's (1 below --pass-mark, 3 with --require-complete where some points were
not gradable on this machine, else 0), 2 for bad usage or a step that could not run (no
toolkit, a course that does not configure, no sandbox without --not-isolated).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import List, Optional

from course.model import machine
from course.model.cli import (Parser, default_jobs, module_command, percentage, run_main,
                              split_list, write_text_atomic)
from course.model.course_model import (Build, CourseError, LESSON_FILES, find_lessons,
                                       lesson_by_number)
from course.grading import grade_tests, grade_tree, self_check
from course.grading.build_lessons import PipelinedBuild, grading_build
from course.grading.points_table import POINTS_RECORD, course_points, table_json

PROG = "grade_run"
#: Where the grader keeps its own records in the build folder (the sandbox cannot write it).
RECORDS = "course"


def say(text: str) -> None:
    print(f"== {text}", flush=True)


class Steps:
    """How long each step of a grading took, said last (where an instructor's minutes go).
    Steps may overlap (a pipelined grading builds and tests at once): each is said with its own
    span, and the line says which ran at once."""

    def __init__(self) -> None:
        self.begin = time.monotonic()
        self.spans: List[List] = []  # [name, begin, end or None]
        self.overlap = ""

    def start(self, name: str) -> None:
        """Starts a step and ends the one started last (steps one after another)."""
        now = time.monotonic()
        if self.spans and self.spans[-1][2] is None:
            self.spans[-1][2] = now
        self.spans.append([name, now, None])

    def span(self, name: str, begin: float, end: float) -> None:
        """A step that ran beside the others, from `begin` to `end` (time.monotonic())."""
        self.spans.append([name, begin, end])

    def line(self) -> str:
        now = time.monotonic()
        parts = [f"{name} {(end if end is not None else now) - begin:.0f} s"
                 for name, begin, end in sorted(self.spans, key=lambda s: s[1])]
        return f"graded in {now - self.begin:.0f} s: {', '.join(parts)}" + \
            (f" ({self.overlap})" if self.overlap else "")


def run(argv: List[str], cwd: Path, log: Optional[Path] = None) -> int:
    if log is None:
        return subprocess.run(argv, cwd=str(cwd)).returncode
    with open(log, "w") as f:
        return subprocess.run(argv, cwd=str(cwd), stdout=f, stderr=subprocess.STDOUT).returncode


def configured_as(build_dir: Path, wanted: dict) -> bool:
    """Whether the build folder is configured already, with these cache values."""
    try:
        cache = (build_dir / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return False
    if not (build_dir / "CTestTestfile.cmake").is_file():
        return False
    for key, value in wanted.items():
        m = re.search(rf"^{key}:[A-Z]+=(.*)$", cache, re.M)
        if (m.group(1).strip() if m else "") != value:
            return False
    return True


def check_machine(build_dir: Path, box, has_gpu: bool, gpu_why: str) -> dict:
    """The grader's own check of the machine, in the sandbox the tests run in (with the
    self-check record of this GPU, where the grader made one)."""
    if not has_gpu:
        return {"gpu": False, "reason": gpu_why, "description": "no GPU", "counters": False,
                "counters_reason": "no GPU"}
    program = build_dir / "bin" / "course-machine-check"
    record = self_check.record_path(build_dir)
    with tempfile.TemporaryDirectory(prefix="course-machine-") as tmp:
        scratch = Path(tmp)
        for sub in ("home", "tmp"):
            (scratch / sub).mkdir()
        env = box.environment(scratch, {grade_tests.SELF_CHECK_VARIABLE: str(record)}
                              if record.is_file() else {})
        argv, shown = box.files([str(program)], env, scratch, [record])
        argv = box.command(argv, scratch, env, scratch, shown, gpu=True)
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                              env=env)  # bubblewrap's own too (see grade_tests.Runner.run)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"gpu": False, "reason": f"the machine check failed: {(proc.stderr or proc.stdout).strip()[-300:]}",
                "description": "unknown", "counters": False, "counters_reason": "unknown"}


def grade(args) -> int:
    student, course = args.student, args.course
    if not student.is_dir():
        raise CourseError(f"no folder {student}")
    if not (course / "CMakePresets.json").is_file():
        raise CourseError(f"{course} is not the course (no CMakePresets.json)")
    course = course.resolve()
    lessons = [lesson_by_number(find_lessons(course), n).number for n in split_list(args.lessons)]
    build_dir = course / "build" / "grade"
    records = build_dir / RECORDS
    records.mkdir(parents=True, exist_ok=True)
    hidden = Path(os.environ["COURSE_HIDDEN_TESTS"]).resolve() \
        if os.environ.get("COURSE_HIDDEN_TESTS") else None

    steps = Steps()
    gpu_name, gpu_why = machine.gpu()
    # Nothing can grade GPU tests without a GPU: their programs are then not built (the tests
    # are still listed, and count).
    wanted = {"COURSE_GPU_TESTS": "ON" if gpu_name else "OFF",
              "COURSE_EXTRA_TESTS_DIR": str(hidden) if hidden else ""}
    configured = configured_as(build_dir, wanted) and (records / LESSON_FILES).is_file()
    pipelined = None
    if configured and not args.build_only and not args.steps_apart:
        build = Build(build_dir, course)
        chosen = [lesson for lesson in build.lessons() if not lessons or lesson.number in lessons]
        pipelined = PipelinedBuild.of(build, chosen, args.jobs,
                                      ["course-machine-check"] if gpu_name else [],
                                      say=lambda *a, **k: print("  ", *a, **k),
                                      timeout=args.build_timeout)
    if pipelined is not None:
        return grade_pipelined(args, steps, student, course, lessons, hidden, gpu_name, gpu_why,
                               pipelined)

    steps.start("the tree and the policy")
    place_tree(args, student, course, lessons, hidden, records)

    steps.start("the build")
    if configured:
        say(f"configured already (GPU: {gpu_name or 'none: ' + gpu_why}); the build re-reads "
            f"what changed")
    else:
        say(f"configure (GPU: {gpu_name or 'none: ' + gpu_why})")
        configure = ["cmake", "--preset", "grade"] + [f"-D{k}={v}" for k, v in wanted.items()]
        if run(configure, course, records / "configure.log") != 0:
            print((records / "configure.log").read_text()[-3000:])
            raise CourseError("the course does not configure (its log is above)")

    build = Build(build_dir, course)
    chosen = [lesson for lesson in build.lessons() if not lessons or lesson.number in lessons]
    say(f"build ({len(chosen)} lessons, each on its own, at most {args.build_timeout:.0f} s each)")
    if gpu_name is not None:
        machine_log = build.build_target("course-machine-check", args.jobs, capture=True)
        if machine_log.returncode != 0:
            raise CourseError(f"the machine check does not build: {machine_log.stdout[-500:]}")
    grading_build(build, chosen, args.jobs, say=lambda *a, **k: print("  ", *a, **k),
                  timeout=args.build_timeout)

    steps.start("the machine")
    tests = grade_tests.planned_tests(build_dir, "student", lessons)
    box = grade_tests.grading_sandbox(args.not_isolated, hidden)
    machine_facts(args, build, box, gpu_name, gpu_why)
    if args.build_only:
        return 0

    steps.start("the tests")
    test_and_record(args, build, box, tests)
    return report(args, build, lessons, steps)


def place_tree(args, student: Path, course: Path, lessons: List[str], hidden: Optional[Path],
               records: Path, placed=None) -> grade_tree.Overlay:
    """The tree to grade: the student's files, each lesson's held to the policy, placed on the
    course (placed: called with each lesson as soon as its files are, grade_tree.overlay);
    then, before any student code runs, the record of it and of the points."""
    say("the tree to grade (the exercise files, held to the policy)")
    tree = grade_tree.overlay(student.resolve(), course, lessons or None, not args.no_policy,
                              hidden, records, placed)
    for line in tree.lines():
        print(f"  {line}")
    write_text_atomic(records / "overlay.json", tree.as_json())
    # The points, from the pinned course's manifests (and its instructor's table), recorded
    # before any student code runs: the report scores from this record.
    write_text_atomic(records / POINTS_RECORD,
                      table_json(course_points(course, find_lessons(course))))
    return tree


def grade_pipelined(args, steps: Steps, student: Path, course: Path, lessons: List[str],
                    hidden: Optional[Path], gpu_name: Optional[str], gpu_why: str,
                    pipelined: PipelinedBuild) -> int:
    """A grading in a build configured already, its steps overlapped: what the lessons share
    is made and the machine checked while the policy checks the student's files; each lesson's
    make starts as soon as its files are placed; the tests that need the GPU alone start with
    the first lesson built, lesson after lesson, beside the makes of the others (which need no
    GPU, and run at a lower priority); the tests that share the GPU once every lesson is built.
    Every test still runs only after the machine check, and only programs this build made."""
    build = pipelined.build
    records = build.state_dir
    say(f"configured already (GPU: {gpu_name or 'none: ' + gpu_why}); each lesson is built as "
        f"soon as its files are placed (at most {args.build_timeout:.0f} s each), and its tests "
        f"that need the GPU alone run as soon as it is built")
    box = grade_tests.grading_sandbox(args.not_isolated, hidden)
    machine_done: dict = {}

    def prepare_and_check() -> None:
        begin = time.monotonic()
        try:
            pipelined.prepare()
            steps.span("what the lessons share", begin, time.monotonic())
            begin = time.monotonic()
            machine_done["facts"] = machine_facts(args, build, box, gpu_name, gpu_why,
                                                  quiet=True)
            steps.span("the machine", begin, time.monotonic())
        except (CourseError, OSError, ValueError, subprocess.SubprocessError) as e:
            machine_done["error"] = e
        finally:
            # The lessons' makes start once the machine is checked (on an H100, starting them
            # before it brought no lesson sooner), and after a failure too, each then to say it
            # did not build.
            pipelined.release()

    checking = threading.Thread(target=prepare_and_check, daemon=True)
    checking.start()
    begin = time.monotonic()
    try:
        place_tree(args, student, course, lessons, hidden, records,
                   lambda lesson: pipelined.start(lesson) if lesson.label in pipelined.lessons
                   else None)
        pipelined.all_placed()  # a lesson not placed by now never will be: no test waits on it
        steps.span("the tree and the policy", begin, time.monotonic())
        tests = grade_tests.planned_tests(build.dir, "student", lessons)
    except BaseException:
        pipelined.stop()  # no make of a lesson outlives the grading
        checking.join()
        pipelined.finish()
        raise
    checking.join()
    if "facts" not in machine_done:  # it failed, or ended some other way: no test runs
        pipelined.stop()
        pipelined.finish()
        raise machine_done.get("error") or CourseError("the machine check did not finish")
    say_machine(machine_done["facts"])
    begin = time.monotonic()
    try:
        test_and_record(args, build, box, tests, pipelined)
    except BaseException:
        pipelined.stop()
        raise
    finally:
        pipelined.finish()
    steps.span("the tests", begin, time.monotonic())
    if pipelined.began is not None:
        steps.span("the build", pipelined.began, pipelined.ended or pipelined.began)
    steps.overlap = "side by side: the policy, the machine and the build; the build and the " \
        "tests"
    return report(args, build, lessons, steps)


def machine_facts(args, build: Build, box, gpu_name: Optional[str], gpu_why: str,
                  quiet: bool = False) -> dict:
    """The grader's check of the machine (and, where the bank model's wide rules were not
    measured on this GPU, the self-check, once per GPU, driver and course), before any student
    code runs; recorded in course/machine.json. Says what it found unless `quiet`."""
    build_dir = build.dir
    records = build.state_dir
    facts = check_machine(build_dir, box, gpu_name is not None, gpu_why)
    if facts.get("gpu") and not facts.get("wide_rules") and facts.get("counters"):
        # The bank model's 8- and 16-byte rules were not measured on this architecture: the
        # self-check measures them on this GPU, once per GPU, driver and course (its record is
        # kept in the build folder), before any student code runs.
        say("the self-check of the bank model on this GPU (once per GPU, driver and course)")
        probe_log = build.build_target("bank-probe", args.jobs, capture=True)
        if probe_log.returncode != 0:
            raise CourseError(f"bank-probe does not build: {probe_log.stdout[-500:]}")
        outcome = self_check.check(build_dir, say=lambda line: print(f"   {line}", flush=True))
        if outcome.status == 0:
            facts = check_machine(build_dir, box, True, gpu_why)
    if args.counters_refused and facts.get("counters"):
        # The instructor's switch: grade as on a machine that refuses the counters (what a
        # rented GPU often does), to see what such a machine grades.
        facts["counters"] = False
        facts["counters_reason"] = "treated as refused (grade_run.sh --counters-refused)"
    write_text_atomic(records / "machine.json", json.dumps(facts, indent=1) + "\n")
    if not quiet:
        say_machine(facts)
    return facts


def say_machine(facts: dict) -> None:
    """Says what the machine check found (machine_facts())."""
    counters = "readable" if facts.get("counters") else \
        f"not readable: {facts.get('counters_reason', '')}"
    slowdowns = "shown" if facts.get("timing") else f"not shown: {facts.get('timing_reason', '')}"
    say(f"machine: {facts.get('description')}; counters: {counters}; slowdowns: {slowdowns}")


def test_and_record(args, build: Build, box, tests,
                    pipelined: Optional[PipelinedBuild] = None) -> None:
    """Every planned test, each in its sandbox (grade_tests.run_tests), and their records:
    junit.xml and the evidence. With a pipelined build, a lesson's tests wait for its build,
    and the programs they may run are those of its record as it grows."""
    records = build.state_dir
    say(f"the tests ({len(tests)}), each in a sandbox: {box.describe()}")
    programs = grade_tests.Programs(build.dir,
                                    pipelined.made if pipelined is not None else None)

    def ready(label: str, block: bool = True) -> Optional[dict]:
        if not pipelined.wait(label, block):
            return None
        return {t.name: t for t in grade_tests.planned_tests(build.dir, "student", [label[-2:]])}
    machine = grade_tests.Machine.read(records / "machine.json")
    verdicts = grade_tests.run_tests(tests, box, machine, args.jobs, programs,
                                     say=lambda line: print(line, flush=True),
                                     build=build, keep_failing=args.keep_failing_output,
                                     apart=args.tests_apart,
                                     cpu_recording_points=args.cpu_recording_points,
                                     past=grade_tests.past_seconds(records / "evidence.json"),
                                     ready=ready if pipelined is not None else None)
    grade_tests.write_outputs(verdicts, box, machine, programs, build.dir / "junit.xml",
                              records / "evidence.json", args.keep_failing_output,
                              args.cpu_recording_points)
    passed = sum(v.status == grade_tests.PASSED for v in verdicts)
    recorded = sum(v.counts_from == "cpu recording" for v in verdicts)
    print(f"   {passed} of {len(verdicts)} tests passed" +
          (f"; {recorded} ran with their counts from the CPU recording" if recorded else ""))


def report(args, build: Build, lessons: List[str], steps: Steps) -> int:
    """The grade report (course.grading.grade report), its exit status the grading's."""
    build_dir = build.dir
    records = build.state_dir
    steps.start("the report")
    say("the report")
    report = [*module_command("course.grading.grade"), "report", "--junit",
              str(build_dir / "junit.xml"), "--build-dir", str(build_dir),
              "--points", str(records / POINTS_RECORD), "--heading", args.heading,
              "--markdown", str(build_dir / "grade.md"), "--json", str(build_dir / "score.json")]
    if lessons:
        report += ["--lessons", ",".join(lessons)]
    if args.pass_mark is not None:
        report += ["--pass-mark", str(args.pass_mark)]
    if args.require_complete:
        report += ["--require-complete"]
    status = subprocess.run(report, cwd=str(build.source_dir)).returncode
    say(steps.line())
    return status


def main(argv: List[str]) -> int:
    ap = Parser(prog="grade_run.sh", description=__doc__.split("\n\n")[0])
    ap.add_argument("--student", type=Path, required=True, help="the student's checkout")
    ap.add_argument("--course", type=Path, required=True, help="the course at the pinned commit")
    ap.add_argument("--lessons", help="grade only these lessons, e.g. 01,03 (default: all)")
    ap.add_argument("--build-only", action="store_true", help="stop after the build")
    ap.add_argument("--pass-mark", type=percentage, help="exit 1 below this percentage")
    ap.add_argument("--require-complete", action="store_true",
                    help="exit 3 when some points were not gradable on this machine (no GPU, "
                         "counters refused)")
    ap.add_argument("--heading", default="Grade", help="the report's heading")
    ap.add_argument("--build-timeout", type=float, default=900,
                    help="seconds one lesson's build may take (default 900)")
    ap.add_argument("--jobs", "-j", type=int, default=default_jobs(),
                    help="compilations and CPU tests at once (default: the number of CPUs)")
    ap.add_argument("--counters-refused", action="store_true",
                    help="grade as if this machine refused the hardware counters: its counter "
                         "tests are listed as not gradable here (the report says why), but "
                         "those of lessons whose kernel runs on the CPU, which take their counts "
                         "from the CPU recording (--cpu-recording-points)")
    ap.add_argument("--steps-apart", action="store_true",
                    help="one step after another: the policy, every lesson's build, the machine "
                         "check, then the tests (by default, in a build configured already, "
                         "each lesson is built as soon as its files pass the policy, and its "
                         "tests that need the GPU alone run as soon as it is built)")
    ap.add_argument("--no-policy", action="store_true",
                    help="take the exercise files unchecked (the report says so)")
    ap.add_argument("--not-isolated", action="store_true",
                    help="where no sandbox can be made, run the tests without one (the report "
                         "says so)")
    grade_tests.keep_output_option(ap)
    grade_tests.cpu_recording_option(ap)
    grade_tests.apart_option(ap)
    args = ap.parse_args(argv)
    return run_main("grade_run.sh", lambda: grade(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
