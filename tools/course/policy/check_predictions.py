#!/usr/bin/env python3
"""Prediction messages check: a wrong prediction's failure shows the student's value and the
test's question, never the model's value; a right one prints the model's value.

Every test of a lesson's CPU test files that holds a prediction with KIT_EXPECT_PREDICTION
(kit/prediction.hpp) is checked, in a build of both trees:
  - the solution's program (the same filter) passes it and prints
    `[kit-prediction] <name>: your <v> = the model's <v>`: the model's value;
  - the student's program (the starter: its value is read from the lesson's exercise files)
    fails it with a message that holds the student's value and the question as the test's
    source writes it, and, the question aside, not the model's value.
A prediction the student tree already gets right cannot be checked there and is passed over;
every lesson must have at least one checked.

Exit status: 0 when every message is sound, 1 with a list of violations, 2 for bad usage, 77
skipped (libclang's lexer, which reads the test files, is not installed here).
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from course.model.cli import Parser
from course.model.course_model import Build, Lesson, parse_lesson_number
from course.policy.cxx_tokens import (LexerUnavailable, Source, Unbalanced, load_lexer,
                                      string_literals_value)

MACRO = "KIT_EXPECT_PREDICTION"
#: The exit status of a run that could not read C++ here (no lexer): ctest reads it as a skip.
SKIP = 77
PASS_LINE = re.compile(r"^\[kit-prediction\] (\S+): your (.+) = the model's (.+)$", re.M)
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")
RUN_LINE = re.compile(r"^\[ RUN      \] (\S+)$", re.M)
END_LINE = re.compile(r"^\[ +(?:OK|FAILED|SKIPPED) +\] (\S+) \(", re.M)
FAILURE_HEAD = re.compile(r"^.*:\d+: Failure$", re.M)
TIMEOUT_S = 60


@dataclass
class Prediction:
    """One KIT_EXPECT_PREDICTION of a test: the student's constant and the question."""

    test: str  # Suite.Name
    name: str  # kPredictedX (the constant's last part)
    question: str


# ------------------------------------------------------------------------------------------
# The test sources
# ------------------------------------------------------------------------------------------

def predictions_in(source: str) -> List[Prediction]:
    """Every KIT_EXPECT_PREDICTION of every TEST in a test file, with its test's name. Raises
    ValueError for a prediction the check cannot read."""
    try:
        src = Source(source, "predictions_test.cpp")
        found = []
        tests = src.tests()
        for k, (suite, name, _test, body) in enumerate(tests):
            body_end = tests[k + 1][2] if k + 1 < len(tests) else len(src.code)
            for call in src.calls(MACRO, body, body_end):
                args, _close = src.arguments(call)
                if len(args) != 3:
                    raise ValueError(f"{suite}.{name}: {MACRO} takes 3 arguments")
                question = string_literals_value(args[2])
                if question is None:
                    raise ValueError(f"{suite}.{name}: the question of {MACRO} is not a string "
                                     "literal")
                found.append(Prediction(f"{suite}.{name}", args[0].split("::")[-1].strip(),
                                        question))
        return found
    except Unbalanced as e:
        raise ValueError(f"line {e.tok.line}: {e}") from None


def lesson_predictions(lesson: Lesson, source_dir: Path) -> List[Prediction]:
    """The predictions of a lesson's CPU test files."""
    out = []
    for path in sorted((source_dir / "tests" / lesson.folder).glob("cpu_*_test.cpp")):
        out.extend(predictions_in(path.read_text(encoding="utf-8")))
    return out


def initialised(path: Path) -> Dict[str, str]:
    """Every `name = value;` of a file's code: the name -> the value's source text (the first)."""
    src = Source(path.read_text(encoding="utf-8", errors="replace"), path.name)
    code = src.code
    found: Dict[str, str] = {}
    for k in range(len(code) - 1):
        if code[k + 1].text == "=" and code[k].text not in found:
            end = next((j for j in range(k + 2, len(code)) if code[j].text == ";"), None)
            if end is not None and end > k + 2:
                found[code[k].text] = src.between(code[k + 2].start, code[end - 1].end)
    return found


def student_value(lesson: Lesson, name: str) -> Optional[str]:
    """The value the lesson's exercise files give the constant `name` (its source text)."""
    for path in lesson.student_files():
        value = initialised(path).get(name)
        if value is not None:
            return value
    return None


# ------------------------------------------------------------------------------------------
# The programs' output
# ------------------------------------------------------------------------------------------

def split_by_test(output: str) -> Dict[str, str]:
    """Each test's part of a GoogleTest program's output, from its RUN line to its end line."""
    parts = {}
    for m in RUN_LINE.finditer(output):
        end = END_LINE.search(output, m.end())
        parts[m.group(1)] = output[m.end():end.end() if end else len(output)]
    return parts


def _number(text: str) -> Optional[float]:
    try:
        return float(text.rstrip("fF"))
    except ValueError:
        return None


def _holds_value(text: str, value: str) -> bool:
    """Whether `text` shows `value`: a number as a number token of the same value (0 == 0.0),
    a word (Kind::some_access) as itself or its last part, either spelling."""
    number = _number(value)
    if number is not None:
        return any(_number(t) == number for t in NUMBER.findall(text))
    low = text.lower()
    last = value.split("::")[-1]
    return any(v.lower() in low for v in {value, last, last.replace("_", " ")})


def judge_failure(part: str, p: Prediction, yours: str, model: str) -> List[str]:
    """What is wrong with one test's failure output on the student tree (nothing: sound)."""
    problems = []
    if not re.search(r"^\[  FAILED  \] ", part, re.M):
        return [f"{p.test}: did not fail on the student tree (your {p.name} = {yours})"]
    message = FAILURE_HEAD.sub("", part[:part.rfind("[  FAILED  ]")])
    if p.question not in message:
        problems.append(f"{p.test}: the failure does not hold the question {p.question!r}")
    if not _holds_value(message.replace(p.question, " "), yours):
        problems.append(f"{p.test}: the failure does not show the student's value {yours}")
    if _holds_value(message.replace(p.question, " "), model):
        problems.append(f"{p.test}: the failure shows the model's value {model}:\n{message}")
    return problems


def run_program(program: Path, tests: List[str]) -> str:
    done = subprocess.run([str(program), "--gtest_filter=" + ":".join(tests)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=TIMEOUT_S, check=False)
    return done.stdout


def check_lesson(build: Build, lesson: Lesson) -> List[str]:
    """The violations of one lesson; prints one line for it."""
    predictions = lesson_predictions(lesson, build.source_dir)
    if not predictions:
        return [f"{lesson.label}: no test holds a prediction with {MACRO}"]
    programs = {tree: build.dir / "tests" / tree / lesson.program(tree, "cpu")
                for tree in ("student", "solution")}
    for tree, program in programs.items():
        if not program.is_file():
            return [f"{lesson.label}: {program} is not built (build {lesson.cpu_target})"]
    tests = sorted({p.test for p in predictions})
    solved = split_by_test(run_program(programs["solution"], tests))
    started = split_by_test(run_program(programs["student"], tests))

    problems, checked = [], 0
    for p in predictions:
        models = {m.group(1): m.group(3) for m in PASS_LINE.finditer(solved.get(p.test, ""))}
        if p.name not in models:
            problems.append(f"{p.test}: the solution did not print `[kit-prediction] {p.name}: "
                            "your ... = the model's ...`")
            continue
        model = models[p.name]
        yours = student_value(lesson, p.name)
        if yours is None:
            problems.append(f"{p.test}: {p.name} is not in {lesson.rel_dir}'s exercise files")
            continue
        if _holds_value(model, yours) and _holds_value(yours, model):
            continue  # right on the student tree: nothing to check there
        if p.test not in started:
            problems.append(f"{p.test}: did not run on the student tree")
            continue
        problems.extend(judge_failure(started[p.test], p, yours, model))
        checked += 1
    if checked == 0 and not problems:
        problems.append(f"{lesson.label}: every prediction is right on the student tree, so no "
                        "failure message could be checked")
    print(f"{lesson.label}: {checked} wrong prediction(s) checked of {len(predictions)}")
    return problems


def main(argv: List[str]) -> int:
    ap = Parser(prog="check_predictions", description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--lesson", help="only this lesson, e.g. 03 or lesson03")
    args = ap.parse_args(argv)

    try:
        load_lexer()
    except LexerUnavailable as e:
        print(f"check_predictions: skipped: {e}")
        return SKIP
    build = Build(args.build_dir)
    if not build.configured:
        print(f"check_predictions: {args.build_dir} is not a configured build folder",
              file=sys.stderr)
        return 2
    lessons = [l for l in build.lessons() if build.knows(l)]
    if args.lesson:
        number = parse_lesson_number(args.lesson)
        lessons = [l for l in lessons if l.number == number]
    problems = []
    for lesson in lessons:
        try:
            problems.extend(check_lesson(build, lesson))
        except (ValueError, OSError, subprocess.TimeoutExpired) as e:
            problems.append(f"{lesson.label}: {e}")
    for line in problems:
        print(f"VIOLATION {line}")
    print(f"check_predictions: {len(lessons)} lesson(s), "
          f"{'sound' if not problems else f'{len(problems)} violation(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
