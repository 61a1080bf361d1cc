#!/usr/bin/env python3
"""One sanitizer test of the suites: a test program's correctness tests under one
compute-sanitizer tool, in the small mode (KIT_SMALL=1), judged on the sanitizer's findings
alone. A program whose own tests fail but touches memory correctly passes (its own tests give
that verdict); any error or hazard the sanitizer reports fails, with the first finding.

  sanitizer_test.py --tool memcheck --name NAME -- PROGRAM [ARGS ...]

Exit status: 0 clean (or only the program's own tests failed), 1 findings or no verdict,
2 bad usage, 77 skipped (no compute-sanitizer, no GPU, or no kernel launched), with the reason.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from course.model import machine
import sanitizer

SKIP = 77


def skip(name: str, reason: str) -> int:
    # GoogleTest's words, so ctest and the course tools read the reason like a test's own skip.
    print(f"{name}: Skipped\n{reason}\n[  SKIPPED ] {name}")
    return SKIP


def main(argv: list) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tool", required=True, choices=sanitizer.TOOLS)
    ap.add_argument("--name", required=True, help="the test's name, for messages")
    ap.add_argument("--timeout", type=float, default=None, help="seconds for the whole run")
    ap.add_argument("program", nargs=argparse.REMAINDER, help="-- PROGRAM [ARGS ...]")
    args = ap.parse_args(argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        ap.error("give the program after --")

    tool = sanitizer.find()
    if tool is None:
        return skip(args.name, "compute-sanitizer not found (it comes with the CUDA toolkit: "
                               "put its bin folder on PATH)")
    gpu, why = machine.gpu()
    if gpu is None:
        return skip(args.name, f"no usable GPU: {why}")
    try:
        outcome = sanitizer.run(tool, args.tool, program,
                                timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print(f"{args.name}: the run under {args.tool} did not finish in {args.timeout:.0f} s")
        return 1
    except OSError as e:
        print(f"{args.name}: cannot run {program[0]}: {e}")
        return 1
    if outcome.kind == "no kernels":
        return skip(args.name, "the program launched no kernel: every test it ran skipped")
    if outcome.kind == "findings":
        print(outcome.log[-6000:])
        print(f"{args.name}: {args.tool} found {max(outcome.findings, 1)} problem(s); the first:\n"
              f"  {outcome.first}")
        return 1
    if outcome.kind == "did not finish":
        print(outcome.log[-6000:])
        print(f"{args.name}: the run under {args.tool} ended (exit {outcome.returncode}) without "
              f"the sanitizer's summary: no verdict")
        return 1
    if outcome.kind == "tests failed":
        print(f"{args.name}: {args.tool}: 0 findings. The program's own tests failed under the "
              f"sanitizer (exit {outcome.returncode}): not a memory or race error; their verdict "
              f"is given by the tests themselves.")
        return 0
    print(f"{args.name}: {args.tool}: 0 findings")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
