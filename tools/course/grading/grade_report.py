"""The grade's outputs: the Markdown report (a table per lesson, every test with its points and
result, the measured slowdowns and counters; hidden tests only by count and points, the student
reads it; a loud line when the grade is incomplete) and the JSON score file (everything, hidden
tests by name: the instructor's)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import List

from course.model.safe_text import one_line
from course.grading.scoring import (FAILED, FROM_CPU_RECORDING, Grade, LessonScore, NOT_BUILT,
                                    NOT_GRADABLE, NOT_RUN, PASSED, TestScore)


def fmt(x: Fraction) -> str:
    """Points as people write them: 10, 0.67, 3.5."""
    text = f"{float(x):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def num(x: Fraction) -> float:
    return round(float(x), 4)


def _md(text: str) -> str:
    """The grader's own text in a table cell or a list item: on one line, no cell broken."""
    return one_line(text).replace("|", "\\|").replace("<", "&lt;")


def _theirs(text: str, cell: bool = False) -> str:
    """Text a student's code may have written (a refusal quoting the compiler, a test's detail,
    what it measured) as a code span, which Markdown shows as it is: no link, image, emphasis,
    heading or HTML of theirs. On one line (model/safe_text.py), its fence longer than any run of
    backticks it holds; in a table `cell`, no cell broken (GitHub reads `\\|` there as `|`)."""
    shown = one_line(text)
    if cell:
        shown = shown.replace("|", "\\|")
    if not shown:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", shown)), default=0) + 1)
    pad = " " if shown[0] == "`" or shown[-1] == "`" else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def _result(t: TestScore) -> str:
    """A test's result in its table cell: the grader's status, then its detail (a failed
    assertion's place, a skip's reason: what the test's own report said) as theirs."""
    return f"{t.status}: {_theirs(t.detail, cell=True)}" if t.detail else t.status


def lesson_name(lesson: LessonScore) -> str:
    number = lesson.label[len("lesson"):]
    return f"{number} {lesson.title}".strip()


def incomplete_line(grade: Grade) -> str:
    """The one line that says a grade is incomplete, how much and why (the grader's reasons)."""
    reasons = []
    for t in grade.not_gradable():
        if t.detail and t.detail not in reasons:
            reasons.append(t.detail)
    why = f" ({'; '.join(reasons[:2])})" if reasons else ""
    return (f"Incomplete grade: {fmt(grade.not_gradable_points)} of {fmt(grade.max)} points were "
            f"not gradable on this machine{why}; they score zero here, and only a machine that "
            f"can run their tests grades them.")


def hidden_row(tests: List[TestScore]) -> str:
    """The hidden tests of a lesson as one row: how many, their points, how many passed; never
    their names or assertions (the student reads this report)."""
    passed = sum(1 for t in tests if t.status == PASSED)
    return (f"| hidden tests ({len(tests)}) | {fmt(sum((t.score for t in tests), Fraction(0)))} / "
            f"{fmt(sum((t.points for t in tests), Fraction(0)))} | {passed} of {len(tests)} "
            f"passed |")


#: The parts of a lesson, as the report names them.
PART_NAMES = {"predictions": "predictions", "cpu": "CPU tests", "gpu": "GPU tests"}


def to_markdown(grade: Grade, heading: str) -> str:
    out = [f"## {heading}: {fmt(grade.score)} / {fmt(grade.max)} points ({grade.percent:.1f}%)", ""]
    if grade.trust is not None:
        out.append("**Trusted grade.**" if grade.trust.trusted else "**NOT a trusted grade.**")
        out += [""] + [f"- {_md(line)}" for line in grade.trust.lines] + [""]
    if not grade.complete:
        out += [f"**{incomplete_line(grade)}**", ""]
    if grade.pass_mark is not None:
        verdict = "passed" if grade.passed else "**below the pass mark**"
        out += [f"Pass mark {grade.pass_mark:g}%: {verdict}.", ""]
    out += ["| Lesson | Points | Passed | Failed | Not run | Not gradable here | Did not build |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for lesson in grade.lessons:
        if not lesson.graded:
            out.append(f"| {_md(lesson_name(lesson))} | not graded | | | | | |")
            continue
        scored = lesson.scored_tests
        recorded = lesson.count(FROM_CPU_RECORDING)
        passed = f"{lesson.count(PASSED)} / {len(scored)}" + (
            f" (and {recorded} from the CPU recording)" if recorded else "")
        out.append(f"| {_md(lesson_name(lesson))} | {fmt(lesson.score)} / {fmt(lesson.points)} | "
                   f"{passed} | {lesson.count(FAILED)} | "
                   f"{lesson.count(NOT_RUN)} | {lesson.count(NOT_GRADABLE)} | "
                   f"{lesson.count(NOT_BUILT)} |")
    out.append(f"| **Total** | **{fmt(grade.score)} / {fmt(grade.max)}** | | | | | |")
    out += ["", "A test scores its points only if it ran and passed. A GPU test that was skipped "
                "is *not run*, and one this machine cannot run (no GPU, counters refused, by the "
                "grader's own check) is *not gradable here*: both score zero and stay in the "
                "total. Where the counters are refused, the counter tests of a lesson whose "
                "kernel runs on the CPU take their counts from the CPU run of the same launches: "
                "they are listed *from the CPU recording*, and score only where the instructor "
                "allows it. Guard tests (they pass on the starter) are listed; they carry no "
                "points unless the points table says so. A lesson's points go to its parts in "
                "whole points (its predictions, its CPU exercise tests, its GPU exercise tests), "
                "and each part scores its passed tests' share, rounded to a whole point; a failed "
                "sanitizer run of the kernel costs a share of the lesson.",
            ""]
    for warning in grade.warnings:
        out += [f"> Warning: {_md(warning)}", ""]
    for lesson in grade.lessons:
        if not lesson.graded:
            continue
        out.append(f"<details><summary>Lesson {_md(lesson_name(lesson))}: "
                   f"{fmt(lesson.score)} / {fmt(lesson.points)}</summary>")
        out.append("")
        if lesson.note:
            out += [_theirs(lesson.note.strip()), ""]
        if lesson.parts:
            out += ["Parts: " + ", ".join(f"{PART_NAMES[p]} {fmt(lesson.part_score(p))} / "
                                          f"{fmt(points)}" for p, points in lesson.parts.items())
                    + (f"; sanitizer -{fmt(lesson.penalty)}" if lesson.penalty else "") + ".", ""]
        if lesson.tests:
            out += ["| Test | Points | Result |", "|---|---:|---|"]
            for t in lesson.tests:
                if t.hidden:
                    continue
                name = f"{t.name} (guard)" if t.role == "guard" else t.name
                out.append(f"| {_md(name)} | {fmt(t.score)} / {fmt(t.points)} | {_result(t)} |")
            hidden = [t for t in lesson.tests if t.hidden]
            if hidden:
                out.append(hidden_row(hidden))
            out.append("")
        measured = [(t.name, m) for t in lesson.tests for m in t.measured if not t.hidden]
        if measured:
            out.append("Measured:")
            out.append("")
            for name, m in measured[:20]:
                out.append(f"- {_md(name)}: {_theirs(m)}")
            if len(measured) > 20:
                out.append(f"- ... and {len(measured) - 20} more (in the JSON score file)")
            out.append("")
        out += ["</details>", ""]
    return "\n".join(out)


def to_json(grade: Grade, sources: List[str]) -> dict:
    return {
        "version": 1,
        "tree": grade.tree,
        "junit": sources,
        "total": {"score": num(grade.score), "max": num(grade.max),
                  "percent": round(grade.percent, 2)},
        "pass_mark": grade.pass_mark,
        "passed": grade.passed,
        "complete": grade.complete,
        "not_gradable_points": num(grade.not_gradable_points),
        "trust": grade.trust.as_json() if grade.trust is not None else None,
        "lessons": {
            lesson.label: {
                "title": lesson.title,
                "score": num(lesson.score),
                "max": num(lesson.points),
                "passed": lesson.count(PASSED),
                "from_cpu_recording": lesson.count(FROM_CPU_RECORDING),
                "tests": len(lesson.scored_tests),
                "in_points_table": lesson.in_table,
                "graded": lesson.graded,
                "note": lesson.note.strip(),
                "parts": {part: {"score": num(lesson.part_score(part)), "max": num(points)}
                          for part, points in lesson.parts.items()},
                "penalty": num(lesson.penalty),
            } for lesson in grade.lessons
        },
        "tests": {
            f"{lesson.label}/{t.name}": {
                "lesson": lesson.label,
                "score": num(t.score),
                "max": num(t.points),
                "status": t.status,
                "detail": t.detail,
                "role": t.role,
                "hidden": t.hidden,
                "measured": t.measured,
            } for lesson in grade.lessons for t in lesson.tests
        },
        "warnings": grade.warnings,
    }

