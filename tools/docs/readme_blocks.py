#!/usr/bin/env python3
"""Keeps the generated blocks of the lesson READMEs, their answers (solutions/NN_topic/answers.md)
and docs/*.md in step with their sources.

    <!-- measured:lesson02 -->        the rows lesson 02's manifest (or docs/measured.txt) names
    ...                               for lesson02, from the CSVs in docs/measurements/ (and its
    <!-- /measured -->                charts); a row filter (lesson=02) shows the rows of a CSV
                                      with that value. A lesson's blocks stand in its answers:
                                      measured figures answer its predictions

    <!-- snippet:demo.hpp#stride_two --> the lines between the two `// [stride_two]` markers of
    ```cpp                               demo.hpp (a path from the README's folder); Doxygen's
    ...                                  \\snippet uses the same markers
    ```
    <!-- /snippet -->

    <!-- lesson-table -->                the course README's table of the lessons: number and
    ...                                  title from each lesson's README, what it teaches kept
    <!-- /lesson-table -->               (tools/course/model/lesson_table.py)

    readme_blocks.py write     rewrite every block from its source
    readme_blocks.py check     fail, naming each stale block, if a write would change a file

Text outside the markers is never touched. Figures in a README come from here, never typed."""

import argparse
import difflib
import os
import re
import sys
import textwrap
from typing import List, Tuple

from docs_common import (MEASURED_MANIFEST, DocsError, answers_documents, course_lessons,
                         markdown_documents, measured_items, pictures, repo_root)
from course.model import lesson_table
from course.model.course_model import CourseError
from measurements import lessons_table, plain_table, read_measurement, read_sweep, table

OPEN = re.compile(r"^<!--\s*(measured|snippet):(\S+)\s*-->\s*$")
CLOSE = {"measured": re.compile(r"^<!--\s*/measured\s*-->\s*$"),
         "snippet": re.compile(r"^<!--\s*/snippet\s*-->\s*$")}
LANGUAGES = {".cu": "cpp", ".cuh": "cpp", ".hpp": "cpp", ".cpp": "cpp", ".h": "cpp",
             ".py": "python", ".cmake": "cmake", ".txt": "cmake", ".json": "json", ".sh": "sh"}


def snippet(root: str, doc: str, spec: str) -> List[str]:
    path, _, tag = spec.partition("#")
    if not tag:
        raise DocsError(f"{doc}: snippet '{spec}' names no tag (want path#tag)")
    source = os.path.normpath(os.path.join(os.path.dirname(doc), path))
    full = os.path.join(root, source)
    if not os.path.isfile(full):
        raise DocsError(f"{doc}: snippet '{spec}': {source} does not exist")
    with open(full, encoding="utf-8") as f:
        lines = f.read().split("\n")
    marker = re.compile(r"^\s*(//|#)!?\s*\[" + re.escape(tag) + r"\]\s*$")
    at = [i for i, line in enumerate(lines) if marker.match(line)]
    if len(at) != 2:
        raise DocsError(f"{doc}: snippet '{spec}': {source} has {len(at)} '// [{tag}]' "
                        "markers, want 2 (one before, one after)")
    any_marker = re.compile(r"^\s*(//|#)!?\s*\[[A-Za-z0-9_.-]+\]\s*$")
    body = [l for l in lines[at[0] + 1:at[1]] if not any_marker.match(l)]
    code = textwrap.dedent("\n".join(body)).strip("\n")
    ext = os.path.splitext(source)[1] or os.path.basename(source)
    return [f"```{LANGUAGES.get(ext, '')}"] + code.split("\n") + ["```"]


def measured(root: str, doc: str, name: str, items) -> List[str]:
    mine = [i for i in items if i.block == name]
    if not mine:
        raise DocsError(f"{doc}: block 'measured:{name}' is declared nowhere (a lesson's "
                        f"manifest's `measured`, or {MEASURED_MANIFEST})")
    out: List[str] = []
    selections: List[Tuple] = []

    def flush():
        if selections:
            out.extend(table(selections) + [""])
            selections.clear()

    for item in mine:
        where = item.where
        if item.kind == "table":
            try:
                m = read_measurement(root, item.path)
                if not m.is_sweep:
                    if item.strides:
                        raise DocsError(f"{item.path} is not a stride sweep: give no strides "
                                        "(a row filter, like lesson=03, chooses rows)")
                    flush()
                    if item.filters:
                        m = m.where(item.filters)
                    out.extend((lessons_table(m) if m.is_lessons
                                else plain_table(m, hide=item.filters)) + [""])
                    continue
                if item.filters:
                    raise DocsError(f"{item.path} is a stride sweep: choose its rows by stride "
                                    "(like 1,2,4 or 0:8), not by a filter")
                sweep = read_sweep(root, item.path)
                for s in item.strides or [r.stride for r in sweep.rows]:
                    sweep.row(s)
            except DocsError as e:
                raise DocsError(f"{where}: {e}")
            selections.append((sweep, item.strides or [r.stride for r in sweep.rows]))
        else:
            flush()
            if not os.path.isfile(os.path.join(root, item.path)):
                raise DocsError(f"{where}: chart {item.path} does not exist (is it in "
                                "docs/pictures.txt, and generated?)")
            caption = chart_caption(root, item.path)
            if doc.startswith("solutions/"):
                # An answers file travels alone (packed, then unpacked elsewhere) and shows only
                # its own pictures: it names the chart, which the site's pages show.
                out.extend([f"Chart ({caption}): `{item.path}`, on the site's Measured "
                            "results page.", ""])
                continue
            rel = os.path.relpath(item.path, os.path.dirname(doc)).replace(os.sep, "/")
            out.extend([f"![{caption}]({rel})", ""])
    flush()
    return out[:-1] if out and out[-1] == "" else out


def chart_caption(root: str, path: str) -> str:
    """What a chart of docs/pictures.txt shows, from its CSV."""
    for pic in pictures(root):
        if pic.path == path and pic.kind == "chart":
            sweep = read_sweep(root, pic.args[0])
            return (f"{sweep.type} {sweep.header.get('access', 'load')}s by stride: wavefronts "
                    "and slowdown, model and measured")
    raise DocsError(f"{path} is not a chart of docs/pictures.txt")


def render(root: str, doc: str, text: str, items) -> str:
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        kind, spec = m.groups()
        end = next((j for j in range(i + 1, len(lines)) if CLOSE[kind].match(lines[j])), None)
        if end is None:
            raise DocsError(f"{doc}:{i + 1}: '{lines[i].strip()}' has no <!-- /{kind} -->")
        body = snippet(root, doc, spec) if kind == "snippet" else measured(root, doc, spec, items)
        out.append(lines[i])
        out.extend(body)
        out.append(lines[end])
        i = end + 1
    return "\n".join(out)


def sync_lesson_table(root: str, write: bool) -> List[str]:
    """The lesson table of README.md: one problem line per stale lesson (check), or a line when
    the table was rewritten (write). Nothing when the course has no README.md."""
    path = os.path.join(root, "README.md")
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        old = f.read()
    lessons = course_lessons(root)
    try:
        if not write:
            return lesson_table.problems(old, lessons)
        new = lesson_table.rewrite(old, lessons)
    except CourseError as e:
        raise DocsError(str(e))
    if new == old:
        return []
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(new)
    return ["README.md: lesson table rewritten"]


def sync(root: str, write: bool) -> List[str]:
    """Returns one problem line per stale block (check) or per rewritten file (write)."""
    items = measured_items(root)
    reports = sync_lesson_table(root, write)
    for doc in markdown_documents(root) + answers_documents(root):
        path = os.path.join(root, doc)
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new = render(root, doc, old, items)
        if new == old:
            continue
        if write:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(new)
            reports.append(f"{doc}: blocks rewritten")
        else:
            diff = difflib.unified_diff(old.split("\n"), new.split("\n"), f"{doc} (committed)",
                                        f"{doc} (from the sources)", n=1, lineterm="")
            reports.append(f"{doc}: generated blocks are stale:\n" + "\n".join(list(diff)[:40]))
    return reports


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["write", "check"])
    ap.add_argument("--root", default=repo_root())
    args = ap.parse_args(argv)
    try:
        reports = sync(args.root, args.action == "write")
    except DocsError as e:
        print(f"readme-blocks: {e}", file=sys.stderr)
        return 1
    for r in reports:
        print(f"readme-blocks: {r}", file=sys.stderr if args.action == "check" else sys.stdout)
    if args.action == "check" and reports:
        print("readme-blocks: rewrite them with `cmake --build --preset docs --target docs-sync` "
              "(or tools/docs/readme_blocks.py write) and commit", file=sys.stderr)
        return 1
    if not reports:
        print("readme-blocks: every generated block is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
