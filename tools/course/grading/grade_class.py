#!/usr/bin/env python3
"""A class graded in one run: a roster in, a gradebook out.

  ./course-admin grade-class --roster roster.csv --course COURSE --out CLASS \
      [--lessons 01,03] [--pass-mark P] [--require-complete] [--again] [--jobs N] \
      [--reference YOUR-COURSE]
  ./course-admin grade-class --roster roster.csv --matrix
  ./course-admin grade-class --roster roster.csv --course COURSE --out CLASS --only ada[,bob]
  ./course-admin grade-class --roster roster.csv --course COURSE --out CLASS --merge

roster.csv has a header line, then one student a line:

  student,repository,ref
  ada,https://github.com/our-class/bank-conflicts-ada.git,week3
  bob,/srv/submissions/bob,

`repository` is anything `git clone` takes (a URL, a checkout, a bare repository); `ref` is the
tag, branch or commit to grade. An empty ref grades what the repository's HEAD holds when this
runs - never a commit chosen by its date, which the student sets. COURSE is the course at the
pinned commit, as grade_run.sh takes it; every student is graded there, one after another
(grade_run.sh removes what one student's build made before the next builds).

Each student gets CLASS/students/<student>/: checkout/ (the repository at the ref), exercise/
(the exercise files graded, NN_topic/exercise.*), grade.log
(the grading run's output), grade.md, score.json, junit.xml, records/ (the grader's records:
overlay, points, machine, evidence, build status) and graded.json (the commit graded, the pin,
the machine). A student whose graded.json names the same commit, pin and machine is not graded
again (--again grades everyone). Then, from every student's score.json:
  CLASS/gradebook.csv   one row a student: the commit, each lesson's points, total, max,
                        percent, trusted (yes/no), complete (yes/no: every point gradable here)
  CLASS/feedback/<student>.md   the report the student reads (hidden tests by count only)
  CLASS/summary.md      who could not be fetched or graded, whose lessons did not build, whose
                        files the policy refused and why, whose grade is incomplete here; with
                        --reference (your course, with solutions/), how much of each student's
                        own work is the reference solution's or another student's
                        (similarity.py: information, never a grade), each comparison in
                        CLASS/similarity.csv

Every GPU of a machine: --gpus all (or --gpus 0,2) grades one student on each GPU at once, each
in a copy of the pinned commit of its own (CLASS/slots/gpuN/course, kept: its build serves the
next student there) whose grading runs see that GPU alone (CUDA_VISIBLE_DEVICES, by UUID: the
sandbox binds that GPU's device node only, and the report names it); the compilations share the
CPUs (--jobs is split). A GPU's timing and counter tests still run alone on it. Without a GPU,
--parallel N grades the CPU part of N students at once the same way (CLASS/slots/cpuN/course).

Across machines (an Actions matrix, a Slurm job array: docs/instructors.md), each job grades
its share of the roster into a class folder of its own and the folders are merged:
  --matrix   prints the roster as JSON, [{"student", "repository", "ref"}, ...], for a matrix
  --only     grades only these students of the roster and writes only their folders (no
             gradebook: a job that sees part of the class cannot write the class's); a student
             who could not be fetched or graded gets error.txt, saying why
  --merge    grades nobody: the gradebook, feedback and summary from the students' folders
             under CLASS/students/ (a student of the roster without one is "not graded")

Exit status: 0 every student graded; 1 some could not be fetched or graded (the summary says
who, and the others are in the gradebook); 2 bad usage or a roster it cannot read; 3 with
--require-complete, some grade incomplete on this machine.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.grading import similarity
from course.model import machine
from course.model.cli import (Parser, default_jobs, percentage, positive_int, run_main,
                              write_text_atomic)
from course.model.course_model import CourseError, Lesson, find_lessons
from course.model.starters import course_starters

PROG = "grade_class"
#: A student's name becomes a folder: letters, digits, '.', '_' and '-', not starting with '.'.
STUDENT_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$")
#: The students' folders, under the class folder (apart from its gradebook, feedback, summary).
STUDENTS = "students"
#: Why a student could not be fetched or graded, in the student's folder (read by --merge).
ERROR_FILE = "error.txt"
#: The exercise files graded, kept in the student's folder (NN_topic/exercise.*).
EXERCISES = "exercise"
#: The course copies of --gpus and --parallel, one a slot, under the class folder.
SLOTS = "slots"
#: A kept exercise file is at most this long (a longer one is not kept).
MAX_EXERCISE_BYTES = 1 << 20
#: The grader's records copied into a student's folder (from COURSE/build/grade/course/).
RECORDS = ("overlay.json", "points.json", "machine.json", "evidence.json", "build-status.json",
           "programs.json")


@dataclass
class Student:
    name: str
    repository: str
    ref: str


@dataclass
class Slot:
    """Where one student at a time is graded: a course at the pinned commit with a build of its
    own, the machine as its grades depend on it, and what its grading runs are given."""

    course: Path
    where: str
    jobs: int
    gpu: Optional[str] = None  # CUDA_VISIBLE_DEVICES of its grading runs (a UUID), --gpus
    name: str = ""             # how its lines are marked: "gpu 1", "cpu 0"
    env: Dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.env = dict(os.environ)
        if self.gpu is not None:
            self.env["CUDA_VISIBLE_DEVICES"] = self.gpu


@dataclass
class Outcome:
    student: Student
    commit: str = ""
    score: Optional[dict] = None  # the grading run's score.json
    error: str = ""               # why it could not be fetched or graded
    skipped: bool = False         # graded before at the same commit, pin and machine
    key: Optional[dict] = None    # what it was graded at (--merge: the commit, pin, machine)


def read_roster(path: Path) -> List[Student]:
    """The roster's students. Raises CourseError, naming the line, for a roster it cannot read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CourseError(f"cannot read the roster {path}: {e}") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows or [c.strip() for c in rows[0][:2]] != ["student", "repository"]:
        raise CourseError(f"{path}: the first line must be the header 'student,repository,ref'")
    students, seen = [], set()
    for number, row in enumerate(rows[1:], 2):
        if not any(c.strip() for c in row):
            continue
        cells = [c.strip() for c in row] + ["", ""]
        name, repository, ref = cells[0], cells[1], cells[2]
        if not STUDENT_NAME.match(name):
            raise CourseError(f"{path}:{number}: '{name}' is not a student name (letters, digits, "
                              f"'.', '_', '-'; it names the student's folder)")
        if name in seen:
            raise CourseError(f"{path}:{number}: '{name}' is on the roster twice")
        if not repository:
            raise CourseError(f"{path}:{number}: {name} has no repository")
        if ref.startswith("-") or repository.startswith("-"):
            raise CourseError(f"{path}:{number}: a repository or ref may not start with '-'")
        seen.add(name)
        students.append(Student(name, repository, ref))
    if not students:
        raise CourseError(f"{path}: no student")
    return students


def git(*argv: str, cwd: Optional[Path] = None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *argv], cwd=str(cwd) if cwd else None, capture_output=True,
                          text=True, timeout=600)


def fetch(student: Student, checkout: Path) -> str:
    """The student's repository at the ref in `checkout`; returns the commit. Raises CourseError
    with git's message."""
    if checkout.exists():
        shutil.rmtree(checkout)
    proc = git("clone", "--quiet", "--no-hardlinks", "--", student.repository, str(checkout))
    if proc.returncode != 0:
        raise CourseError(f"cannot clone {student.repository}: {proc.stderr.strip()[-300:]}")
    if student.ref:
        proc = git("checkout", "--quiet", "--detach", student.ref, cwd=checkout)
        if proc.returncode != 0:
            raise CourseError(f"no ref '{student.ref}' in {student.repository}: "
                              f"{proc.stderr.strip()[-300:]}")
    proc = git("rev-parse", "HEAD", cwd=checkout)
    if proc.returncode != 0:
        raise CourseError(f"{student.repository} has no commit to grade")
    return proc.stdout.strip()


def pin_of(course: Path) -> str:
    """The pinned course's commit (what every student is graded against)."""
    proc = git("rev-parse", "HEAD", cwd=course)
    if proc.returncode != 0:
        raise CourseError(f"{course} is not a git checkout: the pin is its commit")
    dirty = git("status", "--porcelain", "--untracked-files=no", cwd=course).stdout.strip()
    return proc.stdout.strip() + ("+modified" if dirty else "")


def machine_of(visible: Optional[str] = None) -> str:
    """The machine as a grade depends on it: the GPU the grading sees (`visible`: the one its
    CUDA_VISIBLE_DEVICES will name), or why none."""
    name, why = machine.gpu(visible)
    return name or f"no GPU ({why})"


def grade_one(student: Student, slot: Slot, out: Path, args, pin: str) -> Outcome:
    """Fetches and grades one student into CLASS/students/<student>/, in `slot`; why it could
    not, in error.txt there too."""
    folder = out / STUDENTS / student.name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ERROR_FILE).unlink(missing_ok=True)
    outcome = _grade_one(student, slot, folder, out, args, pin)
    if outcome.error:
        write_text_atomic(folder / ERROR_FILE, outcome.error + "\n")
    return outcome


def _grade_one(student: Student, slot: Slot, folder: Path, out: Path, args, pin: str) -> Outcome:
    course, where = slot.course, slot.where
    outcome = Outcome(student)
    try:
        outcome.commit = fetch(student, folder / "checkout")
    except CourseError as e:
        outcome.error = str(e)
        return outcome
    keep_exercises(course, folder / "checkout", folder / EXERCISES)
    key = {"commit": outcome.commit, "pin": pin, "machine": where,
           "lessons": args.lessons or "all",
           **({"counters": "treated as refused"} if args.counters_refused else {}),
           **({"cpu_recording": "earns points"} if args.cpu_recording_points else {}),
           **({"tests": "apart"} if args.tests_apart else {})}
    record = folder / "graded.json"
    if not args.again and record.is_file() and (folder / "score.json").is_file():
        try:
            if json.loads(record.read_text())["key"] == key:
                outcome.score = json.loads((folder / "score.json").read_text())
                outcome.skipped = True
                return outcome
        except (ValueError, KeyError, OSError):
            pass  # an unreadable record: grade again
    for stale in ("score.json", "grade.md", "junit.xml", "graded.json"):
        (folder / stale).unlink(missing_ok=True)
    argv = ["bash", str(course / "tools" / "course" / "grade_run.sh"), "--student",
            str(folder / "checkout"), "--course", str(course), "--heading", student.name,
            "--jobs", str(slot.jobs)]
    if args.lessons:
        argv += ["--lessons", args.lessons]
    if args.pass_mark is not None:
        argv += ["--pass-mark", str(args.pass_mark)]
    if args.counters_refused:
        argv += ["--counters-refused"]
    if args.cpu_recording_points:
        argv += ["--cpu-recording-points"]
    if args.tests_apart:
        argv += ["--tests-apart"]
    with open(folder / "grade.log", "w") as log:
        proc = subprocess.run(argv, cwd=str(course), stdout=log, stderr=subprocess.STDOUT,
                              env=slot.env)
    build = course / "build" / "grade"
    score = build / "score.json"
    if proc.returncode not in (0, 1) or not score.is_file():
        outcome.error = (f"the grading run failed (exit {proc.returncode}): see "
                         f"{(folder / 'grade.log').relative_to(out)}")
        return outcome
    for name in ("score.json", "grade.md", "junit.xml"):
        shutil.copy2(str(build / name), str(folder / name))
    records = folder / "records"
    records.mkdir(exist_ok=True)
    for name in RECORDS:
        if (build / "course" / name).is_file():
            shutil.copy2(str(build / "course" / name), str(records / name))
    outcome.score = json.loads(score.read_text())
    write_text_atomic(record, json.dumps({"key": key, "student": student.name,
                                          "repository": student.repository,
                                          "ref": student.ref}, indent=1) + "\n")
    return outcome


@functools.lru_cache(maxsize=None)
def pinned_starters(course: Path) -> Tuple[Tuple[Lesson, Dict[str, bytes]], ...]:
    """Each lesson with its starter files at the course's HEAD: read once a run (git, a few
    dozen processes), not once a student."""
    return tuple((lesson, course_starters(course, lesson)) for lesson in find_lessons(course))


def keep_exercises(course: Path, checkout: Path, into: Path) -> None:
    """The student's exercise files as graded (those the starters have, regular files only) in
    `into`/NN_topic/: what the similarity check reads, in a folder small enough to bring back
    from every grading job."""
    if into.exists():
        shutil.rmtree(into)
    inside = checkout.resolve()
    for lesson, starters in pinned_starters(course):
        for name in starters:
            mine = checkout / lesson.rel_dir / name
            # A link anywhere on the way (the file, or its lesson's folder) could lead out of
            # the checkout: such a file is not kept.
            if mine.is_file() and not mine.is_symlink() and \
                    mine.resolve().parent == inside / lesson.rel_dir and \
                    mine.stat().st_size <= MAX_EXERCISE_BYTES:
                (into / lesson.folder).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(str(mine), str(into / lesson.folder / name))


def similarity_section(outcomes: List[Outcome], course: Path, reference: Path,
                       out: Path) -> List[str]:
    """similarity.csv, and the summary's section: each student's own work against the reference
    solutions (`reference`/solutions/NN_topic/) and every other student's."""
    why_not = similarity.available()
    if why_not:
        return similarity.report([], why_not)
    starters, ref, students = {}, {}, {}
    for lesson, files in pinned_starters(course):
        for file, data in files.items():
            name = f"{lesson.folder}/{file}"
            starters[name] = data.decode("utf-8", errors="replace")
            solution = reference / "solutions" / lesson.folder / file
            if solution.is_file():
                ref[name] = solution.read_text(encoding="utf-8", errors="replace")
    for o in outcomes:
        kept = out / STUDENTS / o.student.name / EXERCISES
        if o.score is None or not kept.is_dir():
            continue
        students[o.student.name] = {
            f"{p.parent.name}/{p.name}": p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(kept.glob("*/*")) if p.is_file()}
    try:
        matches = similarity.compare(students, starters, ref)
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        return similarity.report([], str(e))
    write_text_atomic(out / "similarity.csv", csv_text(similarity.csv_rows(matches)))
    return similarity.report(matches, None)


def csv_text(rows: List[List[str]]) -> str:
    """Rows as CSV (quoted where a cell needs it), one line each."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue()


def gradebook(outcomes: List[Outcome], labels: List[str]) -> str:
    """gradebook.csv: one row a student, columns an LMS imports."""
    rows = [["student", "commit", *labels, "total", "max", "percent", "trusted", "complete"]]
    for o in outcomes:
        if o.score is None:
            rows.append([o.student.name, o.commit] + [""] * (len(labels) + 5))
            continue
        lessons = o.score.get("lessons", {})
        cells = []
        for label in labels:
            lesson = lessons.get(label, {})
            cells.append(f"{lesson['score']:g}" if lesson.get("graded", True) and lesson else "")
        total = o.score["total"]
        trust = o.score.get("trust") or {}
        rows.append([o.student.name, o.commit, *cells, f"{total['score']:g}", f"{total['max']:g}",
                     f"{total['percent']:g}", "yes" if trust.get("trusted") else "no",
                     "yes" if o.score.get("complete", True) else "no"])
    return csv_text(rows)


def summary(outcomes: List[Outcome], pin: str, where: str) -> str:
    graded = [o for o in outcomes if o.score is not None]
    out = [f"# The class: {len(graded)} of {len(outcomes)} students graded", "",
           f"Pinned course {pin}; machine: {where}.", ""]
    failed = [o for o in outcomes if o.error]
    if failed:
        out += ["## Not graded", ""] + [f"- {o.student.name}: {o.error}" for o in failed] + [""]
    again = [o.student.name for o in outcomes if o.skipped]
    if again:
        out += [f"Not graded again (the same commit, pin and machine as before): "
                f"{', '.join(again)}.", ""]
    built, refused, incomplete = [], [], []
    for o in graded:
        tests = o.score.get("tests", {})
        broken = sorted({t["lesson"] for t in tests.values() if t.get("status") == "did not build"})
        if broken:
            built.append(f"- {o.student.name}: {', '.join(broken)}")
        starter = (o.score.get("trust") or {}).get("starter", {})
        for lesson, what in sorted(starter.items()):
            note = o.score.get("lessons", {}).get(lesson, {}).get("note", "")
            refused.append(f"- {o.student.name}, {lesson}: {note or what}")
        if not o.score.get("complete", True):
            incomplete.append(f"- {o.student.name}: {o.score.get('not_gradable_points', 0):g} of "
                              f"{o.score['total']['max']:g} points not gradable on this machine")
    for heading, lines in (("Lessons that did not build", built),
                           ("Files the policy refused (graded as the starter)", refused),
                           ("Incomplete grades", incomplete)):
        out += [f"## {heading}", ""] + (lines or ["None."]) + [""]
    return "\n".join(out)


def merged(student: Student, out: Path) -> Outcome:
    """A student's outcome as its folder holds it (--merge)."""
    folder = out / STUDENTS / student.name
    outcome = Outcome(student)
    error = folder / ERROR_FILE
    if error.is_file():  # its last grading failed, whatever an earlier one left
        outcome.error = error.read_text().strip()
        return outcome
    try:
        record = json.loads((folder / "graded.json").read_text())
        outcome.commit = record["key"]["commit"]
        outcome.score = json.loads((folder / "score.json").read_text())
        outcome.key = record["key"]
    except FileNotFoundError:
        outcome.error = (f"no results in {folder.relative_to(out)} (its grading job did not "
                         f"finish, or its folder was not brought here)")
    except (ValueError, KeyError, OSError) as e:
        outcome.error = f"unreadable results in {folder.relative_to(out)}: {e}"
    return outcome


def write_class(outcomes: List[Outcome], labels: List[str], out: Path, pin: str,
                where: str, course: Path, reference: Optional[Path]) -> None:
    """gradebook.csv, feedback/ and summary.md of the class folder (with `reference`, the
    similarity section and similarity.csv)."""
    write_text_atomic(out / "gradebook.csv", gradebook(outcomes, labels))
    feedback = out / "feedback"
    feedback.mkdir(exist_ok=True)
    for o in outcomes:
        report = out / STUDENTS / o.student.name / "grade.md"
        if o.score is not None and report.is_file():
            shutil.copy2(str(report), str(feedback / f"{o.student.name}.md"))
    text = summary(outcomes, pin, where)
    if reference is not None:
        text += "\n".join(similarity_section(outcomes, course, reference, out))
    write_text_atomic(out / "summary.md", text)
    print(f"gradebook: {out / 'gradebook.csv'}; summary: {out / 'summary.md'}")


def exit_status(outcomes: List[Outcome], require_complete: bool) -> int:
    if require_complete and any(o.score and not o.score.get("complete", True) for o in outcomes):
        print("grade-class: some grades are incomplete on this machine (summary.md)",
              file=sys.stderr)
        return 3
    return 1 if any(o.error for o in outcomes) else 0


def grade_class(args) -> int:
    students = read_roster(args.roster)
    if args.matrix:
        print(json.dumps([{"student": s.name, "repository": s.repository, "ref": s.ref}
                          for s in students]))
        return 0
    if args.course is None or args.out is None:
        raise CourseError("--course and --out are needed to grade or merge (only --matrix "
                          "works without them)")
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in names if n not in {s.name for s in students}]
        if unknown or not names:
            raise CourseError(f"--only: {', '.join(unknown) or 'no name'} not on the roster "
                              f"{args.roster}")
        students = [s for s in students if s.name in names]
    course = args.course.resolve()
    if not (course / "tools" / "course" / "grade_run.sh").is_file():
        raise CourseError(f"{course} is not the course (no tools/course/grade_run.sh)")
    labels = [lesson.label for lesson in find_lessons(course)]
    reference = args.reference.resolve() if args.reference else None
    if reference is not None and not (reference / "solutions").is_dir():
        raise CourseError(f"--reference {args.reference}: no solutions/ folder there (it is your "
                          f"course, with its reference solutions)")
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    if args.merge:
        outcomes = [merged(s, out) for s in students]
        keys = [o.key for o in outcomes if o.key]
        pins = sorted({k.get("pin", "?") for k in keys}) or ["(none graded)"]
        machines = sorted({k.get("machine", "?") for k in keys}) or ["(none graded)"]
        write_class(outcomes, labels, out, ", ".join(pins), "; ".join(machines), course,
                    reference)
        return exit_status(outcomes, args.require_complete)
    pin = pin_of(course)
    slots = make_slots(course, out, pin, args)
    outcomes = grade_students(students, slots, out, args, pin)
    if not args.only:
        where = "; ".join(sorted({s.where for s in slots}))
        write_class(outcomes, labels, out, pin, where, course, reference)
    return exit_status(outcomes, args.require_complete)


def make_slots(course: Path, out: Path, pin: str, args) -> List[Slot]:
    """The places students are graded: the pinned course itself; or with --gpus one copy of
    its commit a GPU, with --parallel N copies (CLASS/slots/<name>/course)."""
    if not args.gpus and not args.parallel:
        return [Slot(course, machine_of(), args.jobs)]
    if pin.endswith("+modified"):
        raise CourseError(f"{course} has uncommitted changes: each slot grades in a copy of the "
                          f"pinned commit, so commit them first")
    gpus, why = machine.gpu_uuids()
    if args.gpus:
        if not gpus:
            raise CourseError(f"--gpus: no GPU here ({why})")
        wanted = [i for i, _ in gpus] if args.gpus == "all" else \
            [g.strip() for g in args.gpus.split(",") if g.strip()]
        unknown = [g for g in wanted if g not in dict(gpus)]
        if unknown or not wanted:
            raise CourseError(f"--gpus: no GPU {', '.join(unknown) or '(none named)'} here "
                              f"(nvidia-smi lists {', '.join(i for i, _ in gpus)})")
        places = [(f"gpu{i}", f"gpu {i}", dict(gpus)[i]) for i in dict.fromkeys(wanted)]
    else:
        if gpus:
            raise CourseError("--parallel is for a machine without a GPU; here, --gpus grades "
                              "one student on each GPU at once (a timing test must have its "
                              "GPU to itself)")
        places = [(f"cpu{i}", f"cpu {i}", None) for i in range(args.parallel)]
    jobs = max(1, args.jobs // len(places))
    slots = []
    for folder, name, uuid in places:
        copy = out / SLOTS / folder / "course"
        at_pin = (copy / ".git").exists() and \
            git("rev-parse", "HEAD", cwd=copy).stdout.strip() == pin
        if not at_pin:
            shutil.rmtree(copy, ignore_errors=True)
            copy.parent.mkdir(parents=True, exist_ok=True)
            for argv in (["clone", "--quiet", "--shared", "--no-checkout", str(course), str(copy)],
                         ["-C", str(copy), "checkout", "--quiet", "--detach", pin]):
                proc = git(*argv)
                if proc.returncode != 0:
                    raise CourseError(f"cannot make the course copy {copy}: "
                                      f"{proc.stderr.strip()[-300:]}")
        where = machine_of(uuid) if uuid else machine_of()
        slots.append(Slot(copy, where, jobs, uuid, name))
    return slots


def grade_students(students: List[Student], slots: List[Slot], out: Path, args,
                   pin: str) -> List[Outcome]:
    """Every student graded, one at a time in each slot (the next student goes to the first slot
    free); the outcomes in the roster's order."""
    todo: "queue.Queue[Tuple[int, Student]]" = queue.Queue()
    for i, student in enumerate(students):
        todo.put((i, student))
    outcomes: List[Optional[Outcome]] = [None] * len(students)
    lock = threading.Lock()

    def say(slot: Slot, text: str) -> None:
        with lock:
            print(f"{slot.name + ': ' if len(slots) > 1 else ''}{text}", flush=True)

    def work(slot: Slot) -> None:
        while True:
            try:
                i, student = todo.get_nowait()
            except queue.Empty:
                return
            say(slot, f"== {i + 1}/{len(students)} {student.name}")
            start = time.monotonic()
            o = grade_one(student, slot, out, args, pin)
            took = f" in {time.monotonic() - start:.0f} s"
            if o.error:
                say(slot, f"   {student.name} not graded: {o.error}")
            elif o.skipped:
                say(slot, f"   {student.name} graded before at {o.commit[:10]}: not graded again")
            else:
                total = o.score["total"]
                say(slot, f"   {student.name}: {total['score']:g} / {total['max']:g} at "
                          f"{o.commit[:10]}{took}")
            outcomes[i] = o

    threads = [threading.Thread(target=work, args=(slot,)) for slot in slots]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [o for o in outcomes if o is not None]


def main(argv: Optional[List[str]] = None) -> int:
    ap = Parser(prog="grade-class", description=__doc__.split("\n\n")[0])
    ap.add_argument("--roster", type=Path, required=True,
                    help="CSV: student,repository,ref (header line first)")
    ap.add_argument("--course", type=Path, help="the course at the pinned commit")
    ap.add_argument("--out", type=Path, help="the class folder to write")
    ap.add_argument("--lessons", help="grade only these lessons, e.g. 01,03 (default: all)")
    ap.add_argument("--pass-mark", type=percentage, help="each report's pass mark, in percent")
    ap.add_argument("--require-complete", action="store_true",
                    help="exit 3 when a grade has points not gradable on this machine")
    ap.add_argument("--counters-refused", action="store_true",
                    help="grade as if the machine refused the hardware counters "
                         "(grade_run.sh --counters-refused)")
    ap.add_argument("--cpu-recording-points", action="store_true",
                    help="counter tests that pass from the CPU recording earn their points "
                         "(grade_run.sh --cpu-recording-points)")
    ap.add_argument("--tests-apart", action="store_true",
                    help="every test in a process of its own (grade_run.sh --tests-apart)")
    ap.add_argument("--again", action="store_true",
                    help="grade every student, even one graded before at the same commit")
    ap.add_argument("--jobs", "-j", type=int, default=default_jobs(),
                    help="compilations and CPU tests at once (default: the number of CPUs)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--gpus", metavar="all|0,1,...",
                       help="grade one student on each of these GPUs at once (all: every GPU "
                            "nvidia-smi lists), each in a copy of the pinned commit")
    where.add_argument("--parallel", type=positive_int, metavar="N",
                       help="without a GPU: grade N students at once, each in a copy of the "
                            "pinned commit")
    ap.add_argument("--reference", type=Path, metavar="YOUR-COURSE",
                    help="your course with its solutions/: the summary says how much of each "
                         "student's own work is the reference solution's or another student's")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--matrix", action="store_true",
                     help="print the roster as JSON (an Actions matrix) and grade nobody")
    how.add_argument("--only", metavar="NAMES",
                     help="grade only these students (comma-separated), writing only their folders")
    how.add_argument("--merge", action="store_true",
                     help="grade nobody: the gradebook, feedback and summary from CLASS/students/")
    return run_main(PROG, lambda: grade_class(ap.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
