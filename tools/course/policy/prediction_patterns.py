"""The patterns a lesson's predictions ask about, and the bank maps its README shows and the
starter's test messages offer: none of those may draw one of these.

A prediction is a KIT_EXPECT_PREDICTION in the lesson's CPU tests; its model expression names
the patterns it is about (`kit::wavefronts(lesson07::float4_stride_two_demo().access)`,
`kit::model_ratio(a(), b())`, a helper of the test file such as `model(pattern)`). A small host
program made from the test file — its includes (GoogleTest's aside), the helpers before its
first TEST, and one line per pattern — prints each pattern's lane addresses; the C++ compiler
builds it with the same include folders as the lesson's CPU tests. A README's `bank-map`
commands (in code blocks or inline code), its `bank-conflicts` sweeps (every swept value), and
its pictures (their docs/pictures.txt lines), anywhere in the README (all of it is in view
before the predictions are written: drawings of what they ask are in the lesson's answers), and
the bank-map commands of the starter's test messages run through `bank-map --json`. A drawn request that is a predicted pattern — the same width and active
lanes, every address moved by one multiple of 4 bytes at most (a shift keeps every lane's bank
distance, and so the cost) — is a finding. An ldmatrix pattern cannot be drawn by bank-map and
is left out, said so in a note.

Used by check_answers.py (--bank-map). Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from course.model.course_model import CourseError, Lesson
from course.model.site_manifests import PICTURES_MANIFEST, manifest_lines
from course.policy.check_predictions import MACRO
from course.policy.cxx_tokens import Source, Unbalanced, include_name, split_directives
from course.policy.findings import Finding

#: Calls whose arguments are the patterns (or accesses) a prediction is about.
WRAPPERS = {"kit::wavefronts", "wavefronts", "kit::ldsm_wavefronts", "kit::model_ratio",
            "model_ratio", "model", "cost"}
COMPILE_TIMEOUT_S = 180


@dataclass(frozen=True)
class Drawn:
    """One warp-wide request: its width, and the byte address of each active lane."""

    width: int
    lanes: Tuple[Tuple[int, int], ...]  # (lane, address), active lanes only

    def shape(self) -> Optional[Tuple[int, Tuple[Tuple[int, int], ...]]]:
        """The request with its lowest address moved to 0, or None when that is not a move by
        a multiple of 4 bytes (a shift that would change the banks' pattern)."""
        if not self.lanes:
            return None
        base = min(a for _, a in self.lanes)
        step = max(4, self.width)
        base -= base % step
        return self.width, tuple((lane, a - base) for lane, a in self.lanes)


@dataclass(frozen=True)
class Predicted:
    name: str  # kPredictedX
    expression: str  # the pattern's C++ expression
    drawn: Drawn


# ------------------------------------------------------------------------------------------
# The predictions' patterns
# ------------------------------------------------------------------------------------------

def _call(expr: str) -> Optional[Tuple[str, List[str]]]:
    """(callee, arguments) when `expr` is one call as a whole, else None."""
    src = Source(expr.strip(), "expression.cpp")
    code = src.code
    k = 0  # the callee: a name, `::`-qualified, with template arguments that hold no call
    while k < len(code) and (code[k].kind == "ident" or code[k].text == "::"):
        k += 1
    if k == 0 or code[0].text == "::":
        return None
    if k < len(code) and code[k].text == "<":
        close = next((j for j in range(k, len(code)) if code[j].text in (">", ">>", "(", ")")), None)
        if close is None or code[close].text not in (">", ">>"):
            return None
        k = close + 1
    if k >= len(code) or code[k].text != "(":
        return None
    try:
        args, close = src.arguments(k)
    except Unbalanced:
        return None
    # The parenthesis that closes the arguments must be the expression's last token.
    if close != len(code) - 1:
        return None
    return src.between(code[0].start, code[k - 1].end).strip(), [a for a in args if a]


def pattern_expressions(model: str) -> List[str]:
    """The pattern (or access) expressions of a prediction's model expression."""
    call = _call(model)
    if call is None or call[0] not in WRAPPERS:
        return [model.strip()]
    found = []
    for arg in call[1]:
        arg = re.sub(r"\.access\s*$", "", arg.strip())
        if "SharedOp::" in arg:
            continue
        found += pattern_expressions(arg)
    return found


def predictions_of(test_source: str) -> List[Tuple[str, str]]:
    """(prediction name, pattern expression) for every pattern of every KIT_EXPECT_PREDICTION."""
    src = Source(test_source, "predictions_test.cpp")
    found = []
    for call in src.calls(MACRO):
        try:
            args, _close = src.arguments(call)
        except Unbalanced as e:
            raise CourseError(f"line {e.tok.line}: {e}") from None
        if len(args) != 3:
            first = src.code[call - 1]
            raise CourseError(f"{MACRO} takes 3 arguments: {src.between(first.start, len(src.data))[:80]}")
        name = args[0].split("::")[-1].strip()
        for expr in pattern_expressions(args[1]):
            found.append((name, expr))
    return found


def _prelude(test_source: str) -> Tuple[List[str], str]:
    """(the test file's #include lines but GoogleTest's, the text between its anonymous
    namespace and its first TEST: helpers, using-declarations)."""
    src = Source(test_source, "predictions_test.cpp")
    lines = test_source.splitlines()
    directives, _code = split_directives(src.toks)
    includes = [lines[d[0].line - 1] for d in directives
                if include_name(d) is not None and "gtest" not in include_name(d)
                and include_name(d) != "kit/prediction.hpp"]
    code, tests = src.code, src.tests()
    helpers = ""
    anonymous = next((k for k in range(len(code) - 1)
                      if code[k].text == "namespace" and code[k + 1].text == "{"), None)
    if tests and anonymous is not None and anonymous < tests[0][2]:
        helpers = src.between(code[anonymous + 1].end, code[tests[0][2]].start)
    return includes, helpers


PROGRAM = """\
// Generated by course.policy.prediction_patterns: the patterns of {test}.
#include <cstdio>
#include <type_traits>
{includes}
#include "kit/bank_model.hpp"
#include "kit/pattern.hpp"

namespace {{
{helpers}

void print_access(int index, const kit::WarpAccess& a) {{
  std::printf("%d %d %u", index, a.width, a.mask);
  for (int lane = 0; lane < kit::kWarpSize; ++lane) {{
    std::printf(" %u", a.address[lane]);
  }}
  std::printf("\\n");
}}

template <class T>
void print_pattern(int index, const T& value) {{
  if constexpr (std::is_same_v<T, kit::Pattern>) {{
    print_access(index, value.access);
  }} else if constexpr (std::is_same_v<T, kit::WarpAccess>) {{
    print_access(index, value);
  }} else {{
    std::printf("%d unsupported\\n", index);
  }}
}}

}} // namespace

int main() {{
{lines}
  return 0;
}}
"""


def _compile_and_run(name: str, source: str, flags: List[str], compiler: List[str]) -> str:
    with tempfile.TemporaryDirectory(prefix="course-patterns-") as tmp:
        cpp = Path(tmp) / "patterns.cpp"
        exe = Path(tmp) / "patterns"
        cpp.write_text(source)
        try:
            built = subprocess.run([*compiler, "-std=c++17", "-w", *flags, str(cpp), "-o", str(exe)],
                                   capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
        except FileNotFoundError:
            raise CourseError(f"{compiler[0]}: no such compiler (give --cxx)") from None
        if built.returncode != 0:
            first = next((line for line in built.stderr.splitlines() if "error" in line),
                         built.stderr.strip()[-300:])
            raise CourseError(f"the patterns' program made from {name} does not compile: {first}")
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            raise CourseError(f"the patterns' program made from {name} failed: "
                              f"{run.stderr.strip()}")
        return run.stdout


def include_flags(course: Path, lesson: Lesson) -> List[str]:
    """The CPU tests' include folders: the lesson's tests, its starter folder, the kit, CUDA's
    headers (the lessons' headers declare CUDA types)."""
    flags = [f"-I{course / 'tests' / lesson.folder}", f"-I{course / 'lessons' / lesson.folder}",
             f"-I{course / 'common' / 'include'}", f"-I{course / 'families'}"]
    for cuda in (os.environ.get("CUDA_HOME", ""), "/usr/local/cuda"):
        if cuda and (Path(cuda) / "include" / "cuda_runtime_api.h").is_file():
            flags.append(f"-isystem{Path(cuda) / 'include'}")
            break
    return flags


def predicted_patterns(course: Path, lesson: Lesson,
                       compiler: Optional[List[str]] = None) -> Tuple[List[Predicted], List[str]]:
    """(the lesson's predicted patterns, notes on what could not be drawn)."""
    compiler = compiler or [os.environ.get("CXX") or "c++"]
    found: List[Predicted] = []
    notes: List[str] = []
    # Predict's predictions: the lesson's prediction tests (other tests hold findings too).
    for test in sorted((course / "tests" / lesson.folder).glob("cpu_*predictions*_test.cpp")):
        source = test.read_text(encoding="utf-8")
        pairs = predictions_of(source)
        if not pairs:
            continue
        includes, helpers = _prelude(source)
        namespace = f"using namespace lesson{lesson.number};"
        lines = "\n".join(f"  {{ {namespace} print_pattern({i}, {expr}); }}"
                          for i, (_, expr) in enumerate(pairs))
        program = PROGRAM.format(test=test.name, includes="\n".join(includes), helpers=helpers,
                                 lines=lines)
        output = _compile_and_run(f"{lesson.folder}/{test.name}", program,
                                  include_flags(course, lesson), compiler)
        for line in output.splitlines():
            fields = line.split()
            index = int(fields[0])
            name, expr = pairs[index]
            if fields[1] == "unsupported":
                notes.append(f"lesson {lesson.number}: {name} ({expr}) is not a pattern bank-map "
                             f"draws; not compared")
                continue
            width, mask = int(fields[1]), int(fields[2])
            addresses = [int(a) for a in fields[3:]]
            lanes = tuple((lane, a) for lane, a in enumerate(addresses) if (mask >> lane) & 1)
            found.append(Predicted(name, expr, Drawn(width, lanes)))
    return found, notes


# ------------------------------------------------------------------------------------------
# What the README draws
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Shown:
    line: int
    what: str  # the command or picture, as the README has it
    args: Tuple[str, ...]  # bank-map's arguments


def _tool_args(command: str, tool: str) -> Optional[List[str]]:
    """The arguments of a `bank-map` or `bank-conflicts` command line, or None."""
    command = command.split(" #", 1)[0]
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for i, w in enumerate(words):
        if w == tool or w.endswith("/" + tool):
            return words[i + 1:]
    return None


def _sweep(args: List[str]) -> List[List[str]]:
    """bank-map arguments for each swept value of a bank-conflicts command."""
    opts: Dict[str, str] = {}
    i = 0
    while i < len(args):
        if args[i].startswith("--") and i + 1 < len(args) and not args[i + 1].startswith("--"):
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            i += 1
    m = re.fullmatch(r"(\d+):(\d+)", opts.get("--sweep", ""))
    if not m:
        return []
    base = ["--type", opts["--type"]] if "--type" in opts else []
    if "--width" in opts:
        base = ["--width", opts["--width"]]
    out = []
    for s in range(int(m.group(1)), int(m.group(2)) + 1):
        if "--index" in opts:
            expr = re.sub(r"(?<![A-Za-z0-9_])s(?![A-Za-z0-9_])", f"({s})", opts["--index"])
            out.append(base + ["--index", expr])
        else:
            out.append(base + ["--stride", str(s)])
    return out


def _drawn_by(number: int, command: str) -> List[Shown]:
    """What a `bank-map` command, or each swept value of a `bank-conflicts` one, draws."""
    args = _tool_args(command, "bank-map")
    if args is not None and args:
        return [Shown(number, command.strip(), tuple(args))]
    args = _tool_args(command, "bank-conflicts")
    return [Shown(number, command.strip(), tuple(swept)) for swept in _sweep(args or [])]


#: A bank-map or bank-conflicts command in inline code (`bank-map --stride 2`).
INLINE_COMMAND = re.compile(r"`([^`]*\bbank-(?:map|conflicts)\b[^`]*)`")


def shown_in_page(text: str, pictures: Dict[str, List[str]], page_dir: str) -> List[Shown]:
    """The bank maps a lesson's page (its README, its hints) shows or has the student run,
    anywhere in it: it is in view before the predictions are written, a README's 'What you
    should see' included (its drawings of the predicted patterns are in the lesson's
    answers)."""
    shown: List[Shown] = []
    fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        for command in [line] if fence else INLINE_COMMAND.findall(line):
            shown += _drawn_by(number, command)
        if not fence:
            for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", line):
                path = os.path.normpath(os.path.join(page_dir, target)).replace(os.sep, "/")
                if path in pictures:
                    shown.append(Shown(number, f"picture {target}", tuple(pictures[path])))
    return shown


def manifest_pictures(course: Path) -> Dict[str, List[str]]:
    """docs/pictures.txt: picture path -> bank-map arguments (charts left out)."""
    out = {}
    path = course / PICTURES_MANIFEST
    if not path.is_file():
        return out
    for _number, words in manifest_lines(path, PICTURES_MANIFEST):
        if len(words) < 2 or words[1] == "chart":
            continue
        args, i = [], 1
        while i < len(words):
            if words[i] == "--title":
                i += 2  # the title is not the request
                continue
            args.append(words[i])
            i += 1
        out[words[0]] = args
    return out


def draw(bank_map: Path, args: Sequence[str]) -> Optional[Drawn]:
    """The request bank-map draws for `args` (None when bank-map refuses them)."""
    proc = subprocess.run([str(bank_map), *args, "--json"], capture_output=True, text=True,
                          timeout=60)
    if proc.returncode != 0:
        return None
    data = json.loads(proc.stdout)
    lanes = tuple((d["lane"], d["offset"]) for d in data["lanes"] if d.get("active", True))
    return Drawn(int(data["width"]), lanes)


def check_lesson(view_root: Path, course: Path, lesson: Lesson, bank_map: Path,
                 compiler: Optional[List[str]] = None,
                 messages: Optional[Dict[str, str]] = None):
    """(findings, notes) for one lesson: its README and its hints (any of which a student may
    take before predicting), and `messages` (a place -> the starter's test output there, before
    any prediction is written), whose commands may not draw a predicted pattern either (a
    command bank-map refuses there is a template, `--index 'EXPR'`, and is left alone)."""
    readme = view_root / "lessons" / lesson.folder / "README.md"
    if not readme.is_file():
        return [], []
    predicted, notes = predicted_patterns(course, lesson, compiler)
    if not predicted:
        return [], notes
    by_shape: Dict[object, List[Predicted]] = {}
    for p in predicted:
        by_shape.setdefault(p.drawn.shape(), []).append(p)
    findings = []
    pictures = manifest_pictures(view_root)
    for page in (readme, view_root / "lessons" / lesson.folder / "hints.md"):
        if not page.is_file():
            continue
        rel = f"lessons/{lesson.folder}/{page.name}"
        for shown in shown_in_page(page.read_text(encoding="utf-8"), pictures,
                                     f"lessons/{lesson.folder}"):
            drawn = draw(bank_map, shown.args)
            if drawn is None:
                if page == readme:  # a hint may leave a part to the student: `--layout 32xP`
                    findings.append(Finding(rel, shown.line, f"`{shown.what}`: bank-map "
                                                             f"refuses {' '.join(shown.args)}"))
                continue
            for p in by_shape.get(drawn.shape(), []):
                findings.append(Finding(rel, shown.line,
                                        f"`{shown.what}` draws the pattern {p.name} asks about "
                                        f"({p.expression}) in {page.name}"))
    for place, output in (messages or {}).items():
        said = {s.args: s for command in set(INLINE_COMMAND.findall(output))
                for s in _drawn_by(0, command)}
        for shown in said.values():
            drawn = draw(bank_map, shown.args)
            if drawn is None:
                continue
            for p in by_shape.get(drawn.shape(), []):
                findings.append(Finding(place, 0, f"a message has the student run "
                                                  f"`{shown.what}`, which draws the pattern "
                                                  f"{p.name} asks about ({p.expression}), "
                                                  f"before the predictions are written"))
    return findings, notes
