#!/usr/bin/env python3
"""Runs the graded tests of a grade folder that the grading build built (build_lessons.py, as
grade_run.sh runs it), each in a sandbox of its own, and judges each from evidence, not from an
exit status.

  ./course-admin grade-tests --build-dir build/grade [--lessons 01,03] [-j N]
  ./course-admin grade-tests --build-dir build/grade --show-sandbox [--lessons 01,03]

The tests to run are the ones the grader lists itself from the pinned course (ctest's test
list of the build folder, taken before any student code runs): every test labelled with the
tree (`student`) of the chosen lessons. (In a pipelined grading, grade_run.py, a lesson's list
is read again once it is built, for the commands ctest could not give while its programs were
not there; nothing else of it is taken from there.) Each runs as its command says, in the
sandbox (sandbox.py), with GoogleTest's report written to a folder of its own that only this
run of the test can write. A test passes only when
  - its program exited 0 within its time limit, and
  - GoogleTest's own report lists it, and only it, as started, run and passed (no failure, no
    skip), and
  - (for a sanitizer run) the sanitizer wrapper passed and the report shows that the tests it
    was given really started.
The GPU tests of one program run in one process, one filter naming each: those that need the
GPU alone (counters, timing) in one, those that share it in another (batches(); a lesson's
manifest may keep its tests apart): there a test passes only when the report lists exactly the
tests asked for, it and every test before it started and passed, and the process, whose every
test passed, exited 0. From the first test that did not pass, and for every test of a process
that ran out of time, left no report or listed a test it was not asked for, each runs again in
a process of its own and is judged as above. docs/instructors.md, section 8, weighs what this
gives up.
A test whose program is missing did not build, and is not run; a test whose program is not the
one the grading build made (build_lessons.py's record, <build>/course/programs.json: the file's
sha256 under that build's id) is not run either, and fails with the reason; a skip is a skip;
anything else fails, with the reason. Whether a GPU test can be graded on this machine comes
from the grader's own check of the machine (`--machine`, machine_check.json) and what the pinned
course's manifests say the test needs (model/needs.py), decided before the test would run, never
from what a test printed: a test whose need this machine does not meet is not run, and listed as
not gradable here with the need's sentence.

Writes --junit (ctest's JUnit format, which grade.py reads) and --record (the evidence: the
sandbox and what it showed each test, the machine, the grading build's id, every test's exit
status, its programs with their sha256, what its report said, and the JUnit file's hash). What
a test printed is the student's to write, and the reports are kept where a student may download
them: the JUnit report keeps of it only the kit's measurement lines and, of a failing test, the
line of its first failed assertion, each cut to a bounded length; with --keep-failing-output,
also the end of a failing test's output, cut at a bounded size, with a line that says so. A
passing test's other output is never kept.
Exit status: 0 when every test ran (whatever their verdicts), 2 for bad usage.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple
from xml.sax.saxutils import escape, quoteattr

from course.model.cli import Parser, jobs_option, run_main, split_list, write_text_atomic
from course.model.course_model import (Build, CourseError, find_lessons, is_inside,
                                       parse_lesson_number, split_test_name)
from course.model.ctest_results import (MEASUREMENT_PREFIXES, ResultError, failure_location,
                                        list_tests)
from course.model.needs import (Capabilities, Needs, Profiles, from_cpu_recording, merged,
                               needs_of, read_profiles, unmet)
from course.model.safe_text import one_line
from course.model.trust import PROGRAMS_RECORD, file_hash
from course.grading.build_lessons import Made
from course.grading.sandbox import Sandbox

PROG = "grade_tests"

PASSED = "passed"
FAILED = "failed"
SKIPPED = "skipped"
NOT_GRADABLE = "not gradable here"
NOT_BUILT = "did not build"
#: A counter test that passed with its counts from the CPU run of the same launches, where this
#: machine's counters are refused (its lesson's manifest allows it: gpu.cpu_recording); it
#: earns its points only with --cpu-recording-points, and is listed apart from the tests that
#: passed on the counters.
FROM_CPU_RECORDING = "passed from the CPU recording"
#: The variable that tells a counter test where its counts come from (kit/testing.hpp).
COUNTS_FROM_VARIABLE = "KIT_COUNTS_FROM"
#: The variable that names the self-check record to the kit (kit/device.hpp).
SELF_CHECK_VARIABLE = "KIT_SELF_CHECK"

#: The end of a test's output that the grader reads (a skip's reason, a sanitizer run's last
#: line), and the most of a report it reads.
OUTPUT_BYTES = 64 * 1024
REPORT_BYTES = 8 * 1024 * 1024
#: What the JUnit report keeps of a test's output: the kit's measurement lines (the first
#: MEASURED_LINES) and a failing test's first failed assertion, each cut to LINE_CHARS; with
#: --keep-failing-output, also the last KEPT_BYTES of a failing test's output.
MEASURED_LINES = 32
LINE_CHARS = 300
KEPT_BYTES = 4 * 1024
#: The most tests of one process whose measurement lines are kept apart (a batch: the tests of a
#: program that need the GPU alone).
MEASURED_TESTS = 64
_RUN = re.compile(r"^\[ RUN      \] (\S+)\s*$")
_FILTER = "--gtest_filter="
#: The most of a verdict's detail (it may quote the report a test wrote) that is kept.
DETAIL_CHARS = 300
#: GoogleTest's timestamp of a test that never started (a global environment skipped it:
#: GoogleTest 1.12 still writes it as run and completed, google/googletest#4653).
NEVER_STARTED = "1970-01-01T00:00:00"
_SKIP_REASON = re.compile(r"Skipped\n(.*?)\n\[  SKIPPED \]", re.S)


@dataclass
class Planned:
    """One test the grader expects to run, as the pinned course registered it."""

    name: str
    labels: List[str]
    command: List[str]
    timeout: float
    lock: bool  # holds the GPU: one such test at a time
    gpu_slots: int  # slots of the GPU it asks for (RESOURCE_GROUPS gpus:N), 0 for none
    cwd: str
    environment: Dict[str, str]
    skip_code: Optional[int]

    @property
    def kind(self) -> str:
        """gtest (a test program, one test), sanitizer (a program's tests under a sanitizer
        tool), placeholder (a GPU test whose program this build does not make), or none
        (no program: it did not build)."""
        if not self.command:
            return "none"
        text = " ".join(self.command)
        if "CourseSkip.cmake" in text:
            return "placeholder"
        if "sanitizer_test.py" in text:
            return "sanitizer"
        return "gtest"

    @property
    def gtest_names(self) -> List[str]:
        """The GoogleTest tests the command asks for (the positive part of its filter)."""
        for arg in self.command:
            if arg.startswith(_FILTER):
                positive = arg[len(_FILTER):].split("-", 1)[0]
                return [n for n in positive.split(":") if n]
        return []

    @property
    def gpu(self) -> bool:
        return "gpu" in self.labels


@dataclass
class Verdict:
    """How one test was judged, and on what."""

    name: str
    status: str
    detail: str = ""
    exit_code: Optional[int] = None
    seconds: float = 0.0
    report: str = ""  # what GoogleTest's report said, in a few words
    output: str = ""  # what the JUnit report keeps of what it printed
    labels: List[str] = field(default_factory=list)
    programs: List[dict] = field(default_factory=list)  # path, sha256, build (its id, or "")
    shown: List[str] = field(default_factory=list)  # what its sandbox bound besides the machine's
    counts_from: str = ""  # "cpu recording" where its counts came from the CPU run
    batch: List[str] = field(default_factory=list)  # the tests of its process, where it ran more


# ------------------------------------------------------------------------------------------
# The tests to run
# ------------------------------------------------------------------------------------------

def planned_tests(build_dir: Path, tree: str, lessons: List[str]) -> List[Planned]:
    """The tests of `tree` (and of the given lessons, or all) that the build registered."""
    try:
        registered = list_tests(build_dir)
    except ResultError as e:
        raise CourseError(str(e)) from None
    wanted = {f"lesson{n}" for n in lessons}
    out = []
    for t in registered.values():
        parts = split_test_name(t.name)
        if parts is None or parts.tree != tree or tree not in t.labels:
            continue
        if wanted and parts.label not in wanted:
            continue
        props = t.properties
        env = dict(item.partition("=")[::2] for item in props.get("ENVIRONMENT") or [])
        skip = props.get("SKIP_RETURN_CODE")
        slots = [r.get("slots", 0) for g in props.get("RESOURCE_GROUPS") or []
                 for r in g.get("requirements", []) if r.get(".type") == "gpus"]
        out.append(Planned(t.name, t.labels, t.command, float(props.get("TIMEOUT") or 1500),
                           "gpu" in (props.get("RESOURCE_LOCK") or []), int(max(slots, default=0)),
                           str(props.get("WORKING_DIRECTORY") or build_dir), env,
                           int(skip) if skip is not None else None))
    return out


# ------------------------------------------------------------------------------------------
# Running one test
# ------------------------------------------------------------------------------------------

@dataclass
class Machine:
    """The grader's own check of the machine (course-machine-check, in the tests' sandbox): can
    GPU tests be graded, and what does its GPU offer them?"""

    gpu: bool
    reason: str = ""  # why not
    description: str = ""
    counters: bool = False
    counters_reason: str = ""
    arch: str = ""  # "sm_90"
    compute_capability: int = 0  # major * 10 + minor
    shared_memory_per_block: int = 0  # the most a block may opt in to, bytes
    tma: bool = False
    ldmatrix: bool = False
    stmatrix: bool = False
    wide_rules: bool = False  # the bank model's 8- and 16-byte rules verified on this GPU
    ldmatrix_rule: bool = False  # its ldmatrix rule measured on this GPU's architecture
    #: Whether its timing probe showed the model's slowdowns, and why not (a machine check
    #: that did not say: not shown).
    timing: bool = False
    timing_reason: str = ""

    @classmethod
    def read(cls, path: Optional[Path]) -> "Machine":
        if path is None or not path.is_file():
            return cls(False, "the machine was not checked")
        data = json.loads(path.read_text())
        return cls(bool(data.get("gpu")), data.get("reason", ""), data.get("description", ""),
                   bool(data.get("counters")), data.get("counters_reason", ""),
                   str(data.get("arch", "")), int(data.get("compute_capability") or 0),
                   int(data.get("shared_memory_per_block") or 0),
                   *(bool(data.get(k)) for k in ("tma", "ldmatrix", "stmatrix", "wide_rules",
                                                 "ldmatrix_rule", "timing")),
                   str(data.get("timing_reason", "")) if "timing" in data else
                   "the machine check did not probe timing")

    def capabilities(self) -> Capabilities:
        return Capabilities(self.arch, self.compute_capability, self.shared_memory_per_block,
                            self.tma, self.ldmatrix, self.stmatrix, self.wide_rules,
                            self.ldmatrix_rule, self.counters, self.counters_reason, self.timing,
                            self.timing_reason)


def declared_needs(tests: List[Planned], course: Path) -> Dict[str, Needs]:
    """What each GPU test of a lesson needs, from the pinned course's manifests (never from a
    student's copy, never from what a test prints): its lesson's `gpu`, more where a `tests`
    entry names it, the counters where its file reads them (the `counters` label), and a GPU
    that shows a slowdown where it times (the `perf` label). A sanitizer run needs what every
    test it runs needs."""
    manifests = {f"lesson{lesson.number}": lesson.manifest.gpu for lesson in find_lessons(course)}
    out: Dict[str, Needs] = {}
    for t in tests:
        parts = split_test_name(t.name)
        if not t.gpu or parts is None or parts.label not in manifests:
            continue
        reads = ("counters" in t.labels, "perf" in t.labels)
        each = [needs_of(manifests[parts.label], name, *reads) for name in t.gtest_names] or \
            [needs_of(manifests[parts.label], "", *reads)]
        out[t.name] = functools.reduce(merged, each)
    return out


def cpu_recording_tests(tests: List[Planned], course: Path) -> List[str]:
    """The counter tests whose counts may come from the CPU run of the same launches where
    the counters are refused: one GoogleTest test of a `counters` file, named by its lesson's
    gpu.cpu_recording in the pinned course (which only a lesson whose kernel runs on the CPU
    may list: model/manifest.py)."""
    manifests = {f"lesson{lesson.number}": lesson.manifest.gpu for lesson in find_lessons(course)}
    out = []
    for t in tests:
        parts = split_test_name(t.name)
        if not t.gpu or "counters" not in t.labels or t.kind != "gtest" or parts is None or \
                parts.label not in manifests:
            continue
        names = t.gtest_names
        if len(names) == 1 and from_cpu_recording(manifests[parts.label], names[0]):
            out.append(t.name)
    return out


def batches(tests: List[Planned], course: Path) -> List[List[Planned]]:
    """GPU tests in the processes they run in, in their order: the GoogleTest tests of one
    program, one filter a test, with the same environment and working folder, and the same
    hold on the GPU (alone, or sharing it), together, in the order of the first; any other
    test, and every test its lesson's manifest keeps apart (grade_tests_alone), on its own.
    What a process of several gives up and why it is safe: docs/instructors.md, section 8."""
    manifests = {f"lesson{lesson.number}": lesson.manifest for lesson in find_lessons(course)}
    groups: Dict[tuple, List[Planned]] = {}
    for t in tests:
        parts = split_test_name(t.name)
        filters = [a for a in t.command if a.startswith(_FILTER)]
        one = len(t.gtest_names) == 1 and filters == [_FILTER + t.gtest_names[0]]
        if t.kind != "gtest" or not one or parts is None or parts.label not in manifests or \
                manifests[parts.label].graded_alone(t.gtest_names[0]):
            key: tuple = ("alone", t.name)
        else:
            key = ("program", t.lock, tuple(a for a in t.command if a not in filters), t.cwd,
                   tuple(sorted(t.environment.items())))
        groups.setdefault(key, []).append(t)
    return list(groups.values())


def shared_order(processes: List[List[Planned]], past: Dict[str, float]
                 ) -> List[List[Planned]]:
    """The processes of the tests that share the GPU (batches()) in the order they start: the
    longest first, so that none of them starts last and runs on alone while the other slots
    stand idle. How long a process takes is what its tests took the last time this build
    graded (`past`, from the last evidence record); before that, a racecheck run, then the other
    sanitizer runs, then the rest, as they usually rank."""
    def rank(process: List[Planned]) -> Tuple[int, float]:
        if all(t.name in past for t in process):
            return (0, -sum(past[t.name] for t in process))
        t = process[0]
        return (1, 0 if t.kind == "sanitizer" and "/racecheck/" in t.name else
                1 if t.kind == "sanitizer" else 2)
    return sorted(processes, key=rank)


def past_seconds(record: Optional[Path]) -> Dict[str, float]:
    """Each test's seconds in an evidence record (the last grading's), {} where there is none
    or it cannot be read."""
    try:
        return {t["name"]: float(t["seconds"]) for t in
                json.loads(record.read_text(encoding="utf-8"))["tests"]} if record else {}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


class Programs:
    """The programs of the build folder that a test starts, held to the grading build's record
    (build_lessons.py's Made): a test runs only programs this build made, as it made them."""

    def __init__(self, build_dir: Path, made: Optional[Made] = None):
        self.dir = build_dir
        # A pipelined build's record, which grows as its lessons are built; else the one on disk.
        self.made = made if made is not None else Made.read(build_dir)
        self._hashes: Dict[str, str] = {}
        self._lock = threading.Lock()

    @property
    def build(self) -> str:
        """The grading build's id, '' where the build folder has no record of one."""
        return self.made.build if self.made is not None else ""

    def of(self, test: Planned) -> List[Path]:
        """The files of the build folder the test's command starts (its program; for a
        sanitizer run, the program the wrapper runs)."""
        return [Path(a) for a in test.command if os.path.isabs(a) and is_inside(Path(a), self.dir)]

    def _hash(self, path: Path) -> str:
        key = os.path.realpath(path)
        with self._lock:
            if key not in self._hashes:
                self._hashes[key] = file_hash(path)
            return self._hashes[key]

    def check(self, test: Planned) -> Tuple[Optional[Verdict], List[dict]]:
        """(None, its programs) when every program of the test is one the grading build made,
        as it made it: the test may run. Else (the verdict of a test that must not run, the
        programs found): a program that is not there did not build; one the grading build did
        not make, or made otherwise, fails. Each program: its path, sha256, and the grading
        build's id where it is that build's ('' where it is not)."""
        found: List[dict] = []
        for path in self.of(test):
            if not path.is_file():
                return Verdict(test.name, NOT_BUILT, "its test program is not built",
                               labels=test.labels, programs=found), found
            sha = self._hash(path)
            made = self.made.sha256(path) if self.made is not None else None
            found.append({"path": str(path), "sha256": sha,
                          "build": self.build if made == sha else ""})
            if made == sha:
                continue
            if self.made is None:
                why = f"no record of the grading build, {PROGRAMS_RECORD}"
            elif made is None:
                why = "the grading build did not make it"
            else:
                why = "its sha256 is not the one the grading build recorded"
            return Verdict(test.name, FAILED, f"not run: its program {path.name} is not the one "
                                              f"the grading build made ({why})",
                           labels=test.labels, programs=found), found
        return None, found


class Runner:
    def __init__(self, sandbox: Sandbox, scratch_root: Path, machine: Machine,
                 programs: Optional[Programs] = None, build: Optional[Build] = None,
                 keep_failing: bool = False, needs: Optional[Dict[str, Needs]] = None,
                 profiles: Optional[Profiles] = None, cpu_recording: Optional[List[str]] = None,
                 cpu_recording_points: bool = False):
        self.sandbox = sandbox
        self.scratch_root = scratch_root
        self.machine = machine
        self.programs = programs
        self.build = build
        self.keep_failing = keep_failing
        self.needs = needs or {}
        self.profiles = profiles
        self.cpu_recording = set(cpu_recording or ())
        self.cpu_recording_points = cpu_recording_points
        self._count = 0
        self._lock = threading.Lock()

    def _report_place(self) -> Tuple[Path, Path]:
        """(a new scratch folder, the path of the report in a folder only this run knows)."""
        scratch = self._scratch()
        report_dir = scratch / f"report-{secrets.token_hex(8)}"
        report_dir.mkdir()
        return scratch, report_dir / "report.xml"

    def _scratch(self) -> Path:
        with self._lock:
            self._count += 1
            n = self._count
        scratch = self.scratch_root / f"t{n:04d}"
        for sub in ("home", "tmp"):
            (scratch / sub).mkdir(parents=True)
        return scratch

    def sandboxed(self, test: Planned, scratch: Path, report: Path,
                  more: Optional[Dict[str, str]] = None):
        """(the command line that runs the test in its sandbox, its environment (the test's,
        and `more`: the grader's word to it), its working folder, what its sandbox binds
        besides what it shows every test or GPU test)."""
        env = self.sandbox.environment(scratch, {**test.environment, **(more or {})})
        env["GTEST_OUTPUT"] = f"xml:{report}"
        cwd = Path(test.cwd) if Path(test.cwd).is_dir() else scratch
        # Its programs, their libraries and what the build says it reads: nothing else (and,
        # for a GPU test, the grader's self-check record of this GPU, which its environment
        # names: the kit reads it).
        reads = self.build.test_reads(test.name) if self.build is not None else []
        if test.gpu and env.get(SELF_CHECK_VARIABLE):
            reads = [*reads, Path(env[SELF_CHECK_VARIABLE])]
        argv, shown = self.sandbox.files(test.command, env, cwd, reads)
        places = self.sandbox.places(shown, test.gpu) if self.sandbox.isolated else []
        return self.sandbox.command(argv, scratch, env, cwd, shown, gpu=test.gpu), env, cwd, places

    def prepare(self, test: Planned) -> Tuple[Optional[Verdict], Dict[str, str], List[dict]]:
        """What is decided before any student code runs: (the verdict of a test that is not to
        run, or None; the grader's word to it in its environment; its programs)."""
        kind = test.kind
        if kind == "none":
            return Verdict(test.name, NOT_BUILT, "its test program is not built",
                           labels=test.labels), {}, []
        if kind == "placeholder":
            if not self.machine.gpu:
                return Verdict(test.name, NOT_GRADABLE, f"no GPU: {self.machine.reason}",
                               labels=test.labels), {}, []
            return Verdict(test.name, FAILED, "its GPU program was not built although this "
                                              "machine has a GPU", labels=test.labels), {}, []
        # What the test needs that this GPU lacks, decided before any student code runs; the
        # counters alone, where the lesson allows it, the CPU run of the same launches stands
        # in for.
        more: Dict[str, str] = {}
        if test.gpu and self.machine.gpu and test.name in self.needs:
            needs, caps = self.needs[test.name], self.machine.capabilities()
            why = unmet(needs, caps, self.profiles)
            if why is not None:
                if not (test.name in self.cpu_recording and needs.counters and
                        unmet(replace(needs, counters=False), caps, self.profiles) is None):
                    return Verdict(test.name, NOT_GRADABLE, why, labels=test.labels), {}, []
                more[COUNTS_FROM_VARIABLE] = "cpu-recording"
        # Only programs the grading build made, as it made them: never an earlier build's.
        refused, programs = self.programs.check(test)
        return refused, more, programs

    def run(self, test: Planned) -> Verdict:
        done, more, programs = self.prepare(test)
        return done if done is not None else self._execute(test, more, programs)

    def _execute(self, test: Planned, more: Dict[str, str], programs: List[dict]) -> Verdict:
        """Runs the test in a sandbox of its own and judges it from its report."""
        kind = test.kind
        # The report goes where only this run of the test knows to write.
        scratch, report = self._report_place()
        argv, env, cwd, places = self.sandboxed(test, scratch, report, more)
        start = time.monotonic()
        # bubblewrap itself runs with the test's environment too: its first process, which
        # the test sees (/proc/1/environ), keeps the environment it was started with.
        code, printed, timed_out = _run(argv, env, test.timeout, cwd)
        seconds = time.monotonic() - start
        output = printed.text
        v = Verdict(test.name, FAILED, exit_code=code, seconds=round(seconds, 3),
                    labels=test.labels, programs=programs, shown=places)
        # Every process the test started has ended (its PID namespace is gone): read the report.
        parsed = read_report(report)
        v.report = parsed.summary
        if timed_out:
            v.detail = f"timeout: it ran longer than {test.timeout:.0f} s"
        elif kind == "sanitizer":
            judge_sanitizer(test, v, parsed, code, output)
        else:
            judge_gtest(test, v, parsed, code, output)
        if v.status == SKIPPED and test.gpu and not self.machine.gpu:
            v.status, v.detail = NOT_GRADABLE, f"no GPU: {self.machine.reason}"
        if more:
            self._from_cpu_recording(v)
        v.detail = one_line(v.detail, DETAIL_CHARS)  # the test's report is the student's to write
        v.output = kept_output(v, printed, self.keep_failing)
        shutil.rmtree(scratch, ignore_errors=True)
        return v

    def run_batch(self, tests: List[Planned]) -> List[Verdict]:
        """GPU tests of one program (batches()), in one process where they can be: each is
        prepared as on its own; those the grader tells the same run together, and keep their
        verdicts up to the first that did not pass (_execute_batch)."""
        verdicts: Dict[str, Verdict] = {}
        together: Dict[tuple, List[Tuple[Planned, Dict[str, str], List[dict]]]] = {}
        for t in tests:
            done, more, programs = self.prepare(t)
            if done is not None:
                verdicts[t.name] = done
            else:
                together.setdefault(tuple(sorted(more.items())), []).append((t, more, programs))
        for items in together.values():
            for v in self._execute_batch(items):
                verdicts[v.name] = v
        return [verdicts[t.name] for t in tests]

    def _execute_batch(self, items: List[Tuple[Planned, Dict[str, str], List[dict]]]
                       ) -> List[Verdict]:
        """The tests in one process, with one filter that names each, in order. A test passes
        from there only when the report lists the tests asked for and no other, it started and
        passed, and so did every test before it; and, when every test passed, the process
        exited 0. From the first test that did not, each runs again in a process of its own and
        is judged there (as is every test of a process that ran out of time, left no report
        or listed a test it was not asked for)."""
        if len(items) == 1:
            return [self._execute(*items[0])]
        tests = [t for t, _, _ in items]
        more, programs = items[0][1], items[0][2]
        names = [t.gtest_names[0] for t in tests]
        first = tests[0]
        together = replace(first, command=[_FILTER + ":".join(names) if a.startswith(_FILTER)
                                           else a for a in first.command],
                           timeout=sum(t.timeout for t in tests))
        scratch, report = self._report_place()
        argv, env, cwd, places = self.sandboxed(together, scratch, report, more)
        code, printed, timed_out = _run(argv, env, together.timeout, cwd)
        parsed = read_report(report)
        shutil.rmtree(scratch, ignore_errors=True)
        out: List[Verdict] = []
        if not timed_out and parsed.found and set(parsed.cases) <= set(names):
            for t, name in zip(tests, names):
                status, _, started = parsed.cases.get(name, ("not run", "", False))
                if status != "passed" or not started:
                    break
                v = Verdict(t.name, PASSED, exit_code=code,
                            seconds=round(parsed.seconds.get(name, 0.0), 3), labels=t.labels,
                            programs=programs, shown=places, batch=names,
                            report=f"{name}: passed, test {len(out) + 1} of {len(names)} in "
                                   f"one process")
                v.output = kept_output(v, printed, self.keep_failing, name)
                if more:
                    self._from_cpu_recording(v)
                out.append(v)
            if len(out) == len(tests) and code != 0:
                out = []  # every test passed, yet the process did not end well
        return out + [self._execute(*item) for item in items[len(out):]]

    def _from_cpu_recording(self, v: Verdict) -> None:
        """A counter test that ran with its counts from the CPU recording: passed, it is
        listed apart (and earns its points only with --cpu-recording-points); either way its
        verdict says where its counts came from, and without the switch it is not gradable
        here, whatever it showed."""
        v.counts_from = "cpu recording"
        refused = "counters refused on this machine" + (
            f" ({self.machine.counters_reason})" if self.machine.counters_reason else "")
        if v.status == PASSED:
            outcome = "passed"
            v.status, v.detail = FROM_CPU_RECORDING, f"counts from the CPU run: {refused}"
        elif v.status == FAILED:
            outcome = f"failed ({v.detail})" if v.detail else "failed"
            v.detail = f"from the CPU recording ({refused}): {v.detail}"
        else:
            return
        if not self.cpu_recording_points:
            v.status = NOT_GRADABLE
            v.detail = (f"{refused}; from the CPU recording it {outcome}, which earns points "
                        f"only with grade_run.sh --cpu-recording-points")


class Printed:
    """What the grader keeps of a test's output while it runs, never the whole of it (a test
    may print without end): its last OUTPUT_BYTES, the kit's measurement lines (the first
    MEASURED_LINES), the line of its first failed assertion, and how much it printed."""

    def __init__(self) -> None:
        self.total = 0
        self.measured: List[str] = []
        self.measured_more = 0
        #: The measurement lines of each test of a process that runs several ("[ RUN      ]"
        #: lines open a test; those before the first: the program's own), MEASURED_LINES each.
        self.measured_by: Dict[str, List[str]] = {}
        self._test = ""
        self.failure = ""
        self._tail = bytearray()
        self._line = bytearray()
        self._lock = threading.Lock()
        self._closed = False

    def feed(self, data: bytes) -> None:
        with self._lock:
            if self._closed:
                return
            self.total += len(data)
            self._tail += data
            del self._tail[:-OUTPUT_BYTES]
            *lines, rest = (bytes(self._line) + data).split(b"\n")
            self._line = bytearray(rest[:4 * LINE_CHARS])  # a line without end is cut
            for line in lines:
                self._scan(line[:4 * LINE_CHARS].decode("utf-8", "replace").rstrip("\r"))

    def _scan(self, line: str) -> None:
        started = _RUN.match(line)
        if started:
            self._test = started.group(1)
        if line.startswith(MEASUREMENT_PREFIXES):
            if len(self.measured) < MEASURED_LINES:
                self.measured.append(one_line(line, LINE_CHARS))
            else:
                self.measured_more += 1
            if self._test in self.measured_by or len(self.measured_by) <= MEASURED_TESTS:
                own = self.measured_by.setdefault(self._test, [])
                if len(own) < MEASURED_LINES:
                    own.append(one_line(line, LINE_CHARS))
        elif not self.failure and failure_location(line):
            self.failure = one_line(line, LINE_CHARS)

    def close(self) -> None:
        """Nothing more is read (a process outside a sandbox may hold its output open)."""
        with self._lock:
            if self._line:
                self._scan(self._line.decode("utf-8", "replace"))
                self._line = bytearray()
            self._closed = True

    @property
    def text(self) -> str:
        """The end of the output, for the grader's own reading."""
        with self._lock:
            return self._tail.decode("utf-8", "replace")

    def tail(self, size: int) -> str:
        """Its last `size` bytes, from the start of a line."""
        with self._lock:
            data = bytes(self._tail[-size:])
        if len(data) == size and b"\n" in data:
            data = data[data.index(b"\n") + 1:]
        return data.decode("utf-8", "replace")


def kept_output(v: Verdict, printed: Printed, keep_failing: bool, test: str = "") -> str:
    """What the JUnit report keeps of what a passed or failed test printed (see the top); of a
    passed test `test` of a process that ran several, its program's and its own measurement
    lines."""
    if test:
        return "".join(f"{line}\n" for line in printed.measured_by.get("", []) +
                       printed.measured_by.get(test, []))
    lines = list(printed.measured)
    if printed.measured_more:
        lines.append(f"[grader] {printed.measured_more} more measurement lines are not kept")
    if v.status != FAILED:
        return "\n".join(lines) + "\n" if lines else ""
    if printed.failure:
        lines.append(printed.failure)
    if keep_failing and printed.total:
        end = printed.tail(KEPT_BYTES)
        cut = printed.total - len(end.encode("utf-8", "replace"))
        lines.append(f"[grader] the end of what it printed ({printed.total} bytes"
                     + (f"; the {cut} before it are not kept" if cut > 0 else "") + "), but "
                     + "its measurement lines (above):")
        lines += [line for line in end.rstrip("\n").split("\n")
                  if not line.startswith(MEASUREMENT_PREFIXES)]
    elif printed.total:
        lines.append(f"[grader] the rest of what it printed ({printed.total} bytes) is not "
                     f"kept (grade with --keep-failing-output to keep its end)")
    return "\n".join(lines) + "\n"


def _run(argv: List[str], env: Dict[str, str], timeout: float, cwd: Path):
    """(exit status, what it printed (Printed), timed out). The process group is killed on
    timeout."""
    printed = Printed()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=env, cwd=str(cwd),
                                start_new_session=True)
    except OSError as e:
        printed.feed(f"cannot start {argv[0]}: {e}\n".encode())
        return None, printed, False

    def read() -> None:
        for chunk in iter(lambda: proc.stdout.read1(65536), b""):
            printed.feed(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.wait()
    # In a sandbox, the output ends with the sandbox's last process; outside one, a process
    # the test left behind may keep it open: it is not waited for long.
    reader.join(timeout=10)
    printed.close()
    return proc.returncode, printed, timed_out


@dataclass
class Report:
    """What a GoogleTest XML report says: each test case's name -> (status, detail,
    started)."""

    found: bool
    cases: Dict[str, tuple] = field(default_factory=dict)
    problem: str = ""
    seconds: Dict[str, float] = field(default_factory=dict)  # each test case's time

    @property
    def summary(self) -> str:
        if not self.found:
            return self.problem or "no report"
        return "; ".join(f"{name}: {c[0]}" + ("" if c[2] else " (never started)")
                         for name, c in sorted(self.cases.items()))[:500]


def read_report(path: Path) -> Report:
    """A GoogleTest XML report, read defensively (it was written by a process that ran
    student code): size-limited, no document type, no entities."""
    if not path.is_file() or path.is_symlink():
        return Report(False, problem="no GoogleTest report (the program ended before writing it)")
    if path.stat().st_size > REPORT_BYTES:
        return Report(False, problem="the GoogleTest report is too large to be a report")
    data = path.read_bytes()
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        return Report(False, problem="the GoogleTest report holds a document type")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return Report(False, problem=f"the GoogleTest report is not XML ({e})")
    rep = Report(True)
    for case in root.iter("testcase"):
        name = f"{case.get('classname', '')}.{case.get('name', '')}"
        failure = case.find("failure")
        skipped = case.find("skipped")
        started = not (case.get("timestamp") or "").startswith(NEVER_STARTED)
        if failure is not None:
            message = (failure.get("message") or "").split("\n", 1)[0]
            status = ("failed", message)
        elif skipped is not None or case.get("result") == "skipped":
            message = (skipped.get("message") if skipped is not None else "") or ""
            status = ("skipped", message.split("\n", 1)[-1].strip() if "\n" in message else message)
        elif case.get("status") == "run" and case.get("result", "completed") == "completed":
            status = ("passed", "")
        else:
            status = ("not run", case.get("status", ""))
        rep.cases[name] = (status[0], status[1], started)
        try:
            rep.seconds[name] = max(0.0, float(case.get("time") or 0))
        except ValueError:
            rep.seconds[name] = 0.0
    return rep


def judge_gtest(test: Planned, v: Verdict, rep: Report, code: Optional[int], output: str) -> None:
    """One test of a test program: the report and the exit status must agree that it passed."""
    names = test.gtest_names
    if len(names) != 1:
        v.detail = "the grader cannot tell which GoogleTest test this is"
        return
    name = names[0]
    if not rep.found:
        v.detail = f"{rep.problem}; exit status {code}"
        return
    extra = sorted(set(rep.cases) - {name})
    if extra:
        v.detail = f"the program ran tests it was not asked to run ({', '.join(extra[:3])})"
        return
    if name not in rep.cases:
        v.detail = "GoogleTest's report does not list the test: it did not run"
        return
    status, detail, started = rep.cases[name]
    if not started:
        v.detail = "the test never started (a global test environment skipped it)"
        return
    if status == "skipped":
        m = _SKIP_REASON.search(output)
        v.status, v.detail = SKIPPED, (detail or (m.group(1).strip() if m else "skipped"))
        return
    if status == "failed":
        v.detail = f"assertion: {detail}" if detail else "assertion"
        return
    if status != "passed":
        v.detail = f"GoogleTest's report says {status}"
        return
    if code != 0:
        v.detail = f"the report says passed, but the program exited with status {code}"
        return
    v.status = PASSED


def judge_sanitizer(test: Planned, v: Verdict, rep: Report, code: Optional[int],
                    output: str) -> None:
    """A program's tests under a sanitizer tool: judged by the wrapper on the sanitizer's
    findings; the report must show that the tests it was given really started."""
    if test.skip_code is not None and code == test.skip_code:
        m = _SKIP_REASON.search(output)
        v.status, v.detail = SKIPPED, (m.group(1).strip() if m else "skipped")
        return
    if code != 0:
        last = [line for line in output.strip().splitlines() if line.strip()][-1:]
        v.detail = last[0][:300] if last else f"exit status {code}"
        return
    if not rep.found:
        v.detail = f"no evidence that the tests ran under the sanitizer: {rep.problem}"
        return
    missing = [n for n in test.gtest_names if n not in rep.cases or not rep.cases[n][2]]
    if missing:
        v.detail = f"the report does not show {missing[0]} starting under the sanitizer"
        return
    v.status = PASSED


# ------------------------------------------------------------------------------------------
# Everything, and the outputs
# ------------------------------------------------------------------------------------------

def run_tests(tests: List[Planned], sandbox: Sandbox, machine: Machine, jobs: int,
              programs: Programs, say=print, build: Optional[Build] = None,
              keep_failing: bool = False, cpu_recording_points: bool = False,
              apart: bool = False, past: Optional[Dict[str, float]] = None,
              ready: Optional[Callable[[str, bool], Optional[Dict[str, "Planned"]]]] = None
              ) -> List[Verdict]:
    """Runs the tests as ctest would with the build's resource spec, in two steps: first those
    that need the GPU alone (timing, counters: they hold the `gpu` lock), one process at a
    time, lesson after lesson: those of one program in one process where their lesson
    allows it (batches()), each other one in its own; then the GPU tests that share the GPU
    (correctness, sanitizer runs: one slot a process), those of one program again in one
    process where their lesson allows it, as many processes at a time as the GPU has slots
    (what a test that needs it alone asks for), the CPU tests `jobs` at a time beside them. A
    test runs only the programs the grading build made (`programs`). `build`: the build folder,
    whose list of what tests read the sandbox shows them; keep_failing: --keep-failing-output;
    cpu_recording_points: --cpu-recording-points; apart: --tests-apart (every test in a process
    of its own); past: each test's seconds the last time this build graded (past_seconds: the
    order in which the tests that share the GPU start, shared_order()); ready: for a pipelined
    build, ready(lessonNN, block) gives the lesson's tests as ctest lists them once its build is
    done ({name: Planned}; with block, it waits for that; without, None while it is not done):
    the tests that need the GPU alone run beside the lessons still building (whose makes need
    no GPU), the first lesson built first. Says how long each GPU step took."""
    course = (build or Build(programs.dir)).source_dir
    needs = declared_needs(tests, course)
    scratch_root = Path(tempfile.mkdtemp(prefix="course-grade-"))
    runner = Runner(sandbox, scratch_root, machine, programs, build, keep_failing, needs,
                    read_profiles(course) if needs else None, cpu_recording_tests(tests, course),
                    cpu_recording_points)
    results: Dict[str, Verdict] = {}
    done = [0]
    lock = threading.Lock()

    def record(v: Verdict) -> None:
        with lock:
            results[v.name] = v
            done[0] += 1
            if v.status not in (PASSED,):
                say(f"  {v.status:<17} {v.name}" + (f": {v.detail[:160]}" if v.detail else ""))

    # A pipelined build's lesson is listed again once it is built: ctest lists no command for
    # a program that is not there (yet), as when its earlier build was removed. Only such a
    # command is taken from there; the rest of each test stays as first listed, before any
    # student code ran (and a program still runs only if it is the one this build made).
    current = {t.name: t for t in tests}
    refreshed: Dict[str, threading.Lock] = {}
    fresh_done: set = set()

    def lesson_built(label: str, block: bool = True) -> bool:
        """Whether the lesson is built, its tests listed again (with block: once it is)."""
        if ready is None or not label:
            return True
        with lock:
            label_lock = refreshed.setdefault(label, threading.Lock())
        with label_lock:
            if label in fresh_done:
                return True
            listed = ready(label, block)
            if listed is None:
                return False
            again = [replace(current[name], command=t.command) for name, t in listed.items()
                     if name in current and not current[name].command]
            with lock:
                current.update({t.name: t for t in again})
                # what the manifests say of them reads their filters: read it again too
                runner.needs.update(declared_needs(again, course))
                runner.cpu_recording.update(cpu_recording_tests(again, course))
                fresh_done.add(label)
            return True

    def label_of(test: Planned) -> str:
        parts = split_test_name(test.name)
        return parts.label if parts else ""

    def as_built(test: Planned) -> Planned:
        lesson_built(label_of(test))
        return current[test.name]

    def one(test: Planned) -> None:
        record(runner.run(as_built(test)))

    def together(process: List[Planned]) -> None:
        for v in runner.run_batch(process):
            record(v)

    slots = max([t.gpu_slots for t in tests], default=1)
    try:
        start = time.monotonic()
        alone, remaining = [t for t in tests if t.lock], []
        for t in alone:
            if label_of(t) not in remaining:
                remaining.append(label_of(t))
        count = 0
        while remaining:
            # the first lesson in order that is built, else the first (waiting for it)
            label = next((l for l in remaining if lesson_built(l, block=False)), remaining[0])
            remaining.remove(label)
            group = [as_built(t) for t in alone if label_of(t) == label]
            processes = [[t] for t in group] if apart else batches(group, course)
            count += len(processes)
            for process in processes:
                together(process)
        if alone and machine.gpu:
            say(f"  the GPU tests that need it alone: {len(alone)} in {count} "
                f"processes, {time.monotonic() - start:.0f} s")
        # Every lesson built (and listed again) before the order of the others is chosen.
        rest = [as_built(t) for t in tests if not t.lock]
        shared = [t for t in rest if t.gpu]
        cpu = [t for t in rest if not t.gpu]
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool, \
                ThreadPoolExecutor(max_workers=max(1, slots)) as gpu:
            start = time.monotonic()
            processes = [[t] for t in shared] if apart else batches(shared, course)
            shared_futures = [gpu.submit(together, p)
                              for p in shared_order(processes, past or {})]
            cpu_futures = [pool.submit(one, t) for t in cpu]
            for f in shared_futures:
                f.result()
            if shared and machine.gpu:
                say(f"  the GPU tests that share it: {len(shared)} in {len(processes)} "
                    f"processes, {slots} at a time, {time.monotonic() - start:.0f} s")
            for f in cpu_futures:
                f.result()
    finally:
        shutil.rmtree(scratch_root, ignore_errors=True)
    return [results[t.name] for t in tests]


def junit(verdicts: List[Verdict]) -> str:
    """The verdicts as ctest writes a JUnit report, so that grade.py and the other tools read
    them: status run (passed), fail, or notrun with a GoogleTest-style skip message."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<testsuite name="grade" tests="{len(verdicts)}" '
             f'failures="{sum(v.status == FAILED for v in verdicts)}" '
             f'skipped="{sum(v.status in (SKIPPED, NOT_GRADABLE, NOT_BUILT) for v in verdicts)}">']
    for v in verdicts:
        status = {PASSED: "run", FROM_CPU_RECORDING: "run", FAILED: "fail"}.get(v.status, "notrun")
        lines.append(f'  <testcase name={quoteattr(v.name)} classname="grade" '
                     f'time="{v.seconds:.3f}" status="{status}">')
        lines.append("    <properties>")
        lines.append(f'      <property name="cmake_labels" value={quoteattr(";".join(v.labels))}/>')
        lines.append(f'      <property name="course_verdict" value={quoteattr(v.status)}/>')
        lines.append("    </properties>")
        out = v.output
        if v.status in (SKIPPED, NOT_GRADABLE):
            out = f"{v.name}: Skipped\n{v.detail}\n[  SKIPPED ] {v.name}\n"
        elif v.status == NOT_BUILT:
            out = f"Unable to find executable: {v.detail}\n"
        if v.status == FAILED:
            lines.append(f"    <failure message={quoteattr(v.detail)}/>")
        lines.append(f"    <system-out>{escape(_printable(out))}</system-out>")
        lines.append("  </testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines) + "\n"


def _printable(text: str) -> str:
    """XML 1.0 cannot hold control characters other than tab and newline."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "?", text)


def show_sandbox(tests: List[Planned], sandbox: Sandbox, build: Build) -> List[str]:
    """What the sandbox shows every test, a GPU test besides, and each test's own files and
    command (--show-sandbox: nothing runs)."""
    record = sandbox.record()
    lines = [f"sandbox: {record['what']}"]
    if not sandbox.isolated:
        return lines
    lines += ["every test sees:"] + [f"  {b}" for b in record["shown"]]
    lines += ["a GPU test also sees:"] + ([f"  {b}" for b in record["shown_to_gpu_tests"]] or
                                          [f"  nothing more: {sandbox.gpu_what()}"])
    if record.get("cuda_visible_devices"):
        lines.append(f"  CUDA_VISIBLE_DEVICES={record['cuda_visible_devices']}")
    runner = Runner(sandbox, Path(tempfile.gettempdir()) / "course-grade", Machine(True),
                    build=build)
    scratch = runner.scratch_root / "t0000"
    for t in tests:
        if t.kind not in ("gtest", "sanitizer"):
            lines.append(f"{t.name}: not run ({'no program' if t.kind == 'none' else t.kind})")
            continue
        argv, _, _, places = runner.sandboxed(t, scratch, scratch / "report.xml")
        command = argv[argv.index("--") + 1:]
        lines.append(f"{t.name}{' (GPU)' if t.gpu else ''}: {' '.join(command)}")
        lines += [f"  {p}" for p in places]
    return lines


def output_kept(keep_failing: bool) -> str:
    """What the JUnit report keeps of the tests' output, in words (the evidence says it)."""
    words = (f"the kit's measurement lines (at most {MEASURED_LINES} a test) and a failing "
             f"test's first failed assertion")
    if keep_failing:
        return words + f", and the last {KEPT_BYTES} bytes of a failing test's output"
    return words + "; nothing else a test printed"


def write_outputs(verdicts: List[Verdict], sandbox: Sandbox, machine: Machine,
                  programs: Programs, junit_path: Path, record_path: Path,
                  keep_failing: bool = False, cpu_recording_points: bool = False) -> None:
    """The JUnit report and the evidence record, which names the report by its hash (so a
    JUnit file written later, by ctest for instance, is not mistaken for the grader's) and the
    grading build whose programs the tests ran (its id, as in its record)."""
    text = junit(verdicts)
    write_text_atomic(junit_path, text)
    data = {"version": 1, "junit": str(junit_path),
            "junit_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "sandbox": sandbox.record(),
            "output": output_kept(keep_failing),
            "machine": asdict(machine),
            "cpu_recording_points": cpu_recording_points,
            "build": programs.build,
            "tests": [{k: v for k, v in asdict(x).items() if k != "output"} for x in verdicts]}
    write_text_atomic(record_path, json.dumps(data, indent=1) + "\n")


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", type=Path, required=True)
    ap.add_argument("--lessons", help="only these lessons, e.g. 01,03 (default: all)")
    ap.add_argument("--tree", default="student")
    ap.add_argument("--junit", type=Path, help="the JUnit report to write (required)")
    ap.add_argument("--record", type=Path, help="the evidence record to write (JSON; required)")
    ap.add_argument("--show-sandbox", action="store_true",
                    help="run nothing: print what the sandbox shows every test, a GPU test "
                         "besides, and each test's own files")
    ap.add_argument("--machine", type=Path, help="machine_check.py's result")
    ap.add_argument("--not-isolated", action="store_true",
                    help="run without a sandbox where none can be made (the report says so)")
    keep_output_option(ap)
    cpu_recording_option(ap)
    apart_option(ap)
    jobs_option(ap)
    args = ap.parse_args(argv)
    if not args.show_sandbox and (args.junit is None or args.record is None):
        ap.error("give --junit and --record (or --show-sandbox)")

    def go() -> int:
        lessons = [parse_lesson_number(x) for x in split_list(args.lessons)]
        tests = planned_tests(args.build_dir, args.tree, lessons)
        if not tests:
            raise CourseError(f"{args.build_dir} has no {args.tree} tests to run")
        box = grading_sandbox(args.not_isolated)
        if args.show_sandbox:
            print("\n".join(show_sandbox(tests, box, Build(args.build_dir))))
            return 0
        machine = Machine.read(args.machine)
        programs = Programs(args.build_dir)
        verdicts = run_tests(tests, box, machine, args.jobs, programs, build=Build(args.build_dir),
                             keep_failing=args.keep_failing_output, apart=args.tests_apart,
                             cpu_recording_points=args.cpu_recording_points,
                             past=past_seconds(args.record))
        write_outputs(verdicts, box, machine, programs, args.junit, args.record,
                      args.keep_failing_output, args.cpu_recording_points)
        passed = sum(v.status == PASSED for v in verdicts)
        print(f"{passed} of {len(verdicts)} tests passed ({box.describe()})")
        return 0

    return run_main(PROG, go, error_status=2)


def keep_output_option(parser) -> None:
    """--keep-failing-output: the JUnit report keeps the end of a failing test's output."""
    parser.add_argument("--keep-failing-output", action="store_true",
                        help=f"keep the last {KEPT_BYTES} bytes of a failing test's output in the "
                             f"JUnit report (default: only its measurement lines and first failed "
                             f"assertion; the report may be where the student can read it)")


def cpu_recording_option(parser) -> None:
    """--cpu-recording-points: tests that pass from the CPU recording earn their points."""
    parser.add_argument("--cpu-recording-points", action="store_true",
                        help="where the counters are refused, the counter tests of a lesson whose "
                             "kernel runs on the CPU take their counts from the CPU run of the "
                             "same launches: with this, those that pass earn their points "
                             "(default: listed, not gradable here)")


def apart_option(parser) -> None:
    """--tests-apart: no test shares a process."""
    parser.add_argument("--tests-apart", action="store_true",
                        help="run every test in a process of its own (slower: by default the "
                             "tests of one program that need the GPU alone share one)")


def grading_sandbox(allow_none: bool, hidden: Optional[Path] = None) -> Sandbox:
    """The sandbox the tests run in (each is shown its own files: Runner.run), the hidden
    tests never shown. Raises CourseError where none can be made, unless allow_none."""
    box = Sandbox.probe(hidden=[hidden] if hidden else [])
    if box.isolated:
        return box
    if not allow_none:
        raise CourseError(f"no sandbox: {box.reason} (give --not-isolated to grade anyway; the "
                          f"report will say that the run was not isolated)")
    print(f"{PROG}: WARNING: the tests run NOT ISOLATED: {box.reason}", file=sys.stderr)
    return box


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
