"""The files the tools write from templates (tools/course/templates/*.in): the GitHub Classroom
workflow and the student repository's README.

A template is the file as it will be, with `@NAME@` for a value, and blocks repeated once per
item of a list:

    @begin lesson@
    | @NUMBER@ | @TITLE@ |
    @end lesson@

A block's lines see the item's values and the template's. A name the values lack is an error,
so a template and its tool cannot drift apart silently."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List

from course.model.course_model import CourseError

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
_VALUE = re.compile(r"@([A-Z][A-Z0-9_]*)@")
_BEGIN = re.compile(r"^@begin (\w+)@$")
_END = re.compile(r"^@end (\w+)@$")


def _fill(line: str, values: Dict[str, str], where: str) -> str:
    def value(m: re.Match) -> str:
        if m.group(1) not in values:
            raise CourseError(f"{where}: no value for @{m.group(1)}@")
        return str(values[m.group(1)])
    return _VALUE.sub(value, line)


def render(name: str, values: Dict[str, str], lists: Dict[str, List[Dict[str, str]]]) -> str:
    """The template tools/course/templates/<name> with its values and repeated blocks."""
    path = TEMPLATES / name
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except OSError as e:
        raise CourseError(f"cannot read the template {path}: {e.strerror or e}") from None
    out: List[str] = []
    i = 0
    while i < len(lines):
        begin = _BEGIN.match(lines[i])
        if not begin:
            out.append(_fill(lines[i], values, f"{path}:{i + 1}"))
            i += 1
            continue
        block = begin.group(1)
        end = next((j for j in range(i + 1, len(lines)) if _END.match(lines[j])), None)
        if end is None or _END.match(lines[end]).group(1) != block or block not in lists:
            raise CourseError(f"{path}:{i + 1}: '@begin {block}@' needs its '@end {block}@' "
                              f"and a list named {block}")
        for item in lists[block]:
            scope = {**values, **item}
            out += [_fill(line, scope, f"{path}:{k + 1}")
                    for k, line in enumerate(lines[i + 1:end], i + 1)]
        i = end + 1
    return "\n".join(out)
