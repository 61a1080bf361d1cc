"""What every check of this room reports: one Finding per thing refused or out of place."""

from __future__ import annotations

from dataclasses import dataclass

from course.model.safe_text import one_line


@dataclass(frozen=True)
class Finding:
    """One thing a check refuses, where it stands: the file (from the course's root, or as the
    check names it), the line (0: the file as a whole), a sentence, and the rule it breaks (the
    exercise policy's rules; the answers check has none)."""

    path: str
    line: int
    message: str
    rule: str = ""

    def __str__(self) -> str:
        """One line, whatever the file's name or the compiler's message holds (a student's
        raw string, a file name with a line break: never a line of the grader's own)."""
        path = one_line(self.path)
        where = f"{path}:{self.line}:" if self.line else f"{path}:"
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{where}{rule} {one_line(self.message, 600)}"
