"""A lesson's facts, in one place: lessons/NN_topic/lesson.json.

  {
    "lesson": "03",
    "title": "Stride 32, and padding a tile",
    "teaches": "columns of a tile; padding its rows",
    "points": 10,
    "kernel_on_cpu": false,
    "gpu": {"compute_capability": "7.5", "tma": false, "ldmatrix": false, "stmatrix": false,
            "shared_memory_per_block": 8448, "counters": true,
            "tests": [{"tests": ["WideCounters.*"], "wide_rules": true, "why": "..."}]},
    "policy": {"headers": [], "std": [], "names": []},
    "answer_exceptions": [{"file": "demo.hpp", "where": "PaddedTile", "origin": "kTilePitch",
                           "reason": "..."}],
    "pictures": [{"svg": "solutions/03_stride_32/images/stride_32.svg",
                  "bank_map": ["--type", "float", "--stride", "32", "--title", "..."]},
                 {"svg": "docs/measurements/x.svg", "chart": "docs/measurements/x.csv"}],
    "measured": [{"block": "lesson03", "table": "docs/measurements/lessons.csv",
                  "rows": ["lesson=03"]},
                 {"block": "lesson10_lab", "table": "docs/measurements/x.csv",
                  "strides": "0:4,8"},
                 {"block": "lesson02", "chart": "docs/measurements/x.svg"}]
  }

- title: the README's `# Lesson NN: <title>` says the same (a CPU test checks it); teaches:
  the course README's lesson table says what the lesson teaches with it (generated).
- points: what the lesson is worth in a grade (an instructor's points table may say otherwise).
- kernel_on_cpu: the student's kernel also runs on the CPU (tests/NN_topic has
  cpu_*_kernel_test.cpp files and kernels_on_cpu.cpp; the build checks that they agree).
- gpu_judges: what only a GPU judges of the lesson's exercise (its speed), said once the
  student's kernel passes on the CPU: what the CPU run cannot show, and why it matters, never
  the answer (optional).
- grade_tests_alone: why the grader runs each of the lesson's tests in a process of its own
  (optional): a string, for every test of the lesson; or {"tests": [GoogleTest patterns],
  "why": ...}, for the tests those name. Elsewhere, the tests of one program that need the GPU
  alone (counters, timing) share one process when graded, each still judged from the report
  (grading/grade_tests.py's batches; docs/instructors.md, section 8, says what that gives up):
  a lesson whose exercise runs student code outside the calls of its tests, or host code whose
  undefined behaviour could reach the test that called it, says so here (and, with `tests`,
  which tests call that code: a course test holds every GPU test file that names a function of
  the lesson's exercise .cu files to them).
- gpu: what the lesson's GPU tests need: the compute capability its kernels are built for at
  least, the TMA, ldmatrix, stmatrix, the most shared memory one block of its kernels uses
  (bytes, static and dynamic: `course-admin shared-memory-needs` measures it on a GPU), and the
  hardware counters (the build checks that a lesson declares counters exactly when it has a
  counter test file). `tests` lists the tests that need more than their lesson (GoogleTest
  names, `*` any run of characters), with what more (any of the keys above; `wide_rules`: the
  bank model's 8- and 16-byte rules verified on this GPU; `ldmatrix_rule`: its ldmatrix rule,
  measured on the architectures common/gpu_profiles.json says) and why. The kit skips a test
  whose need this GPU does not meet, with one sentence; the grader lists it as not gradable
  before any student code runs (course/model/needs.py). `cpu_recording` (a lesson whose
  kernel runs on the CPU) lists the counter tests whose counts may come from the CPU run of
  the same launches where the grader finds the counters refused: tests that measure with a
  RecordedLaunch (kit/testing.hpp's CounterTest::measure), whose launches the lesson's
  CpuRecording test holds to the counters. They then pass or fail "from the CPU recording",
  and earn points only where the instructor allows it (grade_run.sh --cpu-recording-points).
- policy: what the lesson's exercise files may use beyond the course-wide lists of
  policy/exercise_rules.py: headers, `std::` names, other names (a name may end in `*`), and
  the kit's names (`kit`, qualified: "kit::Pitched"; a type brings its members): never the
  model's functions, which compute what the lesson asks for.
- answer_exceptions: the places of the student's view where one of the lesson's answers may
  stand, each with its reason (policy/check_answers.py): `file` from the lesson's folder (or a
  course page from the root, docs/measurements.md), `where` the README section or the C++
  declaration, `origin` the answer's declaration in the solution.
- pictures: the bank maps (bank-map's arguments; a `note` may say what an index counts) and
  charts the lesson's pages show (paths from the course's root); measured: the
  `<!-- measured:BLOCK -->` blocks of the lesson's answers (solutions/NN_topic/answers.md:
  measured figures answer predictions), in order (a table of rows of a CSV, with `rows`
  filters COLUMN=VALUE or `strides`, or a chart).

A key the reader does not know is refused: a manifest says what it means or nothing. Grading
reads the pinned course's manifests only (a student's edited copy changes nothing). Standard
library only; CMake reads the same file with string(JSON).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from course.model.errors import CourseError

#: A lesson's manifest, in its folder.
MANIFEST = "lesson.json"
#: What a picture's path may be: an .svg inside the course.
_SVG = re.compile(r"^(?!/)(?!.*(^|/)\.\.(/|$)).+\.svg$")
_COMPUTE_CAPABILITY = re.compile(r"^\d+\.\d$")


@dataclass(frozen=True)
class TestNeeds:
    """Tests of a lesson that need more than the lesson does, and what more."""

    tests: Tuple[str, ...]  # GoogleTest names; `*` matches any run of characters
    why: str
    compute_capability: str = ""
    tma: bool = False
    ldmatrix: bool = False
    stmatrix: bool = False
    shared_memory_per_block: int = 0
    wide_rules: bool = False
    ldmatrix_rule: bool = False


@dataclass(frozen=True)
class GpuNeeds:
    """What a lesson's GPU tests need of the GPU."""

    compute_capability: str  # "7.5"
    tma: bool
    ldmatrix: bool
    stmatrix: bool
    shared_memory_per_block: int  # bytes
    counters: bool
    tests: Tuple[TestNeeds, ...] = ()
    #: The counter tests whose counts may come from the CPU run of the same launches where the
    #: grader finds the counters refused (GoogleTest names, `*` any run of characters).
    cpu_recording: Tuple[str, ...] = ()


@dataclass(frozen=True)
class PolicyExtras:
    """What a lesson's exercise files may use beyond the course-wide lists."""

    headers: Tuple[str, ...] = ()
    std: Tuple[str, ...] = ()
    names: Tuple[str, ...] = ()
    kit: Tuple[str, ...] = ()


@dataclass(frozen=True)
class AnswerException:
    """A place of the student's view where one of the lesson's answers may stand, and why."""

    file: str
    where: str
    origin: str
    reason: str


@dataclass(frozen=True)
class PictureEntry:
    """A picture the lesson's pages show: drawn by bank-map from its arguments, or a chart of a
    stride sweep's CSV."""

    svg: str
    bank_map: Tuple[str, ...] = ()
    chart: str = ""
    note: str = ""  # for maintainers: what the arguments count (pairs, chunks, ...)
    where: str = ""  # "lessons/01_no_conflict/lesson.json, pictures[2]"


@dataclass(frozen=True)
class MeasuredEntry:
    """One part of a README's measured block: a table of a CSV's rows, or a chart."""

    block: str
    table: str = ""
    chart: str = ""
    rows: Tuple[str, ...] = ()
    strides: str = ""
    where: str = ""


@dataclass(frozen=True)
class Manifest:
    path: Path
    lesson: str
    title: str
    teaches: str
    points: float
    kernel_on_cpu: bool
    gpu: GpuNeeds
    policy: PolicyExtras = PolicyExtras()
    answer_exceptions: Tuple[AnswerException, ...] = ()
    pictures: Tuple[PictureEntry, ...] = ()
    measured: Tuple[MeasuredEntry, ...] = ()
    gpu_judges: str = ""
    #: Why the grader runs each of the lesson's tests in a process of its own, never with the
    #: other tests of its program that need the GPU alone ("" where it may).
    grade_tests_alone: str = ""
    #: The tests that reason is about (GoogleTest patterns); () is every test of the lesson.
    grade_tests_alone_tests: Tuple[str, ...] = ()

    def graded_alone(self, test: str) -> bool:
        """True when the grader runs `test` (Suite.Name) in a process of its own."""
        return bool(self.grade_tests_alone) and (
            not self.grade_tests_alone_tests or
            any(fnmatch.fnmatchcase(test, p) for p in self.grade_tests_alone_tests))

    def to_json(self) -> str:
        return manifest_json(self)


class _Reader:
    """Reads one manifest's JSON, each value checked; a problem is a CourseError naming the
    file and the key."""

    def __init__(self, path: Path, shown: str):
        self.path = path
        self.shown = shown

    def fail(self, where: str, what: str) -> CourseError:
        return CourseError(f"{self.shown}: {where}: {what}")

    def object(self, value: Any, where: str, required: Tuple[str, ...],
               optional: Tuple[str, ...] = ()) -> Dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"{json.dumps(value)[:60]} is not an object")
        unknown = sorted(set(value) - set(required) - set(optional))
        if unknown:
            raise self.fail(where, f"unknown key{'s' if len(unknown) > 1 else ''} "
                                   f"{', '.join(unknown)} (known: {', '.join(required + optional)})")
        missing = [k for k in required if k not in value]
        if missing:
            raise self.fail(where, f"missing {', '.join(missing)}")
        return value

    def string(self, value: Any, where: str, pattern: Optional["re.Pattern[str]"] = None,
               empty: bool = False) -> str:
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise self.fail(where, f"{json.dumps(value)[:60]} is not a{' ' if empty else ' non-empty '}"
                                   f"string")
        if pattern is not None and not pattern.match(value):
            raise self.fail(where, f"'{value}' is not of the form {pattern.pattern}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"{json.dumps(value)[:60]} is not true or false")
        return value

    def count(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self.fail(where, f"{json.dumps(value)[:60]} is not a whole number (0 or more)")
        return value

    def strings(self, value: Any, where: str) -> Tuple[str, ...]:
        if not isinstance(value, list):
            raise self.fail(where, f"{json.dumps(value)[:60]} is not a list of strings")
        return tuple(self.string(v, f"{where}[{i}]") for i, v in enumerate(value))

    def objects(self, value: Any, where: str) -> List[Tuple[str, Any]]:
        if not isinstance(value, list):
            raise self.fail(where, f"{json.dumps(value)[:60]} is not a list")
        return [(f"{where}[{i}]", v) for i, v in enumerate(value)]


def parse_manifest(text: str, path: Path, shown: str, number: str) -> Manifest:
    """A manifest from its text; `number` is the lesson's, from its folder's name."""
    r = _Reader(path, shown)
    try:
        data = json.loads(text)
    except ValueError as e:
        raise CourseError(f"{shown}: not JSON ({e})") from None
    d = r.object(data, "the manifest",
                 ("lesson", "title", "teaches", "points", "kernel_on_cpu", "gpu"),
                 ("policy", "answer_exceptions", "pictures", "measured", "gpu_judges",
                  "grade_tests_alone"))
    lesson = r.string(d["lesson"], "lesson", re.compile(r"^\d\d$"))
    if lesson != number:
        raise r.fail("lesson", f"'{lesson}' is not the folder's number, {number}")
    points = d["points"]
    if isinstance(points, bool) or not isinstance(points, (int, float)) or points < 0:
        raise r.fail("points", f"{json.dumps(points)} is not a number of points (0 or more)")
    gpu = _gpu_needs(r, d["gpu"])
    p = r.object(d.get("policy", {}), "policy", (), ("headers", "std", "names", "kit"))
    policy = PolicyExtras(*(r.strings(p.get(k, []), f"policy.{k}")
                            for k in ("headers", "std", "names", "kit")))
    exceptions = []
    for where, e in r.objects(d.get("answer_exceptions", []), "answer_exceptions"):
        e = r.object(e, where, ("file", "where", "origin", "reason"))
        exceptions.append(AnswerException(*(r.string(e[k], f"{where}.{k}")
                                            for k in ("file", "where", "origin", "reason"))))
    pictures = []
    for where, e in r.objects(d.get("pictures", []), "pictures"):
        e = r.object(e, where, ("svg",), ("bank_map", "chart", "note"))
        svg = r.string(e["svg"], f"{where}.svg", _SVG)
        if ("bank_map" in e) == ("chart" in e):
            raise r.fail(where, "give either bank_map (its arguments) or chart (a CSV)")
        pictures.append(PictureEntry(svg, r.strings(e.get("bank_map", []), f"{where}.bank_map"),
                                     r.string(e["chart"], f"{where}.chart") if "chart" in e else "",
                                     r.string(e["note"], f"{where}.note") if "note" in e else "",
                                     f"{shown}, {where}"))
    measured = []
    for where, e in r.objects(d.get("measured", []), "measured"):
        e = r.object(e, where, ("block",), ("table", "chart", "rows", "strides"))
        if ("table" in e) == ("chart" in e):
            raise r.fail(where, "give either table (a CSV) or chart (a picture)")
        if "chart" in e and ("rows" in e or "strides" in e):
            raise r.fail(where, "a chart has no rows or strides")
        if "rows" in e and "strides" in e:
            raise r.fail(where, "give rows (COLUMN=VALUE filters) or strides, not both")
        measured.append(MeasuredEntry(
            r.string(e["block"], f"{where}.block", re.compile(r"^[A-Za-z0-9_]+$")),
            r.string(e["table"], f"{where}.table") if "table" in e else "",
            r.string(e["chart"], f"{where}.chart") if "chart" in e else "",
            r.strings(e.get("rows", []), f"{where}.rows"),
            r.string(e["strides"], f"{where}.strides") if "strides" in e else "",
            f"{shown}, {where}"))
    kernel_on_cpu = r.boolean(d["kernel_on_cpu"], "kernel_on_cpu")
    if gpu.cpu_recording and not kernel_on_cpu:
        raise r.fail("gpu.cpu_recording", "only a lesson whose kernel runs on the CPU "
                                          "(kernel_on_cpu) has a CPU recording of its launches")
    return Manifest(path, lesson, r.string(d["title"], "title"), r.string(d["teaches"], "teaches"),
                    points, kernel_on_cpu, gpu, policy,
                    tuple(exceptions), tuple(pictures), tuple(measured),
                    r.string(d["gpu_judges"], "gpu_judges") if "gpu_judges" in d else "",
                    *_grade_tests_alone(r, d.get("grade_tests_alone")))


def _grade_tests_alone(r: _Reader, value: Any) -> Tuple[str, Tuple[str, ...]]:
    """(why, the tests it is about: () for all) of grade_tests_alone."""
    if value is None:
        return "", ()
    if not isinstance(value, dict):
        return r.string(value, "grade_tests_alone"), ()
    e = r.object(value, "grade_tests_alone", ("tests", "why"))
    tests = r.strings(e["tests"], "grade_tests_alone.tests")
    if not tests:
        raise r.fail("grade_tests_alone.tests",
                     "lists no test (a string alone keeps every test apart)")
    for i, name in enumerate(tests):
        r.string(name, f"grade_tests_alone.tests[{i}]", _TEST_NAME)
    return r.string(e["why"], "grade_tests_alone.why"), tests


#: What a test may need beyond its lesson (the keys of a gpu.tests entry besides tests, why).
_TEST_NEEDS = ("compute_capability", "tma", "ldmatrix", "stmatrix", "shared_memory_per_block",
               "wide_rules", "ldmatrix_rule")
_TEST_NAME = re.compile(r"^[A-Za-z0-9_*]+\.[A-Za-z0-9_*/]+$")


def _gpu_needs(r: _Reader, value: Any) -> GpuNeeds:
    g = r.object(value, "gpu", ("compute_capability", "tma", "ldmatrix", "stmatrix",
                                "shared_memory_per_block", "counters"), ("tests", "cpu_recording"))
    tests = []
    for where, e in r.objects(g.get("tests", []), "gpu.tests"):
        e = r.object(e, where, ("tests", "why"), _TEST_NEEDS)
        names = r.strings(e["tests"], f"{where}.tests")
        if not names:
            raise r.fail(f"{where}.tests", "lists no test")
        for i, name in enumerate(names):
            r.string(name, f"{where}.tests[{i}]", _TEST_NAME)
        if not any(k in e for k in _TEST_NEEDS):
            raise r.fail(where, f"says no need (give one of {', '.join(_TEST_NEEDS)})")
        tests.append(TestNeeds(
            names, r.string(e["why"], f"{where}.why"),
            r.string(e["compute_capability"], f"{where}.compute_capability", _COMPUTE_CAPABILITY)
            if "compute_capability" in e else "",
            *(r.boolean(e.get(k, False), f"{where}.{k}") for k in ("tma", "ldmatrix", "stmatrix")),
            r.count(e.get("shared_memory_per_block", 0), f"{where}.shared_memory_per_block"),
            *(r.boolean(e.get(k, False), f"{where}.{k}") for k in ("wide_rules", "ldmatrix_rule"))))
    return GpuNeeds(r.string(g["compute_capability"], "gpu.compute_capability", _COMPUTE_CAPABILITY),
                    r.boolean(g["tma"], "gpu.tma"), r.boolean(g["ldmatrix"], "gpu.ldmatrix"),
                    r.boolean(g["stmatrix"], "gpu.stmatrix"),
                    r.count(g["shared_memory_per_block"], "gpu.shared_memory_per_block"),
                    r.boolean(g["counters"], "gpu.counters"), tuple(tests),
                    _cpu_recording(r, g))


def _cpu_recording(r: _Reader, g: Dict[str, Any]) -> Tuple[str, ...]:
    names = r.strings(g.get("cpu_recording", []), "gpu.cpu_recording")
    if "cpu_recording" in g and not names:
        raise r.fail("gpu.cpu_recording", "lists no test")
    for i, name in enumerate(names):
        r.string(name, f"gpu.cpu_recording[{i}]", _TEST_NAME)
    if names and g["counters"] is not True:
        raise r.fail("gpu.cpu_recording", "names counter tests, but the lesson has none "
                                          "(gpu.counters is false)")
    return names


def _gpu_json(g: GpuNeeds) -> Dict[str, Any]:
    data: Dict[str, Any] = {
        "compute_capability": g.compute_capability, "tma": g.tma, "ldmatrix": g.ldmatrix,
        "stmatrix": g.stmatrix, "shared_memory_per_block": g.shared_memory_per_block,
        "counters": g.counters}
    if g.tests:
        data["tests"] = [
            {"tests": list(t.tests),
             **({"compute_capability": t.compute_capability} if t.compute_capability else {}),
             **{k: True for k in ("tma", "ldmatrix", "stmatrix") if getattr(t, k)},
             **({"shared_memory_per_block": t.shared_memory_per_block}
                if t.shared_memory_per_block else {}),
             **{k: True for k in ("wide_rules", "ldmatrix_rule") if getattr(t, k)},
             "why": t.why} for t in g.tests]
    if g.cpu_recording:
        data["cpu_recording"] = list(g.cpu_recording)
    return data


_memo: Dict[Tuple[str, int, int], Manifest] = {}


def read_manifest(lesson_dir: Path, number: str, shown: str) -> Manifest:
    """The manifest of the lesson folder `lesson_dir` (shown in messages as `shown`). Raises
    CourseError, naming the file, when it is missing or not a manifest."""
    path = lesson_dir / MANIFEST
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise CourseError(f"{shown}: no such file (every lesson has its manifest: "
                          f"docs/maintainers.md, 'Adding a lesson')") from None
    except OSError as e:
        raise CourseError(f"{shown}: cannot read it ({e.strerror or e})") from None
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _memo:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CourseError(f"{shown}: cannot read it ({e})") from None
        _memo[key] = parse_manifest(text, path, shown, number)
    return _memo[key]


def manifest_json(m: Manifest) -> str:
    """The manifest's text, as the course writes it (keys in the documented order)."""
    data: Dict[str, Any] = {
        "lesson": m.lesson, "title": m.title, "teaches": m.teaches,
        "points": int(m.points) if float(m.points).is_integer() else m.points,
        "kernel_on_cpu": m.kernel_on_cpu,
        **({"gpu_judges": m.gpu_judges} if m.gpu_judges else {}),
        "gpu": _gpu_json(m.gpu),
        **({"grade_tests_alone": {"tests": list(m.grade_tests_alone_tests),
                                  "why": m.grade_tests_alone} if m.grade_tests_alone_tests
            else m.grade_tests_alone} if m.grade_tests_alone else {})}
    policy = (("headers", m.policy.headers), ("std", m.policy.std), ("names", m.policy.names),
              ("kit", m.policy.kit))
    if any(v for _, v in policy):
        data["policy"] = {k: list(v) for k, v in policy if v}
    if m.answer_exceptions:
        data["answer_exceptions"] = [vars(e) for e in m.answer_exceptions]
    if m.pictures:
        data["pictures"] = [{"svg": p.svg, **({"note": p.note} if p.note else {}),
                             **({"chart": p.chart} if p.chart else {"bank_map": list(p.bank_map)})}
                            for p in m.pictures]
    if m.measured:
        data["measured"] = [{"block": e.block,
                             **({"table": e.table} if e.table else {"chart": e.chart}),
                             **({"rows": list(e.rows)} if e.rows else {}),
                             **({"strides": e.strides} if e.strides else {})} for e in m.measured]
    return _dumps(data, 0) + "\n"


def _dumps(value: Any, indent: int) -> str:
    """JSON with two-space indents; a list of strings or numbers on one line where it fits,
    else on as few lines as fit."""
    pad = " " * indent
    if isinstance(value, dict):
        items = [f'{pad}  {json.dumps(k)}: {_dumps(v, indent + 2)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}" if items else "{}"
    if isinstance(value, list):
        if not value:
            return "[]"
        if any(isinstance(v, (dict, list)) for v in value):
            items = [f"{pad}  {_dumps(v, indent + 2)}" for v in value]
            return "[\n" + ",\n".join(items) + f"\n{pad}]"
        texts = [json.dumps(v, ensure_ascii=False) for v in value]
        flat = "[" + ", ".join(texts) + "]"
        if len(flat) + indent <= 80:
            return flat
        lines, line = [], ""
        for t in texts:
            if line and len(pad) + 2 + len(line) + 2 + len(t) > 98:
                lines.append(line + ",")
                line = t
            else:
                line = f"{line}, {t}" if line else t
        lines.append(line)
        return "[\n" + "\n".join(f"{pad}  {x}" for x in lines) + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)
