"""An exercise's answers as code tokens, and where they stand in a text.

The answers of a lesson are what `solutions/NN_topic/exercise.*` changes from the starter
`lessons/NN_topic/exercise.*`, compared as C++ tokens with comments and preprocessor lines
dropped and namespace qualifiers removed (`kit::Swizzle<2, 1, 4>` and `Swizzle<2,1,4>` are the
same answer). Each answer is a *unit*:

- a **value**: the right-hand side of a declaration or assignment, a type alias's type, or a
  returned expression, of every statement the solution changes (in an `exercise.cu`, only
  outside function bodies: a kernel's statements are the steps its task spells out);
- a **part** of a value: a run of tokens the solution inserts or replaces inside it, trimmed
  to a balanced phrase (`Swizzle<2, 1, 4>` inside `Swizzled<SomeRows, Swizzle<2, 1, 4>>`);
- a **body**: a changed function body of two statements or more, whole.

A unit counts only above a minimum size (`MIN_TOKENS` tokens, `MIN_WORDS` of them names or
numbers, `MIN_CHARS` characters), so that `}` or `return t;` never count, only if it computes
something (a name alone, `sm.smem_reserved_per_block`, reads an input), and only if the
starter does not hold it already. A text (a README, a demo header, a picture) holds a unit where
its tokens, comments and prose included, contain the unit's tokens in order.

C++ is read by the policy's lexer (cxx_tokens: libclang's): it tells code from comments, string
literals and preprocessor lines. Prose (Markdown, a picture's captions, a comment's words, a
program's output) is read with the standard library; both cut tokens alike (`_TOKEN`: `>>` is
two `>`, `0x1F` is `0` and `x1F`), so a unit found in code is found in prose.
"""

from __future__ import annotations

import bisect
import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from course.policy.cxx_tokens import Tok, lex, split_directives

#: A unit needs this many tokens, names or numbers among them, and characters (spaces left out).
MIN_TOKENS = 3
MIN_WORDS = 2
MIN_CHARS = 8

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<number>(?:\d+(?:'\d+)*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fFuUlL]*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op>::|->|<<=|>>=|<=|>=|==|!=|&&|\|\||\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^=|<<
        |[][(){}<>;,.?:=+\-*/%&|^!~#])
  | (?P<other>.)
""", re.X | re.S)

_OPEN = {"(": ")", "[": "]", "<": ">", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}
#: Tokens a phrase does not start or end with.
_EDGE = {",", ";", "=", "+", "-", "*", "/", "%", "&", "|", "^", "&&", "||", "?", ":", "return",
         "<<", "."}
_WORD = re.compile(r"^[\w\"']")


@dataclass(frozen=True)
class Token:
    text: str
    line: int  # 1-based


@dataclass(frozen=True)
class Unit:
    """One answer: its tokens, what kind it is, and where the solution has it."""

    tokens: Tuple[str, ...]
    kind: str  # "value", "part" or "body"
    origin: str  # the declaration or function it belongs to, e.g. "kTilePitch"
    line: int  # its line in the solution file
    #: The parameters of the function around it that it reads: in a text, any name stands for
    #: each (`r + 8 c` is `row + kRows * col` with row and col named otherwise).
    params: Tuple[str, ...] = ()
    #: The unit with the lesson's named constants as their values (`row + 8 * col`), or ().
    valued: Tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return join(self.tokens)


def join(tokens: Sequence[str]) -> str:
    """Tokens as one readable line: `kRowDim + kExtra`, `Swizzle<2, 1, 4>`."""
    out: List[str] = []
    for i, t in enumerate(tokens):
        prev = tokens[i - 1] if i else ""
        tight = (t in (",", ";", ")", "]", ">", ".") or prev in ("(", "[", "<", ".")
                 or (t in ("(", "[", "<") and re.match(r"^[A-Za-z_]\w*$", prev) is not None))
        if i and not tight:
            out.append(" ")
        out.append(t)
    return "".join(out)


def _drop_qualifiers(tokens: List[Token]) -> List[Token]:
    """`kit :: Swizzle` -> `Swizzle`; a leading `::` goes too."""
    out: List[Token] = []
    i = 0
    while i < len(tokens):
        if (i + 1 < len(tokens) and tokens[i + 1].text == "::"
                and re.match(r"^[A-Za-z_]\w*$", tokens[i].text)):
            i += 2
            continue
        if tokens[i].text == "::":
            i += 1
            continue
        out.append(tokens[i])
        i += 1
    return out


#: The files read as C++ (by the lexer); any other text is prose.
CXX_SUFFIXES = (".hpp", ".cuh", ".cu", ".cpp", ".h")


def _pieces(text: str, line: int, prose: bool) -> List[Token]:
    """The tokens of a fragment that starts on `line`, cut by `_TOKEN`. In prose, comments and
    quoted text are prose too (their words count); in one C++ token, nothing is skipped but
    spaces."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    found = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ("ws", "other"):
            continue
        here = line + bisect.bisect_right(starts, m.start()) - 1
        if prose and kind in ("line_comment", "block_comment"):
            body = m.group()[2:-2] if kind == "block_comment" else m.group()[2:]
            found += _pieces(body, here, prose)
        elif prose and kind == "string":  # prose inside quotes is prose
            found += _pieces(m.group()[1:-1], here, prose)
        else:
            found.append(Token(m.group(), here))
    return found


def _cxx(text: str) -> List[Tok]:
    """The lexer's tokens of a C++ text (cxx_tokens; raises LexerUnavailable)."""
    return lex(text.encode("utf-8"), "view.hpp")


def code_tokens(text: str) -> List[Token]:
    """The C++ tokens of a source file: no comments, no preprocessor lines, no qualifiers."""
    _directives, code = split_directives(_cxx(text))
    found = []
    for t in code:
        found += _pieces(t.text, t.line, prose=False)
    return _drop_qualifiers(found)


def text_tokens(text: str) -> List[Token]:
    """The tokens of prose a student reads — Markdown, a picture's captions, a program's output
    — cut as the units are. Backticks and Markdown emphasis on names are dropped; qualifiers
    too."""
    return _drop_qualifiers(_pieces(_unmarked(text), 1, prose=True))


def cxx_text_tokens(text: str) -> List[Token]:
    """The tokens of a C++ file a student reads, its comments and string literals as prose."""
    found = []
    for t in _cxx(_unmarked(text)):
        if t.kind == "comment":
            body = t.text[2:-2] if t.text.startswith("/*") else t.text[2:]
            found += _pieces(body, t.line, prose=True)
        elif t.kind == "literal" and t.text[-1:] in ("\"", "'"):
            quote = t.text.index(t.text[-1])
            found += _pieces(t.text[:quote], t.line, prose=False)  # a prefix (u8, L)
            found += _pieces(t.text[quote + 1:-1], t.line, prose=True)
        else:
            found += _pieces(t.text, t.line, prose=False)
    return _drop_qualifiers(found)


def view_tokens(path: Path, text: str) -> List[Token]:
    """The tokens of a file a student reads: C++ by the lexer, anything else as prose."""
    return cxx_text_tokens(text) if path.suffix in CXX_SUFFIXES else text_tokens(text)


def _unmarked(text: str) -> str:
    """Markdown's code and emphasis marks on names dropped (`kPad`, **kPad**, *r* + 8 *c*;
    not the product signs of `4*t*2`)."""
    text = text.replace("`", " ").replace("**", " ")
    return _EMPHASIS.sub(r" \1 ", text)


#: A name or number in Markdown's emphasis: `*t*`, not a product's `*` between operands.
_EMPHASIS = re.compile(r"(?<![\w)\]*])\*(\w+)\*(?![\w(\[*])")


# ------------------------------------------------------------------------------------------
# Statements and the units of a solution
# ------------------------------------------------------------------------------------------

@dataclass
class _Statement:
    start: int  # token index of its first token
    end: int  # one past its last token
    depth: int  # braces open around it
    function: str  # the enclosing function's name, or ""
    scope: str  # the enclosing struct's name, or ""
    params: Tuple[str, ...] = ()  # the enclosing function's parameter names


def _statements(tokens: List[Token]) -> List[_Statement]:
    """Statements split at `;`, `{` and `}`, with the function and struct around each."""
    found: List[_Statement] = []
    # (kind: "function" | "scope" | "block", name, parameter names) per open brace
    stack: List[Tuple[str, str, Tuple[str, ...]]] = []
    start = 0
    for i, tok in enumerate(tokens):
        if tok.text not in (";", "{", "}"):
            continue
        function, params = next(((n, p) for k, n, p in reversed(stack) if k == "function"),
                                ("", ()))
        scope = next((n for k, n, _p in reversed(stack) if k == "scope"), "")
        if i > start:
            found.append(_Statement(start, i, len(stack), function, scope, params))
        if tok.text == "{":
            header = [t.text for t in tokens[start:i]]
            kind, name = _brace_kind(header)
            stack.append((kind, name, _parameters(header) if kind == "function" else ()))
        elif tok.text == "}" and stack:
            stack.pop()
        start = i + 1
    return found


def _parameters(header: List[str]) -> Tuple[str, ...]:
    """The parameter names of a function header: the name before each `,` or the closing `)`
    of its last top-level parenthesis (`col(int t, int j)` -> t, j)."""
    close = max((j for j, t in enumerate(header) if t == ")"), default=-1)
    depth, names = 0, []
    for j in range(close, -1, -1):
        t = header[j]
        depth += t == ")"
        depth -= t == "("
        if depth == 0:
            break
        if depth == 1 and t in (",", ")") and j and _NAME.match(header[j - 1]):
            names.append(header[j - 1])
    return tuple(reversed(names))


def _brace_kind(header: List[str]) -> Tuple[str, str]:
    """What a `{` opens, from the tokens before it: a function, a struct, or another block."""
    if header[:1] == ["namespace"]:
        return "namespace", ""
    for keyword in ("struct", "class", "union"):
        if keyword in header and "(" not in header:
            i = header.index(keyword)
            return "scope", header[i + 1] if i + 1 < len(header) else ""
    if "(" in header and header[0] not in ("if", "for", "while", "switch", "do", "else"):
        if "=" in header[: header.index("(")] or header[-1] in ("=", ","):
            return "block", ""  # an initializer, a lambda
        depth, name = 0, ""
        for j, t in enumerate(header):  # the name before the last top-level parenthesis
            if t in ("<", "("):
                if t == "(" and depth == 0 and j and header[j - 1] not in _NOT_NAMES:
                    name = header[j - 1]
                depth += 1
            elif t in (">", ")"):
                depth -= 1
        return "function", name
    return "block", ""


#: Names before a parenthesis that are not a function's: attributes, specifiers.
_NOT_NAMES = {"__launch_bounds__", "__align__", "alignas", "noexcept", "decltype", "__attribute__"}


def _value(statement: List[str]) -> Tuple[List[str], str]:
    """(the value part of a statement, the name it gives a value to, or '')."""
    depth = 0
    for k, t in enumerate(statement):
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            depth -= 1
        elif t == "=" and depth == 0:
            names = [x for x in statement[:k] if re.match(r"^[A-Za-z_]\w*$", x)]
            return statement[k + 1:], names[-1] if names else ""
    if statement[:1] == ["return"]:
        return statement[1:], ""
    return [], ""


def _trim(run: List[str]) -> List[str]:
    """A run of tokens trimmed to a phrase: no separator or unmatched bracket at either end."""
    run = list(run)
    changed = True
    while changed and run:
        changed = False
        if run[0] in _EDGE or run[0] in _CLOSE:
            run.pop(0)
            changed = True
        elif run[-1] in _EDGE or run[-1] in _OPEN:
            run.pop()
            changed = True
        else:
            for opener, closer in (("(", ")"), ("[", "]"), ("<", ">"), ("{", "}")):
                if run[-1] == closer and run.count(closer) > run.count(opener):
                    run.pop()
                    changed = True
                    break
                if run[0] == opener and run.count(opener) > run.count(closer):
                    run.pop(0)
                    changed = True
                    break
    return run


def _inside_cast(value: List[str]) -> List[str]:
    """X of a value that is `static_cast<T>(X)` as a whole, else []."""
    if len(value) < 6 or value[0] not in ("static_cast", "reinterpret_cast") or value[-1] != ")":
        return []
    try:
        open_at = value.index("(")
    except ValueError:
        return []
    depth = 0
    for j in range(open_at, len(value)):
        depth += value[j] == "("
        depth -= value[j] == ")"
        if depth == 0:
            return value[open_at + 1:j] if j == len(value) - 1 else []
    return []


def big_enough(tokens: Sequence[str]) -> bool:
    """Whether a phrase is long enough to be an answer (`}` or `return t;` never are)."""
    words = sum(1 for t in tokens if _WORD.match(t))
    return (len(tokens) >= MIN_TOKENS and words >= MIN_WORDS
            and len("".join(tokens)) >= MIN_CHARS)


_NAME = re.compile(r"^[A-Za-z_]\w*$")


def names_a_thing(tokens: Sequence[str]) -> bool:
    """Whether a phrase only names something (`sm.smem_reserved_per_block`, `a->b`): it reads
    an input the tests and messages name too; the formula around it is the answer."""
    return (all(_NAME.match(t) for t in tokens[::2])
            and all(t in (".", "->", "::") for t in tokens[1::2]))


def _contains(haystack: Sequence[str], needle: Sequence[str]) -> bool:
    n = len(needle)
    return any(list(haystack[i:i + n]) == list(needle) for i in range(len(haystack) - n + 1))


def answer_units(starter: str, solution: str, kernel_file: bool = False,
                 constants: Optional[Dict[str, int]] = None) -> List[Unit]:
    """The units a solution file changes from its starter (module docstring). kernel_file: an
    exercise.cu, whose function bodies count only whole. constants: the lesson's named
    constants (`lesson_constants`), each unit's `valued` form is written with."""
    constants = constants or {}
    a = code_tokens(starter)
    b = code_tokens(solution)
    a_text = [t.text for t in a]
    b_text = [t.text for t in b]
    changed = set()
    matcher = difflib.SequenceMatcher(None, a_text, b_text, autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            changed.update(range(j1, j2))
    # A deletion changes the statement it leaves: mark the token after it.
    for tag, _i1, _i2, j1, _j2 in matcher.get_opcodes():
        if tag == "delete" and j1 < len(b_text):
            changed.add(j1)

    units: List[Unit] = []
    seen = set()

    def add(tokens: List[str], kind: str, origin: str, line: int,
            params: Tuple[str, ...] = ()) -> None:
        tokens = _trim(tokens)
        key = tuple(tokens)
        if (key in seen or not big_enough(tokens) or names_a_thing(tokens)
                or _contains(a_text, tokens)):
            return
        seen.add(key)
        valued = tuple(str(constants[t]) if t in constants else t for t in key)
        if not any(_NAME.match(t) for t in valued):
            valued = key  # `32 + 1` alone: any sum in a text would stand for it
        params = tuple(p for p in params if p in key)
        fixed = [t for t in key if t not in params]
        if sum(1 for t in fixed if _WORD.match(t)) < MIN_WORDS and len("".join(fixed)) < MIN_CHARS:
            params = ()  # `a * b` or `x / 4` with any names: too common to be an answer
        units.append(Unit(key, kind, origin, line, params, valued if valued != key else ()))

    statements = _statements(b)
    bodies: Dict[Tuple[str, str], List[_Statement]] = {}
    for st in statements:
        if st.function:
            bodies.setdefault((st.scope, st.function), []).append(st)
        if not any(j in changed for j in range(st.start, st.end)):
            continue
        if kernel_file and st.function:
            continue
        words = b_text[st.start:st.end]
        value, name = _value(words)
        if not value:
            continue
        origin = name if name and not st.function else st.function
        origin = f"{st.scope}::{origin}" if st.scope and origin else origin
        line = b[st.start].line
        add(value, "value", origin or "?", line, st.params)
        inner = _inside_cast(value)
        if inner:
            add(inner, "part", origin or "?", line, st.params)
        offset = st.end - len(value)
        run: List[str] = []
        for j in range(offset, st.end):
            if j in changed:
                run.append(b_text[j])
            elif run:
                add(run, "part", origin or "?", line, st.params)
                run = []
        if run:
            add(run, "part", origin or "?", line, st.params)

    for (scope, function), sts in bodies.items():
        if len(sts) < 2 or not any(j in changed for st in sts for j in range(st.start, st.end)):
            continue
        first, last = sts[0], sts[-1]
        body = b_text[first.start:last.end]
        origin = f"{scope}::{function}" if scope else function
        add(body, "body", origin, b[first.start].line)
    return units


def occurrences(tokens: Sequence[Token], unit: Unit) -> List[int]:
    """The lines of a text where the unit stands: its tokens in order, or those of its valued
    form; any name in place of each of its parameters (the same name wherever it recurs); and
    a product's `*` after a number or a `)` may be left out, as prose writes `16 j`."""
    texts = [t.text for t in tokens]
    lines = []
    for i in range(len(texts)):
        if any(_stands_at(texts, i, form, unit.params) for form in (unit.tokens, unit.valued)
               if form):
            lines.append(tokens[i].line)
    return lines


def _stands_at(texts: Sequence[str], i: int, form: Sequence[str], params: Sequence[str]) -> bool:
    names: Dict[str, str] = {}
    k = i
    for n, want in enumerate(form):
        if (want == "*" and 0 < n < len(form) - 1 and k < len(texts) and texts[k] != "*"
                and (_NUMBER.match(form[n - 1]) or form[n - 1] == ")")):
            continue  # `16 j` for `16 * j`
        if k >= len(texts):
            return False
        got = texts[k]
        if want in params:
            if (not _NAME.match(got) or got.lower() in _WORDS
                    or names.setdefault(want, got) != got
                    or any(v == got for p, v in names.items() if p != want)):
                return False
        elif got != want:
            return False
        k += 1
    return True


_NUMBER = re.compile(r"^\d")
#: Words of prose that are not a variable a formula reads (`lanes l and l + 16 ask bank`).
_WORDS = {"a", "an", "and", "are", "as", "ask", "at", "be", "by", "for", "from", "if", "in",
          "is", "it", "its", "of", "on", "one", "or", "so", "the", "then", "to", "two", "with"}


def lesson_constants(texts: Iterable[str]) -> Dict[str, int]:
    """The named integer constants of a lesson's fixed C++ (its demo header): each
    `constexpr ... NAME = EXPRESSION;` whose expression is integer arithmetic over numbers and
    constants found before it (`kFragN = kTileN / kThreadsX` is 8)."""
    found: Dict[str, int] = {}
    for text in texts:
        code = [t.text for t in code_tokens(text)]
        for st in _statements([Token(t, 0) for t in code]):
            words = code[st.start:st.end]
            value, name = _value(words)
            if "constexpr" not in words or not name or not value or st.function:
                continue
            out = []
            for t in value:
                if t in found:
                    out.append(str(found[t]))
                elif re.match(r"^\d+$", t) or t in ("+", "-", "*", "%", "(", ")"):
                    out.append(t)
                elif t == "/":
                    out.append("//")
                else:
                    break
            else:
                try:
                    found[name] = int(eval(" ".join(out), {"__builtins__": {}}))  # noqa: S307
                except (SyntaxError, ZeroDivisionError, TypeError, ValueError):
                    pass
    return found


def declaration_at(tokens: Sequence[Token], line: int) -> str:
    """The name a C++ file declares at or after a line: the declaration a hit belongs to, or
    the one the comment holding the hit documents ('' if none)."""
    after = [t for t in tokens if t.line >= line]
    words: List[str] = []
    for t in after:
        if t.text in (";", "{", "=", "("):
            break
        words.append(t.text)
    for keyword in ("using", "struct", "class"):
        if keyword in words:
            i = words.index(keyword)
            if i + 1 < len(words):
                return words[i + 1]
    names = [w for w in words if re.match(r"^[A-Za-z_]\w*$", w)]
    return names[-1] if names else ""


def function_at(tokens: Sequence[Token], line: int) -> str:
    """The function whose body holds `line` ('' if none does): a hit inside a function belongs
    to it (`warps_of`, not the `return` it stands in)."""
    tokens = list(tokens)
    for st in _statements(tokens):
        if st.function and tokens[st.start].line <= line <= tokens[st.end - 1].line:
            return st.function
    return ""


def statement_start(tokens: Sequence[Token], line: int) -> int:
    """The first line of the code statement that holds `line` (the line itself if none does)."""
    start = None
    for t in tokens:
        if t.line > line:
            break
        if start is None:
            start = t.line
        if t.text in (";", "{", "}"):
            start = None
    return start if start is not None else line


def sections(markdown: str) -> List[Tuple[int, int, str]]:
    """(first line, heading level, heading text) of every heading of a Markdown text, outside
    code fences."""
    found = []
    fence = False
    for i, line in enumerate(markdown.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m and not fence:
            found.append((i, len(m.group(1)), m.group(2)))
    return found


def section_of(markdown_sections: Iterable[Tuple[int, int, str]], line: int,
               level: int = 2) -> str:
    """The `##` section (or another level) a line of a Markdown text is in ('' before the
    first)."""
    name = ""
    for first, lvl, text in markdown_sections:
        if first > line:
            break
        if lvl == level:
            name = text
    return name


def first_line_of(markdown_sections: Iterable[Tuple[int, int, str]], heading: str,
                  level: int = 2) -> Optional[int]:
    """The line of a heading, or None."""
    for first, lvl, text in markdown_sections:
        if lvl == level and text == heading:
            return first
    return None
