#!/usr/bin/env python3
"""Each lesson's declared shared-memory need (`gpu.shared_memory_per_block` in its lesson.json, and
in a `gpu.tests` entry for tests that need more than their lesson) held to what its kernels really
use on this GPU.

  ./course-admin shared-memory-needs --build-dir build/gpu-check
  ./course-admin shared-memory-needs --build-dir build/gpu-check --tree solution --lessons 05,09

Each lesson's GPU test program (lessonNN_<tree>_gpu; lessonNN_<tree>_hidden_gpu too, where the
build has one) runs once, every test of it, with KIT_SHARED_MEMORY_AUDIT set: the kit then reads
each kernel launch through CUPTI (the kernel's static shared memory from cudaFuncGetAttributes,
the launch's dynamic shared memory) and writes one line per test and kernel
(kit/shared_memory_audit.hpp). A lesson's measured need is the most that one block of its kernels
used, static + dynamic, over the trees run; a test named by a `gpu.tests` entry that declares its
own shared_memory_per_block counts toward that entry instead. Both must equal what is declared:
less would call a GPU able that cannot run the lesson, more would refuse one that can. The kit's
own kernels (the pattern microbenchmark, the counter probe) and those of libraries that bring their
own CUDA runtime (cuBLAS, which fits its kernels to the GPU) are not a lesson's: they are listed
apart. The tests' verdicts do not matter here (a timing test may well fail while watched): only
the launches they made.

The programs must be built first (`cmake --build <dir> --target lessonNN_<tree>_gpu`, or the
whole build), on a machine with an NVIDIA GPU on which every GPU test of the lessons runs (an
sm_90 GPU: a test that skips launches nothing, and a lesson whose kernels never ran is reported
as not measured). The audit files and each program's output are kept in --audit-dir.

Exit status: 0 when every need checked is as declared, 1 when one is not or could not be
measured (with the reason), 2 for bad usage.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.model.cli import Parser, fail, run_main
from course.model.course_model import (Build, CourseError, Lesson, TREES, lesson_by_number)

PROG = "shared_memory_needs"

#: The variable that turns the kit's audit on (kit/shared_memory_audit.hpp).
AUDIT_VARIABLE = "KIT_SHARED_MEMORY_AUDIT"
#: The kit's own kernels: every kernel of namespace `kit` (common/src), by its mangled name.
KIT_SYMBOL_PREFIX = "_ZN3kit"
#: How long one program may run (its timing tests included), in seconds.
DEFAULT_TIMEOUT = 1800


class UsageError(CourseError):
    """Bad usage: exit status 2."""


# ------------------------------------------------------------------------------------------
# The audit file
# ------------------------------------------------------------------------------------------

#: The origins of a kernel: the program's own (its CUDA runtime knows the function), or another
#: (a library with its own runtime, such as cuBLAS, which fits its kernels to the GPU itself; a
#: launch through the driver).
ORIGINS = ("program", "other")


@dataclass(frozen=True)
class KernelUse:
    """One `kernel` line: what one kernel used in one test (sizes in bytes)."""

    test: str  # Suite.Name, or "-" outside a test
    static: int
    dynamic: int
    total: int
    launches: int
    origin: str
    symbol: str
    name: str

    @property
    def whose(self) -> str:
        """'lesson', 'kit' (the kit's own kernels) or 'library' (another runtime's)."""
        return _whose(self.origin, self.symbol)


@dataclass(frozen=True)
class Unmeasured:
    test: str
    origin: str
    symbol: str
    name: str
    why: str

    @property
    def whose(self) -> str:
        return _whose(self.origin, self.symbol)


def _whose(origin: str, symbol: str) -> str:
    if origin != "program":
        return "library"
    return "kit" if symbol.startswith(KIT_SYMBOL_PREFIX) else "lesson"


@dataclass(frozen=True)
class Process:
    pid: int
    device: str
    arch: str
    optin: int  # the device's opt-in shared memory per block, bytes


@dataclass
class Audit:
    processes: List[Process] = field(default_factory=list)
    kernels: List[KernelUse] = field(default_factory=list)
    unmeasured: List[Unmeasured] = field(default_factory=list)
    refused: List[Tuple[int, str]] = field(default_factory=list)


def _int(text: str, where: str) -> int:
    if not text.isdigit():
        raise CourseError(f"{where}: '{text}' is not a number of bytes")
    return int(text)


def read_audit(text: str, shown: str) -> Audit:
    """The lines of an audit file (every process's block). Raises CourseError on a line that is
    not the audit's."""
    audit = Audit()
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{shown}:{number}"
        if not line or line.startswith("#"):
            continue
        f = line.split("\t")
        kind = f[0]
        if kind == "process" and len(f) == 5:
            audit.processes.append(Process(_int(f[1], where), f[2], f[3], _int(f[4], where)))
        elif kind == "kernel" and len(f) == 9 and f[6] in ORIGINS:
            audit.kernels.append(KernelUse(f[1], *(_int(x, where) for x in f[2:6]), *f[6:9]))
        elif kind == "unmeasured" and len(f) == 6 and f[2] in ORIGINS:
            audit.unmeasured.append(Unmeasured(*f[1:6]))
        elif kind == "refused" and len(f) == 3:
            audit.refused.append((_int(f[1], where), f[2]))
        else:
            raise CourseError(f"{where}: not a line of the kit's shared-memory audit: {line[:80]!r}")
    return audit


def short_name(name: str) -> str:
    """'void lesson09::(anonymous namespace)::tile_kernel<32, 8>(float const*, int)' ->
    'lesson09::tile_kernel<32, 8>': the kernel's name without its parameters, return type and
    anonymous namespaces."""
    name = name.replace("(anonymous namespace)::", "")
    depth = 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0 and i > 0:
            name = name[:i]
            break
    if name.startswith("void "):
        name = name[5:]
    return name


# ------------------------------------------------------------------------------------------
# Running the programs
# ------------------------------------------------------------------------------------------

@dataclass
class ProgramRun:
    """One test program run with the audit on."""

    lesson: Lesson
    tree: str
    program: Path
    audit: Audit = field(default_factory=Audit)
    problems: List[str] = field(default_factory=list)  # each makes the check fail
    notes: List[str] = field(default_factory=list)


def run_program(run: ProgramRun, audit_dir: Path, build_dir: Path, gtest_filter: Optional[str],
                timeout: float) -> None:
    """Runs `run.program` with the audit on (from the folder ctest runs it in) and reads what its
    process wrote."""
    stem = run.program.name
    audit_file = audit_dir / f"{stem}.tsv"
    log_file = audit_dir / f"{stem}.log"
    if audit_file.exists():
        audit_file.unlink()
    env = dict(os.environ)
    env[AUDIT_VARIABLE] = str(audit_file)
    args = [str(run.program)] + ([f"--gtest_filter={gtest_filter}"] if gtest_filter else [])
    cwd = build_dir / "tests" if (build_dir / "tests").is_dir() else build_dir
    with open(log_file, "w") as log:
        try:
            proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env,
                                    cwd=str(cwd))
        except OSError as e:
            run.problems.append(f"{stem} did not start: {e.strerror or e}")
            return
        try:
            status = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            run.problems.append(f"{stem} ran longer than {timeout:.0f} s and was stopped "
                                f"(--timeout; its output: {log_file})")
            return
    try:
        text = audit_file.read_text(errors="replace")
    except FileNotFoundError:
        text = ""
    run.audit = read_audit(text, str(audit_file))
    own = [p for p in run.audit.processes if p.pid == proc.pid]
    if not own:
        run.problems.append(f"{stem} wrote no audit (exit status {status}; a crash, or a program "
                            f"built before the kit had its audit: rebuild it; its output: "
                            f"{log_file})")
        return
    if own[0].device == "no device":
        run.problems.append(f"{stem} found no GPU: the audit reads launches on a GPU")
    for pid, why in run.audit.refused:
        if pid == proc.pid:
            run.problems.append(f"{stem}: the audit could not watch its launches: {why}")
        else:
            run.notes.append(f"{stem}: a process it started (pid {pid}) was not watched: {why}")
    tests: Dict[Tuple[str, str, str], List[str]] = {}
    for u in run.audit.unmeasured:
        tests.setdefault((u.whose, short_name(u.name), u.why), []).append(u.test)
    for (whose, name, why), where in tests.items():
        said = (f"{stem}: {name} in {where[0] if len(where) == 1 else f'{len(where)} tests'}: "
                f"its static shared memory could not be read ({why})")
        (run.problems if whose == "lesson" else run.notes).append(said)
    if status != 0:
        run.notes.append(f"{stem} exited with status {status} (a failed or timing test under the "
                         f"audit: its launches still count; its output: {log_file})")


# ------------------------------------------------------------------------------------------
# Holding the launches to the declarations
# ------------------------------------------------------------------------------------------

def _pattern(test: str) -> "re.Pattern[str]":
    return re.compile(".*".join(re.escape(part) for part in test.split("*")) + r"\Z")


@dataclass
class Need:
    """One declared need: a lesson's, or a `gpu.tests` entry's (its test patterns)."""

    lesson: Lesson
    declared: int
    tests: Tuple[str, ...] = ()  # empty: the lesson's own
    measured: Dict[str, int] = field(default_factory=dict)  # per tree
    largest: Optional[Tuple[int, str, KernelUse]] = None  # (total, tree, the kernel line)

    @property
    def what(self) -> str:
        return self.lesson.number if not self.tests else \
            f"{self.lesson.number} [{', '.join(self.tests)}]"

    def matches(self, test: str) -> bool:
        return any(_pattern(t).match(test) for t in self.tests)

    def add(self, tree: str, use: KernelUse) -> None:
        self.measured[tree] = max(self.measured.get(tree, 0), use.total)
        if self.largest is None or use.total > self.largest[0]:
            self.largest = (use.total, tree, use)

    @property
    def measured_max(self) -> Optional[int]:
        return max(self.measured.values()) if self.measured else None

    @property
    def verdict(self) -> str:
        m = self.measured_max
        if m is None:
            return "not measured: none of its kernels ran (skipped tests?)"
        if m == self.declared:
            return "ok"
        if m > self.declared:
            return f"declared too little (a GPU with less than {m} bytes per block would be " \
                   f"called able)"
        return f"declared too much (a GPU with {m} bytes per block would be refused)"


def lesson_needs(lesson: Lesson) -> List[Need]:
    """The lesson's need and those of its `gpu.tests` entries that declare shared memory."""
    gpu = lesson.manifest.gpu
    needs = [Need(lesson, gpu.shared_memory_per_block)]
    for entry in gpu.tests:
        if entry.shared_memory_per_block:
            needs.append(Need(lesson, entry.shared_memory_per_block, tuple(entry.tests)))
    return needs


def hold(needs: List[Need], tree: str, audit: Audit) -> None:
    """Counts each of the lesson's kernel lines toward the first entry that names its test and
    declares shared memory, else toward the lesson."""
    for use in audit.kernels:
        if use.whose != "lesson":
            continue
        need = next((n for n in needs[1:] if n.matches(use.test)), needs[0])
        need.add(tree, use)


def render(needs: List[Need], trees: List[str]) -> List[str]:
    width = max([len("lesson")] + [len(n.what) for n in needs]) + 2
    header = f"{'lesson':<{width}}{'declared':>10}{'measured':>10}" + \
        "".join(f"{t:>10}" for t in trees) + "  largest kernel (tree, test): verdict"
    lines = [header]
    for n in needs:
        m = n.measured_max
        cells = f"{n.what:<{width}}{n.declared:>10}{'-' if m is None else m:>10}" + \
            "".join(f"{n.measured.get(t, '-'):>10}" for t in trees)
        largest = ""
        if n.largest is not None:
            _, tree, use = n.largest
            largest = f"{short_name(use.name)} ({use.static} static + {use.dynamic} dynamic; " \
                      f"{tree}, {use.test})"
        lines.append(f"{cells}  {largest + ': ' if largest else ''}{n.verdict}")
    return lines


def others_kernels(runs: List[ProgramRun], whose: str) -> List[str]:
    """The kernels of the kit or of libraries (`whose`) the programs launched, each with the most
    one block used."""
    most: Dict[str, int] = {}
    for run in runs:
        for use in run.audit.kernels:
            if use.whose == whose:
                name = short_name(use.name)
                most[name] = max(most.get(name, 0), use.total)
    return [f"  {name}: up to {b} bytes" for name, b in sorted(most.items())]


# ------------------------------------------------------------------------------------------
# The command
# ------------------------------------------------------------------------------------------

def build_trees(build: Build) -> List[str]:
    """The trees the build has (course/build.json)."""
    try:
        info = json.loads((build.dir / "course" / "build.json").read_text())
    except (OSError, ValueError):
        info = {}
    trees = info.get("trees") if isinstance(info, dict) else None
    return [t for t in TREES if t in trees] if isinstance(trees, list) else list(TREES)


def chosen_trees(build: Build, tree: str) -> List[str]:
    have = build_trees(build)
    wanted = list(TREES) if tree == "both" else ["solution" if tree == "solutions" else tree]
    trees = [t for t in wanted if t in have]
    if not trees:
        raise UsageError(f"{build.dir} does not build the {' or '.join(wanted)} tree (it builds: "
                         f"{', '.join(have) or 'none'})")
    return trees


def chosen_lessons(build: Build, text: Optional[str]) -> List[Lesson]:
    lessons = [lesson for lesson in build.lessons() if build.knows(lesson)]
    if not text:
        return lessons
    try:
        return [lesson_by_number(lessons, part) for part in text.split(",") if part.strip()]
    except CourseError as e:
        raise UsageError(str(e)) from None


def programs_of(build: Build, lesson: Lesson, tree: str) -> List[Path]:
    """The lesson's GPU test programs of one tree: its own, and its hidden tests' where built."""
    folder = build.dir / "tests" / tree
    own = folder / lesson.program(tree, "gpu")
    hidden = folder / lesson.program(tree, "gpu", hidden=True)
    return [own] + ([hidden] if hidden.is_file() else [])


def check(build: Build, lessons: List[Lesson], trees: List[str], audit_dir: Path,
          gtest_filter: Optional[str], timeout: float) -> int:
    needs: List[Need] = []
    runs: List[ProgramRun] = []
    problems: List[str] = []
    for lesson in lessons:
        try:
            these = lesson_needs(lesson)
        except CourseError as e:
            problems.append(f"lesson {lesson.number}: {e}")
            continue
        needs += these
        for tree in trees:
            for program in programs_of(build, lesson, tree):
                run = ProgramRun(lesson, tree, program)
                runs.append(run)
                if not program.is_file():
                    run.problems.append(f"{program.name} is not built: cmake --build {build.dir} "
                                        f"--target {program.name}")
                    continue
                print(f"{PROG}: {program.name} ...", file=sys.stderr, flush=True)
                run_program(run, audit_dir, build.dir, gtest_filter, timeout)
                hold(these, tree, run.audit)
    devices = sorted({f"{p.device} ({p.arch}, {p.optin} bytes per block opt-in)"
                      for r in runs for p in r.audit.processes if p.device != "no device"})
    if devices:
        print(f"measured on {'; '.join(devices)}")
    if needs:
        print("\n".join(render(needs, trees)))
    for whose, what in (("kit", "the kit's own kernels (no lesson's need)"),
                        ("library", "libraries' kernels (no lesson's need: a library such as "
                                    "cuBLAS fits its kernels to the GPU)")):
        lines = others_kernels(runs, whose)
        if lines:
            print(f"{what}:")
            print("\n".join(lines))
    problems += [p for r in runs for p in r.problems]
    notes = [n for r in runs for n in r.notes]
    for n in notes:
        print(f"note: {n}")
    for p in problems:
        print(f"{PROG}: {p}", file=sys.stderr)
    wrong = [n for n in needs if n.verdict != "ok"]
    print(f"audit files and program output: {audit_dir}")
    if wrong or problems:
        print(f"{len(wrong)} of {len(needs)} declared needs are not as measured"
              + (f"; {len(problems)} problems" if problems else ""))
        return 1
    print(f"every declared need ({len(needs)}) is as measured")
    return 0


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", type=Path, required=True,
                    help="a configured build whose GPU test programs are built")
    ap.add_argument("--tree", choices=("student", "solution", "solutions", "both"),
                    default="both", help="whose programs run (default: both, every tree the "
                                         "build has)")
    ap.add_argument("--lessons", metavar="NN,NN", help="these lessons only (default: all)")
    ap.add_argument("--audit-dir", type=Path,
                    help="where the audit files and the programs' output go (default: a new "
                         "temporary folder)")
    ap.add_argument("--gtest-filter", metavar="FILTER",
                    help="run only these tests of each program (GoogleTest's --gtest_filter; "
                         "one that starts with '-' as --gtest-filter=-...); default: all, the "
                         "timing and counter tests included")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                    help=f"seconds one program may run (default {DEFAULT_TIMEOUT})")

    def run() -> int:
        args = ap.parse_args(argv)
        build = Build(args.build_dir.resolve())
        try:
            build.require_configured("cmake --preset gpu-check")
        except CourseError as e:
            raise UsageError(str(e)) from None
        trees = chosen_trees(build, args.tree)
        lessons = chosen_lessons(build, args.lessons)
        if args.audit_dir:
            audit_dir = args.audit_dir.resolve()
            audit_dir.mkdir(parents=True, exist_ok=True)
        else:
            audit_dir = Path(tempfile.mkdtemp(prefix="shared-memory-audit-"))
        return check(build, lessons, trees, audit_dir, args.gtest_filter, args.timeout)

    def run_or_usage() -> int:
        try:
            return run()
        except UsageError as e:
            return fail(PROG, str(e), 2)
    return run_main(PROG, run_or_usage)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
