#!/usr/bin/env python3
"""Runs every GPU test program of a build under compute-sanitizer's memcheck, racecheck,
synccheck and initcheck, in the small mode (KIT_SMALL=1: correctness tests shrink their sizes,
counter and timing tests skip with that reason), and prints one table.

A program runs file by file where the suites register sanitizer tests for it (each correctness
test file's tests, as `<tree>/lessonNN/<tool>/<file>` runs them; counter and timing tests only
skip in the small mode), else whole (the kit's program). The runs are correctness runs, so
several go at once (--jobs, default: half the cores, at most 8), the longest first where an
earlier run of this build measured them; each run's seconds go to <log-dir>/runs.txt.

Tests that race on purpose are kept out of racecheck by name (sanitizer.RACECHECK_EXCLUDE),
each with the reason; racecheck itself stays on for everything else.

A run is judged on the sanitizer's findings alone: a program whose own tests fail under the
sanitizer (the starter's, say) is listed apart as "tests failed", not as a finding.

Exit status: 0 when no run has a finding (failing tests included), 1 when a run has findings or
gave no verdict (it ended without the sanitizer's summary), 2 for bad usage, 77 when there is
no GPU or no compute-sanitizer.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from course.model import machine
from course.model.ctest_results import list_tests
import sanitizer
from sanitizer import RACECHECK_EXCLUDE, TOOLS


def gpu_programs(build_dir: Path, trees: list[str]) -> dict[Path, list[list[str]]]:
    """The test programs behind every GPU-labelled test of the given trees (and the kit), each
    with the argument lists of its runs: one per correctness test file where the suites register
    sanitizer tests for it (their `--gtest_filter`), else one run of the whole program."""
    tests = list_tests(build_dir).values()
    programs: dict[Path, list[list[str]]] = {}
    for t in tests:
        if "gpu" not in t.labels or "sanitize" in t.labels or \
                not any(x in t.labels for x in trees + ["kit"]):
            continue
        if t.command:
            programs.setdefault(Path(t.command[0]), [])
    for t in tests:
        # python sanitizer_test.py --tool T --name N -- PROGRAM --gtest_filter=...
        if "sanitize" not in t.labels or "--" not in t.command:
            continue
        rest = t.command[t.command.index("--") + 1:]
        program = Path(rest[0]) if rest else None
        if program in programs and rest[1:] not in programs[program]:
            programs[program].append(rest[1:])
    return {p: runs or [[]] for p, runs in programs.items()}


def earlier_seconds(log_dir: Path) -> dict[str, float]:
    """Seconds of each run in an earlier runs.txt of this build ({} when there is none)."""
    seconds = {}
    try:
        for line in (log_dir / "runs.txt").read_text().splitlines():
            parts = line.split("\t")
            if len(parts) == 4:
                seconds[parts[0]] = float(parts[3])
    except (OSError, ValueError):
        pass
    return seconds


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--trees", default="solution", help="comma list: solution, student")
    ap.add_argument("--tools", default=",".join(TOOLS), help="comma list of sanitizer tools")
    ap.add_argument("--log-dir", type=Path, help="where to write one log per run")
    ap.add_argument("--jobs", "-j", type=int, default=max(1, min(8, machine.cores() // 2)),
                    help="runs at once (default: half the cores, at most 8)")
    args = ap.parse_args(argv)

    tools = [t for t in args.tools.split(",") if t]
    bad = [t for t in tools if t not in TOOLS]
    if bad:
        print(f"run_sanitizers: unknown tool(s) {', '.join(bad)}", file=sys.stderr)
        return 2
    if not 1 <= args.jobs <= 64:
        print("run_sanitizers: --jobs must be between 1 and 64", file=sys.stderr)
        return 2
    if not (args.build_dir / "CTestTestfile.cmake").is_file():
        print(f"run_sanitizers: {args.build_dir} is not a configured build folder", file=sys.stderr)
        return 2
    tool_path = sanitizer.find()
    if tool_path is None:
        print("run_sanitizers: skipped: compute-sanitizer not found")
        return 77
    if machine.gpu()[0] is None:
        print("run_sanitizers: skipped: no GPU")
        return 77

    programs = gpu_programs(args.build_dir, args.trees.split(","))
    log_dir = args.log_dir or args.build_dir / "sanitize"
    log_dir.mkdir(parents=True, exist_ok=True)
    findings, no_verdict = 0, 0
    notes: list[str] = []
    failing_tests: list[str] = []
    start = time.time()
    units = [(prog, tool, tuple(run)) for prog, runs in programs.items() for run in runs
             for tool in tools]
    before = earlier_seconds(log_dir)
    units.sort(key=lambda u: -before.get(unit_key(*u), 0.0))
    done_log = open(log_dir / "runs.txt", "w")

    def timed(prog: Path, tool: str, run: tuple):
        t0 = time.time()
        outcome = sanitizer.run(tool_path, tool, [str(prog), *run])
        seconds = time.time() - t0
        done_log.write(f"{unit_key(prog, tool, run)}\t{tool}\t{outcome.kind}\t{seconds:.1f}\n")
        done_log.flush()
        return outcome, seconds

    with done_log, ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {u: pool.submit(timed, *u) for u in units}
        # Printed in order, each row once its runs are done, with their seconds.
        print(f"{'program':52} " + " ".join(f"{t:>14}" for t in tools) + f" {'seconds':>8}",
              flush=True)
        for prog, runs in programs.items():
            cells, seconds = judge_row(prog, tools, runs, futures, log_dir, notes, failing_tests)
            findings += sum(c.endswith(" found") for c in cells)
            no_verdict += sum(c.startswith("rc ") for c in cells)
            print(f"{prog.name:52} " + " ".join(f"{c:>14}" for c in cells) + f" {seconds:>8.1f}",
                  flush=True)
    print(f"{len(programs)} programs, {len(units)} runs ({len(tools)} tools) in "
          f"{time.time() - start:.0f} s ({args.jobs} at once); racecheck excludes: "
          + "; ".join(f"{k} ({v})" for k, v in RACECHECK_EXCLUDE.items()))
    for n in notes:
        print(f"  {n}")
    if failing_tests:
        print(f"{len(failing_tests)} run(s) with 0 findings where the program's own tests failed "
              f"(not sanitizer findings; ctest gives their verdict): " + ", ".join(failing_tests))
    print(f"findings: {findings} run(s); no verdict: {no_verdict}; logs in {log_dir}")
    return 1 if findings or no_verdict else 0


def unit_key(prog: Path, tool: str, run: tuple) -> str:
    """One run's name: program, tool and filter."""
    return f"{prog.name} {tool} {' '.join(run)}".strip()


#: A cell's outcome when a program's runs of one tool differ: the worst one.
_WORST = ("findings", "did not finish", "tests failed", "clean", "no kernels")


def judge_row(prog: Path, tools: list[str], runs: list[list[str]], futures: dict, log_dir: Path,
              notes: list[str], failing_tests: list[str]) -> tuple[list[str], float]:
    """One program's cells (per tool, the worst of its runs) and the seconds of its runs
    together, waiting for them; their logs written, their findings noted."""
    cells = []
    total = 0.0
    for tool in tools:
        worst = None
        found = 0
        for i, run in enumerate(runs):
            outcome, seconds = futures[(prog, tool, tuple(run))].result()
            total += seconds
            suffix = f".{i}" if len(runs) > 1 else ""
            (log_dir / f"{prog.name}.{tool}{suffix}.log").write_text(outcome.log)
            if outcome.kind == "findings":
                found += max(outcome.findings, 1)
                notes.append(f"{prog.name} [{tool}]: {outcome.first}")
            elif outcome.kind == "did not finish":
                notes.append(f"{prog.name} [{tool}]: no summary (exit {outcome.returncode}): "
                             f"{outcome.first[-200:]}")
            if worst is None or _WORST.index(outcome.kind) < _WORST.index(worst.kind):
                worst = outcome
        if worst.kind == "tests failed":
            failing_tests.append(f"{prog.name} [{tool}]")
        cells.append({"findings": f"{found} found",
                      "did not finish": f"rc {worst.returncode}"}.get(worst.kind, worst.kind))
    return cells, total


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
