#!/usr/bin/env python3
"""Scaffolds lesson NN from the template (tools/course/templates/lesson/): its manifest, README,
hints, demo and exercise (lessons/NN_topic), the stub solution and its answers file
(solutions/NN_topic), one CPU and one GPU test (tests/NN_topic); then writes again what the
course generates from the manifests (the README's lesson table, the Classroom workflow).

  ./course-admin new-lesson 12 warp_shuffles --title "Warp shuffles" \\
      --teaches "exchanging registers without shared memory"

The new lesson configures and builds at once, and its exercise tests fail on the starter and
pass on the stub solution (fail-first): a staging layout with a prediction, the form of lesson
01, to replace with the lesson's own. What to write next is in docs/maintainers.md, 'Adding a
lesson'. Exit status: 0 done, 1 when it cannot (the reason in one line), 2 for bad usage.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import List

from course.model import templates
from course.model.cli import Parser, print_lines, run_main, write_text_atomic
from course.model.course_model import CourseError, ROOT, find_lessons, parse_lesson_number
from course.authoring.regenerate import regenerate

PROG = "new-lesson"
#: The template's folders: one per tree of the course it writes into.
TREES = ("lessons", "solutions", "tests")
_TOPIC = re.compile(r"^[a-z][a-z0-9_]*[a-z0-9]$")


def template_files() -> List[Path]:
    """The template's files, from its folder (lessons/README.md.in, ...)."""
    root = templates.TEMPLATES / "lesson"
    return sorted(p.relative_to(root) for p in root.rglob("*.in") if p.is_file())


def new_lesson(course: Path, number: str, topic: str, title: str, teaches: str) -> List[str]:
    """Writes the lesson's files and regenerates; returns what it did, a line each."""
    if not _TOPIC.match(topic):
        raise CourseError(f"'{topic}' is not a topic: lowercase words joined by _, e.g. "
                          f"warp_shuffles")
    for text, what in ((title, "--title"), (teaches, "--teaches")):
        if not text.strip() or "\n" in text or '"' in text or "\\" in text:
            raise CourseError(f"{what}: one line of text, without quotes or backslashes")
    existing = [lesson for lesson in find_lessons(course) if lesson.number == number]
    if existing:
        raise CourseError(f"lesson {number} exists already: {existing[0].rel_dir}")
    folder = f"{number}_{topic}"
    targets = [course / rel.parts[0] / folder / rel.relative_to(rel.parts[0]).with_suffix("")
               for rel in template_files()]
    taken = [t for t in targets if t.exists()]
    if taken:
        raise CourseError(f"{taken[0]} exists already")
    values = {"NN": number, "FOLDER": folder, "TITLE": title, "TEACHES": teaches}
    done = []
    for rel, target in zip(template_files(), targets):
        text = templates.render(f"lesson/{rel.as_posix()}", values, {})
        write_text_atomic(target, text)
        done.append(f"wrote {target.relative_to(course).as_posix()}")
    done += regenerate(course, check=False)
    done.append("next: make it the lesson (docs/maintainers.md, 'Adding a lesson'); check it "
                "with `cmake --workflow --preset ci`")
    return done


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("number", help="the lesson's number, e.g. 12")
    ap.add_argument("topic", help="its folder's topic, e.g. warp_shuffles (lessons/12_warp_shuffles)")
    ap.add_argument("--title", required=True, help="its title, e.g. \"Warp shuffles\"")
    ap.add_argument("--teaches", required=True,
                    help="what it teaches, for the course README's lesson table")
    ap.add_argument("--course", type=Path, default=ROOT, help="the course (default: this one)")
    args = ap.parse_args(argv)

    def run() -> int:
        number = parse_lesson_number(args.number)
        return print_lines(new_lesson(args.course.resolve(), number, args.topic, args.title,
                                      args.teaches))

    return run_main(PROG, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
