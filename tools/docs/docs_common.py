"""What the docs tools share: where things are in the repository, the lessons (from the course
model, course.model.course_model), the pictures and measured blocks (each lesson's own in its
manifest, lessons/NN_topic/lesson.json; the site's in docs/pictures.txt and docs/measured.txt)
and a Markdown scanner that knows which text is code (links and markers inside code are left
alone)."""

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from course.model import course_model
from course.model.site_manifests import MEASURED_MANIFEST, PICTURES_MANIFEST, manifest_lines
LESSON_DIR = re.compile(r"^(\d\d)_[A-Za-z0-9_]+$")


class DocsError(Exception):
    """A problem a person must fix; printed as one line naming the file."""


def repo_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def course_lessons(root: str) -> List[course_model.Lesson]:
    """Every lessons/NN_topic folder, in order ([] when there is no lessons/ folder)."""
    try:
        return course_model.find_lessons(Path(root))
    except course_model.CourseError:
        return []


def lessons(root: str) -> List[course_model.Lesson]:
    """Every lesson that has a README.md, in order: the site's lesson pages (page `lessonNN`,
    its label)."""
    return [lesson for lesson in course_lessons(root) if lesson.readme.is_file()]


def markdown_documents(root: str) -> List[str]:
    """The Markdown files the site is made of (and that may hold generated blocks): the lesson
    READMEs in order, then docs/*.md."""
    docs = [lesson.rel_readme for lesson in lessons(root)]
    base = os.path.join(root, "docs")
    docs += [f"docs/{n}" for n in sorted(os.listdir(base)) if n.endswith(".md")] \
        if os.path.isdir(base) else []
    return docs


def answers_documents(root: str) -> List[str]:
    """The lessons' answers (solutions/NN_topic/answers.md, where a lesson has one): where a
    lesson's measured blocks stand, out of the student's view until the lesson's CPU part
    passes (course.model.answers). On the site, each is a sub-page of its lesson's, marked as
    the answers (doxygen_filter.py)."""
    return [f"solutions/{lesson.folder}/answers.md" for lesson in lessons(root)
            if os.path.isfile(os.path.join(root, "solutions", lesson.folder, "answers.md"))]


def lesson_folder_of(path: str) -> Optional[str]:
    """"lessons/02_stride_two" for a path inside that lesson's folder ("solutions/02_stride_two"
    inside its solution's, where its answers' pictures are), else None."""
    parts = path.split("/")
    if len(parts) >= 2 and parts[0] in ("lessons", "solutions") and LESSON_DIR.match(parts[1]):
        return "/".join(parts[:2])
    return None


# ---------------------------------------------------------------------------------------------
# Manifests: one entry a line, '#' starts a comment, fields split as a shell would.


@dataclass
class Picture:
    path: str  # where it lives, from the repository root
    kind: str  # "bank-map" or "chart"
    args: List[str]  # bank-map arguments, or [csv path] for a chart
    where: str  # the manifest and its line or entry that declares it


def _manifest_lines(root: str, manifest: str) -> List[Tuple[int, List[str]]]:
    try:
        return manifest_lines(Path(root) / manifest, manifest)
    except course_model.CourseError as e:
        raise DocsError(str(e)) from None


def _lesson_manifests(root: str) -> List[course_model.Manifest]:
    """The manifests of the course's lessons, in order (a broken one is a DocsError)."""
    try:
        return [lesson.manifest for lesson in course_lessons(root)]
    except course_model.CourseError as e:
        raise DocsError(str(e)) from None


def pictures(root: str) -> List[Picture]:
    """Every picture: the lessons' (their manifests' `pictures`), then the site's
    (docs/pictures.txt)."""
    out = []
    for m in _lesson_manifests(root):
        for p in m.pictures:
            out.append(Picture(p.svg, "chart", [p.chart], p.where) if p.chart else
                       Picture(p.svg, "bank-map", list(p.bank_map), p.where))
    for number, fields in _manifest_lines(root, PICTURES_MANIFEST):
        where = f"{PICTURES_MANIFEST}:{number}"
        path = fields[0]
        if not path.endswith(".svg") or path.startswith("/") or ".." in path.split("/"):
            raise DocsError(f"{where}: '{path}' is not an .svg path inside the repository")
        if len(fields) >= 2 and fields[1] == "chart":
            if len(fields) != 3:
                raise DocsError(f"{where}: a chart line is '<svg> chart <csv>'")
            out.append(Picture(path, "chart", [fields[2]], where))
        elif len(fields) >= 2:
            out.append(Picture(path, "bank-map", fields[1:], where))
        else:
            raise DocsError(f"{where}: '{path}' has no bank-map arguments")
    seen: Dict[str, str] = {}
    for pic in out:
        if pic.path in seen:
            raise DocsError(f"{pic.where}: '{pic.path}' is drawn twice (also {seen[pic.path]})")
        seen[pic.path] = pic.where
    return out


@dataclass
class MeasuredItem:
    block: str  # "lesson02"
    kind: str  # "table" or "chart"
    path: str  # a CSV (table) or a picture (chart), from the repository root
    strides: List[str] = field(default_factory=list)  # table rows to show, as in the CSV
    where: str = ""  # the manifest and its line or entry that declares it
    filters: Dict[str, str] = field(default_factory=dict)  # rows to show: column -> value


def parse_strides(text: str) -> List[str]:
    """"1,2,4" or "0:8" or "1,32:34" -> ["1", "2", "4"] ..."""
    out = []
    for part in text.split(","):
        if re.fullmatch(r"\d+:\d+", part):
            first, last = (int(x) for x in part.split(":"))
            out.extend(str(s) for s in range(first, last + 1))
        elif re.fullmatch(r"\d+|custom", part):
            out.append(part)
        else:
            raise DocsError(f"'{text}' is not a stride list (like 1,2,4 or 0:8)")
    return out


FILTER = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")


def parse_filters(texts: List[str]) -> Dict[str, str]:
    """["lesson=03", "kind=demo"] -> {"lesson": "03", "kind": "demo"}"""
    out: Dict[str, str] = {}
    for text in texts:
        m = FILTER.match(text)
        if not m:
            raise DocsError(f"'{text}' is not a row filter (like lesson=03)")
        if m.group(1) in out:
            raise DocsError(f"the column '{m.group(1)}' is filtered twice")
        out[m.group(1)] = m.group(2)
    return out


def measured_items(root: str) -> List[MeasuredItem]:
    """Every part of the measured blocks: the lessons' (their manifests' `measured`, shown in
    their answers), then the site's (docs/measured.txt)."""
    out = []
    for m in _lesson_manifests(root):
        for e in m.measured:
            try:
                if e.chart:
                    out.append(MeasuredItem(e.block, "chart", e.chart, [], e.where))
                elif e.strides:
                    out.append(MeasuredItem(e.block, "table", e.table, parse_strides(e.strides),
                                            e.where))
                else:
                    out.append(MeasuredItem(e.block, "table", e.table, [], e.where,
                                            parse_filters(list(e.rows))))
            except DocsError as err:
                raise DocsError(f"{e.where}: {err}")
    for number, fields in _manifest_lines(root, MEASURED_MANIFEST):
        where = f"{MEASURED_MANIFEST}:{number}"
        if len(fields) >= 3 and fields[1] == "table":
            rest = fields[3:]
            try:
                if len(rest) == 1 and "=" not in rest[0]:
                    out.append(MeasuredItem(fields[0], "table", fields[2],
                                            parse_strides(rest[0]), where))
                else:
                    out.append(MeasuredItem(fields[0], "table", fields[2], [], where,
                                            parse_filters(rest)))
            except DocsError as e:
                raise DocsError(f"{where}: {e}")
        elif len(fields) == 3 and fields[1] == "chart":
            out.append(MeasuredItem(fields[0], "chart", fields[2], [], where))
        else:
            raise DocsError(f"{where}: want '<block> table <csv> [<strides> | "
                            "<column>=<value> ...]' or '<block> chart <svg>'")
    return out


# ---------------------------------------------------------------------------------------------
# Markdown


FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text: str) -> Iterator[Tuple[int, str, bool]]:
    """(index, line, in_code) for each line; fenced code blocks are code."""
    fence = None
    for i, line in enumerate(text.split("\n")):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            yield i, line, True
        elif fence is not None:
            if line.strip().startswith(fence):
                fence = None
            yield i, line, True
        else:
            yield i, line, False


LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^()\s]+)(\s+\"[^\"]*\")?\)")


def map_links(line: str, fn) -> str:
    """Rewrites the [text](target) and ![alt](target) of one prose line, outside `code`:
    fn(is_image, text, target) returns the replacement."""
    parts = re.split(r"(`+[^`]*`+)", line)
    for k in range(0, len(parts), 2):
        parts[k] = LINK.sub(lambda m: fn(m.group(1) == "!", m.group(2), m.group(3), m.group(0)),
                            parts[k])
    return "".join(parts)


def images_of(text: str) -> List[str]:
    """The targets of every image in a Markdown text (outside code)."""
    found = []

    def keep(is_image, _text, target, whole):
        if is_image:
            found.append(target)
        return whole

    for _, line, code in prose_lines(text):
        if not code:
            map_links(line, keep)
    return found


def is_external(target: str) -> bool:
    return re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) is not None or target.startswith("//")


def resolve(doc: str, target: str) -> str:
    """A relative link target of `doc` (both from the repository root) as a path from the root."""
    path = target.split("#", 1)[0]
    return os.path.normpath(os.path.join(os.path.dirname(doc), path)).replace(os.sep, "/")


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")
