#!/usr/bin/env python3
"""The exercise-file policy: what a student's `lessons/NN_topic/exercise*` file may hold, checked
before it is built (by the grader, on every file it takes from a student's repository; by
`./course test`, so a student learns early).

  ./course-admin policy check lessons/03_stride_32/exercise.hpp
  ./course-admin policy lessons [--solutions]     every lesson's files

An exercise needs declarations in its lesson's namespace and nothing else. Each file is read
twice, with libclang 19 (cxx_tokens.LIBCLANG_MAJOR): first as tokens, here, so comments,
strings, line splices, digraphs and universal character names cannot hide anything; then parsed,
as the course's CPU build compiles it, and held to an allowlist of constructs and of the names
they resolve to (allowlist.py: what it does not know, it refuses). The tokens are refused,
naming the line and the rule, when they hold
  - a directive other than `#pragma once`, `#pragma unroll [N]` and `#include` of the lesson's,
    the kit's and the listed standard and CUDA headers (`#define`, `#undef`, `#line`, `#if`,
    `_Pragma`, `%:` ... all refused), a line splice, a trigraph, a digraph or a character
    outside ASCII (comments aside);
  - anything outside `namespace lessonNN { ... }` (an anonymous namespace inside it is fine),
    a namespace of another name (`kit`, `std`, `testing` cannot be reopened or shadowed);
  - `asm`, `extern`, `thread_local`, `friend`, `mutable`, an attribute in any spelling (`[[`,
    `__attribute__`, `alignas`, `__declspec`) or any other reserved name not on the CUDA list,
    `using namespace`, `template <>` or a partial specialization, an operator other than the
    call operator `()`;
  - a variable at namespace scope that is not `constexpr`, a `static` local or member that is
    not `constexpr` (no code may run before, between or after the tests);
  - a name the policy denies wherever it stands (process control, signals, processes and
    threads, files, the terminal and the environment, dynamic loading, the test framework: exercise_rules.py);
  - a name of the C library or the CUDA runtime that is not on the lesson's list (found by
    preprocessing the system headers with the host compiler);
  - a name that is neither declared in the file, nor by the course headers the exercise may
    include, nor on the lesson's list;
  - a namespace-scope name that the course's tests or other headers already declare (an
    overload or a twin a test would pick up), unless the lesson's starter declares it too.

Exit status: 0 every file passes, 1 some file is refused (each finding on one line,
`file:line: [rule] message`), 2 for bad usage or when libclang 19 is not installed.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from course.model.cli import Parser, run_main
from course.model.course_model import (CourseError, Lesson, ROOT, find_lessons, is_inside,
                                       lesson_by_number)
from course.model.starters import course_starters
from course.policy import allowlist, exercise_rules as rules
from course.policy.allowlist import cuda_include_dir
from course.policy.cxx_tokens import (Declarations, Group, LexerUnavailable, Tok, Unbalanced,
                                      brace_tree, declarator, declared_names, first_tok, flat,
                                      include_name, lex, load_lexer, read_declarations,
                                      split_directives, statement_name, statements,
                                      strip_template_header)
from course.policy.findings import Finding

# LexerUnavailable and load_lexer (imported above) are the policy's too: the grader and the
# student's command load the lexer through it, and catch its absence.

PROG = "exercise_policy"

#: The largest exercise file the policy reads (the largest starter is a few kilobytes).
MAX_BYTES = 256 * 1024




# ------------------------------------------------------------------------------------------
# The names of the world around an exercise
# ------------------------------------------------------------------------------------------

#: Headers preprocessed for the names of the C library and the CUDA runtime: everything the
#: test programs may include, and the system-call headers besides.
_LIBRARY_PROBE = """\
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <csignal>
#include <csetjmp>
#include <ctime>
#include <cmath>
#include <unistd.h>
#include <fcntl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <sys/ptrace.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
"""

_ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")
_ASM_LABEL = re.compile(r"__asm__\s*\((?:[^()])*\)")
_EXTERN_FUNCTION = re.compile(r"\bextern\b(?:\s*\"C\")?[^;{}]*?\b([A-Za-z_]\w*)\s*\(")
_CUDA_API_NAME = re.compile(r"\b(cuda[A-Z]\w*|cu[A-Z]\w*)\b")
_EXTERN_VARIABLE = re.compile(r"\bextern\b(?:\s*\"C\")?[^;{}()]*?\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;")


_library_memo: Dict[str, FrozenSet[str]] = {}


def library_names(cache_dir: Optional[Path] = None) -> FrozenSet[str]:
    """The functions and variables the C library and the CUDA runtime declare `extern`: every
    such name an exercise might call. Found by preprocessing the system headers with the host
    compiler (cached in cache_dir). Raises CourseError when there is no compiler to do it."""
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++")
    if not cxx:
        raise CourseError("no host C++ compiler (c++ or g++) to read the C library's names")
    include = cuda_include_dir()
    args = [cxx, "-E", "-x", "c++", "-std=c++17", "-"]
    if include is not None:
        args[1:1] = ["-I", str(include)]
    key = hashlib.sha256((" ".join(args) + _LIBRARY_PROBE + _version(cxx)).encode()).hexdigest()[:16]
    if key in _library_memo:
        return _library_memo[key]
    cache = cache_dir / f"library-names-{key}.json" if cache_dir else None
    if cache is not None and cache.is_file():
        try:
            return frozenset(json.loads(cache.read_text()))
        except (OSError, ValueError):
            pass
    probe = _LIBRARY_PROBE if include is not None else "\n".join(
        line for line in _LIBRARY_PROBE.splitlines() if "cuda" not in line)
    proc = subprocess.run(args, input=probe, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        raise CourseError(f"{cxx} could not preprocess the system headers: "
                          f"{(proc.stderr.strip().splitlines() or ['no message'])[0]}")
    text = _ASM_LABEL.sub(" ", _ATTRIBUTE.sub(" ", proc.stdout))
    text = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    names = {m.group(1) for m in _EXTERN_FUNCTION.finditer(text)}
    names |= {m.group(1) for m in _EXTERN_VARIABLE.finditer(text)}
    # Every name of the CUDA runtime and driver APIs (their C++ templates are not `extern`).
    names |= set(_CUDA_API_NAME.findall(text))
    names -= {"C", "extern", "const", "volatile", "unsigned", "signed", "int", "char", "long",
              "short", "void", "double", "float", "struct", "inline", "__inline", "noexcept",
              "throw", "decltype", "operator"}
    result = frozenset(names)
    _library_memo[key] = result
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps(sorted(result)))
        except OSError:
            pass
    return result


def _version(cxx: str) -> str:
    try:
        return subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return ""


# ------------------------------------------------------------------------------------------
# What an exercise of one lesson may name
# ------------------------------------------------------------------------------------------

_SOURCE_SUFFIXES = (".hpp", ".cuh", ".h", ".cpp", ".cu")


@dataclass
class LessonRules:
    """Everything the policy needs to judge one lesson's exercise files."""

    lesson: str  # "03"
    namespace: str  # "lesson03"
    headers: Set[str]  # what an exercise may #include
    names: Set[str]  # unqualified names from outside the course (CUDA, C), globs allowed
    std_names: Set[str]  # what may follow `std::`
    library: FrozenSet[str]  # every name of the C library and the CUDA runtime
    usable: Set[str] = field(default_factory=set)  # declared by the headers it may include
    usable_scope: Dict[str, str] = field(default_factory=dict)  # their namespace-scope names
    namespaces: Set[str] = field(default_factory=set)  # the course's namespaces
    elsewhere: Dict[str, str] = field(default_factory=dict)  # tests' and other headers' names
    starter_api: Set[str] = field(default_factory=set)  # the starter's namespace-scope names

    def allowed(self, name: str) -> bool:
        return name in self.names or any(fnmatch.fnmatchcase(name, p) for p in self.names if "*" in p)


def _course_files(folder: Path) -> List[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in _SOURCE_SUFFIXES)


def _is_exercise(path: Path) -> bool:
    return fnmatch.fnmatch(path.name, "exercise*")


def lesson_rules(course: Path, lesson: Lesson, starter_files: Optional[Dict[str, bytes]] = None,
                 hidden_tests: Optional[Path] = None, cache_dir: Optional[Path] = None) -> LessonRules:
    """The rules for one lesson's exercise files, read from the course (its kit, the lesson's
    headers, the lesson's tests, the hidden tests) and from the lesson's starter files
    (name -> bytes; default: the files in lessons/NN_topic as they are now). With cache_dir,
    what was read is kept there, keyed by the files it came from, for the next run."""
    if starter_files is None:
        starter_files = {p.name: p.read_bytes() for p in lesson.student_files()}
    key = _rules_key(course, lesson, starter_files, hidden_tests)
    cache = cache_dir / f"policy-{lesson.label}.json" if cache_dir else None
    if cache is not None and cache.is_file():
        try:
            data = json.loads(cache.read_text())
            if data.get("key") == key:
                r = _base_rules(lesson, cache_dir)
                r.usable, r.namespaces = set(data["usable"]), set(data["namespaces"])
                r.usable_scope, r.elsewhere = data["usable_scope"], data["elsewhere"]
                r.starter_api = set(data["starter_api"])
                return r
        except (OSError, ValueError, KeyError):
            pass
    r = _read_rules(course, lesson, starter_files, hidden_tests, cache_dir)
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({
                "key": key, "usable": sorted(r.usable), "namespaces": sorted(r.namespaces),
                "usable_scope": r.usable_scope, "elsewhere": r.elsewhere,
                "starter_api": sorted(r.starter_api)}))
        except OSError:
            pass
    return r


def _rules_key(course: Path, lesson: Lesson, starter_files: Dict[str, bytes],
               hidden_tests: Optional[Path]) -> str:
    """What the rules of a lesson are read from: every file's path, time and size, and the
    starter's contents."""
    h = hashlib.sha256()
    folders = [course / "common" / "include", course / "families",
               course / "lessons" / lesson.folder, course / "tests" / lesson.folder,
               Path(__file__).parent]
    if hidden_tests is not None:
        folders.append(hidden_tests / lesson.folder)
    for folder in folders:
        for p in _course_files(folder) + sorted(folder.glob("*.py")):
            st = p.stat()
            h.update(f"{p}:{st.st_mtime_ns}:{st.st_size}\n".encode())
    for name in sorted(starter_files):
        h.update(name.encode() + hashlib.sha256(starter_files[name]).digest())
    return h.hexdigest()


def _base_rules(lesson: Lesson, cache_dir: Optional[Path]) -> LessonRules:
    """The lists of exercise_rules.py and the lesson manifest's `policy` for a lesson, and the
    library's names."""
    extras = lesson.manifest.policy  # the course's copy: grading reads the pinned course's
    r = LessonRules(
        lesson=lesson.number, namespace=lesson.label,
        headers=set(rules.LESSON_HEADERS) | set(rules.KIT_HEADERS) | set(rules.SYSTEM_HEADERS)
        | set(extras.headers),
        names=set(rules.CUDA_NAMES) | set(rules.C_NAMES) | set(extras.names),
        std_names=set(rules.STD_NAMES) | set(extras.std),
        library=library_names(cache_dir))
    r.names.add("std")
    return r


def _read_rules(course: Path, lesson: Lesson, starter_files: Dict[str, bytes],
                hidden_tests: Optional[Path], cache_dir: Optional[Path]) -> LessonRules:
    r = _base_rules(lesson, cache_dir)
    kit_dir = course / "common" / "include"
    families_dir = course / "families"  # the kernel families' headers, on the lessons' path
    lesson_dir = course / "lessons" / lesson.folder
    tests_dir = course / "tests" / lesson.folder
    bases = (lesson_dir, kit_dir, families_dir)
    # The headers an exercise may include, and every course header they include in turn.
    mine = [p for p in _course_files(lesson_dir) if not _is_exercise(p) and p.suffix in (".hpp", ".cuh", ".h")]
    mine += [kit_dir / h for h in rules.KIT_HEADERS if (kit_dir / h).is_file()]
    usable_files = _closure(course, mine, bases)
    for path, d in usable_files.items():
        r.usable |= d.names | d.macros | d.namespaces
        r.namespaces |= d.namespaces
        for name in d.namespace_names:
            r.usable_scope.setdefault(name, _rel(course, path))
    # Everything else a test program of this lesson holds: its tests (the hidden ones too) and
    # every course header they include.
    tests = _course_files(tests_dir)
    if hidden_tests is not None:
        tests += _course_files(hidden_tests / lesson.folder)
    for path, d in _closure(course, tests, (tests_dir,) + bases).items():
        if path in usable_files:
            continue
        r.namespaces |= d.namespaces
        for name in d.namespace_names:
            if name not in r.usable:
                r.elsewhere.setdefault(name, _rel(course, path))
    for name, data in starter_files.items():
        r.starter_api |= set(read_declarations(data, name).namespace_names)
    return r


def _closure(course: Path, start: List[Path], bases: Sequence[Path]) -> Dict[Path, Declarations]:
    """These files and every course file they include, in turn (an exercise file excepted),
    each with what it declares."""
    found: Dict[Path, Declarations] = {}
    todo = [p.resolve() for p in start]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found[path] = d = read_declarations(path.read_bytes(), path.name)
        for header in d.includes:
            for base in (path.parent,) + tuple(bases):
                candidate = base / header
                if candidate.is_file() and not _is_exercise(candidate) and is_inside(candidate, course):
                    todo.append(candidate.resolve())
                    break
    return found


def _rel(course: Path, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(course.resolve()))
    except ValueError:
        return path.name



# ------------------------------------------------------------------------------------------
# The checks
# ------------------------------------------------------------------------------------------

_DIGRAPHS = {"<:", ":>", "<%", "%>", "%:", "%:%:"}
#: C++17's punctuators (digraphs apart).
_PUNCTUATORS = {"{", "}", "[", "]", "(", ")", ";", ":", "...", "?", "::", ".", ".*", "->", "->*",
                "~", "!", "+", "-", "*", "/", "%", "^", "&", "|", "=", "+=", "-=", "*=", "/=",
                "%=", "^=", "&=", "|=", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "<<", ">>",
                "<<=", ">>=", "++", "--", ",", "#", "##"}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: Keywords an exercise never needs, with why they are refused.
_REFUSED_KEYWORDS = {
    "asm": "inline assembly", "__asm": "inline assembly", "__asm__": "inline assembly",
    "extern": "`extern` (a declaration that binds to the C library or another file)",
    "thread_local": "`thread_local` (code that runs when a thread ends)",
    "_Thread_local": "`thread_local` (code that runs when a thread ends)",
    "__thread": "`__thread`", "friend": "`friend` (a function the tests would find by "
    "argument-dependent lookup)", "export": "`export`", "goto": "`goto`",
    "co_await": "coroutines", "co_yield": "coroutines", "co_return": "coroutines",
    "__attribute__": "attributes", "__attribute": "attributes", "__declspec": "attributes",
    "alignas": "attributes (`alignas`)", "mutable": "`mutable` (a constant that changes)",
    "_Pragma": "`_Pragma` (a directive made at compile time)", "__extension__": "`__extension__`",
}
_RESERVED = re.compile(r"^(__|_[A-Z])")


class _Checker:
    def __init__(self, data: bytes, path: str, r: LessonRules, siblings: Set[str]):
        self.data, self.path, self.r, self.siblings = data, path, r, siblings
        self.findings: List[Finding] = []
        self._said: Set[Tuple[str, str]] = set()

    def bad(self, line: int, rule: str, message: str, key: Optional[str] = None) -> None:
        if key is not None:
            if (rule, key) in self._said:
                return
            self._said.add((rule, key))
        self.findings.append(Finding(self.path, line, message, rule))

    # -- the file as bytes ------------------------------------------------------------------
    def raw(self) -> Optional[str]:
        if len(self.data) > MAX_BYTES:
            self.bad(1, "file", f"{len(self.data)} bytes: an exercise file holds at most {MAX_BYTES}")
            return None
        if b"\0" in self.data:
            self.bad(1, "file", "a NUL byte: an exercise file is text")
            return None
        try:
            text = self.data.decode("utf-8")
        except UnicodeDecodeError as e:
            self.bad(self.data[:e.start].count(b"\n") + 1, "file", "not UTF-8 text")
            return None
        for m in re.finditer(r"\\[ \t]*\r?\n", text):
            self.bad(text.count("\n", 0, m.start()) + 1, "line splice",
                     "a backslash at the end of a line joins it to the next: an exercise needs none")
        for m in re.finditer(r"\?\?[=/'()!<>\-]", text):
            self.bad(text.count("\n", 0, m.start()) + 1, "trigraph",
                     f"`{m.group(0)}` is a trigraph: write the character itself")
        return text

    # -- tokens -----------------------------------------------------------------------------
    def coverage(self, toks: Sequence[Tok]) -> None:
        """Every character is whitespace or inside a token: nothing the lexer skipped."""
        pos = 0
        for t in list(toks) + [Tok("end", "", 0, 0, len(self.data), len(self.data))]:
            gap = self.data[pos:t.start]
            if gap.strip():
                line = self.data[:pos].count(b"\n") + 1 + gap[:len(gap) - len(gap.lstrip())].count(b"\n")
                self.bad(line, "lexer", f"characters the C++ lexer does not read as a token: "
                                        f"{gap.strip()[:30].decode('utf-8', 'replace')!r}")
            pos = max(pos, t.end)

    def directive(self, d: Sequence[Tok]) -> None:
        words = [t.text for t in d]
        line = d[0].line
        if d[0].text == "%:":
            self.bad(line, "digraph", "`%:` is a digraph for `#`: write `#`")
            return
        if len(words) < 2:
            self.bad(line, "directive", "an empty `#` line")
            return
        if words[1] == "pragma":
            if words[2:] == ["once"]:
                return
            if len(words) >= 3 and words[2] == "unroll" and len(words) <= 4 and \
                    (len(words) == 3 or d[3].kind == "literal" and d[3].text.isdigit() or
                     d[3].kind == "ident"):
                if len(words) == 4 and d[3].kind == "ident":
                    self.name(d[3], None, None)
                return
            self.bad(line, "directive", f"`#{' '.join(words[1:])}`: the only pragmas are "
                                        f"`#pragma once` and `#pragma unroll [N]`")
            return
        if words[1] == "include":
            header = include_name(d)
            if header is None:
                self.bad(line, "include", "an #include names its header as <name> or \"name\"")
            elif header not in self.r.headers:
                self.bad(line, "include", f"`{header}` is not a header lesson {self.r.lesson}'s "
                                          f"exercise may include (the lesson's demo.hpp and "
                                          f"internal.cuh, the kit's model and layout headers, "
                                          f"and the listed standard and CUDA headers)")
            return
        self.bad(line, "directive", f"`#{words[1]}`: an exercise holds no directive but "
                                    f"#include, #pragma once and #pragma unroll")

    def token(self, code: Sequence[Tok], i: int) -> None:
        t = code[i]
        if any(ord(c) > 127 for c in t.text):
            self.bad(t.line, "characters", "a character outside ASCII outside a comment", key="ascii")
            return
        if "\\" in t.text and t.kind != "literal":
            self.bad(t.line, "characters", f"`{t.text}`: a universal character name outside a "
                                           f"string", key=t.text)
            return
        if t.kind == "punct" and t.text not in _PUNCTUATORS and t.text not in _DIGRAPHS:
            self.bad(t.line, "characters", f"`{t.text!s}` is not C++ punctuation", key=f"p{t.text}")
            return
        if t.kind == "ident" and not _IDENTIFIER.match(t.text):
            self.bad(t.line, "characters", f"`{t.text}`: a name of letters, digits and `_` only",
                     key=t.text)
            return
        if t.kind == "punct" and t.text in _DIGRAPHS:
            self.bad(t.line, "digraph", f"`{t.text}` is a digraph: write the bracket itself",
                     key=t.text)
            return
        # Two `[` in a row open an attribute, whatever stands between them (C++ allows them
        # nowhere else).
        if t.text == "[" and i + 1 < len(code) and code[i + 1].text == "[":
            self.bad(t.line, "attribute", "`[[`: an attribute (`[[gnu::...]]`, `[[nodiscard]]` "
                                          "...): an exercise declares plain C++", key=f"attr{t.line}")
            return
        if t.kind == "punct" and t.text in ("#", "##"):
            self.bad(t.line, "directive", f"`{t.text}` outside a directive", key=t.text)
            return
        if t.kind not in ("keyword", "ident"):
            return
        if t.text in _REFUSED_KEYWORDS:
            self.bad(t.line, "keyword", f"{_REFUSED_KEYWORDS[t.text]}: an exercise needs none",
                     key=t.text)
            return
        nxt = [x.text for x in code[i + 1:i + 4]]
        prev = code[i - 1].text if i > 0 else ""
        if t.text == "operator" and nxt[:3] != ["(", ")", "("]:
            self.bad(t.line, "operator", "an operator other than the call operator `()`: the "
                                         "tests would pick up an overload", key=f"op{t.line}")
        elif t.text == "template" and prev not in ("::", ".", "->"):
            if nxt[:1] != ["<"]:
                self.bad(t.line, "specialization", "an explicit instantiation: an exercise needs "
                                                   "none", key=f"tpl{t.line}")
            elif nxt[:2] == ["<", ">"]:
                self.bad(t.line, "specialization", "`template <>`, an explicit specialization: "
                                                   "the tests would pick it up", key=f"tpl{t.line}")
        elif t.text == "using" and nxt[:1] == ["namespace"]:
            self.bad(t.line, "using namespace", "`using namespace`: write the names with their "
                                                "namespace", key=f"using{t.line}")

    # -- structure --------------------------------------------------------------------------
    def structure(self, tree: list) -> Dict[str, int]:
        """The top: `namespace lessonNN { ... }` and nothing else. Returns the names the file
        declares directly in a namespace."""
        names: Dict[str, int] = {}
        for stmt in statements(tree, "namespace"):
            toks = [x for x in stmt if not isinstance(x, Group)]
            groups = [x for x in stmt if isinstance(x, Group)]
            first = first_tok(stmt)
            if [t.text for t in toks] == ["namespace", self.r.namespace] and len(groups) == 1 and \
                    groups[0].kind == "namespace":
                self.namespace_body(groups[0].items, names)
            elif first is not None:
                self.bad(first.line, "namespace", f"everything an exercise declares goes inside "
                                                  f"`namespace {self.r.namespace} {{ ... }}`",
                         key=f"top{first.line}")
        return names

    def namespace_body(self, items: list, names: Dict[str, int]) -> None:
        for stmt in statements(items, "namespace"):
            toks = [x for x in stmt if not isinstance(x, Group)]
            groups = [x for x in stmt if isinstance(x, Group)]
            texts = [t.text for t in toks]
            if texts[:1] == ["namespace"] or texts[:2] == ["inline", "namespace"]:
                own = len(texts) == 2 and toks[1].kind == "ident" and \
                    texts[1] not in self.r.namespaces | {"std", self.r.namespace} and \
                    not _RESERVED.match(texts[1])
                if (texts == ["namespace"] or own) and len(groups) == 1:
                    self.namespace_body(groups[0].items, names)
                else:
                    self.bad(toks[0].line, "namespace",
                             f"`{' '.join(texts)}`: a namespace inside the lesson's is an "
                             f"anonymous one (`namespace {{`) or one of yours, named as no "
                             f"namespace of the course is (`namespace helpers {{`; the kit has a "
                             f"`detail`): an inline one, or one named as the course's, would "
                             f"shadow the course's names",
                             key=f"ns{toks[0].line}")
                continue
            name = statement_name(toks)
            if name is not None:
                names.setdefault(name.text, name.line)
            self.statement(stmt, "namespace")

    def statement(self, stmt: list, scope: str) -> None:
        toks = [x for x in stmt if not isinstance(x, Group)]
        groups = [x for x in stmt if isinstance(x, Group)]
        head = strip_template_header(toks)
        texts = [t.text for t in head]
        for g in groups:
            if g.kind == "class":
                for inner in statements(g.items, "class"):
                    self.statement(inner, "class")
            elif g.kind in ("function", "init"):
                self.local(flat(g.items))
        if not texts or texts[0] in ("using", "static_assert", "typedef", ";"):
            return
        for k, t in enumerate(head[:-2]):
            if t.text in ("struct", "class", "union") and head[k + 1].kind == "ident" and \
                    head[k + 2].text == "<":
                self.bad(t.line, "specialization", f"a partial specialization of "
                                                   f"`{head[k + 1].text}`: the tests would pick it up",
                         key=f"spec{t.line}")
                return
        kinds = [g.kind for g in groups]
        if "function" in kinds:
            return
        if "class" in kinds or "enum" in kinds:
            after = stmt[[isinstance(x, Group) for x in stmt].index(True) + 1:]
            if not any(not isinstance(x, Group) and x.kind == "ident" for x in after):
                return  # a type's definition
            declares_variable = True
        else:
            name, after = declarator(head)
            if name is None:
                return
            declares_variable = not (after is not None and after.text == "(" and
                                     _looks_like_parameters(head, after) and "init" not in kinds)
        if not declares_variable or "constexpr" in texts:
            return  # a function's declaration, or a constant
        if scope == "class" and "static" not in texts:
            return  # a data member
        line = head[0].line
        where = "at namespace scope" if scope == "namespace" else "a static member"
        self.bad(line, "constexpr", f"a variable {where} that is not `constexpr`: its "
                                    f"constructor or destructor would run outside the tests",
                 key=f"cx{line}")

    def local(self, toks: Sequence[Tok]) -> None:
        """Function bodies and initializers: a static local must be constexpr."""
        for k, t in enumerate(toks):
            if t.text != "static":
                continue
            rest = []
            for x in toks[k + 1:]:
                if x.text in (";", "=", "{", "(", ")"):
                    break
                rest.append(x.text)
            if "constexpr" not in rest:
                self.bad(t.line, "static", "a `static` variable in a function that is not "
                                           "`constexpr`: it would live, and be destroyed, "
                                           "outside the test that made it", key=f"st{t.line}")

    # -- names ------------------------------------------------------------------------------
    def names(self, code: Sequence[Tok], declared: Set[str]) -> None:
        i = 0
        n = len(code)
        while i < n:
            t = code[i]
            prev = code[i - 1].text if i > 0 else ""
            if t.kind == "ident" and prev not in (".", "->", "::"):
                nxt = code[i + 1].text if i + 1 < n else ""
                if nxt == "::":
                    i = self.chain(code, i, declared)
                    continue
                self.name(t, declared, code, i)
            elif t.text == "::" and (i == 0 or code[i - 1].kind not in ("ident",) and
                                     code[i - 1].text not in (">", ">>")):
                # `::name`: the global namespace
                if i + 1 < n and code[i + 1].kind == "ident":
                    self.name(code[i + 1], declared, code, i + 1)
            elif t.kind == "keyword" and _RESERVED.match(t.text) and t.text not in self.r.names \
                    and t.text not in _REFUSED_KEYWORDS:
                self.bad(t.line, "reserved name", f"`{t.text}` is reserved for the compiler and "
                                                  f"the library", key=t.text)
            i += 1

    def chain(self, code: Sequence[Tok], i: int, declared: Set[str]) -> int:
        """`A::B::C`: A as any name, B after std:: or a course namespace from the lists, the
        rest as members. Returns the index after the chain's names."""
        head = code[i]
        self.name(head, declared, code, i)
        k = i + 1
        position = 1
        while k + 1 < len(code) and code[k].text == "::":
            t = code[k + 1]
            if t.text == "template":
                k += 1
                t = code[k + 1] if k + 1 < len(code) else t
            if t.kind != "ident":
                break
            rule = rules.denied_rule(t.text)
            if rule:
                self.bad(t.line, rule, f"`{t.text}`: an exercise never uses {rule}", key=t.text)
            elif position == 1 and head.text == "std" and t.text not in self.r.std_names:
                self.bad(t.line, "not on the list", f"`std::{t.text}` is not on lesson "
                                                     f"{self.r.lesson}'s list of standard names",
                         key=f"std::{t.text}")
            elif position == 1 and head.text != "std" and head.text in self.r.namespaces and \
                    head.text not in declared and t.text not in self.r.usable:
                self.bad(t.line, "not on the list",
                         f"`{head.text}::{t.text}` is not declared by the headers lesson "
                         f"{self.r.lesson}'s exercise may include", key=f"{head.text}::{t.text}")
            position += 1
            k += 2
        return k

    def name(self, t: Tok, declared: Optional[Set[str]], code, i=None) -> None:
        name = t.text
        rule = rules.denied_rule(name)
        if rule:
            self.bad(t.line, rule, f"`{name}`: an exercise never uses {rule}", key=name)
            return
        if _RESERVED.match(name):
            if name not in self.r.names:
                self.bad(t.line, "reserved name", f"`{name}` is reserved for the compiler and the "
                                                  f"library, and not on the CUDA list", key=name)
            return
        if self.r.allowed(name):
            return
        if name in self.r.library:
            self.bad(t.line, "library", f"`{name}` is a name of the C library or the CUDA runtime "
                                        f"that lesson {self.r.lesson}'s list does not allow (if "
                                        f"it is your own variable, name it differently)", key=name)
            return
        called = code is not None and i is not None and i + 1 < len(code) and \
            code[i + 1].text in ("(", "<")
        # A name of the tests' own code, called (it could reach that code by lookup) and not
        # the file's own (a lambda of the same name in scope shadows the course's).
        if name in self.r.elsewhere and (called or declared is None) and \
                not (declared is not None and name in declared):
            self.bad(t.line, "course name", f"`{name}` is declared by the course's "
                                            f"{self.r.elsewhere[name]}: an exercise neither calls "
                                            f"nor redeclares it", key=name)
            return
        if name in self.r.usable or (declared is not None and name in declared):
            return
        self.bad(t.line, "undeclared", f"`{name}` is neither declared in this file, nor by the "
                                       f"headers lesson {self.r.lesson}'s exercise may include, "
                                       f"nor on its list", key=name)

    def collisions(self, names: Dict[str, int]) -> None:
        for name, line in names.items():
            if name in self.r.starter_api or name == self.r.namespace:
                continue
            where = self.r.usable_scope.get(name) or self.r.elsewhere.get(name)
            if where is None and name in self.r.namespaces:
                where = "a namespace of the course"
            if where is not None:
                self.bad(line, "course name", f"`{name}` is already declared by the course "
                                              f"({where}): an exercise adds no overload, twin or "
                                              f"second declaration of a course name - give yours "
                                              f"another name", key=f"decl {name}")

    def run(self) -> List[Finding]:
        text = self.raw()
        if text is None:
            return self.findings
        toks = lex(self.data, Path(self.path).name)
        self.coverage(toks)
        directives, code = split_directives(toks)
        for d in directives:
            self.directive(d)
        for i in range(len(code)):
            self.token(code, i)
        try:
            tree = brace_tree(code)
        except Unbalanced as e:
            self.bad(e.tok.line, "braces", str(e))
            return self.findings
        ns_names = self.structure(tree)
        declared = declared_names(code) | set(ns_names) | self.siblings
        self.names(code, declared)
        self.collisions(ns_names)
        self.findings.sort(key=lambda f: (f.line, f.rule))
        return self.findings


def _looks_like_parameters(head: Sequence[Tok], open_paren: Tok) -> bool:
    """Whether the parentheses after a declarator hold parameters (a function's declaration)
    rather than an initializer (`Foo x(3)`)."""
    k = list(head).index(open_paren)
    inner = head[k + 1:]
    if not inner or inner[0].text == ")":
        return True
    first = inner[0]
    if first.kind == "keyword" and first.text not in ("this", "true", "false", "nullptr",
                                                       "sizeof", "static_cast", "new"):
        return True
    if first.kind == "ident" and len(inner) > 1 and \
            inner[1].text in ("::", "<", "*", "&", "&&", ",", ")", "...") or \
            (first.kind == "ident" and len(inner) > 1 and inner[1].kind == "ident"):
        return True
    return first.text == "::"


def check_file(data: bytes, path: str, r: LessonRules,
               siblings: Optional[Set[str]] = None) -> List[Finding]:
    """Every reason the policy refuses one exercise file ([] when it passes). siblings: the
    names the lesson's other exercise files declare (exercise.cu uses exercise.hpp's)."""
    return _Checker(data, path, r, siblings or set()).run()


def check_files(files: Dict[str, bytes], r: LessonRules, label: str) -> List[Finding]:
    """Every finding on one lesson's exercise files (name -> bytes), shown as label/name."""
    declared = {name: read_declarations(data, name).names for name, data in files.items()
                if _decodes(data)}
    findings: List[Finding] = []
    for name in sorted(files):
        others = set().union(*[v for k, v in declared.items() if k != name]) if declared else set()
        findings += check_file(files[name], f"{label}/{name}", r, others)
    return findings


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return len(data) <= MAX_BYTES and b"\0" not in data
    except UnicodeDecodeError:
        return False


# ------------------------------------------------------------------------------------------
# Lessons, and the command line
# ------------------------------------------------------------------------------------------

def check_lesson(course: Path, lesson: Lesson, files: Dict[str, bytes],
                 starter_files: Optional[Dict[str, bytes]] = None,
                 hidden_tests: Optional[Path] = None, cache_dir: Optional[Path] = None,
                 label: str = "") -> List[Finding]:
    """Every finding on a lesson's exercise files (name -> bytes), shown as label/name: the
    token layer's, then the allowlist's on the parsed files (allowlist.py)."""
    if starter_files is None:
        starter_files = {p.name: p.read_bytes() for p in lesson.student_files()}
    label = label or lesson.rel_dir
    r = lesson_rules(course, lesson, starter_files, hidden_tests, cache_dir)
    findings = check_files(files, r, label)
    readable = {name: data for name, data in files.items() if _decodes(data)}
    if readable and len(readable) == len(files):
        key = _rules_key(course, lesson, starter_files, hidden_tests) + hashlib.sha256(
            repr(sorted(files.items())).encode()).hexdigest()
        said = {(f.path, f.line, f.rule) for f in findings}
        findings += [f for f in _cached(cache_dir, f"allowlist-{lesson.label}.json", key, lambda: (
            allowlist.check_parsed(course, lesson, files, starter_files, label)))
            if (f.path, f.line, f.rule) not in said]  # one sentence a line and rule
    return sorted(findings, key=lambda f: (f.path, f.line, f.rule))


def _cached(cache_dir: Optional[Path], name: str, key: str, make) -> List[Finding]:
    """Findings kept in cache_dir under `name` for `key` (the files they judge and everything
    the judgement reads), or made now and kept."""
    cache = cache_dir / name if cache_dir else None
    if cache is not None and cache.is_file():
        try:
            data = json.loads(cache.read_text())
            if data.get("key") == key:
                return [Finding(**f) for f in data["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            pass
    findings = make()
    if cache is not None:
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({"key": key, "findings": [vars(f) for f in findings]}))
        except OSError:
            pass
    return findings


def _lesson_of(course: Path, path: Path) -> Lesson:
    lessons = find_lessons(course)
    for part in path.resolve().parts[::-1]:
        for lesson in lessons:
            if part == lesson.folder:
                return lesson
    raise CourseError(f"{path}: not in a lesson's folder (give --lesson NN)")


def cmd_check(args) -> int:
    course = args.course.resolve()
    groups: Dict[str, Tuple[Lesson, Dict[str, bytes], Path]] = {}
    for path in args.files:
        if not path.is_file():
            raise CourseError(f"{path}: no such file")
        lesson = lesson_by_number(find_lessons(course), args.lesson) if args.lesson else \
            _lesson_of(course, path)
        entry = groups.setdefault(str(path.parent.resolve()), (lesson, {}, path.parent))
        entry[1][path.name] = path.read_bytes()
    findings: List[Finding] = []
    for lesson, files, folder in groups.values():
        # The lesson's other exercise files beside them are read too (exercise.cu declares
        # nothing that exercise.hpp does), and judged only when named.
        siblings = {p.name: (folder / p.name).read_bytes() for p in lesson.student_files()
                    if p.name not in files and (folder / p.name).is_file()}
        named = {f"{folder}/{name}" for name in files}
        # Held to the starters at the course's HEAD: a starter edited in place is checked as
        # the grader checks a student's file, not as a starter.
        findings += [f for f in check_lesson(course, lesson, {**siblings, **files},
                                             course_starters(course, lesson), label=str(folder))
                     if f.path in named]
    for f in findings:
        print(f)
    return 1 if findings else 0


def cmd_lessons(args) -> int:
    course = args.course.resolve()
    findings: List[Finding] = []
    count = 0
    for lesson in find_lessons(course):
        starters = {p.name: p.read_bytes() for p in lesson.student_files()}
        trees = [("lessons", starters)]
        if args.solutions:
            folder = course / "solutions" / lesson.folder
            if not folder.is_dir():
                raise CourseError(f"{folder} is not there: this repository has no reference "
                                  f"solutions (leave out --solutions)")
            solved = dict(starters)
            solved.update({p.name: p.read_bytes() for p in sorted(folder.glob("exercise*"))})
            trees.append(("solutions", solved))
        for tree, files in trees:
            count += len(files)
            findings += check_lesson(course, lesson, files, starters,
                                     label=f"{tree}/{lesson.folder}")
    for f in findings:
        print(f)
    print(f"{count} exercise files, {len(findings)} findings")
    return 1 if findings else 0


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--course", type=Path, default=ROOT, help="the course's root (default: this one)")
    sub = ap.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser("check", help="check exercise files")
    p.add_argument("files", type=Path, nargs="+")
    p.add_argument("--lesson", help="the lesson they belong to (default: from their folder)")
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("lessons", help="check every lesson's starter files (and the solutions)")
    p.add_argument("--solutions", action="store_true", help="the reference solutions too")
    p.set_defaults(func=cmd_lessons)
    args = ap.parse_args(argv)
    return run_main(PROG, lambda: args.func(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
