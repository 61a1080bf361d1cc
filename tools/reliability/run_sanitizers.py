#!/usr/bin/env python3
"""Runs every GPU test program of a build under compute-sanitizer's memcheck, racecheck,
synccheck and initcheck, in the small mode (KIT_SMALL=1: correctness tests shrink their sizes,
counter and timing tests skip with that reason), and prints one table.

Tests that race on purpose are kept out of racecheck by name, in RACECHECK_EXCLUDE below, each
with the reason; racecheck itself stays on for everything else.

Exit status: 0 when every program is clean under every tool, 1 otherwise, 2 for bad usage,
77 when there is no GPU or no compute-sanitizer.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "course"))
from ctest_results import list_tests  # noqa: E402
import machine  # noqa: E402

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")

# What compute-sanitizer says of a program that launched nothing (all its tests skipped).
NO_CUDA = "Target application terminated before first instrumented API call"

# Tests that race on purpose: several lanes of one instruction store to one word (one wins).
RACECHECK_EXCLUDE = {
    "PatternKernel.BroadcastStoresRaceOnPurpose":
        "broadcast stores: lanes store to one word on purpose (lesson 04 measures their cost)",
}


def gpu_programs(build_dir: Path, trees: list[str]) -> list[Path]:
    """The test programs behind every GPU-labelled test of the given trees (and the kit): each
    program once, whole (every test of it), not test by test."""
    programs: list[Path] = []
    for t in list_tests(build_dir).values():
        if "gpu" not in t.labels or not any(x in t.labels for x in trees + ["kit"]):
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
    args = ap.parse_args(argv)

    tools = [t for t in args.tools.split(",") if t]
    bad = [t for t in tools if t not in TOOLS]
    if bad:
        print(f"run_sanitizers: unknown tool(s) {', '.join(bad)}", file=sys.stderr)
        return 2
    if not (args.build_dir / "CTestTestfile.cmake").is_file():
        print(f"run_sanitizers: {args.build_dir} is not a configured build folder", file=sys.stderr)
        return 2
    sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
    if not Path(sanitizer).exists():
        print("run_sanitizers: skipped: compute-sanitizer not found")
        return 77
    if machine.gpu()[0] is None:
        print("run_sanitizers: skipped: no GPU")
        return 77

    programs = gpu_programs(args.build_dir, args.trees.split(","))
    log_dir = args.log_dir or args.build_dir / "sanitize"
    log_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, KIT_SMALL="1")
    failures = 0
    notes: list[str] = []
    start = time.time()
    print(f"{'program':60} " + " ".join(f"{t:>10}" for t in tools))
    for prog in programs:
        cells = []
        for tool in tools:
            cmd = [sanitizer, "--tool", tool, "--error-exitcode", "99"]
            if tool == "memcheck":
                cmd += ["--leak-check", "full"]
            cmd.append(str(prog))
            if tool == "racecheck":
                cmd.append("--gtest_filter=-" + ":".join(RACECHECK_EXCLUDE))
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
            log = log_dir / f"{prog.name}.{tool}.log"
            log.write_text(proc.stdout + proc.stderr)
            text = proc.stdout + proc.stderr
            if tool == "racecheck":
                m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed", text)
            else:
                m = re.search(r"ERROR SUMMARY: (\d+) errors?", text)
            errors = int(m.group(1)) if m else -1
            if errors < 0 and NO_CUDA in text and proc.returncode in (0, 255):
                cells.append("no kernels")  # every test of the program skipped in small mode
                continue
            ok = proc.returncode == 0 and errors == 0
            failures += 0 if ok else 1
            cells.append("clean" if ok else (f"{errors} err" if errors > 0 else f"rc {proc.returncode}"))
            if not ok:
                first = next((l for l in text.splitlines() if "=====" in l and ("Error" in l or
                              "Invalid" in l or "hazard" in l or "Race" in l)), "")
                notes.append(f"{prog.name} [{tool}]: {first.strip() or text.strip()[-200:]}")
        print(f"{prog.name:60} " + " ".join(f"{c:>10}" for c in cells), flush=True)
    print(f"{len(programs)} programs x {len(tools)} tools in {time.time() - start:.0f} s; "
          f"racecheck excludes: " + "; ".join(f"{k} ({v})" for k, v in RACECHECK_EXCLUDE.items()))
    for n in notes:
        print(f"  {n}")
    if failures:
        print(f"{failures} run(s) not clean: logs in {log_dir}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
