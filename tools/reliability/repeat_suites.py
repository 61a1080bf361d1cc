#!/usr/bin/env python3
"""Runs the GPU suites (the kit and the solutions) N times in a row and counts, per run, the
tests that passed, failed, and skipped as inconclusive (a timing taken while the GPU was busy or
throttled). With --busy SECONDS a second process (gpu-busy) keeps the GPU busy meanwhile; it
stops by itself. A false failure is a failed test: the check passes only with none.

Exit status: 0 with no failure, 1 with any, 2 for bad usage, 77 without a GPU.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from course.model import machine
from course.model.ctest_results import (ASSERTION, CRASH, NOT_BUILT, ResultError, SKIP, read_junit,
                                        run_ctest)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--busy", type=float, default=0, help="seconds of gpu-busy beside the runs")
    ap.add_argument("--labels", default="^(kit|solution)$", help="ctest label regex of the suites")
    ap.add_argument("--kind", default="gpu", choices=("gpu", "perf"),
                    help="gpu: every GPU test; perf: the timing tests only")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.runs > 1000:
        print("repeat_suites: --runs must be between 1 and 1000", file=sys.stderr)
        return 2
    if not (args.build_dir / "CTestTestfile.cmake").is_file():
        print(f"repeat_suites: {args.build_dir} is not a configured build folder", file=sys.stderr)
        return 2
    if machine.gpu()[0] is None:
        print("repeat_suites: skipped: no GPU")
        return 77

    busy = None
    if args.busy > 0:
        tool = args.build_dir / "bin" / "gpu-busy"
        busy = subprocess.Popen([str(tool), "--seconds", str(args.busy)], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        time.sleep(1.0)  # let it take the GPU
    failures = 0
    print(f"{'run':>4} {'passed':>7} {'failed':>7} {'inconclusive':>13} {'other skips':>12} {'seconds':>8}")
    try:
        for i in range(1, args.runs + 1):
            junit = args.build_dir / f"repeat-{i}.xml"
            start = time.time()
            run_ctest(args.build_dir, junit, [args.labels, f"^{args.kind}$"])
            secs = time.time() - start
            try:
                results = read_junit(junit)
            except ResultError as e:
                print(f"repeat_suites: {e}", file=sys.stderr)
                return 1
            passed = sum(r.passed for r in results.values())
            failed = [n for n, r in results.items() if r.status in (ASSERTION, CRASH, NOT_BUILT)]
            incon = sum(r.status == SKIP and "Inconclusive" in r.reason for r in results.values())
            other = sum(r.status == SKIP for r in results.values()) - incon
            failures += len(failed)
            print(f"{i:>4} {passed:>7} {len(failed):>7} {incon:>13} {other:>12} {secs:>8.1f}",
                  flush=True)
            for name in failed:
                print(f"      failed: {name}")
    finally:
        if busy is not None:
            out, _ = busy.communicate(timeout=args.busy + 60)
            print(out.strip())
    print(f"{args.runs} run(s): {failures} failure(s)" + (" beside gpu-busy" if busy else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
