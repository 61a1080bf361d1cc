"""The lesson table of the course's README.md, between `<!-- lesson-table -->` and
`<!-- /lesson-table -->`: one row per lesson, in order, with its number, its title linked to its
README, and what it teaches, all from its manifest (lessons/NN_topic/lesson.json).

`./course-admin regenerate` (or `cmake --build <dir> --target docs-sync`) rewrites the table;
the check of tools/docs/readme_blocks.py (a CPU test) names each lesson whose row is stale."""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from course.model.course_model import CourseError, Lesson

BEGIN = "<!-- lesson-table -->"
END = "<!-- /lesson-table -->"
HEADER = ["| # | lesson | what it teaches |", "|---|---|---|"]
_ROW = re.compile(r"^\|\s*(\d\d)\s*\|")
REWRITE = "`./course-admin regenerate` rewrites it"


def _table(text: str, where: str) -> Tuple[List[str], int, int, Dict[str, str]]:
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
            rows[m.group(1)] = line.strip()
    return lines, begin[0], end[0], rows


def row(lesson: Lesson) -> str:
    return f"| {lesson.number} | [{lesson.title}]({lesson.rel_readme}) | {lesson.manifest.teaches} |"


def render(lessons: List[Lesson]) -> List[str]:
    return HEADER + [row(lesson) for lesson in lessons]


def rewrite(text: str, lessons: List[Lesson], where: str = "README.md") -> str:
    """The text with its lesson table made from the lessons' manifests."""
    lines, begin, end, _ = _table(text, where)
    return "\n".join(lines[:begin + 1] + render(lessons) + lines[end:])


def problems(text: str, lessons: List[Lesson], where: str = "README.md") -> List[str]:
    """What is stale in the table, one line per lesson ([] when it is current)."""
    lines, begin, end, rows = _table(text, where)
    found = []
    for lesson in lessons:
        have = rows.get(lesson.number)
        if have is None:
            found.append(f"{where}: lesson {lesson.number} ({lesson.title}) is not in the lesson "
                         f"table; {REWRITE}")
        elif have != row(lesson):
            found.append(f"{where}: lesson {lesson.number}: the lesson table says '{have}', its "
                         f"manifest '{row(lesson)}'; {REWRITE}")
    numbers = {lesson.number for lesson in lessons}
    for number in sorted(set(rows) - numbers):
        found.append(f"{where}: the lesson table lists lesson {number}, which the course does "
                     f"not have; {REWRITE}")
    if not found and lines[begin + 1:end] != render(lessons):
        found.append(f"{where}: the lesson table is not in the lessons' order or form; {REWRITE}")
    return found
