"""Helpers for the course tools' tests: a small course tree, a configured-looking build folder,
stand-ins for ctest and cmake that answer from recorded files, and running a tool as a user
would (a separate process, its output and exit status)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.model.cli import module_command

HERE = Path(__file__).resolve().parent
TOOLS = HERE.parent
ROOT = TOOLS.parents[1]
FIXTURES = HERE / "fixtures"

README_01 = textwrap.dedent("""\
    # Lesson 01: Banks, words and wavefronts

    ## Goal
    Learn the banks.

    ## Hints

    Graded hints, one at a time: `./course hint 01`.

    ## What you should see
    Numbers.
    """)

HINTS_01 = textwrap.dedent("""\
    # Lesson 01: hints

    ## Hint 1
    A bank holds 4 bytes.

    ## Hint 2
    The reversed block is `out[t] = in[count - 1 - t]`.

    ## Hint 3
    `stage_slot(t) = t`.
    """)

#: A starter as the exercise-file policy accepts it (every name inside the lesson's namespace);
#: NN is the lesson's number.
EXERCISE_HPP = ("// starter\n#pragma once\nnamespace lessonNN {\ninline constexpr int a = 0; // TODO\n"
                "inline constexpr int b = 0; // TODO\n} // namespace lessonNN\n")
EXERCISE_CU = "// starter kernel\n"


def exercise_hpp(number: str = "01") -> str:
    """The stand-in starter exercise.hpp of lesson `number`."""
    return EXERCISE_HPP.replace("NN", number)


def manifest(folder: str, title: str, points: int = 10) -> str:
    """A lesson's manifest (lesson.json) as the course writes one."""
    return json.dumps({"lesson": folder[:2], "title": title, "teaches": f"{title.lower()}",
                       "points": points, "kernel_on_cpu": False,
                       "gpu": {"compute_capability": "7.5", "tma": False, "ldmatrix": False,
                               "stmatrix": False, "shared_memory_per_block": 0,
                               "counters": False}}, indent=2) + "\n"


def make_course(root: Path, lessons: Optional[Dict[str, str]] = None,
                hints: Optional[Dict[str, str]] = None) -> Path:
    """A course tree with lessons/NN_topic/{lesson.json, README.md, hints.md, exercise.hpp,
    exercise.cu, demo.hpp}. By default one lesson, 01_no_conflict, with README_01 and HINTS_01; a
    lesson given with no README (None) has neither file unless `hints` gives it one, and the
    folder's topic for its title."""
    if lessons is None:
        lessons = {"01_no_conflict": README_01}
        hints = {"01_no_conflict": HINTS_01} if hints is None else hints
    for folder, readme in lessons.items():
        d = root / "lessons" / folder
        d.mkdir(parents=True)
        heading = re.match(r"^# Lesson \d+: (.+)$", readme or "", re.M)
        title = heading.group(1) if heading else folder[3:].replace("_", " ").capitalize()
        (d / "lesson.json").write_text(manifest(folder, title))
        if readme is not None:
            (d / "README.md").write_text(readme)
        if (hints or {}).get(folder) is not None:
            (d / "hints.md").write_text(hints[folder])
        (d / "exercise.hpp").write_text(exercise_hpp(folder[:2]))
        (d / "exercise.cu").write_text(EXERCISE_CU)
        (d / "demo.hpp").write_text("// demo\n")
        (root / "tests" / folder).mkdir(parents=True)
        (root / "tests" / folder / "cpu_exercise_x_test.cpp").write_text("// test\n")
    # The GPU architectures the course describes: what the grader holds declared needs to.
    (root / "common" / "include" / "kit").mkdir(parents=True, exist_ok=True)
    for rel in ("gpu_profiles.json", "include/kit/gpu_profiles.inc"):
        shutil.copyfile(str(ROOT / "common" / rel), str(root / "common" / rel))
    return root


def make_build(build: Path, source: Path, lessons: Optional[List[str]] = None,
               gpu_programs: bool = False) -> Path:
    """A folder that looks like a configured build of `source` to the tools (gpu_programs: one
    that builds GPU test programs, on a GPU machine), with the build's list of the files each
    lesson makes (lesson_files: the stand-in cmake makes them)."""
    build.mkdir(parents=True, exist_ok=True)
    (build / "CTestTestfile.cmake").write_text("# configured\n")
    (build / "course").mkdir(exist_ok=True)
    if lessons is None:
        lessons = sorted(p.name for p in (source / "lessons").iterdir())
    (build / "course" / "build.json").write_text(json.dumps(
        {"version": 1, "source_dir": str(source), "lessons": lessons, "trees": ["student"],
         "gpu_programs": gpu_programs}))
    made = {f"lesson{name[:2]}": [str(p) for p in lesson_files(build, name[:2])]
            for name in lessons}
    (build / "course" / "lesson-files.json").write_text(json.dumps({"version": 1, "lessons": made}))
    return build


def lesson_files(build: Path, number: str) -> List[Path]:
    """The files lesson `number`'s build makes in a folder of make_build: its library and its
    CPU test program."""
    return [build / "tests" / f"liblesson{number}_student.a",
            build / "tests" / "student" / f"lesson{number}_student_cpu"]


FAKE_CTEST = r'''#!{python}
"""Stands in for ctest: answers --show-only=json-v1 from $FAKE_CTEST_LIST (or from the
names and labels of $FAKE_CTEST_JUNIT), and writes $FAKE_CTEST_JUNIT where --output-junit
says. Appends its arguments to $FAKE_LOG."""
import json, os, re, shutil, sys
args = sys.argv[1:]
log = os.environ.get("FAKE_LOG")
if log:
    with open(log, "a") as f:
        f.write("ctest " + " ".join(args) + "\n")
junit = os.environ.get("FAKE_CTEST_JUNIT", "")
if "--show-only=json-v1" in args:
    listing = os.environ.get("FAKE_CTEST_LIST")
    if listing:
        sys.stdout.write(open(listing).read())
    else:
        text = open(junit).read() if junit else ""
        tests = []
        for m in re.finditer(r'<testcase name="([^"]*)"(.*?)</testcase>', text, re.S):
            lab = re.search(r'name="cmake_labels" value="([^"]*)"', m.group(2))
            props = [{{"name": "LABELS", "value": lab.group(1).split(";")}}] if lab else []
            tests.append({{"name": m.group(1), "properties": props}})
        json.dump({{"kind": "ctestInfo", "version": {{"major": 1, "minor": 0}}, "tests": tests}}, sys.stdout)
    sys.exit(0)
if "--output-junit" in args and junit:
    shutil.copyfile(junit, args[args.index("--output-junit") + 1])
print("fake ctest ran:", " ".join(args))
sys.exit(int(os.environ.get("FAKE_CTEST_RC", "0")))
'''

FAKE_CMAKE = r'''#!{python}
"""Stands in for cmake --build: fails when one of its targets is in $FAKE_CMAKE_FAIL (comma-separated)
with a compiler-like error line; else makes the files the build folder lists for each lesson target
(course/lesson-files.json), and then, for a target in $FAKE_CMAKE_HANG, never ends. Appends its
arguments to $FAKE_LOG."""
import json, os, sys, time
args = sys.argv[1:]
log = os.environ.get("FAKE_LOG")
if log:
    with open(log, "a") as f:
        f.write("cmake " + " ".join(args) + "\n")
targets = ["all"]
if "--target" in args:
    rest = args[args.index("--target") + 1:]
    targets = rest[:next((i for i, a in enumerate(rest) if a.startswith("-")), len(rest))]
target = " ".join(targets)
print("[ 10%] Building CUDA object " + target)
if set(targets) & set(os.environ.get("FAKE_CMAKE_FAIL", "").split(",")):
    print("/src/lessons/exercise.cu(12): error: expected a ';'")
    print("1 error detected in the compilation of \"exercise.cu\".")
    print("make[2]: *** [CMakeFiles/x.dir/build.make:76] Error 2")
    sys.exit(2)
listing = os.path.join(args[args.index("--build") + 1], "course", "lesson-files.json") \
    if "--build" in args else ""
if os.path.isfile(listing):
    made = json.load(open(listing))["lessons"]
    for t in targets:
        for path in made.get(t.split("-")[0], []):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("made by the build of " + t + "\n")
if set(targets) & set(os.environ.get("FAKE_CMAKE_HANG", "").split(",")):
    time.sleep(600)
print("[100%] Built target " + target)
'''


FAKE_GTEST = r'''#!{python}
"""Stands in for a GoogleTest program: runs the tests --gtest_filter names, each as $FAKE_BATCH
says ("Suite.Name=fail,Other.Name=skip"; pass where it says nothing; crash: the process ends
there). Appends "<program> <filter>" to $FAKE_LOG."""
import os, sys
mode = dict(x.split("=") for x in os.environ.get("FAKE_BATCH", "").split(",") if x)
names = next(a for a in sys.argv if a.startswith("--gtest_filter="))[15:].split(":")
log = os.environ.get("FAKE_LOG")
if log:
    with open(log, "a") as f:
        f.write(os.path.basename(sys.argv[0]) + " " + ":".join(names) + "\n")
print("[kit-device] Test GPU (sm_90, 1 SMs)")
for n in names:
    print(f"[ RUN      ] {{n}}")
    m = mode.get(n, "pass")
    if m == "crash":
        sys.exit(139)
    if m == "fail":
        print("x.cpp:3: Failure\nno")
        print(f"[  FAILED  ] {{n}} (2 ms)")
        if "--gtest_fail_fast" in sys.argv:
            sys.exit(1)
    elif m == "skip":
        print("x.cpp:3: Skipped\nInconclusive: busy\n")
        print(f"[  SKIPPED ] {{n}} (0 ms)")
    else:
        print("[kit-slowdown] measured 2.00x model 2.00x")
        print(f"[       OK ] {{n}} (5 ms)")
'''


class ToolTest(unittest.TestCase):
    """A temporary folder, fake ctest/cmake first on PATH, and a way to run the tools."""

    maxDiff = None

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="course-tools-")
        self.tmp = Path(self._tmp.name)
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        for name, text in (("ctest", FAKE_CTEST), ("cmake", FAKE_CMAKE)):
            path = self.bin / name
            path.write_text(text.format(python=sys.executable))
            path.chmod(0o755)
        self.log = self.tmp / "calls.log"
        self.env = dict(os.environ)
        self.env["PATH"] = f"{self.bin}{os.pathsep}{self.env.get('PATH', '')}"
        self.env["FAKE_LOG"] = str(self.log)
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"
        for key in ("FAKE_CTEST_JUNIT", "FAKE_CTEST_LIST", "FAKE_CMAKE_FAIL", "FAKE_CMAKE_HANG",
                    "FAKE_CTEST_RC"):
            self.env.pop(key, None)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def run_tool(self, module: str, *args: str, input: Optional[str] = None,
                 cwd: Optional[Path] = None, timeout: float = 120) -> subprocess.CompletedProcess:
        """Runs a module of the package as a program ("course.grading.grade"), as a user
        would: a process of its own, from `cwd` (default: the test's temporary folder)."""
        return subprocess.run([*module_command(module), *map(str, args)],
                              capture_output=True, text=True, env=self.env, input=input,
                              cwd=str(cwd or self.tmp), timeout=timeout)

    def calls(self) -> List[str]:
        return self.log.read_text().splitlines() if self.log.is_file() else []

    def assertOneLineError(self, proc: subprocess.CompletedProcess, status: Optional[int] = None,
                           contains: str = "") -> None:
        """Non-zero exit, nothing on stdout that looks like a traceback, one line on stderr."""
        self.assertNotEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        if status is not None:
            self.assertEqual(proc.returncode, status, proc.stdout + proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        lines = [line for line in proc.stderr.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, f"expected one line on stderr, got:\n{proc.stderr}")
        if contains:
            self.assertIn(contains, lines[0])


def junit_case(name: str, status: str = "run", labels: str = "", output: str = "",
               failure: bool = False, skipped: str = "") -> str:
    """One <testcase> as ctest writes it (for small synthetic reports)."""
    props = (f'<properties><property name="cmake_labels" value="{labels}"/></properties>'
             if labels else "")
    inner = ""
    if failure:
        inner += '<failure message="Failed"/>'
    if skipped:
        inner += f'<skipped message="{skipped}"/>'
    out = output.replace("&", "&amp;").replace("<", "&lt;")
    return (f'<testcase name="{name}" classname="{name}" time="0.01" status="{status}">'
            f'{inner}{props}<system-out>{out}</system-out></testcase>\n')


def junit_file(path: Path, cases: List[str]) -> Path:
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="(empty)" '
                    f'tests="{len(cases)}">\n' + "".join(cases) + "</testsuite>\n")
    return path


def test_list(path: Path, tests: Dict[str, str], programs: Optional[Dict[str, str]] = None) -> Path:
    """A `ctest --show-only=json-v1` list: test name -> its labels ("a;b"). With `programs`
    (test name -> its program, '' for one that is not built), the list says which programs
    ctest finds, as a list with backtraces does."""
    def entry(name: str, labels: str) -> dict:
        t = {"name": name, "properties": [{"name": "LABELS", "value": labels.split(";")}]}
        if programs is not None:
            t["backtrace"] = 1
            if programs.get(name):
                t["command"] = [programs[name], f"--gtest_filter={name.rsplit('/', 1)[-1]}"]
        return t
    path.write_text(json.dumps({"kind": "ctestInfo", "version": {"major": 1, "minor": 0},
                                "tests": [entry(n, labels) for n, labels in tests.items()]}))
    return path


#: The labels of lesson 01's CPU and GPU exercise tests in the student tree, as the suites give
#: them, and a GPU test's output where there is no GPU.
CPU = "cpu;exercise;lesson01;student"
GPU = "exercise;gpu;lesson01;student"
NO_GPU = ("[ RUN      ] {0}\n/src/testing.cpp:1: Skipped\nno usable GPU: none here\n\n"
          "[  SKIPPED ] {0} (0 ms)\n")


def passed(name: str, labels: str = CPU) -> str:
    """Lesson 01's student test `name` passed."""
    return junit_case(f"student/lesson01/{name}", labels=labels, output=passing_output(name))


def failed(name: str, labels: str = CPU) -> str:
    """Lesson 01's student test `name` failed an assertion."""
    return junit_case(f"student/lesson01/{name}", status="fail", labels=labels, failure=True,
                      output=f"[ RUN      ] {name}\n/t.cpp:3: Failure\n[  FAILED  ] {name}\n")


def skipped_gpu(name: str, labels: str = GPU) -> str:
    """Lesson 01's student GPU test `name` skipped: no GPU."""
    return junit_case(f"student/lesson01/{name}", status="notrun", labels=labels,
                      output=NO_GPU.format(name), skipped="SKIP_REGULAR_EXPRESSION_MATCHED")


def passing_output(name: str, extra: str = "") -> str:
    return (f"[ RUN      ] {name}\n{extra}[       OK ] {name} (1 ms)\n[  PASSED  ] 1 test.\n")


def skipped_output(name: str, reason: str) -> str:
    return (f"[ RUN      ] {name}\n/src/common/src/testing.cpp:128: Skipped\n{reason}\n\n"
            f"[  SKIPPED ] {name} (0 ms)\n")


def failing_output(name: str, where: str = "/src/tests/01_no_conflict/cpu_exercise_x_test.cpp:12") -> str:
    return (f"[ RUN      ] {name}\n{where}: Failure\nExpected equality of these values:\n"
            f"[  FAILED  ] {name} (0 ms)\n")


def lexer_missing() -> str:
    """'' where libclang's lexer (the one reader of C++ the checks use) loads here, else why
    not: the tests that read C++ skip, and say so."""
    from course.policy.cxx_tokens import LexerUnavailable, load_lexer
    try:
        load_lexer()
        return ""
    except LexerUnavailable as e:
        return str(e)


def have_yaml() -> bool:
    try:
        import yaml  # noqa: F401
        return True
    except ImportError:
        return False


def strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def copy_fixture(name: str, dest: Path) -> Path:
    shutil.copyfile(str(FIXTURES / name), str(dest))
    return dest


def build_tools() -> Dict[str, Optional[str]]:
    """cmake, ctest and nvcc for a real build of a course copy (None where missing):
    $COURSE_TEST_CMAKE and $COURSE_TEST_CTEST (which CMake sets), else PATH; nvcc on PATH or
    in /usr/local/cuda."""
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                    if Path("/usr/local/cuda/bin/nvcc").exists() else None)
    return {"cmake": os.environ.get("COURSE_TEST_CMAKE") or shutil.which("cmake"),
            "ctest": os.environ.get("COURSE_TEST_CTEST") or shutil.which("ctest"), "nvcc": nvcc}


def copy_of_the_course(dest: Path, lessons: List[str]) -> Path:
    """This course copied to `dest` with only the named lessons (their lessons/, solutions/ and
    tests/ folders), without its git history, builds and the student's state."""
    def ignore(folder: str, names):
        here = Path(folder).resolve()
        skip = {n for n in names if n in (".git", "build", "__pycache__", ".course")}
        if here in (ROOT / "lessons", ROOT / "solutions", ROOT / "tests"):
            skip |= {n for n in names if re.match(r"^\d\d_", n) and n not in lessons}
        return skip

    shutil.copytree(str(ROOT), str(dest), ignore=ignore)
    return dest


def configure_solutions_on_the_cpu(source: Path, build: Path) -> Tuple[Dict[str, str],
                                                                      subprocess.CompletedProcess]:
    """Configures `build` for the reference solutions' CPU programs of the course copy `source`
    (no student tree, no GPU tests, nvcc on PATH for the lessons' CUDA sources): the environment
    to build in, and cmake's run."""
    tools = build_tools()
    env = dict(os.environ)
    env["PATH"] = f"{Path(tools['nvcc']).parent}{os.pathsep}{env.get('PATH', '')}"
    configure = subprocess.run(
        [tools["cmake"], "-S", str(source), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
         "-DCOURSE_BUILD_STUDENT=OFF", "-DCOURSE_BUILD_SOLUTIONS=ON", "-DCOURSE_GPU_TESTS=OFF",
         "-DCMAKE_CUDA_ARCHITECTURES=90"],
        env=env, capture_output=True, text=True, timeout=600)
    return env, configure

