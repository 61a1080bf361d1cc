#!/usr/bin/env python3
"""Runs every GPU test program of a build under compute-sanitizer's memcheck, racecheck,
synccheck and initcheck, in the small mode (KIT_SMALL=1: correctness tests shrink their sizes,
counter and timing tests skip with that reason), and prints one table.

The runs are correctness runs, so several go at once (--jobs, default: half the cores, at
most 8): compute-sanitizer's instrumentation makes each mostly host-bound.

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

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "course"))
from ctest_results import list_tests  # noqa: E402
import machine  # noqa: E402
import sanitizer  # noqa: E402
from sanitizer import RACECHECK_EXCLUDE, TOOLS  # noqa: E402


def gpu_programs(build_dir: Path, trees: list[str]) -> list[Path]:
    """The test programs behind every GPU-labelled test of the given trees (and the kit): each
    program once, whole (every test of it), not test by test. The suites' own sanitizer tests
    (label sanitize) run a program already listed."""
    programs: list[Path] = []
    for t in list_tests(build_dir).values():
        if "gpu" not in t.labels or "sanitize" in t.labels or \
                not any(x in t.labels for x in trees + ["kit"]):
            continue
        if t.command and Path(t.command[0]) not in programs:
            programs.append(Path(t.command[0]))
    return programs


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
    def timed(tool: str, prog: Path):
        t0 = time.time()
        outcome = sanitizer.run(tool_path, tool, [str(prog)])
        return outcome, time.time() - t0

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = {(prog, tool): pool.submit(timed, tool, prog)
                for prog in programs for tool in tools}
        # Printed in order, each row once its runs are done, with their seconds.
        print(f"{'program':52} " + " ".join(f"{t:>14}" for t in tools) + f" {'seconds':>8}",
              flush=True)
        for prog in programs:
            cells, seconds = judge_row(prog, tools, runs, log_dir, notes, failing_tests)
            findings += sum(c.endswith(" found") for c in cells)
            no_verdict += sum(c.startswith("rc ") for c in cells)
            print(f"{prog.name:52} " + " ".join(f"{c:>14}" for c in cells) + f" {seconds:>8.1f}",
                  flush=True)
    print(f"{len(programs)} programs x {len(tools)} tools in {time.time() - start:.0f} s "
          f"({args.jobs} at once); racecheck excludes: "
          + "; ".join(f"{k} ({v})" for k, v in RACECHECK_EXCLUDE.items()))
    for n in notes:
        print(f"  {n}")
    if failing_tests:
        print(f"{len(failing_tests)} run(s) with 0 findings where the program's own tests failed "
              f"(not sanitizer findings; ctest gives their verdict): " + ", ".join(failing_tests))
    print(f"findings: {findings} run(s); no verdict: {no_verdict}; logs in {log_dir}")
    return 1 if findings or no_verdict else 0


def judge_row(prog: Path, tools: list[str], runs: dict, log_dir: Path, notes: list[str],
              failing_tests: list[str]) -> tuple[list[str], float]:
    """One program's cells and the seconds of its runs together, waiting for its runs; its logs
    written, its findings noted."""
    cells = []
    total = 0.0
    for tool in tools:
        outcome, seconds = runs[(prog, tool)].result()
        total += seconds
        (log_dir / f"{prog.name}.{tool}.log").write_text(outcome.log)
        cells.append({"findings": f"{outcome.findings} found",
                      "did not finish": f"rc {outcome.returncode}"}.get(outcome.kind, outcome.kind))
        if outcome.kind == "findings":
            notes.append(f"{prog.name} [{tool}]: {outcome.first}")
        elif outcome.kind == "did not finish":
            notes.append(f"{prog.name} [{tool}]: no summary (exit {outcome.returncode}): "
                         f"{outcome.first[-200:]}")
        elif outcome.kind == "tests failed":
            failing_tests.append(f"{prog.name} [{tool}]")
    return cells, total

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
