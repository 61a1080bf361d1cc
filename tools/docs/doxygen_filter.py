#!/usr/bin/env python3
"""Doxygen's input filter for the course's Markdown (FILTER_PATTERNS *.md): the READMEs stay
plain GitHub Markdown, and this turns them into site pages on the fly.

- A lesson README becomes page `lessonNN` (its first heading is the title); docs/NAME.md
  becomes page NAME; every heading gets the label `<page>_<GitHub anchor>`, so `#anchor` links
  work on the site as they do on GitHub.
- Pictures keep their files: a relative image path becomes the path from the repository root,
  which is where the docs build puts the picture in the site.
- Links to another lesson or docs page become references to its page; links to a kit header
  become references to its API page; links to other files of the repository point at the
  source browser given by --source-url, or lose their link when there is none.
- The line `<!-- lessons -->` becomes the list of lesson pages, in order: sub-pages on
  docs/lessons.md (they nest under it in the navigation), links elsewhere (the main page).
  (Doxygen 1.9.4 leaves the main page's own sub-pages out of the navigation tree.)
- The line `<!-- gallery -->` becomes every bank map of docs/pictures.txt with the command
  that draws it, but the pictures of the lessons' answers (solutions/NN_topic/images/).
- A lesson's answers (solutions/NN_topic/answers.md: the reasoning and what the reference GPU
  measured) become page `lessonNN_answers`, a sub-page of the lesson's: the site cannot wait
  until a reader has committed, so the lesson page keeps the questions and ends with a link to
  its answers, marked as such, and the answers page opens by saying what it is.
Code blocks and `code` are never changed."""

import argparse
import os
import re
import shlex
import sys

from docs_common import (DocsError, github_slug, is_external, lessons, map_links, pictures,
                         prose_lines, resolve)

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(\{#[^}]*\})?\s*$")


ANSWERS = re.compile(r"solutions/([^/]+)/answers\.md")


def answers_page(lesson) -> str:
    """The page of a lesson's answers."""
    return f"{lesson.label}_answers"


def lesson_of_answers(root: str, doc: str):
    """The lesson whose answers `doc` is, or None."""
    m = ANSWERS.fullmatch(doc)
    return next((lesson for lesson in lessons(root) if m and lesson.folder == m.group(1)), None)


def page_of(root: str, doc: str):
    """The page name of a Markdown file of the site, or None."""
    for lesson in lessons(root):
        if lesson.rel_readme == doc:
            return lesson.label
    answered = lesson_of_answers(root, doc)
    if answered is not None:
        return answers_page(answered)
    if doc == "docs/mainpage.md":
        return "index"
    m = re.fullmatch(r"docs/([A-Za-z0-9_]+)\.md", doc)
    return m.group(1) if m else None


def label(page: str, anchor: str) -> str:
    return page + "_" + re.sub(r"[^A-Za-z0-9_]", "_", anchor)


def rewrite_link(root: str, doc: str, page: str, source_url: str):
    def fn(is_image, text, target, whole):
        if is_external(target) or target.startswith(("@ref", "\\ref")):
            return whole
        if target.startswith("#"):
            return f"[{text}](#{label(page, target[1:])})"
        path = resolve(doc, target)
        fragment = target.split("#", 1)[1] if "#" in target else ""
        if is_image:
            return f"![{text}]({path})"
        other = page_of(root, path) if path.endswith(".md") else None
        if other and os.path.isfile(os.path.join(root, path)):
            ref = label(other, fragment) if fragment else other
            return f"[{text}](@ref {ref})"
        if path == "README.md":
            return f"[{text}](@ref index)"
        m = re.fullmatch(r"common/include/kit/([A-Za-z0-9_]+\.hpp)", path)
        if m:
            return f"[{text}](@ref {m.group(1)})"
        if source_url and os.path.exists(os.path.join(root, path)):
            return f"[{text}]({source_url.rstrip('/')}/{path})"
        return text
    return fn


def lesson_list(root: str, subpages: bool) -> list:
    """The lessons in order: as sub-pages (the site's Lessons page, which nests them in the
    navigation) or as references (the main page)."""
    found = lessons(root)
    if not found:
        return ["No lesson has a README yet."]
    if subpages:
        return [f"{n}. \\subpage {l.label}" for n, l in enumerate(found, 1)]
    return [f"{n}. [{l.heading}](@ref {l.label})" for n, l in enumerate(found, 1)]


def gallery(root: str) -> list:
    out = []
    for pic in pictures(root):
        if pic.kind != "bank-map" or pic.path.startswith("solutions/"):
            continue  # a chart, or a picture of a lesson's answers: never on the site
        args = pic.args
        title = args[args.index("--title") + 1] if "--title" in args else pic.path
        shown = [a for k, a in enumerate(args) if a != "--title" and
                 (k == 0 or args[k - 1] != "--title")]
        command = "bank-map " + " ".join(shlex.quote(a) for a in shown)
        if len(command) > 90 and "--offsets" in shown:
            i = shown.index("--offsets")
            command = "bank-map " + " ".join(shlex.quote(a) for a in shown[:i + 1]) + " ..."
        out += [f"### {title}", "", f"![{title}]({pic.path})", "", "```", command, "```",
                f"Used by `{os.path.dirname(os.path.dirname(pic.path)) or 'the site'}`.", ""]
    return out


def answers_link(root: str, doc: str) -> list:
    """The end of a lesson's page: its answers, as a sub-page, for after the reader commits."""
    lesson = next((x for x in lessons(root) if x.rel_readme == doc), None)
    if lesson is None or not os.path.isfile(
            os.path.join(root, "solutions", lesson.folder, "answers.md")):
        return []
    return ["", "---", "",
            "**The answers.** The reasoning behind this lesson's predictions and exercise, and "
            "what the reference GPU measured, are on a page of their own: read it once you have "
            "committed to your predictions and your exercise passes "
            f"(`./course test {lesson.number}` points to it then).", "",
            f"\\subpage {answers_page(lesson)} \"{lesson.heading}: the answers\"", ""]


def answers_intro(root: str, doc: str) -> list:
    """The first lines of an answers page, under its title."""
    lesson = lesson_of_answers(root, doc)
    if lesson is None:
        return []
    return ["", f"**These are the answers** of [{lesson.heading}](@ref {lesson.label}): its "
                f"predictions' values, the exercise's solution and what the reference GPU "
                f"measured. Commit to yours first.", ""]


def filter_markdown(root: str, doc: str, text: str, source_url: str = "") -> str:
    page = page_of(root, doc)
    if page is None:
        return text
    out, slugs, seen_text = [], {}, False
    for _, line, code in prose_lines(text):
        if code:
            out.append(line)
            continue
        stripped = line.strip()
        if stripped == "<!-- lessons -->":
            out.extend(lesson_list(root, subpages=page == "lessons"))
            continue
        if stripped == "<!-- gallery -->":
            out.extend(gallery(root))
            continue
        m = HEADING.match(line)
        if m and not m.group(3):
            hashes, title = m.group(1), m.group(2)
            if not seen_text and hashes == "#":
                out.append(f"# {title} {{#{'mainpage' if page == 'index' else page}}}")
                out.extend(answers_intro(root, doc))
            else:
                slug = github_slug(title)
                n = slugs.get(slug, 0)
                slugs[slug] = n + 1
                anchor = slug if n == 0 else f"{slug}-{n}"
                out.append(f"{hashes} {title} {{#{label(page, anchor)}}}")
            seen_text = True
            continue
        seen_text = seen_text or bool(stripped)
        out.append(map_links(line, rewrite_link(root, doc, page, source_url)))
    out.extend(answers_link(root, doc))
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True, help="the repository")
    ap.add_argument("--source-url", default="", help="prefix for links to repository files")
    ap.add_argument("file", help="the Markdown file Doxygen reads")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    doc = os.path.relpath(os.path.abspath(args.file), root).replace(os.sep, "/")
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    try:
        sys.stdout.write(filter_markdown(root, doc, text, args.source_url))
    except DocsError as e:
        print(f"doxygen_filter: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
