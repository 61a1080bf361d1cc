"""Running GPU tests one program at a time, a program's tests in as few processes as can be,
instead of one process per test: each test then saves its program's start (a CUDA context: about
0.35 s on the H100, much of a counter or timing test's time there), and a timing or counter test
still has the GPU to itself. Used by the fail-first check (fail_first.py --mode gpu: the timing
and counter tests) and by the student's loop on a GPU (`./course test NN`: the lesson's GPU
tests). Grading batches only the tests of a program that need the GPU alone, with rules of its
own (grading/grade_tests.py's batches).

No verdict depends on a test that went wrong before it in the same process (a kernel's sticky
CUDA error fails every later test of its process): a process keeps the verdicts of its tests up
to and including its first failure, which ran after passes alone, and the tests after that
failure start again in a new process. A test that skipped, or did not finish (a crash, the time
limit), runs again on its own through ctest, which gives its verdict as for any test.

The results come back as ctest's JUnit report would give them (ctest_results.TestResult), and
are written in ctest's JUnit format, each test's output with its program's opening lines (the
[kit-device] line) in front.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.model.ctest_results import TestInfo, TestResult, read_junit, run_ctest

_FILTER = "--gtest_filter="
_START = re.compile(r"^\[ RUN      \] (\S+)\s*$")
_END = re.compile(r"^\[ +(OK|FAILED|SKIPPED) +\] (\S+) \((\d+) ms\)\s*$")
#: Seconds a whole program's run may take when its tests give no TIMEOUT.
DEFAULT_TIMEOUT = 300.0


@dataclass
class Case:
    """One test of a program's run, as its output gives it."""

    status: str  # ctest's words: run (passed), fail, notrun (skipped)
    seconds: float
    output: str


def gtest_name(info: TestInfo) -> Optional[str]:
    """'Suite.Name' of a test whose command is `<program> --gtest_filter=Suite.Name` and whose
    environment ctest leaves alone; None otherwise."""
    if len(info.command) != 2 or not info.command[1].startswith(_FILTER):
        return None
    if info.properties.get("ENVIRONMENT"):
        return None
    name = info.command[1][len(_FILTER):]
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*", name) else None


def split_output(text: str) -> Tuple[str, Dict[str, str]]:
    """(the lines before the first test, {Suite.Name: its lines from RUN to its end line})."""
    preamble: List[str] = []
    parts: Dict[str, List[str]] = {}
    current: Optional[str] = None
    for line in text.splitlines():
        m = _START.match(line)
        if m:
            current = m.group(1)
            parts[current] = [line]
            continue
        if current is None:
            if not parts:
                preamble.append(line)
            continue
        parts[current].append(line)
        end = _END.match(line)
        if end and end.group(2) == current:
            current = None
    return "\n".join(preamble), {k: "\n".join(v) + "\n" for k, v in parts.items()}


def run_program(program: str, names: List[str], timeout: float,
                cwd: Optional[str] = None) -> List[Tuple[str, Optional[Case]]]:
    """Runs the tests `names` of one program in one process. In the order they ran: each test
    that started, with its case, or None where it did not finish (a crash, the time limit).
    Read from GoogleTest's own lines (`[ RUN      ]`, `[       OK ] Suite.Name (5 ms)`,
    FAILED, SKIPPED), so the tests that ended before a crash keep theirs."""
    # --gtest_fail_fast: the tests after a failure would only run again in the next process.
    cmd = [program, _FILTER + ":".join(names), "--gtest_fail_fast"]
    env = dict(os.environ)
    env.pop("GTEST_OUTPUT", None)
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd,
                              text=True, errors="replace", timeout=timeout, env=env)
        text = proc.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        text = out.decode(errors="replace") if isinstance(out, bytes) else out
    except OSError:
        return []
    preamble, outputs = split_output(text)
    ran: List[Tuple[str, Optional[Case]]] = []
    for name, output in outputs.items():
        if name not in names:
            continue
        lines = output.rstrip("\n").splitlines()
        end = _END.match(lines[-1]) if lines else None
        if not end or end.group(2) != name:
            ran.append((name, None))
            continue
        status = {"OK": "run", "FAILED": "fail", "SKIPPED": "notrun"}[end.group(1)]
        ran.append((name, Case(status, int(end.group(3)) / 1000,
                               (preamble + "\n" if preamble else "") + output)))
    return ran


def run_in_turn(program: str, pairs: List[Tuple[str, str]], timeout: float, cwd: Optional[str],
                kept: Dict[str, Case], alone: List[str]) -> int:
    """Runs one program's tests (ctest name, Suite.Name) in as few processes as it can: every
    pass is kept, and so is the first failure of a process (only passes ran before it there);
    the tests after a failure start again in a new process. A test that did not finish, or
    skipped, goes to `alone`. Returns the number of processes."""
    remaining = list(pairs)
    processes = 0
    while remaining:
        processes += 1
        by_short = {short: name for name, short in remaining}
        ran = run_program(program, [short for _, short in remaining], timeout, cwd)
        done = set()
        for short, case in ran:
            done.add(short)
            if case is None or case.status == "notrun":
                alone.append(by_short[short])
                break
            kept[by_short[short]] = case
            if case.status != "run":
                break
        if not done:  # nothing started: every test on its own
            alone.extend(name for name, _ in remaining)
            break
        remaining = [(n, s) for n, s in remaining if s not in done]
    return processes


def _escape(name: str) -> str:
    return re.sub(r"([][.*+?^$(){}|\\])", r"\\\1", name)


def _case_element(name: str, case: Case, labels: List[str]) -> ET.Element:
    el = ET.Element("testcase", name=name, classname=name, time=f"{case.seconds:.3f}",
                    status=case.status)
    if case.status == "fail":  # a kept case passed or failed; a skip runs on its own
        ET.SubElement(el, "failure", message="Failed")
    props = ET.SubElement(el, "properties")
    ET.SubElement(props, "property", name="cmake_labels", value=";".join(labels))
    ET.SubElement(el, "system-out").text = case.output
    return el


def write_junit(path: Path, elements: List[ET.Element], seconds: float) -> None:
    suite = ET.Element("testsuite", name="batched", tests=str(len(elements)),
                       time=f"{seconds:.3f}")
    suite.extend(elements)
    ET.ElementTree(suite).write(path, encoding="UTF-8", xml_declaration=True)


def merge_junit(path: Path, sources: List[Path]) -> None:
    """One ctest-format report of several; a test in a later report replaces an earlier one's."""
    cases: Dict[str, ET.Element] = {}
    seconds = 0.0
    for source in sources:
        root = ET.parse(source).getroot()
        seconds += float(root.get("time", "0") or 0)
        for case in root.iter("testcase"):
            cases[case.get("name", "")] = case
    write_junit(path, list(cases.values()), seconds)


def run_batched(build_dir: Path, tests: Dict[str, TestInfo], names: List[str], junit: Path,
                say=print, ctest_extra: Optional[List[str]] = None) -> Dict[str, TestResult]:
    """Runs the ctest tests `names` program by program (run_in_turn), then on their own, through
    ctest, those that skipped or did not finish; writes `junit` (ctest's format) and returns
    every test's result."""
    start = time.time()
    by_program: Dict[Tuple[str, Optional[str]], List[Tuple[str, str]]] = {}
    alone: List[str] = []
    for name in names:
        info = tests.get(name)
        short = gtest_name(info) if info else None
        if short is None:
            alone.append(name)
        else:
            cwd = info.properties.get("WORKING_DIRECTORY") or None
            by_program.setdefault((info.command[0], cwd), []).append((name, short))
    kept: Dict[str, Case] = {}
    for (program, cwd), pairs in by_program.items():
        limit = sum(float(tests[n].properties.get("TIMEOUT") or DEFAULT_TIMEOUT) for n, _ in pairs)
        t0 = time.time()
        before = len(kept)
        processes = run_in_turn(program, pairs, limit, cwd, kept, alone)
        say(f"  {Path(program).name}: {len(pairs)} test(s) in {processes} process(es), "
            f"{len(kept) - before} with a verdict ({time.time() - t0:.1f} s)", flush=True)
    elements = [_case_element(name, case, list(tests[name].labels)) for name, case in kept.items()]
    batch = junit.with_name(junit.stem + "-batched.xml")
    write_junit(batch, elements, time.time() - start)
    sources = [batch]
    if alone:
        say(f"  {len(alone)} test(s) on their own (skipped or unfinished in their program's "
            f"run, or set up by ctest) ...", flush=True)
        single = junit.with_name(junit.stem + "-alone.xml")
        regex = "^(" + "|".join(_escape(n) for n in alone) + ")$"
        run_ctest(build_dir, single, [], jobs=1, extra=["-R", regex] + (ctest_extra or []))
        if single.is_file():
            sources.append(single)
    merge_junit(junit, sources)
    results = read_junit(junit)
    return {n: r for n, r in results.items() if n in set(names)}

