#!/usr/bin/env python3
"""Checks that every lesson keeps the lesson contract's written form:

- README.md opens with `# Lesson NN: Title` (NN its folder's number) and has the fixed `##`
  headings in order: Goal, Background, Predict, Your task, Run the tests, Hints, What you
  should see;
- its `## Hints` section holds no hint: it says how to take them one at a time
  (`./course hint NN`), and the README never names hints.md (a link would show the last hint,
  the idea, before the student asks for it);
- hints.md beside it holds the graded hints, `## Hint 1` (a nudge) ... `## Hint N` (the idea),
  at least two, numbered in order.

    lesson_pages.py check [--root DIR]

Exit status: 0 when every lesson keeps it; 1 with one line per problem, naming the file; 77
(skipped) when the only problems are lessons whose hints are still in their README (the form
before hints.md), which are named."""

import argparse
import os
import re
import sys
from typing import List, Tuple

from docs_common import course_lessons, prose_lines, repo_root
from course.model.course_model import CourseError, HINTS_FILE, README_HEADINGS, hint_numbers, read_hints

SKIPPED = 77


def sections(text: str) -> List[Tuple[str, List[str]]]:
    """(heading, lines) of each `## ` section of a Markdown text, outside code."""
    found: List[Tuple[str, List[str]]] = []
    for _, line, code in prose_lines(text):
        m = None if code else re.match(r"^##\s+(.*?)\s*$", line)
        if m:
            found.append((m.group(1), []))
        elif found:
            found[-1][1].append(line)
    return found


def readme_problems(lesson, text: str) -> List[str]:
    where = f"{lesson.rel_dir}/README.md"
    problems = []
    first = text.split("\n", 1)[0].strip()
    heading = f"# Lesson {lesson.number}: {lesson.title}"
    if first != heading:
        problems.append(f"{where}: the first line is '{first}', not '{heading}' (the title is "
                        f"the manifest's, {lesson.rel_dir}/lesson.json)")
    found = sections(text)
    headings = [h for h, _ in found]
    if headings != list(README_HEADINGS):
        problems.append(f"{where}: the '##' headings are {headings}; the contract's, in order: "
                        f"{list(README_HEADINGS)}")
    hints = "\n".join(next((body for h, body in found if h == "Hints"), []))
    if re.search(r"^#{3,}\s|<details", hints, re.M):
        problems.append(f"{where}: '## Hints' holds hints; they belong in {HINTS_FILE}")
    command = f"./course hint {lesson.number}"
    if "Hints" in headings and command not in hints:
        problems.append(f"{where}: '## Hints' should say how to take the hints one at a time "
                        f"(`{command}`)")
    if HINTS_FILE in text:
        problems.append(f"{where}: names {HINTS_FILE}; the hints are taken one at a time "
                        f"(`{command}`), so the README does not point at all of them")
    return problems


def hints_problems(lesson, text: str) -> List[str]:
    where = f"{lesson.rel_dir}/{HINTS_FILE}"
    numbers = hint_numbers(text)
    problems = []
    if len(read_hints(text)) < 2:
        problems.append(f"{where}: needs graded hints, '## Hint 1' (a nudge) ... the last (the "
                        f"idea), at least two")
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{where}: the hints are numbered {numbers}; number them 1, 2, ... in order")
    return problems


def check(root: str) -> Tuple[List[str], List[str]]:
    """(problems, lessons still in the old form)."""
    problems, old_form = [], []
    for lesson in course_lessons(root):
        if not lesson.readme.is_file():
            continue  # a lesson being written: its folder exists before its README
        text = lesson.readme.read_text(encoding="utf-8")
        if not lesson.hints_file.is_file() and re.search(r"^###\s+Hint\s+\d", text, re.M):
            old_form.append(f"{lesson.rel_dir}: its hints are still in README.md; move them to "
                            f"{HINTS_FILE} ('## Hint 1', ...) and leave '## Hints' saying how "
                            f"to take them")
            continue
        try:
            problems += readme_problems(lesson, text)
        except CourseError as e:  # a missing or broken manifest
            problems.append(str(e))
        if not lesson.hints_file.is_file():
            problems.append(f"{lesson.rel_dir}/{HINTS_FILE}: missing (the lesson's graded hints)")
        else:
            problems += hints_problems(lesson, lesson.hints_file.read_text(encoding="utf-8"))
    return problems, old_form


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["check"])
    ap.add_argument("--root", default=repo_root())
    args = ap.parse_args(argv)
    problems, old_form = check(os.path.abspath(args.root))
    for line in problems + old_form:
        print(f"lesson-pages: {line}", file=sys.stderr if problems else sys.stdout)
    if problems:
        return 1
    if old_form:
        print(f"lesson-pages: skipped: {len(old_form)} lesson(s) still in the old form")
        return SKIPPED
    print("lesson-pages: every lesson keeps the contract's headings and hints.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
