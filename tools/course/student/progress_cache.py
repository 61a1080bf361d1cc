"""Results that progress may show again without running the tests: a lesson whose test
programs, registered tests and exercise files are unchanged (by their contents' hashes, not file
times) on the same GPU, driver and test settings since its tests last ran.

Kept in <build>/course/results.json, one entry per lesson: the key (a SHA-256 over everything
above), when the results were taken, and each test's result. `./course progress` and
`./course test NN` write it; `progress --rerun` ignores it. A lesson whose results hold a crash,
a timeout or an inconclusive timing is not kept: those run again.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

from course.model.cli import write_text_atomic
from course.model.course_model import SANITIZE_LABEL, CourseError, Lesson, split_test_name
from course.model.ctest_results import CRASH, NOT_BUILT, SKIP, TestInfo, TestResult

VERSION = 1
FILE_NAME = "results.json"

#: The environment that changes what a test program does (the kit reads these), or which GPU it
#: runs on.
SETTINGS = ("KIT_SMALL", "KIT_SEED", "KIT_FORCE_NO_GPU", "KIT_COUNTERS_REFUSE",
            "KIT_GPU_PROFILE", "KIT_COUNTS_FROM", "CUDA_VISIBLE_DEVICES")
#: The self-check's record in a build folder (`./course self-check`): the kit reads it, so a new
#: one can turn a skip into a run.
SELF_CHECK_RECORD = Path("self-check") / "rules.json"


def machine_key(build_dir: Optional[Path] = None) -> str:
    """The GPUs (name, driver, UUID) nvidia-smi lists, or why there are none, the settings, and
    the self-check record of the build folder (its hash), if any."""
    smi = shutil.which("nvidia-smi")
    gpus = "no nvidia-smi"
    if smi:
        try:
            proc = subprocess.run([smi, "--query-gpu=name,driver_version,uuid",
                                   "--format=csv,noheader"], capture_output=True, text=True,
                                  timeout=20)
            gpus = proc.stdout.strip() if proc.returncode == 0 else f"nvidia-smi exit {proc.returncode}"
        except (OSError, subprocess.TimeoutExpired) as e:
            gpus = f"nvidia-smi failed: {e}"
    settings = ";".join(f"{k}={os.environ.get(k, '')}" for k in SETTINGS)
    record = build_dir / SELF_CHECK_RECORD if build_dir is not None else None
    checked = _file_hash(record, {}) if record is not None and record.is_file() else "none"
    return f"{gpus}|{settings}|self-check={checked}"


def _file_hash(path: Path, memo: Dict[str, str]) -> str:
    key = str(path)
    if key not in memo:
        h = hashlib.sha256()
        try:
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            memo[key] = h.hexdigest()
        except OSError:
            memo[key] = "absent"
    return memo[key]


def lesson_tests(lesson: Lesson, tests: Dict[str, TestInfo], tree: str = "student",
                 leave_out: Iterable[str] = ()) -> Dict[str, TestInfo]:
    """The lesson's registered tests of one tree, without those carrying a left-out label."""
    out = {}
    for name, info in tests.items():
        parts = split_test_name(name)
        if parts and parts.tree == tree and parts.label == lesson.label and \
                not set(leave_out) & set(info.labels):
            out[name] = info
    return out


def programs_built(lesson: Lesson, tests: Dict[str, TestInfo], kind: str) -> bool:
    """Whether a test program of the lesson of this kind ('cpu' or 'gpu') is built. The
    sanitizer runs' command is python: only the test program itself says it is built."""
    mine = lesson_tests(lesson, tests, leave_out=[SANITIZE_LABEL])
    return any(t.built is True and kind in t.labels for t in mine.values())


def lesson_key(lesson: Lesson, tests: Dict[str, TestInfo], machine: str,
               memo: Optional[Dict[str, str]] = None) -> str:
    """The SHA-256 of what a lesson's results depend on: its registered tests (names, labels,
    commands), the contents of their programs, its exercise files and the machine."""
    memo = {} if memo is None else memo
    h = hashlib.sha256()
    h.update(f"v{VERSION}\n{machine}\n".encode())
    programs = set()
    for name in sorted(tests):
        info = tests[name]
        h.update(json.dumps([name, sorted(info.labels), info.command, info.built]).encode())
        if info.command:
            programs.add(info.command[0])
    for program in sorted(programs):
        h.update(f"{program}:{_file_hash(Path(program), memo)}\n".encode())
    for path in lesson.student_files():
        h.update(f"{path.name}:{_file_hash(path, memo)}\n".encode())
    return h.hexdigest()


def _keepable(results: Dict[str, TestResult]) -> bool:
    """Results worth showing again: none crashed or timed out, none is missing its program, no
    timing was inconclusive (a busy GPU)."""
    for r in results.values():
        if r.status in (CRASH, NOT_BUILT):
            return False
        if r.status == SKIP and "nconclusive" in r.reason:
            return False
    return True


class ResultStore:
    """<build>/course/results.json."""

    def __init__(self, state_dir: Path):
        self.path = state_dir / FILE_NAME
        self.data: Dict[str, dict] = {}
        try:
            raw = json.loads(self.path.read_text())
            if isinstance(raw, dict) and raw.get("version") == VERSION:
                self.data = dict(raw.get("lessons") or {})
        except (OSError, ValueError):
            pass

    def reusable(self, name: str, key: str,
                 names: Iterable[str]) -> Optional[Tuple[str, Dict[str, TestResult]]]:
        """(when they were taken, the results) of a lesson whose key is unchanged and whose
        stored results cover every one of `names`; None otherwise."""
        kept = self.data.get(name)
        if not kept or kept.get("key") != key:
            return None
        try:
            results = {n: TestResult(**r) for n, r in dict(kept["results"]).items()}
        except (TypeError, KeyError, ValueError):
            return None
        if not set(names) <= set(results):
            return None
        return str(kept.get("taken", "")), results

    def keep(self, name: str, key: str, results: Dict[str, TestResult],
             taken: Optional[str] = None) -> None:
        """Records results under their key (or forgets them where they are not worth
        keeping)."""
        if not results or not _keepable(results):
            self.data.pop(name, None)
            return
        self.data[name] = {
            "key": key,
            "taken": taken or datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "results": {n: asdict(r) for n, r in results.items()},
        }

    def save(self) -> None:
        try:
            write_text_atomic(self.path, json.dumps({"version": VERSION, "lessons": self.data},
                                                    indent=1, sort_keys=True) + "\n")
        except CourseError:
            pass  # results that cannot be kept only cost time: they run again next time


def of_kind(tests: Dict[str, TestInfo], kind: str) -> Dict[str, TestInfo]:
    """The tests of one kind: 'gpu' (GPU and timing tests) or 'cpu'."""
    return {n: t for n, t in tests.items() if (kind == "gpu") == ("gpu" in t.labels)}


@dataclass
class LessonPlan:
    """One lesson's tests of one kind, the key of their results, and the results that can be
    shown again (when taken, the results), if any."""

    lesson: Lesson
    kind: str
    tests: Dict[str, TestInfo]
    key: str
    reused: Optional[Tuple[str, Dict[str, TestResult]]] = None

    @property
    def entry(self) -> str:
        """The store's name of these results: 'lesson03/gpu'."""
        return f"{self.lesson.label}/{self.kind}"


def plan(lessons: List[Lesson], tests: Dict[str, TestInfo], kind: str, store: ResultStore,
         machine: Callable[[], str], leave_out: Iterable[str] = ()) -> List[LessonPlan]:
    """For the tests of one kind ('cpu' or 'gpu'), each lesson's that has some: its key (with
    the machine's for GPU tests: `machine` is called once, and only then) and whether its
    results can be shown again."""
    memo: Dict[str, str] = {}
    machine_text = machine() if kind == "gpu" else ""
    kind_tests = of_kind(tests, kind)
    plans = []
    for lesson in lessons:
        mine = lesson_tests(lesson, kind_tests, leave_out=leave_out)
        if not mine:
            continue
        p = LessonPlan(lesson, kind, mine, lesson_key(lesson, mine, machine_text, memo))
        p.reused = store.reusable(p.entry, p.key, mine)
        plans.append(p)
    return plans


def keep_lesson(state_dir: Path, lesson: Lesson, tests: Dict[str, TestInfo],
                results: Dict[str, TestResult], kinds: Iterable[str] = ("cpu", "gpu"),
                leave_out: Iterable[str] = ()) -> None:
    """Records one lesson's results of these kinds (after `./course test NN`), so that progress
    shows them again while nothing changes."""
    store = ResultStore(state_dir)
    for kind in kinds:
        # state_dir is the build folder's course/ (Build.state_dir).
        for p in plan([lesson], tests, kind, store, lambda: machine_key(state_dir.parent),
                      leave_out):
            store.keep(p.entry, p.key, {n: r for n, r in results.items() if n in p.tests})
    store.save()
