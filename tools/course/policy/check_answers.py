#!/usr/bin/env python3
"""Questions in view, answers out of it: the check, over every lesson.

A lesson's answers are what its reference solution (`solutions/NN_topic/exercise.*`) changes
from the starter, as code tokens (answer_units.py: values, type aliases, function bodies, the
parts of each). None may stand in what a student reads before committing to an answer: the
lesson's folder — README.md, demo.hpp, demo.cu, internal.cuh, the starter's own comments, the
pictures under images/, hints.md (the hints give the idea and where to look, the last one
included, never the code); nor in the lesson's tests (tests/NN_topic, which the student
repository ships: its twins, its expectations); nor in the course's own pages and sources
(COURSE_PAGES: the course README, docs/*.md, the kit, the tools, the lessons' manifests as the
student repository holds them; what it leaves out, as the tools' and the kit's own tests, is
not read). Found anyway: a finding, with the file and line, unless the lesson's manifest
(lessons/NN_topic/lesson.json, `answer_exceptions`) lists that place with its reason.

The same run also checks, mechanically:
  - no README has a heading about answers (the answers are in solutions/NN_topic/answers.md,
    which ./course shows once the lesson's CPU part passes: course.model.answers), nor a
    measured block (measured figures answer predictions: they stand in answers.md);
  - no comment of a lesson's demo.hpp or demo.cu, nor of the starter's exercise.hpp or
    exercise.cu, states a cost (wavefronts, n-way, conflict-free, a pattern's lanes all in one
    bank), unless the manifest lists it (origin `cost`) with its reason; a starter's comment
    may set the student's goal ("Make both cost 1 wavefront"); no guard test's name
    (tests/NN_topic/*_guard_*_test.cpp) states what it finds;
  - every lesson with a solution has its answers.md, whose pictures exist beside it;
  - with --bank-map: no `bank-map` command a README prints, no picture it shows, and no
    command a starter's test message offers draws a pattern one of the lesson's predictions
    asks about (the patterns are read from the lesson's prediction tests:
    prediction_patterns.py);
  - with --build-dir: the starter's CPU test programs, run as the student first runs them, print
    no answer in their failure messages, and no count (wavefronts, a ratio, an ideal, a phase's
    cost) that equals one of the lesson's predictions (2 and more) before the student has
    written them down;
  - every prediction of a lesson's starter is listed in tests/NN_topic/predictions.hpp, which
    holds such counts back (in messages and in the GPU tests' measurement lines).

  ./course-admin check-answers                       # every lesson
  ./course-admin check-answers --lesson 07 --units   # what counts as lesson 07's answers

Exit status: 0 no finding, 1 findings (listed, one a line), 2 bad usage or a course it cannot
read, 77 skipped (libclang's lexer, which reads the C++, is not installed here).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from course.model import answers
from course.model.cli import Parser, lesson_number, run_main
from course.model.course_model import (CourseError, Lesson, ROOT, STUDENT_FILE_PATTERN,
                                       find_lessons)
from course.model.manifest import MANIFEST, AnswerException, manifest_json, read_manifest
from course.model.student_repo import left_out, student_manifest
from course.policy.answer_units import (CXX_SUFFIXES, Token, Unit, answer_units, code_tokens,
                                        declaration_at, function_at, lesson_constants,
                                        occurrences, section_of, sections, statement_start,
                                        text_tokens, view_tokens)
from course.policy.check_predictions import initialised
from course.policy.cxx_tokens import LexerUnavailable, load_lexer
from course.policy.findings import Finding

PROG = "check_answers"
#: The exit status of a run that could not read C++ here (no lexer): ctest reads it as a skip.
SKIP = 77
#: Suffixes of a lesson folder's text files (anything else is a picture format or binary).
TEXT_SUFFIXES = {".md", ".hpp", ".cuh", ".cu", ".cpp", ".h", ".svg", ".txt", ".py", ".json", ".sh",
                 ".in"}


#: The course's own pages a student reads whatever the lesson (README.md, docs/*.md: the site;
#: the hidden-test examples instructors copy; the kit's headers: its API pages): no lesson's
#: answer may stand there either.
COURSE_PAGES = ("README.md", "docs/*.md", "docs/examples/**/*", "common/include/kit/*.hpp",
                "common/src/*", "tests/common/*", "lessons/*/lesson.json", "tools/**/*")

#: A measured block in a lesson's README: measured figures answer its predictions, so a
#: lesson's blocks stand in its answers (tools/docs/readme_blocks.py renders them there).
MEASURED_BLOCK = re.compile(r"^<!--\s*measured:(\S+)\s*-->")

#: What the comments of a lesson's demo files and of its starter files may not say of a
#: pattern: its cost (wavefronts, an n-way conflict, conflict-free), or that its lanes meet in
#: one bank ("all in bank c", "every row is in bank c"), which is what a lesson's predictions
#: ask. The tests and the answers say it.
DEMO_FILES = ("demo.hpp", "demo.cu")
STARTER_FILES = ("exercise.hpp", "exercise.cu")
COST_IN_A_COMMENT = re.compile(
    r"\b(?:\d+|one|two|three|four|eight|sixteen|thirty-two)[ -]wavefronts?\b"
    r"|\bconflict-free\b|\b\d+-way\b|\bno (?:bank )?conflicts?\b|\bwithout (?:a )?conflicts?\b"
    r"|\b(?:all|both)(?: \w+)? in (?:bank \w+|one bank|the same bank|a single bank)\b"
    r"|\b(?:every|each) \w+(?: of \w+)? (?:(?:is|are|lies|lie|starts|start) )?"
    r"in (?:bank \w+|one bank|the same bank|a single bank)\b",
    re.I)
#: A starter's comment may state the cost the student's code must reach, the ideal, in a
#: sentence that sets it as a goal ("Make both cost 1 wavefront", "a column read must cost 1
#: wavefront", "fix partial_offset so that every access costs 1 wavefront"): the README states
#: the goal too. Any other cost a starter's comment states is a
#: finding, goal or not.
GOAL_IN_A_SENTENCE = re.compile(r"\b(?:make|must|fix)\b", re.I)
IDEAL_COST = re.compile(r"(?:1|one)[ -]wavefront|conflict-free|no (?:bank )?conflicts?"
                        r"|without (?:a )?conflicts?", re.I)
#: The origin a lesson's manifest names to let a demo comment state a cost (with its reason).
COST_ORIGIN = "cost"
#: What a comment of the lesson's tests may not say either: a slowdown the demos show ("about
#: 2x", "model 32x", "(0.5x"), which the slowdown predictions ask. Not a shape ("32x32").
RATIO_IN_A_COMMENT = re.compile(r"(?<![\w.])\d+(?:\.\d+)?x(?![\w])")

#: What a guard test's name may not say: a cost or a speed it finds (ctest lists every name
#: before the student has committed to a prediction). An exercise test's name states a goal
#: ("OneWavefrontPerRequest" once the layout is fixed), which the README states too.
COST_IN_A_NAME = re.compile(
    r"(?:One|Two|Three|Four|Eight|Sixteen|ThirtyTwo|\d+)(?:Way|Wavefronts?)\b|TwiceAsSlow"
    r"|AsFastAs(?!TheConflictFreeTwin)|IsOneWavefront|CostsOne|(?<=[a-z])ConflictFree\b"
    r"|IsABroadcast|AtThe(?:ir)?Ideal|CostsWhat")


# ------------------------------------------------------------------------------------------
# The answers of a lesson
# ------------------------------------------------------------------------------------------

def solution_files(answers_root: Path, lesson: Lesson) -> List[Path]:
    folder = answers_root / "solutions" / lesson.folder
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and p.match(STUDENT_FILE_PATTERN) and p.suffix in (".hpp", ".cu"))


def lesson_units(answers_root: Path, lesson: Lesson) -> List[Tuple[Path, Unit]]:
    """(the solution file, the unit) for every answer of the lesson."""
    found = []
    folder = answers_root / "lessons" / lesson.folder
    constants = lesson_constants(
        p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())
        if p.suffix in CXX_SUFFIXES and not p.name.startswith("exercise."))
    for solution in solution_files(answers_root, lesson):
        starter = folder / solution.name
        if not starter.is_file():
            raise CourseError(f"{solution.relative_to(answers_root)} has no starter "
                              f"lessons/{lesson.folder}/{solution.name}")
        units = answer_units(starter.read_text(encoding="utf-8"),
                             solution.read_text(encoding="utf-8"), solution.suffix == ".cu",
                             constants)
        found += [(solution, u) for u in units]
    return found


# ------------------------------------------------------------------------------------------
# What the student reads
# ------------------------------------------------------------------------------------------

def view_files(view_root: Path, lesson: Lesson, room: str = "lessons") -> List[Path]:
    """Every text file of the lesson's folder in `room` that the student reads before
    answering: lessons/NN_topic, all of it, hints.md included (a hint gives the idea and where
    to look, never the code); tests/NN_topic, which travels with the student repository (its
    twins find their layouts with the model rather than state them)."""
    folder = view_root / room / lesson.folder
    return [p for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix in TEXT_SUFFIXES]


def where_in(path: Path, text: str, tokens: Sequence[Token], line: int) -> Tuple[str, int]:
    """(the place an exception names: the README's section or the C++ declaration, the line
    to report)."""
    if path.suffix == ".md":
        return section_of(sections(text), line), line
    if path.suffix in CXX_SUFFIXES:
        code = code_tokens(text)
        start = statement_start(code, line)
        return function_at(code, start) or declaration_at(code, start), line
    return "", line


def exception_for(lesson: Lesson, rel: str, where: str,
                  origin: str) -> Optional[Tuple[str, AnswerException]]:
    """The lesson's answer exception (its manifest's `answer_exceptions`) for this place."""
    for e in lesson.manifest.answer_exceptions:
        if (e.file, e.where, e.origin) == (rel, where, origin):
            return lesson.number, e
    return None


def view_text(view_root: Path, path: Path) -> str:
    """The text a student reads at `path`: a lesson's manifest as the student repository holds
    it (student_repo.student_manifest: without the answers' pictures and the exceptions)."""
    lessons = view_root / "lessons"
    if path.name == MANIFEST and path.parent.parent == lessons:
        m = read_manifest(path.parent, path.parent.name[:2], str(path.relative_to(view_root)))
        return manifest_json(student_manifest(m))
    return path.read_text(encoding="utf-8", errors="replace")


def answers_in_view(view_root: Path, answers_root: Path, lesson: Lesson, used: set,
                    files: Optional[List[Path]] = None, base: Optional[Path] = None) -> List[Finding]:
    """Findings for the lesson's answers in `files` (default: the lesson's folder), named from
    `base` (default: the lesson's folder) in the manifest's answer exceptions."""
    units = lesson_units(answers_root, lesson)
    findings = []
    base = base or view_root / "lessons" / lesson.folder
    for path in files if files is not None else view_files(view_root, lesson):
        text = view_text(view_root, path)
        tokens = view_tokens(path, text)
        rel = path.relative_to(base).as_posix()
        shown = path.relative_to(view_root).as_posix()
        reported = set()
        for solution, unit in units:
            for line in occurrences(tokens, unit):
                where, line = where_in(path, text, tokens, line)
                exception = exception_for(lesson, rel, where, unit.origin)
                if exception:
                    used.add(exception)
                    continue
                key = (line, unit.origin)
                if key in reported:
                    continue  # one finding per answer and line (a value and its part)
                reported.add(key)
                place = f" ({where})" if where else ""
                findings.append(Finding(
                    shown, line,
                    f"the answer `{unit.text}` ({unit.origin}, "
                    f"{solution.relative_to(answers_root).as_posix()}:{unit.line}) stands here"
                    f"{place}"))
    return findings


# ------------------------------------------------------------------------------------------
# README and answers.md
# ------------------------------------------------------------------------------------------

def readme_structure(view_root: Path, answers_root: Path, lesson: Lesson) -> List[Finding]:
    findings = []
    readme = view_root / "lessons" / lesson.folder / "README.md"
    rel = f"lessons/{lesson.folder}/README.md"
    if readme.is_file():
        for line, _level, heading in sections(readme.read_text(encoding="utf-8")):
            if re.search(r"\banswers?\b", heading, re.I):
                findings.append(Finding(rel, line, f"a heading about answers ('{heading}'): "
                                                   f"the answers go to solutions/{lesson.folder}/"
                                                   f"{answers.ANSWERS_FILE}"))
    if not solution_files(answers_root, lesson):
        return findings
    path = answers.answers_path(answers_root, lesson)
    rel = path.relative_to(answers_root).as_posix()
    if not path.is_file():
        return findings + [Finding(rel, 0, "missing: every lesson with a solution has its "
                                           "answers here")]
    text = path.read_text(encoding="utf-8")
    first = text.split("\n", 1)[0]
    if first.strip() != f"# Lesson {lesson.number}: answers":
        findings.append(Finding(rel, 1, f"the first line is '{first}', not "
                                        f"'# Lesson {lesson.number}: answers'"))
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if "://" in target:
            continue
        if not target.startswith("images/") or not (path.parent / target).is_file():
            findings.append(Finding(rel, 0, f"links to {target}: an answers file shows only "
                                            f"its own pictures (images/...), which travel with "
                                            f"it"))
    return findings


def measured_blocks_in_view(view_root: Path, lesson: Lesson) -> List[Finding]:
    """A measured block in the lesson's README: its figures answer the predictions."""
    readme = view_root / "lessons" / lesson.folder / "README.md"
    if not readme.is_file():
        return []
    findings = []
    for i, line in enumerate(readme.read_text(encoding="utf-8").split("\n"), 1):
        m = MEASURED_BLOCK.match(line.strip())
        if m:
            findings.append(Finding(f"lessons/{lesson.folder}/README.md", i,
                                    f"measured results in view (block '{m.group(1)}'): they "
                                    f"answer the predictions, so they stand in solutions/"
                                    f"{lesson.folder}/{answers.ANSWERS_FILE}"))
    return findings


#: Where a sentence of a comment ends: '.', ';', '?' or '!' before a space.
SENTENCE_END = re.compile(r"[.;?!](?=\s)")


def comment_texts(text: str) -> List[Tuple[str, List[Tuple[int, int]]]]:
    """The `//` comments of a C++ file as texts to read: consecutive comment lines join into
    one (a sentence may run over several); a comment after code on its line stands alone. Each
    with (offset in the text, line) where each of its lines starts."""
    texts: List[Tuple[str, List[Tuple[int, int]]]] = []
    joins = False  # whether the next comment line continues the last text
    for i, line in enumerate(text.split("\n"), 1):
        code, slashes, comment = line.partition("//")
        if not slashes:
            joins = False
            continue
        if not joins:
            texts.append(("", []))
        joined, starts = texts[-1]
        texts[-1] = (joined + comment.lstrip("/!<").strip() + " ", starts + [(len(joined), i)])
        joins = not code.strip()
    return texts


def sentence_at(text: str, offset: int) -> str:
    """The sentence of `text` that holds `offset`."""
    start, end = 0, len(text)
    for m in SENTENCE_END.finditer(text):
        if m.end() <= offset:
            start = m.end()
        else:
            end = m.end()
            break
    return text[start:end]


def _costs_stated(text: str, ideal_stands: Callable[[str, int], bool], ratios: bool = False):
    """(what, line, where) for each cost a comment of a C++ text states (with `ratios`, each
    slowdown too), but an ideal `ideal_stands(comment, offset)` lets stand; `where` is the
    function or the declaration the comment belongs to (what an exception names)."""
    code = None  # lexed only where a comment states a cost (the lexer is the slow part)
    for comment, starts in comment_texts(text):
        said = [m for m in COST_IN_A_COMMENT.finditer(comment)
                if not (IDEAL_COST.fullmatch(m.group(0)) and ideal_stands(comment, m.start()))]
        if ratios:
            said += list(RATIO_IN_A_COMMENT.finditer(comment))
        for m in said:
            i = max(line for offset, line in starts if offset <= m.start())
            code = code if code is not None else code_tokens(text)
            start = statement_start(code, i)
            yield m.group(0), i, function_at(code, start) or declaration_at(code, start)


def _as_a_goal(comment: str, offset: int) -> bool:
    """Whether the sentence around `offset` sets the cost as a goal ("Make both cost 1
    wavefront")."""
    return GOAL_IN_A_SENTENCE.search(sentence_at(comment, offset)) is not None


def costs_in_comments(view_root: Path, lesson: Lesson, used: set) -> List[Finding]:
    """A comment of a demo file or of the starter's files that states a cost (what the
    predictions ask), unless the lesson's manifest lists that place with origin `cost` and its
    reason. A starter's comment may set the ideal as the student's goal."""
    findings = []
    for name in DEMO_FILES + STARTER_FILES:
        path = view_root / "lessons" / lesson.folder / name
        if not path.is_file():
            continue
        starter = name in STARTER_FILES
        text = path.read_text(encoding="utf-8", errors="replace")
        for what, i, where in _costs_stated(text, _as_a_goal if starter else lambda c, o: False):
            exception = exception_for(lesson, name, where, COST_ORIGIN)
            if exception:
                used.add(exception)
                continue
            whose = "the starter's comment" if starter else "a demo's comment"
            todo = "describe the pattern" if starter else "say what the demo does"
            findings.append(Finding(f"lessons/{lesson.folder}/{name}", i,
                                    f"{whose} states a cost ('{what}'"
                                    f"{f', {where}' if where else ''}): the predictions ask for "
                                    f"it; {todo}, and let the tests and the answers say what it "
                                    f"costs"))
    return findings


def costs_in_test_comments(view_root: Path, lesson: Lesson, used: set) -> List[Finding]:
    """A comment of the lesson's tests (tests/NN_topic, which the student repository ships and
    the READMEs name) that states a cost or a slowdown. An exercise test, and the twins it holds
    the student's work to, may state the ideal it asks for (the README's goal too); a guard
    test, in a sentence that sets it as a goal ("must", "make", "fix"). The manifest may list a
    place (origin `cost`, `file` tests/NN_topic/NAME) with its reason."""
    findings = []
    folder = view_root / "tests" / lesson.folder
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        if path.suffix not in CXX_SUFFIXES:
            continue
        goal_file = "_exercise_" in path.name or path.name == "twin.hpp"
        text = path.read_text(encoding="utf-8", errors="replace")
        rel = f"tests/{lesson.folder}/{path.name}"
        for what, i, where in _costs_stated(text, (lambda c, o: True) if goal_file else _as_a_goal,
                                            ratios=True):
            exception = exception_for(lesson, rel, where, COST_ORIGIN)
            if exception:
                used.add(exception)
                continue
            findings.append(Finding(rel, i, f"a test's comment states a cost or a slowdown "
                                            f"('{what}'): the student repository ships the tests, "
                                            f"and the predictions ask for it; say what the test "
                                            f"checks, not what it finds"))
    return findings


def costs_in_guard_test_names(view_root: Path, lesson: Lesson) -> List[Finding]:
    """A guard test (it passes on the starter: a demo, a part already right) whose name states
    what it finds, a cost or a speed that a prediction asks for."""
    findings = []
    folder = view_root / "tests" / lesson.folder
    for path in sorted(folder.glob("*_guard_*_test.cpp")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in re.finditer(r"\bTEST(?:_F)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", text):
            said = COST_IN_A_NAME.search(m.group(2)) or COST_IN_A_NAME.search(m.group(1))
            if said:
                findings.append(Finding(
                    path.relative_to(view_root).as_posix(), text.count("\n", 0, m.start()) + 1,
                    f"a guard test's name states what it finds ('{said.group(0)}' in "
                    f"{m.group(1)}.{m.group(2)}): ctest lists it before the student commits; "
                    f"name what it measures, not the result"))
    return findings


# ------------------------------------------------------------------------------------------
# The starter's failure messages
# ------------------------------------------------------------------------------------------

#: Where a failure message gives a count: "costs 2 wavefronts", "2x the wavefronts", "ideal 4",
#: "phases 8 + 8", "the model 2", and GoogleTest's "Which is: 2" under an expression of
#: wavefronts or a ratio.
COUNT_PHRASES = (
    re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) wavefronts?\b"),
    re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)x the wavefronts\b"),
    re.compile(r"\bcosts? (\d+(?:\.\d+)?)(?![\w.])"),
    re.compile(r"\bideal (\d+(?:\.\d+)?)(?![\w.])"),
    re.compile(r"\bphases (\d+)(?: \+ \d+)+"),
    re.compile(r"\bthe model (\d+(?:\.\d+)?)(?![\w.])"),
)
WHICH_IS = re.compile(r"^\s+Which is: (\d+(?:\.\d+)?)\s*$")


def prediction_values(answers_root: Path, lesson: Lesson) -> dict:
    """{value: the predictions of the reference solution that have it}, for values of 2 and
    more (a cost of 1 is the ideal every message may name)."""
    values: dict = {}
    for path in solution_files(answers_root, lesson):
        for name, text in initialised(path).items():
            try:
                value = float(text.rstrip("fF"))
            except ValueError:
                continue  # not a number: a choice, an expression
            if name.startswith("kPredicted") and value >= 2:
                values.setdefault(value, []).append(name)
    return values


def counts_in_messages(output: str, values: dict) -> List[Tuple[str, List[str]]]:
    """The count phrases of a starter's test output whose number is a prediction's value:
    (the line, the predictions that value answers)."""
    found = []
    lines = output.splitlines()
    for k, line in enumerate(lines):
        numbers = [m.group(1) for rx in COUNT_PHRASES for m in rx.finditer(line)]
        which = WHICH_IS.match(line)
        if which and k > 0 and re.search(r"wavefront|ratio", lines[k - 1], re.I):
            numbers.append(which.group(1))
        for number in numbers:
            if float(number) in values:
                found.append((line.strip(), values[float(number)]))
                break
    return found


def starter_messages(build_dir: Path, answers_root: Path,
                     lesson: Lesson) -> Tuple[List[Finding], Dict[str, str]]:
    """(findings, each program's name -> its output) of the starter's CPU test programs."""
    program = build_dir / "tests" / "student" / lesson.program("student", "cpu")
    if not program.is_file():
        return [Finding(str(program), 0, "not built: the starter's CPU tests cannot be read "
                                         f"(build {lesson.cpu_target} first)")], {}
    findings = []
    outputs = {}
    # The lesson's kernels run on the CPU in a program of their own, where the lesson has one.
    kernels = build_dir / "tests" / "student" / lesson.program("student", "cpu_kernel")
    values = prediction_values(answers_root, lesson)
    for prog in [program] + ([kernels] if kernels.is_file() else []):
        proc = subprocess.run([str(prog)], capture_output=True, text=True, errors="replace",
                              timeout=120)
        outputs[f"{prog.name} (the starter's CPU tests)"] = proc.stdout + proc.stderr
        tokens = text_tokens(proc.stdout + proc.stderr)
        # Before the student has written their predictions (the starter's are 0), no message
        # gives a count one of them asks for.
        seen = set()
        for line, names in counts_in_messages(proc.stdout + proc.stderr, values):
            if line not in seen:
                seen.add(line)
                findings.append(Finding(f"{prog.name} (the starter's CPU tests)", 0,
                                        f"a message gives a count {', '.join(names)} asks for: "
                                        f"{line[:160]}"))
        for solution, unit in lesson_units(answers_root, lesson):
            for _line in occurrences(tokens, unit)[:1]:
                findings.append(Finding(f"{prog.name} (the starter's CPU tests)", 0,
                                        f"a message states the answer `{unit.text}` "
                                        f"({unit.origin}, "
                                        f"{solution.relative_to(answers_root).as_posix()})"))
    return findings, outputs


def predictions_unlisted(view_root: Path, lesson: Lesson) -> List[Finding]:
    """Every prediction of the starter (a `kPredicted...` constant) is listed in the lesson's
    tests/NN_topic/predictions.hpp: what its tests read to hold a count back ("?" in an
    exercise message, in a GPU test's `[kit-counters]` and `[kit-slowdown]` lines) until the
    student has written Part 1 down. One left out would let those show while it is still 0."""
    names = [name for path in sorted((view_root / "lessons" / lesson.folder).glob("exercise.*"))
             for name in initialised(path) if name.startswith("kPredicted")]
    if not names:
        return []
    listing = view_root / "tests" / lesson.folder / "predictions.hpp"
    rel = f"tests/{lesson.folder}/predictions.hpp"
    if not listing.is_file():
        return [Finding(rel, 0, f"missing: lesson {lesson.number} has predictions "
                                f"({', '.join(names)}), and its tests hold counts back until "
                                f"predictions_written() there says they are written")]
    listed = {t.text for t in code_tokens(listing.read_text(encoding="utf-8"))}
    return [Finding(rel, 0, f"predictions_written() does not read {name} (exercise.hpp): counts "
                            f"would show while it is still the starter's")
            for name in names if name not in listed]


# ------------------------------------------------------------------------------------------

def check(view_root: Path, answers_root: Path, numbers: Sequence[str],
          bank_map: Optional[Path], build_dir: Optional[Path],
          compiler: Optional[List[str]]) -> Tuple[List[Finding], List[str]]:
    """(findings, notes): notes say what was not checked, and why."""
    lessons = [x for x in find_lessons(answers_root) if not numbers or x.number in numbers]
    missing = set(numbers) - {x.number for x in lessons}
    if missing:
        raise CourseError(f"no lesson {', '.join(sorted(missing))} in {answers_root}")
    findings: List[Finding] = []
    notes: List[str] = []
    used: set = set()
    with_solution = [x for x in lessons if solution_files(answers_root, x)]
    if not with_solution:
        raise CourseError(f"{answers_root} has no solutions/NN_topic/exercise.* to take the "
                          f"answers from (a student repository has none)")
    for lesson in lessons:
        if not (view_root / "lessons" / lesson.folder).is_dir():
            findings.append(Finding(f"lessons/{lesson.folder}", 0, "missing from the view"))
            continue
        if lesson in with_solution:
            findings += answers_in_view(view_root, answers_root, lesson, used)
            findings += answers_in_view(view_root, answers_root, lesson, used,
                                        view_files(view_root, lesson, "tests"), view_root)
        findings += readme_structure(view_root, answers_root, lesson)
        findings += measured_blocks_in_view(view_root, lesson)
        findings += costs_in_comments(view_root, lesson, used)
        findings += costs_in_test_comments(view_root, lesson, used)
        findings += costs_in_guard_test_names(view_root, lesson)
        findings += predictions_unlisted(view_root, lesson)
        outputs: Dict[str, str] = {}
        if build_dir is not None and lesson in with_solution:
            found, outputs = starter_messages(build_dir, answers_root, lesson)
            findings += found
        if bank_map is not None:
            from course.policy import prediction_patterns
            found, said = prediction_patterns.check_lesson(view_root, answers_root, lesson,
                                                           bank_map, compiler, outputs)
            findings += found
            notes += said
    pages = sorted({p for pattern in COURSE_PAGES for p in view_root.glob(pattern)
                    if p.is_file() and p.suffix in TEXT_SUFFIXES
                    and not left_out(p.relative_to(view_root).as_posix())})
    for lesson in with_solution:
        findings += answers_in_view(view_root, answers_root, lesson, used, pages, view_root)
    if bank_map is None:
        notes.append("bank-map commands and pictures: not checked (no --bank-map)")
    if build_dir is None:
        notes.append("the starter's failure messages: not checked (no --build-dir)")
    for lesson in with_solution:
        for i, e in enumerate(lesson.manifest.answer_exceptions):
            if (lesson.number, e) not in used:
                findings.append(Finding(f"{lesson.rel_dir}/{MANIFEST}", 0,
                                        f"answer_exceptions[{i}] ({e.file}, {e.where}, {e.origin}) "
                                        f"matches nothing any more: remove it"))
    return findings, notes


def list_units(answers_root: Path, numbers: Sequence[str]) -> int:
    for lesson in find_lessons(answers_root):
        if numbers and lesson.number not in numbers:
            continue
        for solution, unit in lesson_units(answers_root, lesson):
            print(f"{solution.relative_to(answers_root).as_posix()}:{unit.line}: {unit.kind} of "
                  f"{unit.origin}: {unit.text}")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="the course, with its solutions/ (default: this one)")
    ap.add_argument("--view", type=Path, default=None,
                    help="the tree the student reads (default: --root); e.g. a student repository "
                         "made by make_student_repo.py")
    ap.add_argument("--lesson", type=lesson_number, action="append", default=[],
                    help="only this lesson (repeatable)")
    ap.add_argument("--units", action="store_true",
                    help="list what counts as each lesson's answers, and stop")
    ap.add_argument("--bank-map", type=Path, help="the bank-map program: also check what the "
                                                  "READMEs and the starters' messages draw")
    ap.add_argument("--cxx", default=None,
                    help="with --bank-map: the C++ compiler for the prediction patterns, and its "
                         "flags, as one string (default: $CXX or c++)")
    ap.add_argument("--build-dir", type=Path,
                    help="a build of the student tree: also read the starter's CPU test messages")
    args = ap.parse_args(argv)

    def run() -> int:
        root = args.root.resolve()
        try:
            load_lexer()
        except LexerUnavailable as e:
            print(f"{PROG}: skipped: {e}")
            return SKIP
        if args.units:
            return list_units(root, args.lesson)
        if args.bank_map is not None and not args.bank_map.is_file():
            raise CourseError(f"--bank-map {args.bank_map}: no such program")
        compiler = args.cxx.split() if args.cxx else None
        findings, notes = check((args.view or root).resolve(), root, args.lesson, args.bank_map,
                                args.build_dir, compiler)
        for note in notes:
            print(f"note: {note}")
        for f in findings:
            print(f)
        if findings:
            print(f"{len(findings)} finding{'s' if len(findings) != 1 else ''}: an answer, or "
                  f"the way to it, in the student's view (docs/maintainers.md, 'Questions in "
                  f"view, answers out of it')")
            return 1
        print("no answer in the student's view")
        return 0

    return run_main(PROG, run, error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
