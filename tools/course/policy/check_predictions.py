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

Exit status: 0 when every message is sound, 1 with a list of violations, 2 for bad usage.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from course.model.cli import Parser
from course.model.course_model import Build, CourseError, Lesson, parse_lesson_number

MACRO = "KIT_EXPECT_PREDICTION"
PASS_LINE = re.compile(r"^\[kit-prediction\] (\S+): your (.+) = the model's (.+)$", re.M)
TEST_OPEN = re.compile(r"^[ \t]*TEST(?:_F)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{", re.M)
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

def split_arguments(text: str, start: int) -> List[str]:
    """The top-level arguments of the call whose '(' is at text[start]: commas inside
    parentheses, braces, brackets, template arguments (`<` right after a name) and literals do
    not split."""
    args, stack, i, begin = [], [], start, start + 1
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
            continue
        if c == "/" and text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if c in "([{" or (c == "<" and i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            stack.append(c)
        elif c in ")]}" or (c == ">" and stack and stack[-1] == "<"):
            if stack:
                stack.pop()
            if not stack:
                args.append(text[begin:i].strip())
                return args
        elif c == "," and len(stack) == 1:
            args.append(text[begin:i].strip())
            begin = i + 1
        i += 1
    raise UnbalancedCall("unbalanced parentheses in a prediction's expression")


class UnbalancedCall(CourseError, ValueError):
    """A call whose parentheses do not close (a CourseError for the tools, a ValueError for the
    prediction reader)."""


def _skip_literal(text: str, i: int) -> int:
    """The index just past the string or character literal that opens at text[i]."""
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def string_literals_value(arg: str) -> Optional[str]:
    """The value of an argument made of adjacent C string literals only (None otherwise)."""
    parts, i = [], 0
    while i < len(arg):
        if arg[i].isspace():
            i += 1
            continue
        if arg[i] != '"':
            return None
        end = _skip_literal(arg, i)
        parts.append(ast.literal_eval(arg[i:end]))
        i = end
    return "".join(parts) if parts else None


def predictions_in(source: str) -> List[Prediction]:
    """Every KIT_EXPECT_PREDICTION of every TEST in a test file, with its test's name."""
    found = []
    opens = list(TEST_OPEN.finditer(source))
    for k, m in enumerate(opens):
        body_end = opens[k + 1].start() if k + 1 < len(opens) else len(source)
        body = source[m.end():body_end]
        for call in re.finditer(r"\b" + MACRO + r"\s*\(", body):
            args = split_arguments(body, call.end() - 1)
            if len(args) != 3:
                raise ValueError(f"{m.group(1)}.{m.group(2)}: {MACRO} takes 3 arguments")
            question = string_literals_value(args[2])
            if question is None:
                raise ValueError(f"{m.group(1)}.{m.group(2)}: the question of {MACRO} is not "
                                 "a string literal")
            name = args[0].split("::")[-1].strip()
            found.append(Prediction(f"{m.group(1)}.{m.group(2)}", name, question))
    return found


def lesson_predictions(lesson: Lesson, source_dir: Path) -> List[Prediction]:
    """The predictions of a lesson's CPU test files."""
    out = []
    for path in sorted((source_dir / "tests" / lesson.folder).glob("cpu_*_test.cpp")):
        out.extend(predictions_in(path.read_text(encoding="utf-8")))
    return out


def student_value(lesson: Lesson, name: str) -> Optional[str]:
    """The value the lesson's exercise files give the constant `name` (its source text)."""
    pattern = re.compile(r"\b" + re.escape(name) + r"\s*=\s*([^;]+?)\s*;")
    for path in lesson.student_files():
        m = pattern.search(path.read_text(encoding="utf-8", errors="replace"))
        if m:
            return m.group(1)
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
    a word (CenterAccess::partial_load) as itself or its last part, either spelling."""
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
