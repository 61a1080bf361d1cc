"""Reading ctest's results: the test list with labels (ctest --show-only=json-v1) and the
JUnit report (ctest --output-junit). Shared by the fail-first check, the progress report and
the grade report."""

from __future__ import annotations

import json
import re
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

# A GoogleTest assertion failure prints "<file>:<line>: Failure" and then "[  FAILED  ]".
_ASSERTION = re.compile(r"(^|\n)[^\n]*:(\d+: )?Failure\n")
_GTEST_FAILED = re.compile(r"\[  FAILED  \] ")
_SKIP_REASON = re.compile(r"Skipped\n(.*?)\n\[  SKIPPED \]", re.S)


class ResultError(Exception):
    """A report that cannot be read: missing, empty or malformed."""


@dataclass
class TestInfo:
    """One test as ctest knows it."""

    name: str
    labels: list[str] = field(default_factory=list)


@dataclass
class TestResult:
    """One test's outcome, read from a JUnit report."""

    name: str
    status: str  # "pass", "skip", "assertion", "crash" (crash, timeout, not run, ...)
    output: str = ""
    reason: str = ""  # the skip reason, or why a failure is not an assertion failure
    labels: list[str] = field(default_factory=list)  # from the report, where ctest records them

    @property
    def passed(self) -> bool:
        return self.status == "pass"


def list_tests(build_dir: Path, ctest: str = "ctest") -> dict[str, TestInfo]:
    """Every test registered in a build folder, with its labels."""
    proc = subprocess.run([ctest, "--test-dir", str(build_dir), "--show-only=json-v1"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise ResultError(f"ctest could not list the tests of {build_dir}: {proc.stderr.strip()}")
    data = json.loads(proc.stdout)
    tests = {}
    for t in data.get("tests", []):
        labels: list[str] = []
        for prop in t.get("properties", []):
            if prop.get("name") == "LABELS":
                labels = list(prop.get("value", []))
        tests[t["name"]] = TestInfo(t["name"], labels)
    return tests


def classify(status: str, failure_message: str, output: str) -> tuple[str, str]:
    """Turns a JUnit test case into (status, reason)."""
    if status == "run":
        return "pass", ""
    if status in ("notrun", "disabled"):
        m = _SKIP_REASON.search(output)
        if m:
            return "skip", m.group(1).strip()
        return "crash", f"not run ({failure_message or 'no executable?'})"
    if _ASSERTION.search(output) and _GTEST_FAILED.search(output):
        return "assertion", ""
    if "Timeout" in failure_message or not output.strip():
        return "crash", f"timeout or no output ({failure_message or 'no message'})"
    return "crash", f"ended without a test assertion ({failure_message or 'crash or exit'})"


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
        out_el = case.find("system-out")
        output = out_el.text if out_el is not None and out_el.text else ""
        kind, reason = classify(status, message, output)
        labels: list[str] = []
        for prop in case.iter("property"):
            if prop.get("name") == "cmake_labels" and prop.get("value"):
                labels = prop.get("value", "").split(";")
        results[name] = TestResult(name, kind, output, reason, labels)
    if root.tag not in ("testsuite", "testsuites"):
        raise ResultError(f"{path}: root element <{root.tag}> is not a JUnit test suite")
    return results


def run_ctest(build_dir: Path, junit: Path, label_regexes: list[str], jobs: int = 1,
              ctest: str = "ctest", extra: list[str] | None = None) -> int:
    """Runs ctest with every label regex required (ctest ANDs repeated -L), writing JUnit."""
    cmd = [ctest, "--test-dir", str(build_dir), "--output-junit", str(junit.resolve()),
           "-j", str(jobs)]
    for regex in label_regexes:
        cmd += ["-L", regex]
    cmd += extra or []
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
