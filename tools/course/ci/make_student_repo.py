#!/usr/bin/env python3
"""Makes the student-facing repository: the course at a commit, without the reference
solutions and without what only the course's own CI and maintainers need, as a fresh git
repository whose one commit is tagged starters-v1 (what `./course reset` restores from).

  ./course-admin student-repo --out ../bank-conflicts-student

Left out (course.model.student_repo): solutions/, .ci/, .github/workflows/ci.yml, the presets
and workflows that build the solutions (ci, solutions, gpu-check), the maintainers' command
(course-admin) and room (tools/course/ci), and the tools' tests that need them or the solutions
(the answers check's, which puts answers back into the lessons; the one that writes mistakes
into the reference kernels), each lesson's answers (solutions/NN_topic/answers.md and its
pictures), and the course's measured figures (the tables and charts of docs/measurements/ that
no test reads; docs/measurements.md stays as a stub), which answer predictions and stay on the
course's site. With --with-answers (a repository for learning on one's own, never one that is
graded) they travel packed in tools/course/answers.pack, which `./course` opens for a lesson
once its CPU part passes (course.model.answers): packed, not locked, so anyone who unpacks it
reads every answer. Its README.md is its own, written from
tools/course/templates/student-README.md.in with the course README's prerequisites, student
loop and lesson table. Push the result to a new repository and make it a template (GitHub
Classroom) or share it as it is. Exit status: 0 done, 1 when it cannot (the reason in one
line), 2 for bad usage.
"""

from __future__ import annotations

import io
import re
import sys
import tarfile
from pathlib import Path
from typing import Dict, List, Optional, Set

from course.model import answers, lesson_table, templates
from course.model.cli import Parser, print_lines, run_main
from course.model.course_model import CourseError, ROOT, find_lessons
from course.model.manifest import MANIFEST, manifest_json
from course.model.site_manifests import MEASURED_MANIFEST, PICTURES_MANIFEST, manifest_lines
from course.model.starters import FIRST_TAG, git
from course.model.student_repo import left_out, student_manifest, student_presets

#: The branch of the student repository (docs/instructors.md, section 1, pushes it).
BRANCH = "main"

PROG = "make_student_repo"


def markdown_section(text: str, heading: str) -> str:
    """The body of a `## heading` section, without its heading."""
    m = re.search(rf"^## {re.escape(heading)}\s*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not m:
        raise CourseError(f"README.md has no '## {heading}' section to give the student README")
    return m.group(1).strip("\n")


def student_readme(out: Path, sha: str) -> str:
    """The student repository's README: the template, with the course README's prerequisites,
    student loop and lesson table."""
    course = (out / "README.md").read_text(encoding="utf-8")
    lessons = find_lessons(out)
    table = lesson_table.render(lessons)
    return templates.render("student-README.md.in", {
        "COMMIT": sha[:10],
        "PREREQUISITES": markdown_section(course, "Prerequisites"),
        "STUDENT_LOOP": markdown_section(course, "The student loop"),
        "LESSON_TABLE": "\n".join(table)}, {})


def export(source: Path, out: Path, ref: str) -> str:
    """Exports the course at `ref` into `out` (new or empty); returns the commit."""
    top = git(source, "rev-parse", "--show-toplevel")
    if top.returncode != 0 or Path(top.stdout.strip()).resolve() != source.resolve():
        raise CourseError(f"{source} is not a git repository (the course's own checkout)")
    commit = git(source, "rev-parse", "--verify", f"{ref}^{{commit}}")
    if commit.returncode != 0:
        raise CourseError(f"{ref}: no such commit in {source}")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CourseError(f"{out} exists and is not an empty folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CourseError(f"cannot create {out}: {e.strerror or e}") from None
    return commit.stdout.strip()


def pack_answers(tar: tarfile.TarFile) -> Dict[str, Dict[str, str]]:
    """Every lesson's answers in the exported commit: {folder: {answers.md or images/...:
    text}} (answers.answer_files, read from the archive)."""
    files = {m.name: m for m in tar.getmembers() if m.isfile()}

    def text(name: str) -> str:
        f = tar.extractfile(files[name])
        return f.read().decode("utf-8") if f else ""

    found: Dict[str, Dict[str, str]] = {}
    for name in sorted(files):
        m = re.fullmatch(r"solutions/(\d\d_[^/]+)/" + re.escape(answers.ANSWERS_FILE), name)
        if not m:
            continue
        folder = m.group(1)
        markdown = text(name)
        lesson = {answers.ANSWERS_FILE: markdown}
        for image in answers.images_of(markdown):
            path = f"solutions/{folder}/{image}"
            if path not in files:
                raise CourseError(f"{name} shows {image}, which the commit does not have")
            lesson[image] = text(path)
        found[folder] = lesson
    return found


NOT_HERE = ("*Not in this repository: the course's reference figures for the lessons answer their "
            "predictions, and stay with the course's answers.*")

#: The course's measured figures: the tables and charts directly in this folder (its
#: subfolders hold raw data a tool's test replays, e.g. bank_probe/).
MEASUREMENTS = "docs/measurements"
#: The site's page of them, which the student repository has as a stub: the stride sweeps and
#: every lesson's demos and exercises answer the lessons' predictions, so they stay on the
#: course's site, whose lesson pages link a lesson's answers only at the lesson's end.
MEASUREMENTS_PAGE = "docs/measurements.md"
MEASUREMENTS_STUB = """# Measured results

*Not in this repository: the course's measured figures (the stride sweeps, and every lesson's
demos and exercises as its tests measured them) answer the lessons' predictions, and stay with
the course's answers.*
"""


def read_by_tests(out: Path) -> Set[str]:
    """The course's files that a lesson's tests read (course_test_reads in its
    tests/NN_topic/lesson.cmake, e.g. lesson 09's recorded gains): they stay, or a solved
    repository could not pass those tests."""
    found: Set[str] = set()
    for script in sorted((out / "tests").glob("*/lesson.cmake")):
        for call in re.findall(r"course_test_reads\((.*?)\)", script.read_text(encoding="utf-8"),
                               re.S):
            found |= set(re.findall(r"\$\{PROJECT_SOURCE_DIR\}/([^\s\"]+)", call))
    return found


def leave_out_answer_figures(out: Path) -> List[str]:
    """Takes the course's measured figures out of the exported course: every table and chart
    of docs/measurements/ (the lessons' figures, which their answers show, and the stride
    sweeps, which answer the first lessons' predictions), unless a test reads it
    (read_by_tests); the site's page of them becomes a stub (MEASUREMENTS_PAGE); with them go
    the site's blocks and pictures made from them, and each manifest's `measured` and its
    answers' pictures (under solutions/, which the repository has not). Returns what it did, in
    a sentence."""
    lessons = find_lessons(out)
    pictures_txt, measured_txt = out / PICTURES_MANIFEST, out / MEASURED_MANIFEST
    pictures = manifest_lines(pictures_txt, PICTURES_MANIFEST) if pictures_txt.is_file() else []
    measured = manifest_lines(measured_txt, MEASURED_MANIFEST) if measured_txt.is_file() else []
    folder = out / MEASUREMENTS
    figures = {f"{MEASUREMENTS}/{p.name}" for p in folder.iterdir() if p.is_file()} \
        if folder.is_dir() else set()
    gone = sorted(figures - read_by_tests(out))
    for p in gone:
        (out / p).unlink()
    page = out / MEASUREMENTS_PAGE
    if page.is_file():
        page.write_text(MEASUREMENTS_STUB, encoding="utf-8")
    # The site's blocks and pictures made from what went: their manifests' lines, and the
    # blocks of docs/*.md they fill.
    dropped_blocks = [f[0] for _, f in measured if len(f) >= 3 and f[2] in gone]
    for path, entries in ((measured_txt, measured), (pictures_txt, pictures)):
        drop = {number for number, f in entries if set(f) & set(gone)}
        if drop:
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            path.write_text("".join(line for n, line in enumerate(lines, 1) if n not in drop),
                            encoding="utf-8")
    for doc in (out / "docs").glob("*.md"):
        text = doc.read_text(encoding="utf-8")
        for name in dropped_blocks:
            text = re.sub(rf"^<!-- measured:{re.escape(name)} -->\n.*?^<!-- /measured -->$",
                          NOT_HERE, text, flags=re.M | re.S)
        doc.write_text(text, encoding="utf-8")
    for lesson in lessons:
        m = lesson.manifest
        stripped = student_manifest(m)
        if stripped != m:
            (lesson.dir / MANIFEST).write_text(manifest_json(stripped), encoding="utf-8")
    return [f"left out the course's measured figures ({len(gone)} files of {MEASUREMENTS}/, and "
            f"{MEASUREMENTS_PAGE} but for a stub: they answer predictions) and the site's blocks "
            f"and pictures made from them"]


def make(source: Path, out: Path, ref: str, use_git: bool, with_answers: bool = False) -> List[str]:
    sha = export(source, out, ref)
    archive = git(source, "archive", "--format=tar", sha, check=True, binary=True)
    dropped = set()
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        packed = pack_answers(tar)
        members = []
        for m in tar.getmembers():
            if left_out(m.name):
                dropped.add(m.name.split("/")[0] if m.name.startswith(("solutions", ".ci"))
                            else m.name)
                continue
            if m.issym() or m.islnk() or m.name.startswith("/") or ".." in m.name.split("/"):
                continue
            members.append(m)
        if hasattr(tarfile, "data_filter"):  # Python 3.12+: say so, rather than be warned
            tar.extractall(str(out), members=members, filter="data")
        else:
            tar.extractall(str(out), members=members)
    presets = out / "CMakePresets.json"
    if presets.is_file():
        presets.write_text(student_presets(presets.read_text()))
    (out / "README.md").write_text(student_readme(out, sha), encoding="utf-8")
    done = [f"exported {sha[:10]} to {out} without {', '.join(sorted(dropped)) or 'nothing'}",
            "wrote its own README.md (tools/course/templates/student-README.md.in)"]
    done += leave_out_answer_figures(out)
    if with_answers:
        (out / answers.PACK_PATH).parent.mkdir(parents=True, exist_ok=True)
        (out / answers.PACK_PATH).write_text(answers.pack(packed), encoding="utf-8")
        done.append(f"packed the answers of {len(packed)} lesson(s) into "
                    f"{answers.PACK_PATH.as_posix()} (readable by anyone who unpacks it: not for "
                    f"a repository you grade)")
    else:
        done.append("left the lessons' answers out (--with-answers packs them, for learning "
                    "on one's own)")
    if use_git:
        git(out, "init", "-q", check=True)
        # The branch is `main` whatever the machine's default (docs/instructors.md pushes it).
        git(out, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", check=True)
        ident = []
        if not git(out, "config", "user.email").stdout.strip():
            ident = ["-c", "user.name=Course", "-c", "user.email=course@localhost"]
        git(out, "add", "-A", check=True)
        git(out, *ident, "commit", "-q", "-m", f"Starter code (course commit {sha[:10]})",
            check=True)
        git(out, *ident, "tag", "-a", FIRST_TAG, "-m",
            f"The starters as shipped (course commit {sha})", check=True)
        done.append(f"made a git repository with one commit on {BRANCH}, tagged {FIRST_TAG}")
    return done


def main(argv: Optional[List[str]] = None) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="the new repository's folder (new or empty)")
    ap.add_argument("--source", type=Path, default=ROOT, help="the course's repository (default: this one)")
    ap.add_argument("--ref", default="HEAD", help="the course commit to ship (default: HEAD)")
    ap.add_argument("--no-git", action="store_true", help="only export the files")
    ap.add_argument("--with-answers", action="store_true",
                    help="pack the lessons' answers in, for `./course` to open once a lesson's "
                         "CPU part passes (for learning on one's own: anyone can unpack them, so "
                         "never for a repository you grade)")
    args = ap.parse_args(argv)
    return run_main(PROG, lambda: print_lines(make(args.source, args.out, args.ref,
                                                   not args.no_git, args.with_answers)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
