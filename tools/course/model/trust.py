"""What a grade can be trusted for: read from the grader's own records in the build folder
(<build>/course/overlay.json, machine.json, programs.json, evidence.json, written by
grade_run.py), never from anything a test printed. The grade report opens with it.

A grade is trusted when every test ran in a sandbox, every exercise file was held to the
policy, every test that ran, ran a program the grading build made (its sha256 as that build
recorded it, in programs.json), and the JUnit report being scored is the one the grader wrote
from each test's own GoogleTest report (its hash is in evidence.json). Anything less is said,
line by line."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

#: The grader's record of the files its build made, each with its sha256, under the build's
#: own id (<build>/course/programs.json, written by grading/build_lessons.py).
PROGRAMS_RECORD = "programs.json"


@dataclass
class Trust:
    trusted: bool
    lines: List[str] = field(default_factory=list)
    refused: Dict[str, List[str]] = field(default_factory=dict)  # lesson -> policy findings
    starter: Dict[str, str] = field(default_factory=dict)  # lesson -> why the starter was graded

    def as_json(self) -> dict:
        return {"trusted": self.trusted, "lines": self.lines, "refused": self.refused,
                "starter": self.starter}


def _load(path: Path) -> Optional[dict]:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def file_hash(path: Path) -> str:
    """A file's sha256, read a MiB at a time (a GPU test program can be large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_trust(build_dir: Optional[Path], junit: List[Path]) -> Trust:
    """The grade's trust, from the records of the build folder the report is given."""
    records = build_dir / "course" if build_dir is not None else None
    evidence = _load(records / "evidence.json") if records else None
    if evidence is None or len(junit) != 1 or not junit[0].is_file() or \
            evidence.get("junit_sha256") != file_hash(junit[0]):
        return Trust(False, ["Not a trusted grade: this report is made from a JUnit file that the "
                             "grader did not write (for instance ctest's own), so no test here was "
                             "sandboxed or checked against its GoogleTest report. Grade with "
                             "tools/course/grade_run.sh."])
    t = Trust(True)
    box = evidence.get("sandbox", {})
    if box.get("isolated"):
        t.lines.append(f"Isolation: every test ran in a sandbox of its own ({box.get('what')}).")
    else:
        t.trusted = False
        t.lines.append(f"Isolation: NONE. {box.get('what', '')}. Student code ran with the "
                       f"grader's rights: this grade can be forged.")
    overlay = _load(records / "overlay.json") or {}
    if overlay.get("policy"):
        lessons = overlay.get("lessons", {})
        taken = sorted(k for k, v in lessons.items() if v.get("files") == "the student's")
        for label, v in sorted(lessons.items()):
            if v.get("refused"):
                t.refused[label] = list(v["refused"])
            if v.get("files", "").startswith("the starter"):
                t.starter[label] = v["files"]
        line = f"Exercise files: held to the exercise-file policy; the student's files of " \
               f"{len(taken)} lessons were graded"
        if t.refused:
            line += f"; refused, so graded as the starter: {', '.join(sorted(t.refused))}"
        t.lines.append(line + ".")
    else:
        t.trusted = False
        t.lines.append("Exercise files: NOT held to the exercise-file policy (--no-policy): code "
                       "in them could have run outside the tests.")
    if evidence.get("output"):
        t.lines.append(f"Test output: the report keeps {evidence['output']}.")
    tests = evidence.get("tests", [])
    batched = sum(1 for x in tests if x.get("batch"))
    t.lines.append(f"Verdicts: from each test's own GoogleTest report and exit status, for the "
                   f"{len(tests)} tests the pinned course registers (listed by the grader before "
                   f"any student code ran)" +
                   (f"; {batched} of them passed in a process with the other tests of their "
                    f"program that need the GPU alone, each listed in its report, after every "
                    f"test before it passed" if batched else "") + ".")
    _programs(t, evidence, _load(records / PROGRAMS_RECORD))
    machine = evidence.get("machine", {})
    if machine.get("gpu"):
        counters = "readable" if machine.get("counters") else \
            f"not readable ({machine.get('counters_reason', '')}): counter tests are not gradable here"
        t.lines.append(f"Machine (the grader's own check): {machine.get('description')}; "
                       f"counters {counters}.")
    else:
        t.lines.append(f"Machine (the grader's own check): no GPU ({machine.get('reason', '')}): "
                       f"GPU tests are not gradable here; they stay in the total and score 0.")
    return t


def _programs(t: Trust, evidence: dict, made: Optional[dict]) -> None:
    """The line on the programs the tests ran: each one the grading build made, as its record
    (programs.json) has it, under the build the evidence names."""
    build = evidence.get("build") or ""
    recorded = {os.path.realpath(path): sha
                for files in ((made or {}).get("lessons") or {}).values()
                for path, sha in dict(files).items()}
    tests = evidence.get("tests", [])
    foreign = [x.get("name", "") for x in tests
               if any(not build or p.get("build") != build or
                      recorded.get(os.path.realpath(p.get("path", ""))) != p.get("sha256")
                      for p in x.get("programs") or [])]
    if made is None or made.get("build") != build:
        t.trusted = False
        t.lines.append(f"Programs: NOT checked against the grading build: its record "
                       f"(course/{PROGRAMS_RECORD}) is missing or is another build's.")
    elif foreign:
        t.trusted = False
        t.lines.append(f"Programs: {len(foreign)} tests' programs are NOT the ones the grading "
                       f"build made (first: {foreign[0]}): they did not run and score 0; the build "
                       f"folder changed after the build.")
    else:
        t.lines.append(f"Programs: every test that ran, ran a program the grading build made "
                       f"(build {build}; each file's sha256 in course/{PROGRAMS_RECORD}); a lesson "
                       f"that did not build ran none, not even an earlier build's.")
