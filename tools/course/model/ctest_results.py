"""Reading ctest's results: the test list with labels and programs (ctest --show-only=json-v1)
and the JUnit report (ctest --output-junit). Shared by the fail-first check, the progress report,
the grade report and the reliability scripts.

A test whose program is not built stays registered: ctest reports it as not run, "Unable to
find executable: <program>" (JUnit status="notrun"); here its status is "not built"."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

# A GoogleTest assertion failure prints "<file>:<line>: Failure" and then "[  FAILED  ]".
_ASSERTION = re.compile(r"(^|\n)[^\n]*:(\d+: )?Failure\n")
_GTEST_FAILED = re.compile(r"\[  FAILED  \] ")
_SKIP_REASON = re.compile(r"Skipped\n(.*?)\n\[  SKIPPED \]", re.S)
# ctest's words for a test whose program does not exist (3.25 to 4.x).
#: The kit's measurement lines in a test's output (the timer's and the counters'), and its
#: notes on them (what a replay of a kernel's shared accesses showed).
MEASUREMENT_PREFIXES = ("[kit-slowdown]", "[kit-counters]", "[kit-note]")
_FAILURE_AT = re.compile(r"^(?:.*/)?([^/\s]+:\d+): Failure$", re.M)
_NO_EXECUTABLE = re.compile(r"(?:Unable|Could not) (?:to )?find executable:?\s*(\S*)", re.I)

PASS = "pass"
SKIP = "skip"
ASSERTION = "assertion"
CRASH = "crash"  # a crash, a timeout, an exit without an assertion, not run for another reason
NOT_BUILT = "not built"  # its program does not exist


class ResultError(Exception):
    """A report that cannot be read: missing, empty or malformed."""


@dataclass
class TestInfo:
    """One test as ctest knows it."""

    name: str
    labels: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    built: bool | None = None  # False: ctest finds no program for it; None: the list does not say
    properties: dict = field(default_factory=dict)  # every property ctest lists: TIMEOUT, ...

    @property
    def program(self) -> str:
        """The file name of the test's program (lesson03_student_cpu), or ''."""
        return Path(self.command[0]).name if self.command else ""


@dataclass
class TestResult:
    """One test's outcome, read from a JUnit report."""

    name: str
    status: str  # PASS, SKIP, ASSERTION, CRASH or NOT_BUILT
    output: str = ""
    reason: str = ""  # the skip reason, or why a failure is not an assertion failure
    labels: list[str] = field(default_factory=list)  # from the report, where ctest records them
    program: str = ""  # for NOT_BUILT: the program that is not built
    verdict: str = ""  # the grader's verdict (grade_tests.py), where the report carries one
    message: str = ""  # the failure's or the skip's message

    @property
    def passed(self) -> bool:
        return self.status == PASS


def list_tests(build_dir: Path, ctest: str = "ctest") -> dict[str, TestInfo]:
    """Every test registered in a build folder, with its labels."""
    proc = subprocess.run([ctest, "--test-dir", str(build_dir), "--show-only=json-v1"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise ResultError(f"ctest could not list the tests of {build_dir}: {proc.stderr.strip()}")
    try:
        data = json.loads(proc.stdout)
    except ValueError as e:
        raise ResultError(f"ctest's test list of {build_dir} is not JSON ({e})") from None
    tests = {}
    for t in data.get("tests", []):
        properties = {p.get("name"): p.get("value") for p in t.get("properties", [])}
        labels = list(properties.get("LABELS") or [])
        command = list(t.get("command") or [])
        # ctest's list names the program it found; it leaves "command" out for a test whose
        # program does not exist (CMake 3.x; a recorded list without backtraces says nothing
        # either way). Where it names one, the program is built when the file is there.
        built = program_exists(command[0]) if command else (False if "backtrace" in t else None)
        tests[t["name"]] = TestInfo(t["name"], labels, command, built, properties)
    return tests


def program_exists(program: str) -> bool:
    """Whether a test's program is there: a path that is a file, or a name found on PATH."""
    if os.path.isabs(program) or os.sep in program:
        return os.path.isfile(program)
    return shutil.which(program) is not None


def missing_program(message: str, output: str) -> str | None:
    """For a test ctest did not run because its program does not exist, the program's file
    name ('' if ctest does not name it); None otherwise."""
    for text in (output, message):
        m = _NO_EXECUTABLE.search(text or "")
        if m:
            return Path(m.group(1)).name if m.group(1) else ""
    return None


def classify(status: str, failure_message: str, output: str) -> tuple[str, str]:
    """Turns a JUnit test case into (status, reason)."""
    if status == "run":
        return PASS, ""
    if status in ("notrun", "disabled"):
        m = _SKIP_REASON.search(output)
        if m:
            return SKIP, m.group(1).strip()
        program = missing_program(failure_message, output)
        if program is not None:
            return NOT_BUILT, f"{program or 'its program'} is not built"
        return CRASH, f"not run ({failure_message or 'no message'})"
    if _ASSERTION.search(output) and _GTEST_FAILED.search(output):
        return ASSERTION, ""
    if "Timeout" in failure_message or not output.strip():
        return CRASH, f"timeout or no output ({failure_message or 'no message'})"
    return CRASH, f"ended without a test assertion ({failure_message or 'crash or exit'})"


def read_junit(path: Path) -> dict[str, TestResult]:
    """Every test case of a ctest JUnit report. Raises ResultError for a missing, empty or
    malformed file."""
    if not path.is_file():
        raise ResultError(f"{path}: no such JUnit file")
    text = path.read_text(errors="replace")
    if not text.strip():
        raise ResultError(f"{path}: the JUnit file is empty")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise ResultError(f"{path}: not valid JUnit XML ({e})") from None
    cases = root.iter("testcase")
    results = {}
    for case in cases:
        name = case.get("name")
        if name is None:
            raise ResultError(f"{path}: a <testcase> has no name")
        status = case.get("status", "run")
        failure = case.find("failure")
        if failure is not None and status == "run":
            status = "fail"
        skipped = case.find("skipped")
        if skipped is not None and status == "run":
            status = "notrun"
        message = ""
        if failure is not None:
            message = failure.get("message", "") or ""
        elif skipped is not None:
            message = skipped.get("message", "") or ""
        out_el = case.find("system-out")
        output = out_el.text if out_el is not None and out_el.text else ""
        kind, reason = classify(status, message, output)
        labels: list[str] = []
        verdict = ""
        for prop in case.iter("property"):
            if prop.get("name") == "cmake_labels" and prop.get("value"):
                labels = prop.get("value", "").split(";")
            elif prop.get("name") == "course_verdict":
                verdict = prop.get("value", "") or ""
        program = missing_program(message, output) if kind == NOT_BUILT else ""
        results[name] = TestResult(name, kind, output, reason, labels, program or "", verdict,
                                   message)
    if root.tag not in ("testsuite", "testsuites"):
        raise ResultError(f"{path}: root element <{root.tag}> is not a JUnit test suite")
    return results


def run_ctest(build_dir: Path, junit: Path, label_regexes: list[str], jobs: int = 1,
              ctest: str = "ctest", extra: list[str] | None = None, quiet: bool = True,
              output_on_failure: bool = True) -> int:
    """Runs ctest with every label regex required (ctest ANDs repeated -L), writing JUnit;
    quiet: nothing on the terminal, else ctest's own lines (and, with output_on_failure, the
    whole output of failed tests)."""
    cmd = [ctest, "--test-dir", str(build_dir), "--output-junit", str(junit.resolve()),
           "-j", str(jobs)]
    for regex in label_regexes:
        cmd += ["-L", regex]
    cmd += extra or []
    if quiet:
        return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    # The student's view: ctest's lines as they come, without its label timings and its advice
    # to read a log or rerun (./course shows each failure itself, --verbose all of them).
    cmd += ["--no-label-summary"] + (["--output-on-failure"] if output_on_failure else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    assert proc.stdout is not None
    for line in proc.stdout:
        if not CTEST_ADVICE.match(line):
            print(line, end="", flush=True)
    return proc.wait()


#: ctest's lines after failed tests that send the student elsewhere.
CTEST_ADVICE = re.compile(r"^(Output from these tests are in: |Use \"--rerun-failed "
                          r"--output-on-failure\" to re-run|Errors while running CTest)")


#: Lines of a failure kept by first_failure().
FIRST_FAILURE_LINES = 12


def first_failure(output: str, limit: int = FIRST_FAILURE_LINES) -> tuple[str, list[str], int]:
    """A failed test's first failed assertion: (its file:line, its message's lines, at most
    `limit`, and how many failed assertions the output holds in all); ("", [], 0) when the output
    has none (a crash, a timeout)."""
    lines = output.splitlines()
    starts = [i for i, line in enumerate(lines) if _FAILURE_AT.match(line)]
    if not starts:
        return "", [], 0
    first = starts[0]
    where = _FAILURE_AT.match(lines[first]).group(1)
    message = []
    for line in lines[first + 1:]:
        if _FAILURE_AT.match(line) or line.startswith(("[  FAILED  ]", "[       OK ]")):
            break
        message.append(line)
    while message and not message[-1].strip():
        message.pop()
    if len(message) > limit:
        message = message[:limit] + [f"... ({len(message) - limit} more lines)"]
    return where, message, len(starts)


def measurements(output: str) -> list[str]:
    """The kit's measurement lines of one test's output, without their tag."""
    found = []
    for line in output.splitlines():
        for prefix in MEASUREMENT_PREFIXES:
            if line.startswith(prefix):
                found.append(line[len(prefix):].strip())
    return found


def failure_location(output: str) -> str:
    """'cpu_exercise_banks_test.cpp:12' for the first failed assertion of a test's output."""
    return first_failure(output)[0]
