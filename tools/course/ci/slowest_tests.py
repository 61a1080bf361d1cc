#!/usr/bin/env python3
"""Where a test run's time goes: the slowest tests of ctest JUnit reports, and the seconds per
kind of test (CPU, GPU correctness, counters, timing, sanitizer runs), per lesson and per test
program.

  ./course-admin slowest-tests build/gpu-check/failfirst-gpu.xml
  ./course-admin slowest-tests build/grade/junit.xml --top 30
  ./course-admin slowest-tests a.xml b.xml --csv > times.csv

The kind comes from the test's labels as the report records them (cpu, gpu, perf, counters,
sanitize); reports without labels fall back to the test's name. The seconds are ctest's wall time
per test, so with `ctest -j` the sums add up to more than the run took: the report's own
duration (`time` of the suite) is printed beside them.

Exit status: 0, 1 when a report cannot be read, 2 for bad usage.
"""

from __future__ import annotations

import csv
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

from course.model.cli import Parser, positive_int, run_main
from course.model.course_model import CourseError, split_test_name
from course.model.ctest_results import ResultError, list_tests

PROG = "slowest_tests"

#: The kinds, in the order the totals are printed.
KINDS = ("sanitizer run", "timing", "counters", "GPU correctness", "CPU", "other")


@dataclass
class Timed:
    name: str
    seconds: float
    labels: List[str] = field(default_factory=list)
    program: str = ""

    @property
    def kind(self) -> str:
        labels = set(self.labels)
        if "sanitize" in labels or "/memcheck/" in self.name or "/racecheck/" in self.name:
            return "sanitizer run"
        if "perf" in labels:
            return "timing"
        if "counters" in labels:
            return "counters"
        if "gpu" in labels:
            return "GPU correctness"
        if "cpu" in labels:
            return "CPU"
        return "other"

    @property
    def lesson(self) -> str:
        parts = split_test_name(self.name)
        if parts:
            return f"{parts.tree}/{parts.label}"
        return self.name.split("/", 1)[0] if "/" in self.name else self.name

    @property
    def group(self) -> str:
        """The test program; the lesson where the program is not known, or for a sanitizer run
        (whose program is the wrapper's interpreter)."""
        if self.kind == "sanitizer run":
            return self.lesson
        return self.program or self.lesson


@dataclass
class Report:
    path: Path
    seconds: float  # the suite's own duration, as the report gives it
    tests: List[Timed]


def _float(text: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return 0.0


def read_report(path: Path) -> Report:
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise CourseError(f"{path}: no such JUnit file") from None
    except (OSError, ET.ParseError) as e:
        raise CourseError(f"{path}: not a readable JUnit report ({e})") from None
    if root.tag not in ("testsuite", "testsuites"):
        raise CourseError(f"{path}: root element <{root.tag}> is not a JUnit test suite")
    tests = []
    for case in root.iter("testcase"):
        labels: List[str] = []
        for prop in case.iter("property"):
            if prop.get("name") == "cmake_labels" and prop.get("value"):
                labels = prop.get("value", "").split(";")
        tests.append(Timed(case.get("name", "?"), _float(case.get("time", "0")), labels))
    return Report(path, _float(root.get("time", "0")), tests)


def with_programs(tests: List[Timed], programs: Dict[str, str]) -> None:
    for t in tests:
        t.program = programs.get(t.name, t.program)


def programs_of(build_dir: Path) -> Dict[str, str]:
    """test name -> its program's file name, from the build's ctest list ({} when unreadable)."""
    try:
        return {name: info.program for name, info in list_tests(build_dir).items()}
    except (ResultError, OSError):
        return {}


def totals(tests: List[Timed], key) -> List[tuple]:
    """[(group, count, seconds)], the slowest group first."""
    count: Dict[str, int] = defaultdict(int)
    secs: Dict[str, float] = defaultdict(float)
    for t in tests:
        count[key(t)] += 1
        secs[key(t)] += t.seconds
    return sorted(((k, count[k], secs[k]) for k in count), key=lambda r: -r[2])


def render(reports: List[Report], top: int, groups: int) -> str:
    tests = [t for r in reports for t in r.tests]
    lines = []
    for r in reports:
        lines.append(f"{r.path}: {len(r.tests)} tests, {r.seconds:.1f} s (the report's duration), "
                     f"{sum(t.seconds for t in r.tests):.1f} s summed over tests")
    lines.append("")
    lines.append(f"{'kind':18} {'tests':>6} {'seconds':>9} {'mean s':>7}")
    for kind, n, s in sorted(totals(tests, lambda t: t.kind), key=lambda r: KINDS.index(r[0])):
        lines.append(f"{kind:18} {n:>6} {s:>9.1f} {s / n:>7.2f}")
    rows = totals(tests, lambda t: t.group)
    lines.append("")
    lines.append(f"{'program (or lesson)':40} {'tests':>6} {'seconds':>9}")
    for name, n, s in rows[:groups]:
        lines.append(f"{name:40} {n:>6} {s:>9.1f}")
    if len(rows) > groups:
        lines.append(f"... and {len(rows) - groups} more")
    lines.append("")
    lines.append(f"the {min(top, len(tests))} slowest tests:")
    for t in sorted(tests, key=lambda t: -t.seconds)[:top]:
        lines.append(f"{t.seconds:8.2f} s  {t.kind:16} {t.name}")
    return "\n".join(lines)


def write_csv(reports: List[Report], out) -> None:
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["report", "test", "kind", "program", "seconds"])
    for r in reports:
        for t in sorted(r.tests, key=lambda t: -t.seconds):
            w.writerow([r.path.name, t.name, t.kind, t.group, f"{t.seconds:.3f}"])


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+", type=Path, help="ctest JUnit reports (--output-junit)")
    ap.add_argument("--top", type=positive_int, default=20, help="slowest tests shown (default 20)")
    ap.add_argument("--groups", type=positive_int, default=15,
                    help="programs shown in the per-program totals (default 15)")
    ap.add_argument("--build-dir", type=Path,
                    help="the build the reports came from: names each test's program")
    ap.add_argument("--csv", action="store_true", help="every test as CSV instead of the summary")

    def run() -> int:
        args = ap.parse_args(argv)
        reports = [read_report(p) for p in args.reports]
        if args.build_dir:
            programs = programs_of(args.build_dir)
            for r in reports:
                with_programs(r.tests, programs)
        if args.csv:
            write_csv(reports, sys.stdout)
        else:
            print(render(reports, args.top, args.groups))
        return 0
    return run_main(PROG, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
