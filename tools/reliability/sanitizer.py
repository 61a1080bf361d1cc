"""Running a test program under compute-sanitizer and judging the run on the sanitizer's
findings alone. Shared by the sanitizer tests of the suites (sanitizer_test.py) and the
`sanitize` target (run_sanitizers.py).

The sanitizer returns FINDINGS_EXIT_CODE when it reports an error or a hazard (its
--error-exitcode), and the program's own exit status otherwise: a test that fails its own
assertions under the sanitizer is not a finding, and is reported apart.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")

#: compute-sanitizer's exit status when it found something (its --error-exitcode).
FINDINGS_EXIT_CODE = 86

#: What compute-sanitizer says of a program that launched nothing (every test skipped).
NO_CUDA = "Target application terminated before first instrumented API call"

#: Tests that race on purpose, kept out of racecheck by name with the reason: several lanes of
#: one instruction store to one word (one wins).
RACECHECK_EXCLUDE = {
    "PatternKernel.BroadcastStoresRaceOnPurpose":
        "broadcast stores: lanes store to one word on purpose (lesson 04 measures their cost)",
}

_SUMMARY = {
    "racecheck": re.compile(r"RACECHECK SUMMARY: (\d+) hazards? displayed"),
}
_ERRORS = re.compile(r"ERROR SUMMARY: (\d+) errors?")


def find() -> Optional[str]:
    """The compute-sanitizer program, or None when it is not installed."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    home = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin" / "compute-sanitizer"
    return str(home) if home.exists() else None


@dataclass
class Outcome:
    """One program under one tool."""

    kind: str       # "clean", "findings", "tests failed", "no kernels" or "did not finish"
    findings: int   # errors or hazards the sanitizer reported (-1: no summary printed)
    returncode: int
    first: str      # the first finding's line, or the end of the output
    log: str        # everything the run printed

    @property
    def is_finding(self) -> bool:
        return self.kind == "findings"


def with_exclusions(tool: str, argv: List[str]) -> List[str]:
    """Adds the tests that race on purpose to a racecheck run's negative gtest filter."""
    if tool != "racecheck":
        return list(argv)
    out, found = [], False
    for a in argv:
        if a.startswith("--gtest_filter="):
            found = True
            # GoogleTest's filter is POSITIVE[-NEGATIVE]: add to the negative part.
            sep = ":" if "-" in a[len("--gtest_filter="):] else "-"
            a += sep + ":".join(RACECHECK_EXCLUDE)
        out.append(a)
    if not found:
        out.append("--gtest_filter=-" + ":".join(RACECHECK_EXCLUDE))
    return out


def command(sanitizer: str, tool: str, argv: List[str]) -> List[str]:
    """The sanitizer command line for a program and its arguments (racecheck leaves out the
    tests that race on purpose)."""
    cmd = [sanitizer, "--tool", tool, "--error-exitcode", str(FINDINGS_EXIT_CODE)]
    if tool == "memcheck":
        cmd += ["--leak-check", "full"]
    return cmd + with_exclusions(tool, argv)


def judge(tool: str, returncode: int, text: str) -> Outcome:
    """Classifies a finished run from its exit status and output."""
    m = _SUMMARY.get(tool, _ERRORS).search(text)
    findings = int(m.group(1)) if m else -1
    if returncode == FINDINGS_EXIT_CODE or findings > 0:
        first = next((line.strip() for line in text.splitlines() if "=====" in line and any(
            w in line for w in ("Error", "Invalid", "hazard", "Race", "error"))), "")
        return Outcome("findings", findings, returncode, first or text.strip()[-300:], text)
    if findings < 0 and NO_CUDA in text and returncode in (0, 255):
        return Outcome("no kernels", 0, returncode, "", text)
    if findings < 0:
        return Outcome("did not finish", findings, returncode, text.strip()[-300:], text)
    if returncode != 0:
        return Outcome("tests failed", 0, returncode, "", text)
    return Outcome("clean", 0, returncode, "", text)


def run(sanitizer: str, tool: str, argv: List[str], timeout: Optional[float] = None) -> Outcome:
    """Runs `argv` under `tool` in the small mode (KIT_SMALL=1) and judges it."""
    env = dict(os.environ, KIT_SMALL="1")
    proc = subprocess.run(command(sanitizer, tool, argv), capture_output=True, text=True,
                          env=env, timeout=timeout)
    return judge(tool, proc.returncode, proc.stdout + proc.stderr)
