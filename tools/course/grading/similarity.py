"""How much of each student's own work matches the reference solutions, and each other's: a
signal for the instructor, never a grade.

The course is open source, so its reference solutions are public. For each exercise file, a
student's *own work* is what their file adds to the starter (the lines the starter does not
have); the reference's is what the solution adds. Debian's similarity tester (`sim_c++`, package
similarity-tester, Dick Grune's) compares the two by C++ tokens, so renamed comments and layout
do not hide a copy: "ada's own work in 05/exercise.cu is 100% reference material". Two more
signs are counted, since comments are what a copy keeps and a rewrite does not: the reference's
own comment lines found word for word in the student's file, and a file that names the
solutions' folder (`@file solutions/...`). Between students, each pair's own work is compared
the same way.

The starter's own lines are left out on both sides, so a student at the starter has nothing to
compare, and a lesson whose answer is one short line (a pitch, a prediction) has too few tokens
of its own to say anything: such files are listed as too short, not as matches.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

#: The similarity tester's program for C and C++.
SIM = "sim_c++"
#: A student's own work shorter than this (in sim_c++'s tokens) is too short to compare.
MIN_TOKENS = 40
#: Matches at or above this share of the student's own tokens are listed as high.
HIGH_PERCENT = 80
#: Shortest comment line (characters, after its marker) counted when found word for word.
MIN_COMMENT = 12

_PERCENT = re.compile(r"^(\S+) consists for (\d+) % of (\S+) material$")
_TOKENS = re.compile(r"^File (\S+): (\d+) tokens")
_COMMENT = re.compile(r"^\s*(?:///?|\*|/\*+)\s*(.*?)\s*(?:\*/)?\s*$")


def available() -> Optional[str]:
    """None when the similarity tester is installed, else why not (one sentence)."""
    if shutil.which(SIM) is None:
        return f"{SIM} is not installed (Debian and Ubuntu: the package similarity-tester)"
    return None


def _code(line: str) -> str:
    """A line's code without its comment and its spaces: how lines are matched to the starter's
    (a copy that only moves code about still matches the starter where the starter's code is)."""
    return re.sub(r"\s+", "", re.sub(r"//.*", "", line))


def own_lines(text: str, starter: str) -> List[str]:
    """The lines of `text` whose code is not the starter's: what a file adds or changes (comments
    and layout aside)."""
    b = text.splitlines()
    a_keys = [_code(line) for line in starter.splitlines()]
    b_keys = [_code(line) for line in b]
    out: List[str] = []
    matcher = difflib.SequenceMatcher(None, a_keys, b_keys, autojunk=False)
    for tag, _, _, j1, j2 in matcher.get_opcodes():
        if tag in ("insert", "replace"):
            out.extend(line for line in b[j1:j2] if _code(line))
    return out


def comment_lines(lines: Sequence[str]) -> List[str]:
    """The text of each comment line among `lines` that is long enough to be telling."""
    found = []
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("//", "/*", "*")):
            m = _COMMENT.match(stripped)
            if m and len(m.group(1)) >= MIN_COMMENT:
                found.append(m.group(1))
        elif "//" in stripped:
            tail = stripped.split("//", 1)[1].strip("/ ").strip()
            if len(tail) >= MIN_COMMENT:
                found.append(tail)
    return found


@dataclass
class Match:
    """One comparison: `who`'s own work in `file` against `other`'s (the reference or a student)."""
    who: str
    file: str            # "05_padded_transpose/exercise.cu"
    other: str           # "reference" or a student
    percent: Optional[int] = None  # share of who's own tokens that are other's material
    tokens: int = 0      # who's own tokens
    comments: Tuple[int, int] = (0, 0)  # (reference comment lines found verbatim, of how many)
    names_solutions: bool = False
    note: str = ""       # why there is no percent

    @property
    def high(self) -> bool:
        return (self.percent is not None and self.percent >= HIGH_PERCENT) or \
            self.names_solutions or (self.comments[1] > 0 and self.comments[0] * 2 > self.comments[1])

    def describe(self) -> str:
        parts = []
        if self.percent is not None:
            parts.append(f"{self.percent}% of {self.who}'s own work ({self.tokens} tokens) is "
                         f"{'the reference solution' if self.other == 'reference' else self.other}"
                         f"'s material")
        elif self.note:
            parts.append(self.note)
        if self.comments[1]:
            parts.append(f"{self.comments[0]} of the reference's {self.comments[1]} own comment "
                         f"lines word for word")
        if self.names_solutions:
            parts.append("the file names the solutions' folder")
        return f"{self.who}, {self.file}: " + "; ".join(parts)


def _sim(files: List[Path]) -> Tuple[Dict[str, int], Dict[Tuple[str, str], int]]:
    """Runs sim_c++ -p once on `files`, each compared to each other one separately: each file's
    tokens, and (file, other) -> the percent of file that is other's material."""
    argv = [SIM, "-p", "-e", "-s", "-a", *map(str, files)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"{SIM} failed: {proc.stderr.strip()[-300:]}")
    tokens, percents = {}, {}
    for line in proc.stdout.splitlines():
        m = _TOKENS.match(line)
        if m:
            tokens[m.group(1)] = int(m.group(2))
            continue
        m = _PERCENT.match(line.strip())
        if m:
            key = (m.group(1), m.group(3))
            percents[key] = max(percents.get(key, 0), int(m.group(2)))
    return tokens, percents


def compare(students: Dict[str, Dict[str, str]], starters: Dict[str, str],
            reference: Dict[str, str]) -> List[Match]:
    """Every student's own work in every exercise file against the reference's and against each
    other student's. `students`: {student: {file: text}}; `starters` and `reference`: {file:
    text}, files named "NN_topic/exercise.cu"."""
    matches: List[Match] = []
    with tempfile.TemporaryDirectory(prefix="course-similarity-") as tmp:
        root = Path(tmp)
        for file, starter in sorted(starters.items()):
            folder = root / file.replace("/", "__")
            folder.mkdir()
            suffix = Path(file).suffix or ".cpp"
            own: Dict[str, Path] = {}
            texts: Dict[str, str] = {}
            for student, files in sorted(students.items()):
                if file not in files:
                    continue
                lines = own_lines(files[file], starter)
                if not any(line.strip() for line in lines):
                    continue
                path = folder / f"{student}{suffix}"
                path.write_text("\n".join(lines) + "\n")
                own[student] = path
                texts[student] = files[file]
            if not own:
                continue
            ref_path: Optional[Path] = None
            ref_comments: List[str] = []
            if file in reference:
                ref_lines = own_lines(reference[file], starter)
                theirs = set(comment_lines(starter.splitlines()))
                ref_comments = [c for c in comment_lines(reference[file].splitlines())
                                if c not in theirs]
                ref_path = folder / f"reference-solution{suffix}"
                ref_path.write_text("\n".join(ref_lines) + "\n")
            # One run for the file: every student's own work against the reference's and
            # against each other's.
            tokens, pairs = _sim(list(own.values()) + ([ref_path] if ref_path else []))
            short = {s for s, p in own.items() if tokens.get(str(p), 0) < MIN_TOKENS}
            long = {s: p for s, p in own.items() if s not in short}
            for student, path in own.items():
                m = Match(student, file, "reference", tokens=tokens.get(str(path), 0))
                if student in short:
                    m.note = (f"too little of {student}'s own to compare ({m.tokens} tokens, "
                              f"fewer than {MIN_TOKENS})")
                elif ref_path is not None:
                    m.percent = pairs.get((str(path), str(ref_path)), 0)
                else:
                    m.note = "no reference solution for this file"
                text_lines = {c for c in comment_lines(texts[student].splitlines())}
                m.comments = (sum(1 for c in ref_comments if c in text_lines), len(ref_comments))
                m.names_solutions = "solutions/" in texts[student]
                matches.append(m)
            names = {str(p): s for s, p in long.items()}
            for (a, b), percent in sorted(pairs.items()):
                if a in names and b in names:
                    matches.append(Match(names[a], file, names[b], percent=percent,
                                         tokens=tokens.get(a, 0)))
    return matches


def report(matches: List[Match], why_not: Optional[str]) -> List[str]:
    """The summary's section: high matches first, then how many were compared."""
    out = ["## Similarity (information for you, never a grade)", ""]
    if why_not:
        return out + [f"Not checked: {why_not}.", ""]
    if not matches:
        return out + ["Nothing to compare: no student's exercise files differ from the starters.",
                      ""]
    high = [m for m in matches if m.high]
    compared = sorted({(m.who, m.file) for m in matches if m.other == "reference"})
    out.append(f"Compared: {len(compared)} exercise files that differ from their starters "
               f"(each student's own lines, by C++ tokens with {SIM}, against the reference "
               f"solution's own lines and every other student's). High: at least "
               f"{HIGH_PERCENT}% of the student's own tokens, more than half of the reference's "
               f"own comment lines word for word, or a file that names the solutions' folder.")
    out.append("")
    if high:
        out += [f"- {m.describe()}" for m in sorted(high, key=lambda m: (-(m.percent or 0), m.who))]
    else:
        out.append("No high match.")
    short = [m for m in matches if m.other == "reference" and m.percent is None and m.note]
    if short:
        out += ["", f"Not compared ({len(short)}): " +
                "; ".join(f"{m.who}, {m.file}: {m.note}" for m in short[:20]) +
                (f"; and {len(short) - 20} more" if len(short) > 20 else "")]
    return out + [""]


def csv_rows(matches: List[Match]) -> List[List[str]]:
    """similarity.csv: one row a comparison."""
    rows = [["student", "file", "compared_with", "percent_of_own_tokens", "own_tokens",
             "reference_comment_lines_verbatim", "reference_comment_lines", "names_solutions",
             "high", "note"]]
    for m in matches:
        rows.append([m.who, m.file, m.other, "" if m.percent is None else str(m.percent),
                     str(m.tokens), str(m.comments[0]), str(m.comments[1]),
                     "yes" if m.names_solutions else "no", "yes" if m.high else "no", m.note])
    return rows
