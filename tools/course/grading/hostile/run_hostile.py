#!/usr/bin/env python3
"""The hostile-submission suite: exercise files written as a cheating student would write them
(attacks/*), each graded through the real grading command (tools/course/grade_run.sh) on a
pinned copy of this course, and held to the starter's score.

  ./course-admin hostile [--only NAME ...] [--work DIR] [--keep] [--through grade-class]

Each attack is graded as grade.yml grades one student (grade_run.sh); with --through
grade-class, as a class of one (grade-class, the policy always on, so without the runs of 4),
and the checks of 5 and 6 cover everything the class folder keeps (the student's grade.log,
report, score, records; the gradebook, summary and feedback; a secret not even in the
exercise files it keeps).

What it checks, in one pinned course (this working tree as the student-facing repository: no
solutions), built once, one lesson rebuilt per attack:
  1. the starter's score of every lesson an attack is in (the baseline);
  2. the reference solutions: every test passes that this machine can run (with a GPU, all of
     them; without one, the CPU tests, and the GPU tests are "not gradable here");
  3. every attack, graded with the policy: refused by the rule its file names (or, for the
     ones the policy allows, stopped later), and scored exactly the starter's score;
  4. every attack marked `runtime: yes`, graded again WITHOUT the policy (--no-policy): the
     sandbox and the evidence alone keep it at the starter's score; and once more written into
     the reference solution, where it scores no more than the solution does;
  5. after every run: nothing of the pinned course changed but the overlaid exercise files
     (git status), nothing new in the grader's HOME since the starter's grading (and never
     ~/.course-gpu-env), and the JUnit report is the one the grader wrote (its hash is in the
     evidence);
  6. after every run, nothing that lies outside the sandbox reached what the grading keeps
     (the files grade.yml keeps and the grader's log): the secrets this suite plants where no
     test may read (PLANTED: the instructor's solutions in and beside the course, another
     checkout, the grader's home folder and its records in the build folder; and a variable of
     the grader's environment), nor an attack's `never-reported` texts; and no test's record in
     the JUnit report is longer than the grader keeps of a test's output (grade_tests.py);
  7. the legitimate attempt (predictions worked out with constexpr arithmetic of the student's
     own, as the README explains the counting) is allowed, and scores its prediction tests'
     points; the kit's model, which computes them, is refused (model_predictions).

An attack file starts with `// key: value` lines (attack, lesson, file, refused, runtime, and
any number of `never-reported: TEXT`: what the attack prints only when it got what it wanted),
then its code in sections: `// @top` (after the starter's #include lines), `// @inside`
(after the line that opens the lesson's namespace), `// @replace-function NAME` (instead of
the starter's definition of NAME), `// @replace-line NAME` (instead of the line that gives NAME
its value), `// @new` (a file of its own, named by `file:`), `// @pad N` (N characters more, in
a comment), `// @symlink TARGET` (the file is a link to TARGET), `// @student-manifest` (JSON
merged into the lesson's manifest, lesson.json, in the student's checkout: grading reads the
pinned course's manifest only, so the lesson is worth, and allows, what the pinned one says).
Exit status: 0 when every check holds, 1 otherwise, 2 for bad usage, 77 (skipped, with the
reason) where no sandbox can be made or the exercise policy cannot run.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.model.course_model import ROOT
from course.model.student_repo import left_out, student_presets
from course.grading import grade_tests

HERE = Path(__file__).resolve().parent

LEFT_OUT_TOO = ("build", ".course", ".device", ".gl")
#: The exit status of a run that could not check anything here (ctest reads it as a skip).
SKIP = 77
#: Where the suite plants a secret that no test may read (paths from the working folder, which
#: holds the course, the students' checkouts and the grader's home folder side by side).
PLANTED = {
    "the instructor's solutions in the graded course": "course/solutions/01_no_conflict/answers.md",
    "the instructor's solutions beside it": "solutions/01_no_conflict/exercise.hpp",
    "another checkout on the runner": "other-checkout/lessons/01_no_conflict/exercise.hpp",
    "the grader's home folder": "grader-home/.ssh/id_ed25519",
    "the grader's records in the build folder": "course/build/grade/course/policy-secret.json",
}
#: What a grading keeps (grade.yml's artifacts), from the build folder.
KEPT = ("junit.xml", "score.json", "grade.md", "course/build-status.json", "course/build-lesson*.log",
        "course/overlay.json", "course/machine.json", "course/evidence.json")
#: The two ways an instructor grades: one student (grade_run.sh), or a class (grade-class).
GRADE_RUN, GRADE_CLASS = "grade_run", "grade-class"
#: The most a test's record in the JUnit report may hold of what it printed.
RECORD_CHARS = ((grade_tests.MEASURED_LINES + 3) * (grade_tests.LINE_CHARS + 64)
                + grade_tests.KEPT_BYTES + 1024)


@dataclass
class Attack:
    name: str
    path: Path
    meta: Dict[str, str]
    sections: Dict[str, str]

    @property
    def lesson(self) -> str:
        return self.meta["lesson"]

    @property
    def file(self) -> str:
        return self.meta.get("file", "exercise.hpp")

    @property
    def runtime(self) -> bool:
        return self.meta.get("runtime", "").startswith("yes")

    @property
    def rule(self) -> str:
        return self.meta.get("refused", "")

    @property
    def never_reported(self) -> List[str]:
        return re.findall(r"^// never-reported: (.+)$", self.path.read_text(), re.M)

    @property
    def allowed(self) -> bool:
        """The policy lets it through (legitimate, or stopped by something else)."""
        return self.rule.startswith(("nothing", "ignored")) or self.meta.get("expect") == "allowed"


def attack_files() -> List[Path]:
    """The attacks: every .hpp and .cu file of attacks/."""
    return sorted(p for p in (HERE / "attacks").iterdir() if p.suffix in (".hpp", ".cu"))


def read_attack(path: Path) -> Attack:
    meta: Dict[str, str] = {}
    sections: Dict[str, List[str]] = {}
    current: Optional[str] = None
    for line in path.read_text().splitlines():
        m = re.match(r"^// @([a-z-]+)(?: (\S+))?\s*$", line)
        if m:
            current = m.group(1) + (f" {m.group(2)}" if m.group(2) else "")
            sections[current] = []
            continue
        if current is None:
            m = re.match(r"^// (\w+): (.*)$", line)
            if m:
                meta[m.group(1)] = m.group(2).strip()
            continue
        sections[current].append(line)
    for key in ("attack", "lesson"):
        if key not in meta:
            raise SystemExit(f"{path}: no `// {key}:` line")
    return Attack(path.stem, path, meta, {k: "\n".join(v) + "\n" for k, v in sections.items()})


def apply(attack: Attack, starter: str) -> str:
    """The attack's file: the starter with the attack's sections put in."""
    if "new" in attack.sections:
        return attack.sections["new"]
    for key in attack.sections:
        if key.startswith("pad "):
            return starter + "// " + "x" * int(key.split()[1]) + "\n"
    lines = starter.splitlines(keepends=True)
    out = list(lines)
    for key, text in attack.sections.items():
        if key.startswith("replace-line "):
            name = key.split()[1]
            i = next(i for i, l in enumerate(out) if re.search(rf"\b{name} =", l))
            out[i] = text
        if key.startswith("replace-function "):
            name = key.split()[1]
            start = next(i for i, l in enumerate(out) if re.search(rf"\b{name}\(", l) and "{" in l)
            end = next(i for i in range(start, len(out)) if out[i].startswith("}"))
            out[start:end + 1] = [text]
    if "inside" in attack.sections:
        i = next(i for i, l in enumerate(out) if re.match(r"^namespace lesson\d\d \{", l))
        out.insert(i + 1, attack.sections["inside"])
    if "top" in attack.sections:
        last = max((i for i, l in enumerate(out) if l.startswith("#include")), default=0)
        out.insert(last + 1, attack.sections["top"])
    return "".join(out)


# ------------------------------------------------------------------------------------------

def sh(argv: List[str], cwd: Path, env: Optional[dict] = None) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=str(cwd), capture_output=True, text=True, env=env)


def pinned_course(work: Path) -> Path:
    """This working tree as the student-facing repository (no solutions), in a git repository
    of its own: the course an instructor pins."""
    course = work / "course"
    listing = sh(["git", "ls-files", "-co", "--exclude-standard", "-z"], ROOT)
    if listing.returncode != 0:
        raise SystemExit(f"git ls-files failed in {ROOT}: {listing.stderr.strip()}")
    for rel in listing.stdout.split("\0"):
        if not rel or left_out(rel) or rel.split("/")[0] in LEFT_OUT_TOO:
            continue
        src = ROOT / rel
        if not src.is_file():
            continue
        dst = course / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(str(src), str(dst))
    presets = course / "CMakePresets.json"
    presets.write_text(student_presets(presets.read_text()))
    commit_all(course, "Course", "pinned")
    return course


def commit_all(folder: Path, who: str, message: str) -> None:
    """`folder` made a git repository of one commit of everything in it."""
    ident = ["-c", f"user.name={who}", "-c", f"user.email={who.lower()}@localhost"]
    for argv in (["git", "init", "-q"], ["git", "add", "-A"],
                 ["git", *ident, "commit", "-q", "-m", message]):
        proc = sh(argv, folder)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} in {folder}: {proc.stderr.strip()}")


def student_repo(course: Path, work: Path, name: str, files: Dict[str, bytes],
                 links: Optional[Dict[str, str]] = None) -> Path:
    """A student's repository: the starters, with `files` (lessons/NN_topic/name -> bytes) and
    `links` (lessons/NN_topic/name -> where the symbolic link points)."""
    student = work / "students" / name
    if student.exists():
        shutil.rmtree(student)
    pristine = work / "starters"
    if not pristine.exists():  # the starters as pinned, whatever a grading left on disk since
        proc = subprocess.run(["git", "archive", "--format=tar", "HEAD", "lessons"],
                              cwd=str(course), capture_output=True)
        pristine.mkdir()
        subprocess.run(["tar", "-x", "-C", str(pristine)], input=proc.stdout, check=True)
    shutil.copytree(str(pristine / "lessons"), str(student / "lessons"))
    for rel, data in files.items():
        (student / rel).write_bytes(data)
    for rel, target in (links or {}).items():
        (student / rel).unlink()
        (student / rel).symlink_to(target)
    return student


@dataclass
class Graded:
    score: Dict[str, float]
    max: Dict[str, float]
    status: Dict[str, Dict[str, int]]
    overlay: dict
    trusted: bool
    problems: List[str] = field(default_factory=list)
    seconds: float = 0.0
    log: str = ""


class Grader:
    """Grades a student as an instructor would, through `through`: grade_run.sh (what
    grade.yml runs for one student) or grade-class (a class of one, with the policy always),
    and checks what the grading left and kept."""

    def __init__(self, course: Path, work: Path, jobs: int, build_timeout: float,
                 through: str = GRADE_RUN):
        self.course, self.work, self.jobs, self.build_timeout = course, work, jobs, build_timeout
        self.through = through
        self.home = work / "grader-home"
        self.home.mkdir(exist_ok=True)
        self.home_before: Optional[set] = None
        self.secret = f"course-hostile-secret-{os.urandom(8).hex()}"
        self.plant()

    def plant(self) -> None:
        """A secret in each place of PLANTED (the course's ignores its solutions/, as an
        instructor's checkout would hold them)."""
        for what, rel in PLANTED.items():
            path = self.work / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{self.secret}: {what}\n")
        with open(self.course / ".git" / "info" / "exclude", "a") as f:
            f.write("/solutions/\n")

    def grade(self, student: Path, lessons: List[str], policy: bool = True,
              never_reported: List[str] = ()) -> Graded:
        env = dict(os.environ, HOME=str(self.home),
                   COURSE_HOSTILE_GRADER_ONLY=f"{self.secret}: the grader's environment")
        env.pop("COURSE_HIDDEN_TESTS", None)
        build = self.course / "build" / "grade"
        if self.through == GRADE_CLASS:
            if not policy:
                raise ValueError("grade-class always holds the exercise files to the policy")
            argv = self.class_of_one(student, lessons)
        else:
            argv = ["bash", str(self.course / "tools/course/grade_run.sh"), "--student",
                    str(student), "--course", str(self.course), "--lessons", ",".join(lessons),
                    "--jobs", str(self.jobs), "--build-timeout", str(self.build_timeout)]
            if not policy:
                argv.append("--no-policy")
        start = time.monotonic()
        proc = sh(argv, self.work, env)
        seconds = time.monotonic() - start
        log = proc.stdout + proc.stderr
        if self.through == GRADE_CLASS:
            # What the class folder keeps of the student, and the records grade-class copied.
            folder = self.work / "class" / "students" / student.name
            kept = self.class_kept(student.name)
            score_path, records, junit_path = folder / "score.json", folder / "records", \
                folder / "junit.xml"
        else:
            kept = {str(path.relative_to(build)): path.read_text(errors="replace")
                    for pattern in KEPT for path in sorted(build.glob(pattern))}
            score_path, records, junit_path = build / "score.json", build / "course", \
                build / "junit.xml"
        try:
            score = json.loads(score_path.read_text())
        except (OSError, ValueError):
            grading_log = kept.get(f"students/{student.name}/grade.log", "")
            raise SystemExit(f"grading {student.name} through {self.through} wrote no score "
                             f"(exit {proc.returncode}):\n{log[-4000:]}{grading_log[-4000:]}")
        overlay = json.loads((records / "overlay.json").read_text())
        counts: Dict[str, Dict[str, int]] = {}
        for t in score["tests"].values():
            c = counts.setdefault(t["lesson"], {})
            c[t["status"]] = c.get(t["status"], 0) + 1
        g = Graded({k: v["score"] for k, v in score["lessons"].items() if v.get("graded", True)},
                   {k: v["max"] for k, v in score["lessons"].items() if v.get("graded", True)},
                   counts, overlay, bool((score.get("trust") or {}).get("trusted")),
                   seconds=seconds, log=log)
        g.problems += self.course_untouched(overlay)
        g.problems += self.home_untouched()
        evidence = json.loads((records / "evidence.json").read_text())
        import hashlib
        if hashlib.sha256(junit_path.read_bytes()).hexdigest() != evidence["junit_sha256"]:
            g.problems.append(f"{junit_path.name} is not the report the grader wrote")
        junit_text = junit_path.read_text(errors="replace")
        g.problems += self.nothing_leaked(dict(kept, **{"the grader's log": log}), junit_text,
                                          never_reported, self.student_own(student.name))
        return g

    def class_of_one(self, student: Path, lessons: List[str]) -> List[str]:
        """grade-class's command for a class of one, `student` (made a git repository, as a
        roster names one); its class folder is work/class."""
        if not (student / ".git").exists():
            commit_all(student, "Student", "my work")
        roster = self.work / "roster.csv"
        roster.write_text(f"student,repository,ref\n{student.name},{student},\n")
        # The instructor's own checkout runs grade-class (the pinned course is the students'
        # repository, which has no course-admin); each grading runs the pinned grade_run.sh.
        return [sys.executable, "-B", str(ROOT / "course-admin"), "grade-class",
                "--roster", str(roster),
                "--course", str(self.course), "--out", str(self.work / "class"), "--lessons",
                ",".join(lessons), "--jobs", str(self.jobs), "--again"]

    def class_kept(self, name: str) -> Dict[str, str]:
        """Everything grade-class wrote of the class and of the student `name` but the
        student's own files (checkout/, exercise/), by path from the class folder."""
        out = self.work / "class"
        own = {out / "students" / name / part for part in ("checkout", "exercise")}
        paths = [out / "gradebook.csv", out / "summary.md", out / "feedback" / f"{name}.md"] + \
            [p for p in sorted((out / "students" / name).rglob("*"))
             if p.is_file() and not any(o in p.parents for o in own)]
        return {str(p.relative_to(out)): p.read_text(errors="replace")
                for p in paths if p.is_file() and not p.is_symlink()}

    def student_own(self, name: str) -> Dict[str, str]:
        """The student's exercise files grade-class kept (exercise/): the student's own text,
        so an attack's never-reported texts may stand there, but no secret may."""
        kept = self.work / "class" / "students" / name / "exercise"
        if self.through != GRADE_CLASS or not kept.is_dir():
            return {}
        return {str(p.relative_to(self.work / "class")): p.read_text(errors="replace")
                for p in sorted(kept.rglob("*")) if p.is_file()}

    def nothing_leaked(self, kept: Dict[str, str], junit_text: str, never_reported: List[str],
                       own: Dict[str, str]) -> List[str]:
        """Nothing planted outside the sandbox, nor what an attack prints when it read it, in
        what the grading keeps (`kept`, by name; `own`: the student's own files it keeps, where
        only the secrets are looked for); no test's record longer than the grader keeps."""
        problems = []
        for name, text in list(kept.items()) + list(own.items()):
            for line in text.splitlines():
                if self.secret in line:
                    problems.append(f"{name} holds a secret from outside the sandbox: {line[:160]}")
                    break
            for never in never_reported if name in kept else ():
                if never in text:
                    problems.append(f"{name} holds what the attack prints once it got what it "
                                    f"wanted: {never}")
        for case in ET.fromstring(junit_text or "<testsuite/>").iter("testcase"):
            out = case.findtext("system-out") or ""
            if len(out) > RECORD_CHARS:
                problems.append(f"junit.xml keeps {len(out)} characters of what "
                                f"{case.get('name')} printed (at most {RECORD_CHARS})")
        return problems

    def course_untouched(self, overlay: dict) -> List[str]:
        """Nothing of the pinned course changed but the exercise files the grader took."""
        taken = {f"{lesson_dir(self.course, label)}/{name}"
                 for label, o in overlay["lessons"].items() for name in o.get("taken", [])}
        proc = sh(["git", "status", "--porcelain", "--untracked-files=all"], self.course)
        changed = [line[3:] for line in proc.stdout.splitlines()]
        return [f"the course changed: {path}" for path in changed if path not in taken]

    def home_untouched(self) -> List[str]:
        """Nothing new in the grader's HOME since the first grading (whose own steps may leave
        what the toolkit keeps there, such as CMake's GPU probe's ~/.nv), and never the file
        gpu-env.sh used to source."""
        now = {str(p.relative_to(self.home)) for p in self.home.rglob("*")}
        if self.home_before is None:
            self.home_before = now
        new = sorted(now - self.home_before)
        if (self.home / ".course-gpu-env").exists() and ".course-gpu-env" not in new:
            new.append(".course-gpu-env")
        return [f"the grader's HOME holds {name}" for name in new]


def lesson_dir(course: Path, label: str) -> str:
    number = label[len("lesson"):]
    return next(f"lessons/{d.name}" for d in (course / "lessons").iterdir()
                if d.name.startswith(number + "_"))


# ------------------------------------------------------------------------------------------

def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="only these attacks (file names without suffix)")
    ap.add_argument("--work", type=Path, help="the working folder (default: a new temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the working folder")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--build-timeout", type=float, default=90,
                    help="seconds a lesson's build may take (the compile-time bomb's limit)")
    ap.add_argument("--through", choices=(GRADE_RUN, GRADE_CLASS), default=GRADE_RUN,
                    help="grade each as one student (grade_run.sh, the default) or as a class "
                         "of one (grade-class, which always holds the files to the policy: "
                         "no runs without it)")
    ap.add_argument("--no-runtime", action="store_true", help="skip the runs without the policy")
    ap.add_argument("--runtime-only", action="store_true",
                    help="only the runs without the policy (with --only: a part of a longer run)")
    args = ap.parse_args(argv)
    from course.grading.sandbox import Sandbox
    box = Sandbox.probe()
    if not box.isolated:
        print(f"Skipped\nno sandbox can be made here: {box.reason}\n[  SKIPPED ] hostile")
        return SKIP
    try:
        from course.policy import exercise_policy
        exercise_policy.load_lexer()
    except Exception as e:
        print(f"Skipped\nthe exercise policy cannot run here: {e}\n[  SKIPPED ] hostile")
        return SKIP
    attacks = [read_attack(p) for p in attack_files()]
    if args.only:
        attacks = [a for a in attacks if a.name in args.only]
        if not attacks:
            ap.error(f"no attack named {', '.join(args.only)}")
    work = args.work or Path(tempfile.mkdtemp(prefix="course-hostile-"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    failures: List[str] = []
    rows: List[Tuple[str, str, str, str]] = []
    try:
        course = pinned_course(work)
        grader = Grader(course, work, args.jobs, args.build_timeout, args.through)
        lessons = sorted({a.lesson for a in attacks})
        starters = {}
        for label in lessons:
            folder = lesson_dir(course, f"lesson{label}")
            starters[label] = {p.name: p.read_text() for p in (course / folder).glob("exercise*")}

        base = grader.grade(student_repo(course, work, "starter", {}), lessons)
        print(f"starter: {base.score} ({base.seconds:.0f} s)", flush=True)
        failures += [f"starter: {p}" for p in base.problems]
        if not base.trusted:
            failures.append("starter: the grade of the starter is not a trusted grade")

        solved: Dict[str, bytes] = {}
        for label in lessons:
            folder = lesson_dir(course, f"lesson{label}")
            for p in (ROOT / "solutions" / folder.split("/")[1]).glob("exercise*"):
                solved[f"{folder}/{p.name}"] = p.read_bytes()
        sol = grader.grade(student_repo(course, work, "solutions", solved), lessons)
        print(f"solutions: {sol.score} ({sol.seconds:.0f} s)", flush=True)
        failures += [f"solutions: {p}" for p in sol.problems]
        for label in lessons:
            counts = sol.status.get(f"lesson{label}", {})
            bad = {k: v for k, v in counts.items() if k not in ("passed", "not gradable here")}
            if bad:
                failures.append(f"solutions: lesson{label} has tests that did not pass: {bad}")

        # Every attack with the policy first (a refused one leaves the starter in place, so
        # nothing is rebuilt), then the runtime ones without it (each rebuilds its lesson).
        runs = [] if args.runtime_only else \
            [(a, "policy", True) for a in sorted(attacks, key=lambda a: (a.allowed, a.name))]
        if args.through == GRADE_CLASS:
            if args.runtime_only:
                ap.error("--runtime-only: grade-class has no runs without the policy")
            print("through grade-class: every attack with the policy (grade-class always holds "
                  "the files to it)", flush=True)
        elif not args.no_runtime:
            runs += [(a, "no policy", False) for a in attacks if a.runtime]
            # ... and written into the solution: no attack lifts a solved lesson's score.
            runs += [(a, "solution", False) for a in attacks if a.runtime and
                     f"{lesson_dir(course, f'lesson{a.lesson}')}/{a.file}" in solved]
        for attack, run_name, policy in runs:
            folder = lesson_dir(course, f"lesson{attack.lesson}")
            starter = starters[attack.lesson].get(attack.file, "")
            if run_name == "solution":
                starter = solved[f"{folder}/{attack.file}"].decode()
            links = {f"{folder}/{attack.file}": k.split(" ", 1)[1]
                     for k in attack.sections if k.startswith("symlink ")}
            files = {} if links else {f"{folder}/{attack.file}": apply(attack, starter).encode()}
            if "student-manifest" in attack.sections:
                pinned = json.loads((course / folder / "lesson.json").read_text())
                pinned.update(json.loads(attack.sections["student-manifest"]))
                files[f"{folder}/lesson.json"] = json.dumps(pinned).encode()
            student = student_repo(course, work, attack.name, files, links)
            label = f"lesson{attack.lesson}"
            g = grader.grade(student, [attack.lesson], policy, attack.never_reported)
            problems = list(g.problems)
            got, want = g.score.get(label), base.score.get(label)
            if run_name == "solution":
                want = sol.score.get(label)
                if got is None or want is None or got > want:
                    problems.append(f"scored {got}, more than the solution's {want}")
            elif attack.meta.get("expect") == "allowed":
                if got is None or got <= want:
                    problems.append(f"the legitimate attempt scored {got}, not more than the "
                                    f"starter's {want}")
            elif got != want:
                problems.append(f"scored {got}, the starter {want}")
            if g.max.get(label) != base.max.get(label):
                problems.append(f"the lesson was worth {g.max.get(label)}, as pinned "
                                f"{base.max.get(label)}")
            o = g.overlay["lessons"][label]
            verdict = o["files"]
            if policy and not attack.allowed:
                rules = {m.group(1) for m in (re.search(r"\[([^\]]+)\]", r) for r in o["refused"]) if m}
                if not o["refused"]:
                    problems.append("the policy did not refuse it")
                elif attack.rule not in rules and not any(attack.rule in r for r in o["refused"]):
                    problems.append(f"refused by {sorted(rules)}, not by [{attack.rule}]")
                verdict = ", ".join(sorted(rules)) or "; ".join(o["refused"])
            elif policy and attack.rule.startswith("ignored"):
                if not o["ignored"]:
                    problems.append("the new file was not reported as ignored")
                verdict = "ignored: " + "; ".join(o["ignored"])[:60]
            elif policy and o["refused"]:
                problems.append(f"the policy refused it: {o['refused'][:2]}")
            whose = "solution" if run_name == "solution" else "starter"
            rows.append((attack.name, run_name, verdict[:48],
                         f"{got} ({whose} {want})" + ("" if not problems else "  FAIL")))
            print(f"{attack.name} [{run_name}]: {verdict[:60]}; score {got} ({whose} {want}); "
                  f"{g.seconds:.0f} s" + "".join(f"\n    PROBLEM: {p}" for p in problems),
                  flush=True)
            failures += [f"{attack.name} [{run_name}]: {p}" for p in problems]
    finally:
        if not args.keep and args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{len(attacks)} attacks, {len(rows)} gradings, {time.monotonic() - t0:.0f} s")
    width = max((len(r[0]) for r in rows), default=10)
    for r in rows:
        print(f"  {r[0]:<{width}}  {r[1]:<9}  {r[2]:<48}  {r[3]}")
    if failures:
        print("\nFAILED:")
        for f in failures:
            print(f"  {f}")
        return 1
    print("every attack scored the starter's score" +
          ("" if args.through == GRADE_CLASS or args.no_runtime else
           " (written into the solution, no more than the solution's)") +
          f"; the solutions passed (through {args.through})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
