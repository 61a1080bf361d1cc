"""The course as its tools see it.

- The lessons: every lessons/NN_topic folder, with its number, label (`lesson03`), its facts
  (its manifest, lesson.json: title, points, what it needs; model/manifest.py), README, graded
  hints (hints.md) and the files a student edits.
- The tests: two trees (student, solution), ctest names `<tree>/lessonNN/<Suite.Name>`, labels
  (lessonNN, the tree, exercise|guard, cpu|gpu|perf, hidden) and the test programs behind them
  (`lessonNN_<tree>_cpu`, `lessonNN_<tree>_gpu`, `..._hidden_...`, `kit_cpu`, `kit_gpu`).
- The build targets: `lessonNN` (everything of the lesson) and `lessonNN-cpu` (its CPU test
  programs, host compiler only).
- A configured build folder, the files each lesson's build makes there (its libraries and test
  programs), and the build status of each lesson: built, or did not build with the compiler's
  first error.

Every tool of tools/course and tools/docs takes these facts from here. Standard library only;
Python 3.8 or newer.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from course.model.errors import CourseError
from course.model.manifest import MANIFEST, Manifest, read_manifest
from course.model.safe_text import one_line

#: The course's root folder (this file is tools/course/model/course_model.py).
ROOT = Path(__file__).resolve().parents[3]

TREES = ("student", "solution")
ROLES = ("exercise", "guard")

#: The files of lessons/NN_topic/ that a student edits (and `reset` restores, and the grade
#: workflow takes from the student's repository). Everything else comes from the course.
STUDENT_FILE_PATTERN = "exercise*"

#: A lesson's graded hints, beside its README: `## Hint 1` (a nudge) ... the last (the idea).
HINTS_FILE = "hints.md"

#: A lesson README's `##` headings, in this order (its first line is `# Lesson NN: Title`). Its
#: `## Hints` section only says how to take the hints one at a time; they are in hints.md.
README_HEADINGS = ("Goal", "Background", "Predict", "Your task", "Run the tests", "Hints",
                   "What you should see")

#: The student's command, as typed at the course's root (the launcher `course` there runs
#: course.student.main).
COMMAND = "./course"

#: The student's own state at the root of the course (git-ignored, outside build/): the hints
#: seen so far, the next lesson, the backups `reset` keeps.
STATE_FOLDER = ".course"

#: A lesson's status, in the words every course tool uses (the progress table, `./course test`,
#: the state `watch` remembers), from the least to the most done:
#: - NOT_STARTED: no exercise test passes yet;
#: - IN_PROGRESS: some do;
#: - CPU_PART_DONE: every CPU test passes, and the GPU tests could not run (no GPU here): the
#:   kernel is not checked, so the lesson is not finished;
#: - KERNEL_ON_CPU: the student's kernel also ran on the CPU, checked there, but no GPU timed it
#:   (for lessons whose kernel runs on the CPU; not finished either);
#: - DONE: the GPU exercise tests passed — the only "done";
#: and the three that say why there is nothing to count: NOT_BUILT_YET (the lesson's test
#: programs are not built), DOES_NOT_BUILD (its build failed), NO_TESTS (none registered).
NOT_STARTED = "not started"
IN_PROGRESS = "in progress"
CPU_PART_DONE = "CPU part done \u2014 kernel not checked on a GPU"
KERNEL_ON_CPU = "kernel checked on the CPU \u2014 not timed"
DONE = "done (GPU exercise tests passed)"
NOT_BUILT_YET = "not built yet"
DOES_NOT_BUILD = "does not build"
NO_TESTS = "no tests yet"
STATUSES = (NOT_STARTED, IN_PROGRESS, CPU_PART_DONE, KERNEL_ON_CPU, DONE, NOT_BUILT_YET,
            DOES_NOT_BUILD, NO_TESTS)

#: The label of the suites' sanitizer runs: slow, left out of the student's loop and progress
#: (grading runs them, and `ctest -L sanitize`).
SANITIZE_LABEL = "sanitize"

_LESSON_DIR = re.compile(r"^(\d\d)_(.+)$")
_TITLE = re.compile(r"^#\s+Lesson\s+\d+\s*[:.\-]\s*(.+?)\s*$", re.I)
_HINT_HEADING = re.compile(r"^##\s+Hint\s+(\d+)\b.*$", re.I)


# ------------------------------------------------------------------------------------------
# Lessons
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lesson:
    """One lesson folder, lessons/NN_topic."""

    number: str  # "01"
    folder: str  # "01_no_conflict"
    source_dir: Path

    @property
    def label(self) -> str:
        """The ctest label of the lesson's tests, and the name of its build target."""
        return f"lesson{self.number}"

    @property
    def cpu_target(self) -> str:
        """The build target of the lesson's CPU test programs (host compiler only)."""
        return f"{self.label}-cpu"

    @property
    def dir(self) -> Path:
        return self.source_dir / "lessons" / self.folder

    @property
    def rel_dir(self) -> str:
        return f"lessons/{self.folder}"

    @property
    def readme(self) -> Path:
        return self.dir / "README.md"

    @property
    def rel_readme(self) -> str:
        """'lessons/01_no_conflict/README.md', the README from the course's root."""
        return f"{self.rel_dir}/README.md"

    @property
    def hints_file(self) -> Path:
        return self.dir / HINTS_FILE

    @property
    def topic(self) -> str:
        """The folder's topic as words: '01_no_conflict' -> 'No conflict'."""
        topic = self.folder.split("_", 1)[1].replace("_", " ")
        return topic[:1].upper() + topic[1:]

    @property
    def manifest(self) -> Manifest:
        """The lesson's facts, lessons/NN_topic/lesson.json (model/manifest.py). Raises
        CourseError, naming the file, when it is missing or not a manifest."""
        return read_manifest(self.dir, self.number, f"{self.rel_dir}/{MANIFEST}")

    @property
    def title(self) -> str:
        """'Banks, words and wavefronts': the manifest's title (the README's first line says
        `# Lesson 01: ` and the same)."""
        return self.manifest.title

    def readme_title(self) -> Optional[str]:
        """The title the README's first line gives (`# Lesson NN: Title`), None without one."""
        try:
            with self.readme.open(encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = _TITLE.match(line.strip())
                    if m:
                        return m.group(1)
                    if line.strip():
                        break
        except OSError:
            pass
        return None

    @property
    def heading(self) -> str:
        """'Lesson 01: Banks, words and wavefronts', as the README's first line says it."""
        return f"Lesson {self.number}: {self.title}"

    def program(self, tree: str, kind: str, hidden: bool = False) -> str:
        """The test program of one tree and kind: lesson03_student_cpu, ..._hidden_gpu."""
        return f"{self.label}_{tree}_{'hidden_' if hidden else ''}{kind}"

    def student_files(self) -> List[Path]:
        """The files of this lesson a student edits, as they are on disk now."""
        if not self.dir.is_dir():
            return []
        return sorted(p for p in self.dir.iterdir()
                      if p.is_file() and fnmatch.fnmatch(p.name, STUDENT_FILE_PATTERN))

    def todo_counts(self) -> Dict[Path, int]:
        """`TODO` markers left in each student file."""
        counts = {}
        for p in self.student_files():
            try:
                counts[p] = p.read_text(encoding="utf-8", errors="replace").count("TODO")
            except OSError:
                counts[p] = 0
        return counts

    def hints(self) -> List[str]:
        """The graded hints of hints.md, in order. Raises CourseError when there are none."""
        where = f"{self.rel_dir}/{HINTS_FILE}"
        if not self.hints_file.is_file():
            raise CourseError(f"lesson {self.number} has no hints: {where} does not exist")
        hints = read_hints(self.hints_file.read_text(encoding="utf-8", errors="replace"))
        if not hints:
            raise CourseError(f"{where} has no hints (headings '## Hint 1', '## Hint 2', ...)")
        return hints


def find_lessons(source_dir: Path) -> List[Lesson]:
    """Every lessons/NN_topic folder, in order."""
    lessons_dir = source_dir / "lessons"
    if not lessons_dir.is_dir():
        raise CourseError(f"{source_dir} has no lessons/ folder (is it the course's root?)")
    found = []
    for d in sorted(lessons_dir.iterdir()):
        m = _LESSON_DIR.match(d.name)
        if d.is_dir() and m:
            found.append(Lesson(m.group(1), d.name, source_dir))
    return found


def is_inside(path: Path, root: Path) -> bool:
    """Whether `path` is `root` or below it, links followed (a link out of a folder is not in
    it)."""
    try:
        Path(os.path.realpath(path)).relative_to(os.path.realpath(root))
        return True
    except ValueError:
        return False


def parse_lesson_number(text: str) -> str:
    """'3', '03', 'lesson03' -> '03'. Raises CourseError for anything else."""
    m = re.fullmatch(r"(?:lesson)?(\d{1,2})", text.strip(), re.I)
    if not m:
        raise CourseError(f"'{text}' is not a lesson number (write it like 03)")
    return f"{int(m.group(1)):02d}"


def lesson_by_number(lessons: List[Lesson], text: str) -> Lesson:
    number = parse_lesson_number(text)
    for lesson in lessons:
        if lesson.number == number:
            return lesson
    have = ", ".join(lesson.number for lesson in lessons) or "none"
    raise CourseError(f"there is no lesson {number} (lessons: {have})")


def read_hints(text: str) -> List[str]:
    """The hints of a hints.md: one per `## Hint N` heading, in the file's order, each the text
    up to the next `## ` heading. [] when there is none."""
    hints: List[List[str]] = []
    current: Optional[List[str]] = None
    for line in text.splitlines():
        if _HINT_HEADING.match(line.strip()):
            current = []
            hints.append(current)
        elif re.match(r"^#{1,2}\s", line):
            current = None
        elif current is not None:
            current.append(line.rstrip())
    return [t for t in ("\n".join(h).strip("\n") for h in hints) if t.strip()]


def hint_numbers(text: str) -> List[int]:
    """The numbers of the `## Hint N` headings of a hints.md, in order."""
    return [int(m.group(1)) for m in (_HINT_HEADING.match(line.strip())
                                      for line in text.splitlines()) if m]


# ------------------------------------------------------------------------------------------
# Tests: names, labels, programs
# ------------------------------------------------------------------------------------------

class TestName(NamedTuple):
    """'student/lesson01/hidden/Banks.X' -> tree 'student', label 'lesson01', name
    'hidden/Banks.X' (hidden tests keep their prefix)."""

    tree: str
    label: str
    name: str


def split_test_name(full: str) -> Optional[TestName]:
    """The parts of a lesson test's ctest name; None for tests that are not a lesson's (the
    kit's, the tools')."""
    parts = full.split("/", 2)
    if len(parts) == 3 and parts[0] in TREES and re.fullmatch(r"lesson\d\d", parts[1]):
        return TestName(*parts)
    return None


def role_of(labels: List[str]) -> str:
    """'exercise', 'guard', or '' when the labels do not say."""
    return next((r for r in ROLES if r in labels), "")


def kind_of(labels: List[str]) -> str:
    """'gpu' for GPU and timing tests, 'cpu' otherwise."""
    return "gpu" if "gpu" in labels else "cpu"


# ------------------------------------------------------------------------------------------
# The build folder and each lesson's build status
# ------------------------------------------------------------------------------------------

BUILT = "built"
DID_NOT_BUILD = "did not build"
#: The build's list of the files each lesson's targets make (written when it is configured).
LESSON_FILES = "lesson-files.json"
_ERROR_LINE = re.compile(r"(\berror\b|\bError \d+\b)", re.I)


@dataclass
class LessonBuild:
    """The outcome of building one lesson's target."""

    status: str  # BUILT or DID_NOT_BUILD
    error: str = ""  # the compiler's first error
    log: str = ""  # the build log's path

    @property
    def failed(self) -> bool:
        return self.status == DID_NOT_BUILD


def first_error(log: str) -> str:
    """The compiler's first error line of a build log (or its last line), shown on one line
    (it may quote a student's text)."""
    lines = [line.strip() for line in log.split("\n") if line.strip()]
    for line in lines:
        if _ERROR_LINE.search(line) and not line.startswith(("make", "gmake", "ninja:")):
            return one_line(line, 300)
    for line in lines:
        if _ERROR_LINE.search(line):
            return one_line(line, 300)
    return one_line(lines[-1], 300) if lines else "no output"


def default_build_dir(source_dir: Path = ROOT) -> Path:
    """The `student` preset's build folder."""
    return source_dir / "build" / "student"


def state_dir(source_dir: Path) -> Path:
    """Where the student's own state lives: <course>/.course (git-ignored)."""
    return source_dir / STATE_FOLDER



def remove_file(path: Path) -> None:
    """Removes a file if it is there. Raises CourseError (one line) when it cannot."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError as e:
        raise CourseError(f"cannot remove {path}: {e.strerror or e}") from None


@dataclass
class LessonsApart:
    """The commands of a pipelined grading build (Build.lessons_apart): those that make what
    the lessons share, then each lesson's own make."""

    first: List[List[str]]
    lesson: Dict[str, List[str]]


class Build:
    """A configured build folder: where the course's sources are, which lessons it builds, how
    to build a target in it, and what building each lesson gave."""

    def __init__(self, build_dir: Path, source_dir: Optional[Path] = None):
        self.dir = build_dir
        info = self._read_info()
        if source_dir is None:
            source_dir = Path(info["source_dir"]) if info.get("source_dir") else ROOT
        self.source_dir = source_dir
        self.configured_lessons: Optional[List[str]] = info.get("lessons")

    def _read_info(self) -> dict:
        path = self.dir / "course" / "build.json"
        if path.is_file():
            try:
                return json.loads(path.read_text())
            except (OSError, ValueError):
                return {}
        cache = self._cache()
        m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.M)
        return {"source_dir": m.group(1).strip()} if m else {}

    def _cache(self) -> str:
        try:
            return (self.dir / "CMakeCache.txt").read_text(errors="replace")
        except OSError:
            return ""

    @property
    def configured(self) -> bool:
        return (self.dir / "CTestTestfile.cmake").is_file()

    def require_configured(self, configure_hint: str = "cmake --preset student") -> None:
        if not self.dir.is_dir():
            raise CourseError(f"no build folder {self.dir}: run `{configure_hint}` first")
        if not self.configured:
            raise CourseError(f"{self.dir} is not a configured build folder: run "
                              f"`{configure_hint}` first")

    @property
    def state_dir(self) -> Path:
        """Where the tools keep this build's files: reports, build logs, the build status."""
        return self.dir / "course"

    @property
    def status_path(self) -> Path:
        return self.state_dir / "build-status.json"

    def lessons(self) -> List[Lesson]:
        return find_lessons(self.source_dir)

    def knows(self, lesson: Lesson) -> bool:
        """Whether this build was configured with the lesson (a folder added since is not)."""
        return self.configured_lessons is None or lesson.folder in self.configured_lessons

    def _generator(self) -> str:
        """The build's CMake generator ("Unix Makefiles", "Ninja", ...), "" where unknown."""
        m = re.search(r"^CMAKE_GENERATOR:INTERNAL=(.*)$", self._cache(), re.M)
        return m.group(1).strip() if m else ""

    def keep_going(self) -> List[str]:
        """The native build tool's keep-going flag, so that within a lesson one test program
        that does not compile does not stop the lesson's other programs from building."""
        generator = self._generator()
        if "Makefiles" in generator:
            return ["--", "-k"]
        if "Ninja" in generator:
            return ["--", "-k", "0"]
        return []

    def lesson_files(self, lesson: Lesson) -> List[Path]:
        """The files the lesson's targets make in this build (its libraries and test programs,
        every tree), as the build lists them (course/lesson-files.json). Raises CourseError
        where the build has no such list (configured by an older course) or not this lesson."""
        path = self.state_dir / LESSON_FILES
        try:
            made = json.loads(path.read_text())["lessons"]
        except FileNotFoundError:
            raise CourseError(f"{self.dir} does not list the files each lesson makes ({path} is "
                              f"missing): configure it again") from None
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise CourseError(f"{path}: not the build's list of lesson files ({e})") from None
        if lesson.label not in made:
            raise CourseError(f"{path} does not list {lesson.label}: configure {self.dir} again")
        files = [Path(p) for p in made[lesson.label]]
        outside = [p for p in files if not is_inside(p.parent, self.dir)]
        if outside:
            raise CourseError(f"{path} lists {outside[0]}, outside the build folder")
        return files

    def remove_lesson_files(self, lessons: List[Lesson]) -> None:
        """Removes what an earlier build made of these lessons (lesson_files), so that a lesson
        whose next build fails has no program left to run."""
        for lesson in lessons:
            for path in self.lesson_files(lesson):
                remove_file(path)

    @property
    def gpu_programs(self) -> bool:
        """Whether this build makes GPU test programs (a GPU at configure time, or
        COURSE_GPU_TESTS=ON), as its build.json says; without them its GPU tests report Skipped
        with the reason."""
        return bool(self._read_info().get("gpu_programs", False))

    def test_reads(self, test: str) -> List[Path]:
        """The files the test named `test` reads while it runs, besides its programs and the
        libraries they load, as the build lists them (course_test_reads in
        cmake/CourseLesson.cmake: by the start of the tests' names)."""
        reads = self._read_info().get("test_reads") or {}
        if not isinstance(reads, dict):
            return []
        return [Path(p) for start, paths in sorted(reads.items())
                if isinstance(start, str) and test.startswith(start) and isinstance(paths, list)
                for p in paths if isinstance(p, str) and os.path.isabs(p)]

    def build_target(self, target: str, jobs: int, capture: bool,
                     timeout: Optional[float] = None) -> subprocess.CompletedProcess:
        """`cmake --build` of one target (or several, separated by spaces, made with one pool
        of jobs: _goals_at_once), keeping going past a program that does not compile. With
        capture, the output (stdout and stderr together) is in the result's stdout. Past
        `timeout` seconds the build and every compiler it started are stopped: the result's
        returncode is then None."""
        commands = self._goals_at_once(target.split(), jobs) or \
            [["cmake", "--build", str(self.dir), "--target", *target.split(), "-j", str(jobs),
              *self.keep_going()]]
        return self._run_commands(commands, capture, timeout)

    def _run_commands(self, commands: List[List[str]], capture: bool,
                      timeout: Optional[float], nice: int = 0,
                      started: Optional[List[subprocess.Popen]] = None
                      ) -> subprocess.CompletedProcess:
        """Runs the build's commands one after another in the build folder, up to the first
        that fails, within `timeout` seconds for them all (past it, the command and every
        compiler it started are stopped: returncode None). `nice`: how much lower than this
        process's the priority of the commands is (a build beside tests that time the GPU);
        `started`: where each command's process is listed as it starts (to stop it from
        elsewhere: stop_processes)."""
        env = dict(os.environ)
        for key in ("MAKEFLAGS", "MFLAGS"):  # a parent make's jobserver is not ours
            env.pop(key, None)
        out = subprocess.PIPE if capture else None
        deadline = None if timeout is None else time.monotonic() + timeout
        printed = ""
        argv: List[str] = []
        proc = None
        for argv in commands:
            if nice and shutil.which("nice"):  # not preexec_fn: builds start from threads
                argv = ["nice", "-n", str(nice), *argv]
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT if capture else None,
                                    text=True, errors="replace", env=env, cwd=str(self.dir),
                                    # its own process group, to stop it whole at the timeout
                                    # (without one, Ctrl-C at the terminal reaches the build as
                                    # it should)
                                    start_new_session=timeout is not None)
            if started is not None:
                started.append(proc)
            try:
                stdout, _ = proc.communicate(
                    timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                stop_processes([proc])
                stdout, _ = proc.communicate()
                return subprocess.CompletedProcess(argv, None, printed + (stdout or ""))
            printed += stdout or ""
            if proc.returncode != 0:
                break
        return subprocess.CompletedProcess(argv, proc.returncode if proc else 0,
                                           printed if capture else None)

    def _makefile2(self) -> Optional[Tuple[str, str]]:
        """(the make program, the text of CMakeFiles/Makefile2) of a build made by one of CMake's
        Makefile generators; None for any other build, or where either cannot be read."""
        make = re.search(r"^CMAKE_MAKE_PROGRAM:[A-Z]+=(.+)$", self._cache(), re.M)
        if "Makefiles" not in self._generator() or not make:
            return None
        try:
            return make.group(1).strip(), (self.dir / "CMakeFiles" / "Makefile2").read_text(
                errors="replace")
        except OSError:
            return None

    @staticmethod
    def _goal(graph: str, target: str) -> Optional[str]:
        """The target's `<dir>/CMakeFiles/<target>.dir/all` goal in Makefile2 (which does not
        start a make of its own, as the target's plain name there does); None where Makefile2
        does not name it."""
        name = re.escape(target)
        rule = re.search(rf"^{name}: ((?:\S+/)?CMakeFiles/{name}\.dir)/rule$", graph, re.M)
        return rule.group(1) + "/all" if rule else None

    def _goals_at_once(self, targets: List[str], jobs: int) -> Optional[List[List[str]]]:
        """The commands that build several targets with one pool of `jobs`, where `cmake --build`
        would build them one after another: the top-level Makefile of CMake's Makefile
        generators is .NOTPARALLEL, and each target's rule there (and in CMakeFiles/Makefile2)
        starts a make of its own, so targets made side by side would each build what they share.
        Instead its make program checks the build system as that Makefile would, then makes the
        targets' `<dir>/CMakeFiles/<target>.dir/all` goals of CMakeFiles/Makefile2 in one run:
        one graph, every shared dependency made once, as `make all` does. None for one target,
        where `cmake --build` already builds them together (Ninja), or where Makefile2 does not
        name a target's goal."""
        found = self._makefile2() if len(targets) >= 2 else None
        if found is None:
            return None
        program, graph = found
        goals = [self._goal(graph, target) for target in targets]
        if None in goals:
            return None
        return [self._check_command(program), self._make_command(program, jobs, goals)]

    @staticmethod
    def _check_command(program: str) -> List[str]:
        """The make program's check of the build system, as the top-level Makefile runs it
        first (run in the build folder, -s as that Makefile does)."""
        return [program, "-s", "-f", "Makefile", "cmake_check_build_system"]

    @staticmethod
    def _make_command(program: str, jobs: int, goals: List[str]) -> List[str]:
        """One run of the make program on Makefile2's goals, with `jobs` jobs, keeping going."""
        return [program, "-s", "-f", "CMakeFiles/Makefile2", "-j", str(jobs), "-k", *goals]

    def lessons_apart(self, lessons: List[Lesson], also: List[str],
                      jobs: int) -> Optional[LessonsApart]:
        """How to build these lessons each in a make of its own, side by side, each as soon as
        its files are in place (the pipelined grading build): first, in one run, the build
        system's check, every goal two or more of the lessons need (what they share: the kit,
        GoogleTest, ...) and the `also` targets; then each lesson's own goal. Once what they
        share is made, the lessons' makes touch no file in common, so they can run at once.
        Each make runs `jobs` jobs. None where the build is not made by a Makefile generator
        (Ninja's log allows one run at a time), or where Makefile2 does not name a goal."""
        found = self._makefile2()
        if found is None:
            return None
        program, graph = found
        needs: Dict[str, List[str]] = {}
        for m in re.finditer(r"^(\S+/all): (\S+/all)$", graph, re.M):
            needs.setdefault(m.group(1), []).append(m.group(2))

        def closure(goal: str) -> set:
            seen, todo = set(), [goal]
            while todo:
                g = todo.pop()
                if g not in seen:
                    seen.add(g)
                    todo += needs.get(g, [])
            return seen

        goals = {lesson.label: self._goal(graph, lesson.label) for lesson in lessons}
        extra = [self._goal(graph, target) for target in also]
        if None in goals.values() or None in extra:
            return None
        reach = {label: closure(goal) for label, goal in goals.items()}
        shared = sorted({g for label, seen in reach.items() for g in seen
                         if any(g in other for o, other in reach.items() if o != label)})
        first = [self._check_command(program)]
        if shared or extra:
            first.append(self._make_command(program, jobs, [*shared, *extra]))
        return LessonsApart(first, {label: self._make_command(program, jobs, [goal])
                                    for label, goal in goals.items()})

    def run_apart(self, commands: List[List[str]], timeout: Optional[float] = None,
                  nice: int = 0, started: Optional[List[subprocess.Popen]] = None
                  ) -> subprocess.CompletedProcess:
        """Runs commands of lessons_apart() (their output in the result's stdout; returncode
        None past `timeout` seconds, the make stopped whole; `started`: as _run_commands)."""
        return self._run_commands(commands, True, timeout, nice, started)

    def build_lesson(self, lesson: Lesson, jobs: int, timeout: Optional[float] = None,
                     cpu_only: bool = False, fresh: bool = False) -> LessonBuild:
        """Builds the lesson's target (cpu_only: its CPU test programs) on its own; its log goes
        to <build>/course/build-lessonNN.log. A build that takes longer than `timeout` seconds
        did not build (fresh: what it made is removed, as build_lessons says)."""
        target = lesson.cpu_target if cpu_only else lesson.label
        proc = self.build_target(target, jobs, capture=True, timeout=timeout)
        return self.lesson_outcome(lesson, proc, timeout, fresh)

    def lesson_outcome(self, lesson: Lesson, proc: subprocess.CompletedProcess,
                       timeout: Optional[float], fresh: bool) -> LessonBuild:
        """What the lesson's build (`proc`, its output captured) gave: its log written to
        <build>/course/build-lessonNN.log; past `timeout` it did not build (fresh: what it made
        is removed, a stopped build may leave a file half written)."""
        log_path = self.state_dir / f"build-{lesson.label}.log"
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            log_path.write_text(proc.stdout or "")
        except OSError as e:
            raise CourseError(f"cannot write {log_path}: {e.strerror or e}") from None
        if proc.returncode is None:
            if fresh:
                self.remove_lesson_files([lesson])
            return LessonBuild(DID_NOT_BUILD, f"the build took longer than {timeout:.0f} s and was "
                                              f"stopped", str(log_path))
        if proc.returncode == 0:
            return LessonBuild(BUILT, log=str(log_path))
        return LessonBuild(DID_NOT_BUILD, first_error(proc.stdout or ""), str(log_path))

    def build_lessons(self, lessons: List[Lesson], jobs: int,
                      say: Callable[..., None] = print,
                      timeout: Optional[float] = None,
                      cpu_only: bool = False, fresh: bool = False) -> Dict[str, LessonBuild]:
        """Builds the lessons' targets (cpu_only: their CPU test programs). First all of them in
        one build, which keeps every core busy (build_target: one pool of jobs); where that
        fails, each lesson's target on its own, so one that does not compile hides no other and
        shows with its first error. Says how each went, one line each. `timeout`: seconds for
        each lesson (the whole first build gets one lesson's). fresh (the grading build): the
        lessons' files are removed first, and again after a build that was stopped, so every
        program left was made by this build and a lesson that does not build has none of an
        earlier build's to run."""
        if not lessons:
            return {}
        if fresh:
            self.remove_lesson_files(lessons)
        if len(lessons) == 1:
            return self._build_each(lessons, jobs, say, timeout, cpu_only, fresh)
        targets = [lesson.cpu_target if cpu_only else lesson.label for lesson in lessons]
        what = "the CPU test programs of " if cpu_only else ""
        say(f"building {what}{len(lessons)} lesson(s) at once ({targets[0]}"
            f"{' ... ' + targets[-1] if len(targets) > 1 else ''}) ...", end=" ", flush=True)
        together = self.build_target(" ".join(targets), jobs, capture=True, timeout=timeout)
        if together.returncode is None and fresh:
            self.remove_lesson_files(lessons)  # a stopped build may leave a file half written
        if together.returncode == 0:
            say(BUILT, flush=True)
            log = self.state_dir / "build-lessons.log"
            try:
                self.state_dir.mkdir(parents=True, exist_ok=True)
                log.write_text(together.stdout or "")
            except OSError as e:
                raise CourseError(f"cannot write {log}: {e.strerror or e}") from None
            return {lesson.label: LessonBuild(BUILT, log=str(log)) for lesson in lessons}
        say("not every one: each on its own", flush=True)
        return self._build_each(lessons, jobs, say, timeout, cpu_only, fresh)

    def _build_each(self, lessons: List[Lesson], jobs: int, say: Callable[..., None],
                    timeout: Optional[float], cpu_only: bool,
                    fresh: bool) -> Dict[str, LessonBuild]:
        status = {}
        for lesson in lessons:
            say(f"building {lesson.cpu_target if cpu_only else lesson.label} ({lesson.title}) ...",
                end=" ", flush=True)
            result = self.build_lesson(lesson, jobs, timeout, cpu_only, fresh)
            say(result.status + (f": {result.error}" if result.failed else ""), flush=True)
            status[lesson.label] = result
        return status


def stop_processes(processes: List[subprocess.Popen]) -> None:
    """Stops each of these build processes still running, with what it started (its process
    group, where it has one of its own)."""
    for proc in processes:
        if proc.poll() is None:
            try:
                if os.getpgid(proc.pid) == proc.pid:
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            except OSError:
                pass


def read_build_status(path: Path) -> Dict[str, LessonBuild]:
    """A build status file: {"version": 1, "lessons": {"lesson01": {"status": ..., "error":
    ..., "log": ...}}}. Raises CourseError when it is missing or malformed."""
    try:
        data = json.loads(path.read_text())
        return {label: LessonBuild(s.get("status", ""), s.get("error", "") or "",
                                   s.get("log", "") or "")
                for label, s in dict(data.get("lessons", {})).items()}
    except FileNotFoundError:
        raise CourseError(f"{path}: no such build status file") from None
    except (OSError, ValueError, AttributeError, TypeError) as e:
        raise CourseError(f"{path}: not a build status file ({e})") from None


def build_status_json(status: Dict[str, LessonBuild]) -> str:
    lessons = {label: {k: v for k, v in vars(s).items() if v or k == "status"}
               for label, s in status.items()}
    return json.dumps({"version": 1, "lessons": lessons}, indent=2) + "\n"
