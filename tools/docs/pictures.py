#!/usr/bin/env python3
"""Every picture the course shows, generated from docs/pictures.txt: bank maps drawn by the
bank-map tool, and charts of the measurements in docs/measurements/.

    pictures.py generate --bank-map PATH            write them into the source tree
    pictures.py generate --bank-map PATH --out DIR  write all of them under DIR (the site)
    pictures.py check --bank-map PATH               fail if a committed picture is stale
    pictures.py site --bank-map PATH --html DIR     every picture the site shows, into DIR

A picture inside a lesson folder is written only once that lesson folder exists (a lesson's
pictures can be listed before the lesson lands); a picture of a lesson's answers
(solutions/NN_topic/images/) only where the solutions are (a student repository has none).
`check` also fails for a picture a lesson README or answers file uses that does not exist, for
an .svg under lessons/*/images or solutions/*/images that no manifest line generates (pictures
are never drawn by hand), and when the model columns of a stride sweep in docs/measurements/
differ from what the bank model says now."""

import argparse
import filecmp
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import List

from charts import chart
from docs_common import (PICTURES_MANIFEST, DocsError, Picture, images_of, is_external,
                         lesson_folder_of, lessons, markdown_documents, pictures, repo_root,
                         resolve)
from measurements import read_measurement, read_sweep


def draw(root: str, bank_map: str, picture: Picture, out_path: str):
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    where = f"{picture.where} ({picture.path})"
    if picture.kind == "chart":
        try:
            svg = chart(read_sweep(root, picture.args[0]))
        except DocsError as e:
            raise DocsError(f"{where}: {e}")
        with open(out_path, "w", encoding="utf-8", newline="\n") as f:
            f.write(svg)
        return
    p = subprocess.run([bank_map, *picture.args, "--svg", out_path], capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0:
        raise DocsError(f"{where}: {p.stderr.strip() or 'bank-map failed'}")


def wanted(root: str, picture: Picture) -> bool:
    """A lesson's picture is made once the lesson's folder exists."""
    folder = lesson_folder_of(picture.path)
    return folder is None or os.path.isdir(os.path.join(root, folder))


def answers_picture(picture: Picture) -> bool:
    """A picture of a lesson's answers (solutions/NN_topic/images/): never on the site."""
    return picture.path.startswith("solutions/")


def generate(root: str, bank_map: str, out: str = None, answers: bool = True) -> List[str]:
    done = []
    for pic in pictures(root):
        if out is None and not wanted(root, pic) or not answers and answers_picture(pic):
            continue
        draw(root, bank_map, pic, os.path.join(out or root, pic.path))
        done.append(pic.path)
    return done


# A sweep of one's own pattern (bank-conflicts --index EXPR) names it in its type column:
# "float [l * s + 32 * l]", s the swept value.
INDEXED_TYPE = re.compile(r"^(\w+) \[(.+)\]$")


def model_now(bank_map: str, type_: str, stride: str, store: bool) -> int:
    indexed = INDEXED_TYPE.match(type_)
    if indexed:
        expr = re.sub(r"(?<![A-Za-z0-9_])s(?![A-Za-z0-9_])", f"({stride})", indexed.group(2))
        rows = ["--type", indexed.group(1), "--index", expr]
    else:
        rows = ["--type", type_, "--stride", stride]
    args = [bank_map] + rows + ["--json"] + (["--store"] if store else [])
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise DocsError(f"bank-map {' '.join(args[1:])}: {p.stderr.strip()}")
    return json.loads(p.stdout)["wavefronts"]


def check_measurements(root: str, bank_map: str) -> List[str]:
    """The model columns of every stride sweep in docs/measurements/ still say what the model
    says now (a changed model makes the committed tables and charts stale)."""
    problems = []
    for path in sorted(glob.glob(os.path.join(root, "docs", "measurements", "*.csv"))):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        m = read_measurement(root, rel)
        if not m.is_sweep:
            continue
        sweep = read_sweep(root, rel)
        store = sweep.header.get("access", "load") == "store"
        base = {r.stride: r.model_wavefronts for r in sweep.rows}.get("1")
        indexed = INDEXED_TYPE.match(sweep.type)
        if indexed:  # slowdowns are against the plain stride 1 of the element type
            base = model_now(bank_map, indexed.group(1), "1", store)
        for r in sweep.rows:
            if not r.stride.isdigit():
                continue
            now = model_now(bank_map, r.type, r.stride, store)
            if now != r.model_wavefronts:
                problems.append(f"{rel}: stride {r.stride}: model_wavefronts is "
                                f"{r.model_wavefronts}, the bank model says {now} now "
                                "(take the file again with bank-conflicts)")
            elif base and abs(r.model_slowdown - r.model_wavefronts / base) > 0.0005:
                problems.append(f"{rel}: stride {r.stride}: model_slowdown {r.model_slowdown} "
                                f"is not {r.model_wavefronts} / {base} wavefronts")
    return problems


def check(root: str, bank_map: str) -> List[str]:
    problems = check_measurements(root, bank_map)
    listed = {p.path: p for p in pictures(root)}
    with tempfile.TemporaryDirectory() as tmp:
        for pic in listed.values():
            if not wanted(root, pic):
                continue
            fresh = os.path.join(tmp, pic.path)
            draw(root, bank_map, pic, fresh)
            committed = os.path.join(root, pic.path)
            if not os.path.isfile(committed):
                problems.append(f"{pic.path}: missing ({pic.where})")
            elif not filecmp.cmp(fresh, committed, shallow=False):
                problems.append(f"{pic.path}: differs from what is drawn now ({pic.where})")
    documents = [lesson.rel_readme for lesson in lessons(root)]
    documents += sorted(os.path.relpath(p, root).replace(os.sep, "/") for p in
                        glob.glob(os.path.join(root, "solutions", "*", "answers.md")))
    for document in documents:
        with open(os.path.join(root, document), encoding="utf-8") as f:
            text = f.read()
        for target in images_of(text):
            if is_external(target):
                continue
            path = resolve(document, target)
            if not os.path.isfile(os.path.join(root, path)):
                problems.append(f"{document}: uses '{target}', which does not exist"
                                + ("" if path in listed else f" (add it to {where_to_declare(path)})"))
    for svg in sorted(glob.glob(os.path.join(root, "lessons", "*", "images", "*.svg")) +
                      glob.glob(os.path.join(root, "solutions", "*", "images", "*.svg"))):
        path = os.path.relpath(svg, root).replace(os.sep, "/")
        if path not in listed:
            problems.append(f"{path}: not drawn by any picture of {where_to_declare(path)}")
    return problems


def where_to_declare(path: str) -> str:
    """Where a picture is declared: its lesson's manifest, or the site's list."""
    folder = lesson_folder_of(path)
    if folder:
        return f"the `pictures` of lessons/{folder.split('/')[1]}/lesson.json"
    return PICTURES_MANIFEST


def site(root: str, bank_map: str, html: str) -> List[str]:
    """Every manifest picture drawn into the site (lessons still to come included; the
    answers' pictures never: the site is where students read the lessons), and every other
    picture a page of the site shows copied there, at its path from the repository root (the
    path doxygen_filter.py gives the page)."""
    done = set(generate(root, bank_map, html, answers=False))
    problems = []
    for doc in markdown_documents(root):
        with open(os.path.join(root, doc), encoding="utf-8") as f:
            text = f.read()
        for target in images_of(text):
            path = resolve(doc, target)
            if is_external(target) or path in done:
                continue
            source = os.path.join(root, path)
            if not os.path.isfile(source):
                problems.append(f"{doc}: uses '{target}', which does not exist")
                continue
            os.makedirs(os.path.dirname(os.path.join(html, path)), exist_ok=True)
            shutil.copyfile(source, os.path.join(html, path))
            done.add(path)
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["generate", "check", "site"])
    ap.add_argument("--bank-map", required=True, help="the bank-map executable")
    ap.add_argument("--root", default=repo_root(), help="the repository (default: this one)")
    ap.add_argument("--out", help="generate: write every picture under this folder instead")
    ap.add_argument("--html", help="site: the site's HTML folder")
    args = ap.parse_args(argv)
    try:
        if args.action == "site":
            if not args.html:
                ap.error("site needs --html DIR")
            problems = site(args.root, args.bank_map, args.html)
            for p in problems:
                print(f"pictures: {p}", file=sys.stderr)
            return 1 if problems else 0
        if args.action == "generate":
            done = generate(args.root, args.bank_map, args.out)
            print(f"pictures: {len(done)} written under {args.out or args.root}")
            return 0
        problems = check(args.root, args.bank_map)
    except DocsError as e:
        print(f"pictures: {e}", file=sys.stderr)
        return 1
    for p in problems:
        print(f"pictures: {p}", file=sys.stderr)
    if problems:
        print("pictures: regenerate with `cmake --build --preset docs --target pictures` (or "
              "tools/docs/pictures.py generate --bank-map <build>/bin/bank-map) and commit them",
              file=sys.stderr)
        return 1
    print(f"pictures: all {sum(wanted(args.root, p) for p in pictures(args.root))} "
          "committed pictures are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
