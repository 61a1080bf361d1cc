"""docs/measurements/lessons.csv from the JUnit report of the GPU fail-first check
(`cmake --workflow --preset gpu-check` writes build/gpu-check/failfirst-gpu.xml): every lesson's
demos, and its exercise kernels against their twins in both trees, as the tests measured them.

The GPU test programs print machine-readable lines, which the report keeps for every test:

    [kit-device] NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)
    [kit-counters] <what>: load 32.00 wavefronts/request (model 32.00), store 1.00 (model 1.00),
                   requests 2048/2048 (model 2048/2048)
    [kit-slowdown] '<A>' over '<B>': measured 31.33x model 32.00x fidelity 0.979 warps/SM 64 (pass)

One row per measured thing: a slowdown `A over B` (with A's counters where a test read them) or
counters alone. Tests of a suite named Demo* measure the lesson's demos; the others its exercise.

- A thing measured several times in one tree (several shapes, several tests) is the first line
  the report has for it: the tests print their main shape first. Counters of `score_rows`,
  `score_rows 1280x96` and `score_rows 1000x77` are one thing (a trailing shape, `R x C`,
  `RxC`, `MxNxK` or `n=N`, is not part of the name).
- A demo is the same code in both trees: its row is the first tree's that measured it (the
  starter's).
- A demo of the pattern microbenchmark is one instruction issued over and over: its row shows
  that instruction's loads or stores (the side with more requests) and leaves the other side
  empty (a load pattern's stores only fill its region).
- Slowdowns whose verdict is `inconclusive` or `unsupported` are not measurements of the effect
  (a busy GPU, too few warps per SM) and are left out."""

import csv
import datetime
import io
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from docs_common import DocsError
from course.model.course_model import split_test_name

COLUMNS = ["lesson", "tree", "kind", "what",
           "model_load_wavefronts", "counter_load_wavefronts",
           "model_store_wavefronts", "counter_store_wavefronts",
           "model_slowdown", "slowdown", "fidelity"]
TREE_NAMES = {"student": "starter", "solution": "solution"}
MEASURING_COMMAND = "cmake --workflow --preset gpu-check"

DEVICE = re.compile(r"^\[kit-device\] (.+?)\s*$")
COUNTERS = re.compile(
    r"^\[kit-counters\] (?P<what>.+): load (?P<load>[\d.]+) wavefronts/request "
    r"\(model (?P<model_load>[\d.]+)\), store (?P<store>[\d.]+) \(model (?P<model_store>[\d.]+)\), "
    r"requests (?P<load_req>\d+)/(?P<store_req>\d+) "
    r"\(model (?P<model_load_req>\d+)/(?P<model_store_req>\d+)\)\s*$")
SLOWDOWN = re.compile(
    r"^\[kit-slowdown\] '(?P<a>.+)' over '(?P<b>.+)': measured (?P<measured>[\d.]+)x "
    r"model (?P<model>[\d.]+)x fidelity (?P<fidelity>[\d.]+) warps/SM \d+ \((?P<verdict>\w+)\)\s*$")
MEASUREMENT = re.compile(r"^\[kit-(counters|slowdown)\]")
CUT = "This part of the test output was removed"
SHAPE = re.compile(r"\s+(\d+(?:\s*x\s*\d+){1,2}|n=\d+)$")
NOT_MEASURED = ("inconclusive", "unsupported")


def base_name(what: str) -> str:
    """'score_rows 1280x96' -> 'score_rows'; 'transpose_tiled 256 x 256' -> 'transpose_tiled'."""
    return SHAPE.sub("", what)


def over(a: str, b: str) -> str:
    """'A over B', without B's leading ', '-separated parts that A shares:
    'float tile[32][32], column 0 over row 0'."""
    pa, pb = a.split(", "), b.split(", ")
    n = 0
    while n < len(pa) - 1 and n < len(pb) - 1 and pa[n] == pb[n]:
        n += 1
    return f"{a} over {', '.join(pb[n:])}"


@dataclass
class Counters:
    what: str
    load: str
    model_load: str
    store: str
    model_store: str
    load_requests: int
    store_requests: int
    model_load_requests: int
    model_store_requests: int


@dataclass
class Slowdown:
    a: str
    b: str
    measured: str
    model: str
    fidelity: str


@dataclass
class Report:
    """What a JUnit report holds for the measurements: per (lesson, tree, kind), the counters
    and slowdown lines in report order; the devices its programs printed; what was cut."""
    devices: List[str] = field(default_factory=list)
    date: Optional[str] = None
    lines: Dict[Tuple[str, str, str], List[object]] = field(default_factory=dict)
    cut_tests: List[str] = field(default_factory=list)
    unreadable: List[str] = field(default_factory=list)


def read_report(path: str) -> Report:
    """Reads a ctest JUnit report; raises DocsError for a missing or malformed file."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise DocsError(f"{path}: cannot read the JUnit report ({e.strerror})")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise DocsError(f"{path}: not a JUnit report ({e})")
    if root.tag not in ("testsuite", "testsuites"):
        raise DocsError(f"{path}: not a JUnit report (the root element is <{root.tag}>)")
    report = Report()
    stamp = root.get("timestamp") or next(
        (s.get("timestamp") for s in root.iter("testsuite") if s.get("timestamp")), None)
    if stamp and re.match(r"^\d{4}-\d\d-\d\d", stamp):
        report.date = stamp[:10]
    for case in root.iter("testcase"):
        name = case.get("name") or ""
        out = case.find("system-out")
        output = out.text if out is not None and out.text else ""
        for line in output.split("\n"):
            m = DEVICE.match(line)
            if m and m.group(1) not in report.devices:
                report.devices.append(m.group(1))
        parts = split_test_name(name)
        # Lesson tests only, not the sanitizer runs (<tree>/lessonNN/<tool>/<file>).
        if parts is None or "/" in parts.name:
            continue
        labels = next((p.get("value", "") for p in case.iter("property")
                       if p.get("name") == "cmake_labels"), "").split(";")
        if CUT in output and "gpu" in labels:
            report.cut_tests.append(name)
        suite = parts.name.split(".", 1)[0]
        key = (parts.label[len("lesson"):], TREE_NAMES[parts.tree],
               "demo" if suite.startswith("Demo") else "exercise")
        for line in output.split("\n"):
            if not MEASUREMENT.match(line):
                continue
            c, s = COUNTERS.match(line), SLOWDOWN.match(line)
            if c:
                report.lines.setdefault(key, []).append(Counters(
                    c["what"], c["load"], c["model_load"], c["store"], c["model_store"],
                    int(c["load_req"]), int(c["store_req"]), int(c["model_load_req"]),
                    int(c["model_store_req"])))
            elif s:
                if s["verdict"] not in NOT_MEASURED:
                    report.lines.setdefault(key, []).append(
                        Slowdown(s["a"], s["b"], s["measured"], s["model"], s["fidelity"]))
            else:
                report.unreadable.append(f"{name}: {line.strip()}")
    return report


def _counter_cells(c: Optional[Counters], kind: str) -> List[str]:
    if c is None:
        return ["", "", "", ""]
    load = [c.model_load, c.load]
    store = [c.model_store, c.store]
    if kind == "demo" and c.model_load_requests != c.model_store_requests:
        if c.model_load_requests > c.model_store_requests:
            store = ["", ""]
        else:
            load = ["", ""]
    return load + store


def rows_of(report: Report) -> List[Dict[str, str]]:
    """The rows of lessons.csv: by lesson; demos, then the exercise in the starter, then in
    the solution; each group in the order the report first has its things."""
    order = {"demo": 0, "exercise": 1}
    trees = {"starter": 0, "solution": 1}
    rows: List[Dict[str, str]] = []
    seen_demos = set()
    for lesson, tree, kind in sorted(report.lines, key=lambda k: (k[0], order[k[2]], trees[k[1]])):
        lines = report.lines[(lesson, tree, kind)]
        counters: Dict[str, Counters] = {}
        slowdowns: Dict[str, List[Slowdown]] = {}
        for x in lines:
            if isinstance(x, Counters):
                counters.setdefault(base_name(x.what), x)
            else:
                slowdowns.setdefault(base_name(x.a), []).append(x)
        done = set()

        def add(what: str, cells: List[str]) -> None:
            if what in done or (kind == "demo" and (lesson, what) in seen_demos):
                return
            done.add(what)
            if kind == "demo":
                seen_demos.add((lesson, what))
            rows.append(dict(zip(COLUMNS, [lesson, tree, kind, what] + cells)))

        for x in lines:
            name = base_name(x.what if isinstance(x, Counters) else x.a)
            # A's slowdowns take the place of A's counters, whichever the report has first.
            for s in slowdowns.get(name, []):
                add(over(s.a, s.b), _counter_cells(counters.get(name), kind) +
                    [s.model, s.measured, s.fidelity])
            if name not in slowdowns:
                add(counters[name].what, _counter_cells(counters[name], kind) + ["", "", ""])
    return rows


def choose_device(report: Report, given: Optional[str], junit: str) -> str:
    """The device of the file: the report's [kit-device] line, or --device."""
    measured = [d for d in report.devices if not d.startswith("none")]
    if len(measured) > 1:
        raise DocsError(f"{junit}: the report's programs ran on more than one GPU "
                        f"({'; '.join(measured)}): take the measurements from one run")
    if measured:
        if given and given != measured[0]:
            raise DocsError(f"{junit}: the report says its GPU was '{measured[0]}', not "
                            f"'{given}' (leave --device out)")
        return measured[0]
    if report.devices:
        raise DocsError(f"{junit}: the report ran without a usable GPU ([kit-device] "
                        f"{report.devices[0]}): run the GPU check on a GPU")
    if not given:
        raise DocsError(f"{junit}: the report has no [kit-device] line, so it does not say "
                        "which GPU it is from: run the GPU check again with a kit that prints "
                        "it, or give the device as measurement headers name it, e.g. "
                        "--device \"NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)\"")
    return given


def lessons_csv(report: Report, device: str, junit_name: str,
                date: Optional[str] = None) -> str:
    """The text of lessons.csv; raises DocsError when the report has no measurements."""
    rows = rows_of(report)
    if not rows:
        raise DocsError(f"{junit_name}: no [kit-counters] or [kit-slowdown] line of a lesson "
                        "test: is it the report of the GPU fail-first check "
                        "(build/gpu-check/failfirst-gpu.xml), from a machine with a GPU?")
    day = date or report.date or datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    notes = [
        f"from the JUnit report of `{MEASURING_COMMAND}` ({junit_name}), by "
        "tools/docs/measurements.py lessons",
        "wavefronts are per request; slowdowns are A's time over B's in one saturating launch; "
        "fidelity is measured over model",
        "a demo is the same code in both trees: its row is the starter's run; a thing measured "
        "at several shapes is the first the report has (the tests' main shape)",
        "a pattern demo shows its instruction's side (loads or stores) only",
    ]
    if not report.devices:
        notes.append("the device was given on the command line (the report has no "
                     "[kit-device] line)")
    if report.cut_tests:
        notes.append(f"ctest cut the output of {len(report.cut_tests)} tests, so some of their "
                     "measurements are missing")
    out = io.StringIO()
    out.write(f"# device: {device}\n# date: {day}\n# command: {MEASURING_COMMAND}\n")
    for n in notes:
        out.write(f"# note: {n}\n")
    w = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return out.getvalue()
