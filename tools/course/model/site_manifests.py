"""The site's own manifests, docs/pictures.txt and docs/measured.txt: one entry a line, '#'
starts a comment, fields split as a shell would. The docs tools draw and fill in what they
declare, the answers check reads the bank maps they draw, and a student repository is made
without the lessons' figures they show. Standard library only."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import List, Tuple

from course.model.course_model import CourseError

PICTURES_MANIFEST = "docs/pictures.txt"
MEASURED_MANIFEST = "docs/measured.txt"


def manifest_lines(path: Path, shown: str) -> List[Tuple[int, List[str]]]:
    """(line number, fields) of each entry of the manifest at `path` (named `shown` in
    messages). Raises CourseError for a line the shell's rules cannot split; OSError for a
    file that cannot be read."""
    entries = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            fields = shlex.split(text, comments=True)
        except ValueError as e:
            raise CourseError(f"{shown}:{number}: {e}") from None
        if fields:
            entries.append((number, fields))
    return entries
