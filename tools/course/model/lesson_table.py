"""The lesson table of the course's README.md, between `<!-- lesson-table -->` and
`<!-- /lesson-table -->`: one row per lesson, in order, with its number, its README's title
linked, and what it teaches.

The number, title and link come from the lessons; "what it teaches" is written in the table
and kept when the table is rewritten (a new lesson gets a placeholder that the check refuses).
`python3 tools/docs/readme_blocks.py write` rewrites the table; its `check` (a CPU test) names
each lesson whose row is stale."""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from course.model.course_model import CourseError, Lesson

BEGIN = "<!-- lesson-table -->"
END = "<!-- /lesson-table -->"
HEADER = ["| # | lesson | what it teaches |", "|---|---|---|"]
PLACEHOLDER = "(say what it teaches)"
_ROW = re.compile(r"^\|\s*(\d\d)\s*\|\s*\[(.*?)\]\((.*?)\)\s*\|\s*(.*?)\s*\|\s*$")
REWRITE = "`python3 tools/docs/readme_blocks.py write` rewrites it"


def _table(text: str, where: str) -> Tuple[List[str], int, int, Dict[str, re.Match]]:
    """(the text's lines, the index of the opening marker, of the closing one, each row of the
    table by lesson number)."""
    lines = text.split("\n")
    begin = [i for i, line in enumerate(lines) if line.strip() == BEGIN]
    end = [i for i, line in enumerate(lines) if line.strip() == END]
    if len(begin) != 1 or len(end) != 1 or end[0] < begin[0]:
        raise CourseError(f"{where} has no lesson table: one '{BEGIN}' line, then one '{END}'")
    rows = {}
    for line in lines[begin[0] + 1:end[0]]:
        m = _ROW.match(line.strip())
        if m:
            rows[m.group(1)] = m
    return lines, begin[0], end[0], rows


def teaches(text: str, where: str = "README.md") -> Dict[str, str]:
    """Lesson number -> what the table says it teaches."""
    return {number: m.group(4) for number, m in _table(text, where)[3].items()}


def row(lesson: Lesson, what: str) -> str:
    return f"| {lesson.number} | [{lesson.title}]({lesson.rel_readme}) | {what} |"


def render(lessons: List[Lesson], known: Dict[str, str]) -> List[str]:
    return HEADER + [row(lesson, known.get(lesson.number) or PLACEHOLDER) for lesson in lessons]


def rewrite(text: str, lessons: List[Lesson], where: str = "README.md") -> str:
    """The text with its lesson table made from the lessons (what they teach is kept)."""
    lines, begin, end, _ = _table(text, where)
    table = render(lessons, teaches(text, where))
    return "\n".join(lines[:begin + 1] + table + lines[end:])


def problems(text: str, lessons: List[Lesson], where: str = "README.md") -> List[str]:
    """What is stale in the table, one line per lesson ([] when it is current)."""
    lines, begin, end, rows = _table(text, where)
    found = []
    for lesson in lessons:
        m = rows.get(lesson.number)
        name = f"lesson {lesson.number} ({lesson.title})"
        if m is None:
            found.append(f"{where}: {name} is not in the lesson table; {REWRITE}")
        elif m.group(2) != lesson.title or m.group(3) != lesson.rel_readme:
            found.append(f"{where}: lesson {lesson.number}: the lesson table says "
                         f"[{m.group(2)}]({m.group(3)}), its README is "
                         f"[{lesson.title}]({lesson.rel_readme}); {REWRITE}")
        elif not m.group(4) or m.group(4) == PLACEHOLDER:
            found.append(f"{where}: {name}: say what it teaches in the lesson table")
    numbers = {lesson.number for lesson in lessons}
    for number in sorted(set(rows) - numbers):
        found.append(f"{where}: the lesson table lists lesson {number}, which the course does "
                     f"not have; {REWRITE}")
    if not found and lines[begin + 1:end] != render(lessons, teaches(text, where)):
        found.append(f"{where}: the lesson table is not in the lessons' order or form; {REWRITE}")
    return found
