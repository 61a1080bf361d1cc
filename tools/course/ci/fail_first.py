#!/usr/bin/env python3
"""Fail-first check: every `exercise` test fails on the starter (student tree) with a real
assertion failure and passes on the solution; every `guard` test passes on both.

A "real assertion failure" is read from ctest's JUnit report: the test ran and GoogleTest
reported a failed assertion. A crash, a timeout, a missing program or a skip is not one.

  --mode cpu  CPU tests only (CI, any machine).
  --mode gpu  every test of both trees; on a machine without a GPU it exits 77 (skipped),
              and a GPU test that skips on a GPU machine is a violation. The timing and
              counter tests run last, a program's in as few processes as can be
              (model/batched_tests.py), the others side by side.

Exit status: 0 when the course is sound, 1 with a list of violations, 2 for bad usage,
77 when --mode gpu finds no GPU.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from course.model import machine
from course.model.cli import Parser, jobs_option
from course.model.course_model import Build, ROLES, TREES, role_of
from course.model.ctest_results import ResultError, list_tests, read_junit, run_ctest
from course.model.batched_tests import merge_junit, run_batched

# The output ctest keeps of each test in the report (its defaults keep 1 KiB of a passed
# test): enough for every measurement line, which docs/measurements/lessons.csv is made from
# (tools/docs/measurements.py lessons).
OUTPUT_BYTES = 1 << 20


#: The labels of the tests that need the GPU alone (timing, counters).
ALONE_LABELS = ("perf", "counters")


def run_gpu_mode(build_dir: Path, tests: dict, labels: list[str], lesson: str | None,
                 junit: Path, jobs: int, sizes: list[str]) -> None:
    """Every test of both trees: first all but the timing and counter tests, `jobs` at once
    (GPU correctness tests share the GPU as their resource groups allow); then the timing and
    counter tests, which need the GPU alone, one program at a time, its such tests in as few
    processes as can be (batched_tests). One report of all, in ctest's format."""
    shared = build_dir / "failfirst-gpu-shared.xml"
    t0 = time.time()
    print(f"fail-first (gpu): every test but the timing and counter tests, {jobs} at once ...",
          flush=True)
    run_ctest(build_dir, shared, labels, jobs=jobs,
              extra=["-LE", f"^({'|'.join(ALONE_LABELS)})$"] + sizes)
    print(f"  {time.time() - t0:.0f} s", flush=True)
    alone = sorted(n for n, t in tests.items()
                   if set(ALONE_LABELS) & set(t.labels) and set(TREES) & set(t.labels)
                   and (lesson is None or lesson in t.labels))
    t0 = time.time()
    print(f"fail-first (gpu): {len(alone)} timing and counter tests, the GPU to themselves ...",
          flush=True)
    exclusive = build_dir / "failfirst-gpu-exclusive.xml"
    run_batched(build_dir, tests, alone, exclusive, ctest_extra=sizes)
    print(f"  {time.time() - t0:.0f} s", flush=True)
    merge_junit(junit, [p for p in (shared, exclusive) if p.is_file()])


def main(argv: list[str]) -> int:
    ap = Parser(prog="fail_first", description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--mode", choices=("cpu", "gpu"), required=True)
    ap.add_argument("--lesson", help="only this lesson label, e.g. lesson03")
    ap.add_argument("--junit", type=Path, help="read this JUnit report instead of running ctest")
    jobs_option(ap)
    args = ap.parse_args(argv)

    if not Build(args.build_dir).configured:
        print(f"fail-first: {args.build_dir} is not a configured build folder", file=sys.stderr)
        return 2
    if args.mode == "gpu" and args.junit is None:
        name, why = machine.gpu()
        if name is None:
            print(f"fail-first (gpu): skipped: {why}")
            return 77

    try:
        tests = list_tests(args.build_dir)
    except ResultError as e:
        print(f"fail-first: {e}", file=sys.stderr)
        return 2
    labels = ["^(student|solution)$"]
    if args.mode == "cpu":
        labels.append("^cpu$")
    if args.lesson:
        labels.append(f"^{args.lesson}$")
    junit = args.junit or args.build_dir / f"failfirst-{args.mode}.xml"
    sizes = ["--test-output-size-passed", str(OUTPUT_BYTES),
             "--test-output-size-failed", str(OUTPUT_BYTES)]
    if args.junit is None and args.mode == "cpu":
        run_ctest(args.build_dir, junit, labels, jobs=args.jobs, extra=sizes)
    elif args.junit is None:
        run_gpu_mode(args.build_dir, tests, labels, args.lesson, junit, args.jobs, sizes)
    try:
        results = read_junit(junit)
    except ResultError as e:
        print(f"fail-first: {e}", file=sys.stderr)
        return 1

    # Pair the two trees' results by the name after the tree prefix.
    pairs: dict[str, dict[str, object]] = defaultdict(dict)
    meta: dict[str, tuple[str, str]] = {}
    for name, res in results.items():
        tree, _, rest = name.partition("/")
        if tree not in TREES:
            continue
        info = tests.get(name)
        if info is None:
            continue
        lesson = next((lab for lab in info.labels if lab.startswith("lesson")), "?")
        pairs[rest][tree] = res
        meta[rest] = (lesson, role_of(info.labels) or "?")

    violations: list[str] = []
    per_lesson: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for rest in sorted(pairs):
        lesson, role = meta[rest]
        student = pairs[rest].get("student")
        solution = pairs[rest].get("solution")
        if role not in ROLES:
            violations.append(f"{rest}: no exercise/guard label")
            continue
        if student is None or solution is None:
            violations.append(f"{rest}: ran in one tree only")
            continue
        per_lesson[lesson][role] += 1
        for tree, res in (("student", student), ("solution", solution)):
            if res.status == "skip":
                violations.append(f"{rest} [{tree}]: skipped ({res.reason}): nothing was checked")
        if solution.status != "pass":
            violations.append(f"{rest} [solution]: must pass, got {solution.status}"
                              + (f" ({solution.reason})" if solution.reason else ""))
        if role == "exercise" and student.status != "assertion":
            violations.append(f"{rest} [student]: an exercise test must fail on the starter with "
                              f"an assertion, got {student.status}"
                              + (f" ({student.reason})" if student.reason else ""))
        if role == "guard" and student.status != "pass":
            violations.append(f"{rest} [student]: a guard test must pass on the starter, got "
                              f"{student.status}" + (f" ({student.reason})" if student.reason else ""))

    print(f"fail-first ({args.mode}): {len(pairs)} tests checked across the two trees")
    for lesson in sorted(per_lesson):
        c = per_lesson[lesson]
        print(f"  {lesson}: {c['exercise']} exercise, {c['guard']} guard")
    if not pairs:
        violations.append("no tests found in both trees (is the build configured with both?)")
    if violations:
        print(f"{len(violations)} violation(s):")
        for v in violations:
            print(f"  - {v}")
        return 1
    print("every exercise test fails on the starter and passes on the solution; "
          "every guard test passes on both")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
