"""C++ source as the course's checks read it, the one reader of C++ they share: libclang 19's
lexer, the preprocessor directives, the braces as a tree and the names a file declares (the
exercise policy's token layer), the calls and tests of a test file (the prediction checks), read
from the tokens alone; answer_units reads a C++ file's tokens from here too. The exercise
policy's allowlist (allowlist.py) parses with the same libclang, loaded here. Standard library
and libclang's Python bindings (python3-clang-19)."""

from __future__ import annotations

import ast
import bisect
import hashlib
import importlib
import importlib.util
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from course.model.course_model import CourseError


class LexerUnavailable(CourseError):
    """The lexer (libclang's Python bindings, or libclang itself) is not installed here."""


# ------------------------------------------------------------------------------------------
# The lexer
# ------------------------------------------------------------------------------------------

#: The one libclang the course reads C++ with (its major version): cursor kinds and the lexer's
#: corner cases differ between versions, and a file must get the same verdict on every machine.
#: Debian 12 and Ubuntu 24.04 both package it (python3-clang-19, libclang1-19).
LIBCLANG_MAJOR = 19
#: Where Debian and Ubuntu put the bindings and the library, for a Python that is not the
#: system's (a virtual environment, pyenv). $COURSE_LIBCLANG names the library itself.
_BINDINGS_DIRS = ("/usr/lib/python3/dist-packages",)
_LIBRARY_GLOBS = (f"/usr/lib/llvm-{LIBCLANG_MAJOR}/lib/libclang-{LIBCLANG_MAJOR}.so*",
                  f"/usr/lib/llvm-{LIBCLANG_MAJOR}/lib/libclang.so*",
                  f"/usr/lib/*/libclang-{LIBCLANG_MAJOR}.so*")
_INSTALL = (f"install python3-clang-{LIBCLANG_MAJOR} and libclang1-{LIBCLANG_MAJOR} (Debian 12, "
            f"Ubuntu 24.04)")

_cindex = None


def load_lexer():
    """libclang's Python bindings, with libclang 19 found (no other version: the verdicts would
    differ). Raises LexerUnavailable."""
    global _cindex
    if _cindex is not None:
        return _cindex
    extra = [d for d in os.environ.get("COURSE_CLANG_BINDINGS", "").split(os.pathsep) if d]
    try:
        import clang.cindex as ci  # type: ignore
    except ImportError:
        ci = None
        for d in extra + list(_BINDINGS_DIRS):
            if Path(d, "clang", "cindex.py").is_file():
                ci = _bindings_from(Path(d, "clang"))
                if ci is not None:
                    break
        if ci is None:
            raise LexerUnavailable(
                f"the course reads C++ with libclang {LIBCLANG_MAJOR}, and its Python bindings "
                f"are missing: {_INSTALL}, or point COURSE_CLANG_BINDINGS at the folder holding "
                f"clang/")
    candidates = [os.environ["COURSE_LIBCLANG"]] if os.environ.get("COURSE_LIBCLANG") else []
    import glob
    for pattern in _LIBRARY_GLOBS:
        candidates += sorted(glob.glob(pattern), reverse=True)
    errors = []
    for library in [None] + candidates:
        try:
            if library is not None:
                ci.Config.loaded = False
                ci.Config.library_file = None
                ci.Config.set_library_file(library)
            ci.Index.create()
            version = libclang_version(ci)
            if not re.search(rf"\bversion {LIBCLANG_MAJOR}\.", version):
                errors.append(f"{library or 'the default library'} is {version}")
                continue
            _cindex = ci
            return ci
        except Exception as e:  # cindex raises its own LibclangError, or OSError
            errors.append(str(e).splitlines()[0] if str(e) else type(e).__name__)
    raise LexerUnavailable(f"the course reads C++ with libclang {LIBCLANG_MAJOR}: {_INSTALL} "
                           f"(COURSE_LIBCLANG may name the library): "
                           f"{errors[-1] if errors else 'not found'}")


def libclang_version(ci) -> str:
    """'Debian clang version 19.1.7 (...)': the version of the libclang the bindings loaded."""
    fn = ci.conf.lib.clang_getClangVersion
    fn.argtypes = []
    fn.restype = ci._CXString
    fn.errcheck = ci._CXString.from_result
    return fn()


def _bindings_from(folder: Path):
    """clang.cindex loaded from the bindings' folder (the `clang` package of a Python other than
    this one), or None when it does not load."""
    try:
        spec = importlib.util.spec_from_file_location(
            "clang", str(folder / "__init__.py"), submodule_search_locations=[str(folder)])
        package = importlib.util.module_from_spec(spec)
        sys.modules["clang"] = package
        spec.loader.exec_module(package)
        return importlib.import_module("clang.cindex")
    except (ImportError, OSError):
        sys.modules.pop("clang", None)
        return None


@dataclass(frozen=True)
class Tok:
    """One token: kind is ident, keyword, punct, literal or comment."""

    kind: str
    text: str
    line: int
    end_line: int
    start: int  # byte offsets in the file
    end: int


_KINDS = {"IDENTIFIER": "ident", "KEYWORD": "keyword", "PUNCTUATION": "punct",
          "LITERAL": "literal", "COMMENT": "comment"}


_lex_memo: Dict[Tuple[str, str], List[Tok]] = {}


def lex(data: bytes, name: str = "exercise.hpp") -> List[Tok]:
    """Every token of a C++ file, comments included, as libclang's lexer reads it (C++17)."""
    key = (name, hashlib.sha256(data).hexdigest())
    if key not in _lex_memo:
        _lex_memo[key] = _lex(data, name)
    return _lex_memo[key]


def _lex(data: bytes, name: str) -> List[Tok]:
    ci = load_lexer()
    fake = "/course-policy/" + (name if name.endswith((".hpp", ".cpp", ".h")) else name + ".hpp")
    text = data.decode("utf-8")
    tu = ci.TranslationUnit.from_source(
        fake, args=["-x", "c++", "-std=c++17", "-nostdinc", "-nostdinc++"],
        unsaved_files=[(fake, text)],
        options=ci.TranslationUnit.PARSE_INCOMPLETE | ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES)
    f = tu.get_file(fake)
    extent = ci.SourceRange.from_locations(ci.SourceLocation.from_offset(tu, f, 0),
                                           ci.SourceLocation.from_offset(tu, f, len(data)))
    newlines = [i for i, b in enumerate(data) if b == 10]
    toks = []
    for t in tu.get_tokens(extent=extent):
        span = t.extent
        start, end = span.start.offset, span.end.offset
        toks.append(Tok(_KINDS.get(t.kind.name, "punct"), t.spelling,
                        bisect.bisect_left(newlines, start) + 1,
                        bisect.bisect_left(newlines, max(start, end - 1)) + 1, start, end))
    return toks


# ------------------------------------------------------------------------------------------
# Directives and the brace tree
# ------------------------------------------------------------------------------------------

def split_directives(toks: Sequence[Tok]) -> Tuple[List[List[Tok]], List[Tok]]:
    """(the directives, each its tokens from its `#`; the code tokens, comments dropped).
    A `#` starts a directive when no code token stands before it on its line; the directive
    runs to the end of its line (a comment across lines continues it, as in the compiler)."""
    directives: List[List[Tok]] = []
    code: List[Tok] = []
    i = 0
    last_code_line = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "punct" and t.text in ("#", "%:") and t.line > last_code_line:
            directive = [t]
            line = t.end_line
            i += 1
            while i < len(toks) and toks[i].line <= line:
                directive.append(toks[i])
                line = max(line, toks[i].end_line)
                i += 1
            directives.append(directive)
            last_code_line = line
            continue
        if t.kind != "comment":
            code.append(t)
            last_code_line = t.end_line
        i += 1
    return directives, code


@dataclass
class Group:
    """A `{ ... }` of the code: its opening brace, what it holds (tokens and groups) and what
    it is (namespace, class, enum, function, init; set by the statement walk)."""

    open: Tok
    items: list
    kind: str = ""


class Unbalanced(Exception):
    def __init__(self, tok: Tok, what: str):
        super().__init__(what)
        self.tok = tok


def brace_tree(code: Sequence[Tok]) -> list:
    """The code as a list of tokens and Groups. Raises Unbalanced."""
    stack: List[Tuple[Tok, list]] = []
    items: list = []
    for t in code:
        if t.text == "{":
            stack.append((t, items))
            items = []
        elif t.text == "}":
            if not stack:
                raise Unbalanced(t, "a `}` closes nothing")
            open_tok, outer = stack.pop()
            outer.append(Group(open_tok, items))
            items = outer
        else:
            items.append(t)
    if stack:
        raise Unbalanced(stack[-1][0], "a `{` is never closed")
    return items


def flat(items: Iterable) -> List[Tok]:
    out: List[Tok] = []
    for x in items:
        if isinstance(x, Group):
            out.append(x.open)
            out.extend(flat(x.items))
        else:
            out.append(x)
    return out


def first_tok(stmt: list) -> Optional[Tok]:
    for x in stmt:
        return x.open if isinstance(x, Group) else x
    return None


def statements(items: list, scope: str):
    """Splits the items of a namespace or class into statements; yields (statement items,
    the kinds of the groups it holds). Sets each group's kind."""
    stmt: list = []
    for x in items:
        if isinstance(x, Group):
            x.kind = brace_kind([y for y in stmt if not isinstance(y, Group)], scope,
                                any(isinstance(y, Group) for y in stmt))
            stmt.append(x)
            if x.kind in ("namespace", "function"):
                yield stmt
                stmt = []
            continue
        if scope == "class" and x.text == ":" and len(stmt) == 1 and not isinstance(stmt[0], Group) \
                and stmt[0].text in ("public", "private", "protected"):
            stmt = []
            continue
        stmt.append(x)
        if x.text == ";":
            yield stmt
            stmt = []
    if stmt:
        yield stmt


def brace_kind(toks: Sequence[Tok], scope: str, after_group: bool) -> str:
    """What a `{` opens, from the statement's tokens before it."""
    texts = [t.text for t in toks]
    if after_group:
        return "init"
    if texts[:1] == ["namespace"] or texts[:2] == ["inline", "namespace"]:
        return "namespace"
    level = 0
    for t in texts:
        if t in ("(", "["):
            level += 1
        elif t in (")", "]"):
            level -= 1
        elif level == 0 and t == "=":
            return "init"
    head = strip_template_header(toks)
    words = [t.text for t in head]
    if "enum" in words and "(" not in words:
        return "enum"
    if any(w in ("struct", "class", "union") for w in words) and "(" not in words:
        return "class"
    if words and (words[-1] in (")", "const", "noexcept", "override", "final", "mutable")
                  or "->" in words):
        return "function"
    return "init"


def strip_template_header(toks: Sequence[Tok]) -> List[Tok]:
    """A declaration without its leading `template <...>` headers."""
    toks = list(toks)
    while toks and toks[0].text == "template" and len(toks) > 1 and toks[1].text == "<":
        level = 0
        for k in range(1, len(toks)):
            if toks[k].text == "<":
                level += 1
            elif toks[k].text == ">":
                level -= 1
            elif toks[k].text == ">>":
                level -= 2
            if level <= 0:
                toks = toks[k + 1:]
                break
        else:
            return []
    return toks


#: Specifiers with a parenthesised argument that stand before a declarator.
_SPECIFIER_CALLS = {"__launch_bounds__", "__align__", "alignas", "__declspec", "__attribute__"}


def declarator(toks: Sequence[Tok]) -> Tuple[Optional[Tok], Optional[Tok]]:
    """(the declarator's name, the token after it) of a declaration's tokens (no template
    header): the last identifier before the first `(`, `=`, `{`, `[`, `;`, `,` or `:` outside
    template arguments, skipping specifier calls such as __launch_bounds__(256)."""
    level = 0
    last = None
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.text == "<" and last is not None:
            level += 1
        elif t.text == ">" and level:
            level -= 1
        elif t.text == ">>" and level:
            level = max(0, level - 2)
        elif level == 0 and t.kind == "ident" and t.text in _SPECIFIER_CALLS and \
                k + 1 < len(toks) and toks[k + 1].text == "(":
            k = _skip_parens(toks, k + 1)
            continue
        elif level == 0 and t.text in ("(", "=", "{", "[", ";", ",", ":"):
            return last, t
        elif level == 0 and t.kind == "ident":
            last = t
        k += 1
    return last, None


def _skip_parens(toks: Sequence[Tok], open_index: int) -> int:
    """The index after the `)` that closes the `(` at open_index."""
    level = 0
    for k in range(open_index, len(toks)):
        if toks[k].text == "(":
            level += 1
        elif toks[k].text == ")":
            level -= 1
            if level == 0:
                return k + 1
    return len(toks)


# ------------------------------------------------------------------------------------------
# What a file declares
# ------------------------------------------------------------------------------------------

#: Keywords after which an identifier is being declared.
_TYPE_END_KEYWORDS = {"int", "unsigned", "signed", "float", "double", "char", "bool", "void",
                      "long", "short", "auto", "const", "volatile", "constexpr", "wchar_t",
                      "char16_t", "char32_t", "typename", "class", "struct", "union", "enum",
                      "namespace", "inline", "mutable", "explicit", "virtual", "register",
                      "static"}
#: Tokens that may follow a declared name.
_AFTER_DECLARATOR = {"=", ";", ",", "(", ")", "[", "{", ":", ">", "..."}


@dataclass
class Declarations:
    """What a file declares: every name in a declarator position (scope-blind: a name counts
    as the file's own wherever it is declared), and the names declared directly in a namespace
    (with the line of the first)."""

    names: Set[str] = field(default_factory=set)
    namespace_names: Dict[str, int] = field(default_factory=dict)
    macros: Set[str] = field(default_factory=set)
    namespaces: Set[str] = field(default_factory=set)
    includes: List[str] = field(default_factory=list)


def declared_names(code: Sequence[Tok]) -> Set[str]:
    """Every identifier of the code that stands where a name is declared."""
    names: Set[str] = set()
    n = len(code)
    enum_levels: List[int] = []
    level = 0
    for i, t in enumerate(code):
        if t.text == "{":
            level += 1
            j = i - 1
            while j >= 0 and code[j].text not in (";", "{", "}", "enum"):
                j -= 1
            if j >= 0 and code[j].text == "enum":
                enum_levels.append(level)
            continue
        if t.text == "}":
            if enum_levels and enum_levels[-1] == level:
                enum_levels.pop()
            level -= 1
            continue
        if t.kind != "ident":
            continue
        prev = code[i - 1] if i > 0 else None
        nxt = code[i + 1] if i + 1 < n else None
        if prev is None or prev.text in (".", "->", "::"):
            continue
        after = nxt.text if nxt is not None else ";"
        declared = False
        if enum_levels and enum_levels[-1] == level and prev.text in ("{", ","):
            declared = True  # an enumerator
        elif prev.kind == "keyword" and prev.text in ("struct", "class", "union", "enum",
                                                        "namespace", "typename"):
            declared = True
        elif prev.kind == "keyword" and prev.text in _TYPE_END_KEYWORDS:
            declared = after in _AFTER_DECLARATOR
        elif prev.kind == "keyword" and prev.text == "using":
            declared = after == "="
        elif prev.kind == "ident" or prev.text in (">", ">>") or \
                (prev.text in ("*", "&", "&&") and _type_before(code, i - 1)):
            declared = after in _AFTER_DECLARATOR and after != ">" and \
                not (prev.kind == "ident" and prev.text in _SPECIFIER_CALLS)
        elif prev.text == ")" and after == "(":
            declared = _after_specifier_call(code, i - 1)
        elif prev.text in ("[", ",") and after in ("=", "]", ","):
            declared = _in_binding_or_capture(code, i)
        if declared and t.text not in _SPECIFIER_CALLS:
            names.add(t.text)
            if after in ("=", ";", ",", "[", "{"):
                names |= _more_declarators(code, i + 1)
    return names


def _type_before(code: Sequence[Tok], k: int) -> bool:
    """Whether the `*`, `&` or `&&` at k follows a type (`T* p`, `const T& r`), not an
    operand (`(&x`, `, &x`)."""
    j = k - 1
    while j >= 0 and code[j].text in ("*", "&", "&&", "const", "volatile"):
        j -= 1
    if j < 0:
        return False
    before = code[j]
    return before.kind == "ident" or before.text in (">", ">>") or \
        (before.kind == "keyword" and before.text in _TYPE_END_KEYWORDS)


def _more_declarators(code: Sequence[Tok], start: int) -> Set[str]:
    """`int a = 1, b, *c;`: the names declared after the first one, up to the `;`."""
    names: Set[str] = set()
    level = 0
    k = start
    while k < len(code):
        text = code[k].text
        if text in ("(", "[", "{"):
            level += 1
        elif text in (")", "]", "}"):
            if level == 0:
                break
            level -= 1
        elif level == 0 and text == ";":
            break
        elif level == 0 and text == ",":
            j = k + 1
            while j < len(code) and code[j].text in ("*", "&", "&&"):
                j += 1
            if j + 1 < len(code) and code[j].kind == "ident" and \
                    code[j + 1].text in ("=", ";", ",", "[", "{", "("):
                names.add(code[j].text)
        k += 1
    return names


def _after_specifier_call(code: Sequence[Tok], close: int) -> bool:
    """Whether the `)` at `close` ends `__launch_bounds__(...)` or another specifier call."""
    level = 0
    for j in range(close, -1, -1):
        if code[j].text == ")":
            level += 1
        elif code[j].text == "(":
            level -= 1
            if level == 0:
                return j > 0 and code[j - 1].text in _SPECIFIER_CALLS
    return False


def _in_binding_or_capture(code: Sequence[Tok], i: int) -> bool:
    """Whether identifier i stands in `auto [a, b]` or a lambda's init-capture `[x = ...]`."""
    level = 0
    for j in range(i - 1, -1, -1):
        text = code[j].text
        if text in (")", "]", "}"):
            level += 1
        elif text in ("(", "{"):
            if level == 0:
                return False
            level -= 1
        elif text == "[":
            if level == 0:
                before = code[j - 1].text if j > 0 else ""
                return before in ("auto", "&", "&&", "=", "(", ",", "return", "{", ";")
            level -= 1
    return False


def namespace_scope_names(tree: list) -> Dict[str, int]:
    """name -> line of everything declared directly in a namespace of the tree (anonymous
    namespaces included): functions, variables, types, aliases, namespaces."""
    found: Dict[str, int] = {}

    def walk(items: list) -> None:
        for stmt in statements(items, "namespace"):
            toks = [x for x in stmt if not isinstance(x, Group)]
            name = statement_name(toks)
            if name is not None:
                found.setdefault(name.text, name.line)
            for x in stmt:
                if isinstance(x, Group) and x.kind == "namespace":
                    walk(x.items)

    walk(tree)
    return found


def statement_name(toks: Sequence[Tok]) -> Optional[Tok]:
    """The name a namespace- or class-scope statement declares, if any."""
    toks = strip_template_header(toks)
    texts = [t.text for t in toks]
    if not texts or texts[0] in ("static_assert", "typedef", ";"):
        return None
    if texts[0] == "namespace" or texts[:2] == ["inline", "namespace"]:
        k = texts.index("namespace") + 1
        return toks[k] if k < len(toks) and toks[k].kind == "ident" else None
    if texts[0] == "using":
        return toks[1] if len(toks) > 2 and toks[1].kind == "ident" and texts[2] == "=" else None
    for k, t in enumerate(toks):
        if t.text in ("struct", "class", "union", "enum") and "(" not in texts[:k]:
            j = k + 1
            while j < len(toks) and toks[j].text in ("class", "struct"):
                j += 1
            if j < len(toks) and toks[j].kind == "ident":
                return toks[j]
            return None
    name, _ = declarator(toks)
    return name


_declarations_memo: Dict[Tuple[str, str], Declarations] = {}


def read_declarations(data: bytes, name: str) -> Declarations:
    """What a course file declares (its names, its namespace-scope names, its macros)."""
    key = (name, hashlib.sha256(data).hexdigest())
    if key not in _declarations_memo:
        _declarations_memo[key] = _read_declarations(data, name)
    return _declarations_memo[key]


def _read_declarations(data: bytes, name: str) -> Declarations:
    toks = lex(data, name)
    directives, code = split_directives(toks)
    d = Declarations(names=declared_names(code))
    try:
        d.namespace_names = namespace_scope_names(brace_tree(code))
    except Unbalanced:
        d.namespace_names = {}
    for directive in directives:
        words = [t.text for t in directive]
        if len(words) > 2 and words[1] == "define" and directive[2].kind in ("ident", "keyword"):
            d.macros.add(words[2])
        header = include_name(directive)
        if header:
            d.includes.append(header)
    for i, t in enumerate(code[:-1]):
        k = i + 1
        while t.text == "namespace" and k < len(code) and code[k].kind == "ident":
            d.namespaces.add(code[k].text)  # `namespace a::b {` names both
            k += 2 if k + 1 < len(code) and code[k + 1].text == "::" else len(code)
    d.names |= set(d.namespace_names)
    return d


def include_name(directive: Sequence[Tok]) -> Optional[str]:
    """The header an `#include` names (`<demo.hpp>` or `"kit/config.hpp"`), or None for any
    other directive or a form the policy does not accept (a macro, spaces inside <...>)."""
    if len(directive) < 3 or directive[1].text != "include":
        return None
    rest = directive[2:]
    if len(rest) == 1 and rest[0].kind == "literal" and rest[0].text.startswith('"') and \
            rest[0].text.endswith('"') and len(rest[0].text) > 2:
        return rest[0].text[1:-1]
    if len(rest) >= 3 and rest[0].text == "<" and rest[-1].text == ">":
        inner = rest[1:-1]
        if all(a.end == b.start for a, b in zip(rest, rest[1:])):
            return "".join(t.text for t in inner)
    return None


# ------------------------------------------------------------------------------------------
# Calls and tests of a source (the prediction checks read test files with these)
# ------------------------------------------------------------------------------------------

class Source:
    """A C++ text with its lexer tokens: the code tokens (no comments) and pieces of the text
    by token."""

    def __init__(self, text: str, name: str = "source.cpp"):
        self.text = text
        self.data = text.encode("utf-8")
        self.toks = lex(self.data, name)
        self.code = [t for t in self.toks if t.kind != "comment"]

    def between(self, start: int, end: int) -> str:
        """The text from byte offset `start` up to `end`."""
        return self.data[start:end].decode("utf-8")

    def calls(self, name: str, start: int = 0, end: Optional[int] = None) -> List[int]:
        """The indices (in `code`) of the `(` of every call of `name` between two code indices."""
        stop = len(self.code) - 1 if end is None else min(end, len(self.code) - 1)
        return [k + 1 for k in range(start, stop)
                if self.code[k].text == name and self.code[k].kind in ("ident", "keyword")
                and self.code[k + 1].text == "("]

    def arguments(self, open_index: int) -> Tuple[List[str], int]:
        """(the top-level arguments, as text, of the call whose `(` is code[open_index]; the index
        of its `)`). Commas inside parentheses, braces, brackets and template arguments (a `<`
        right after a name) do not split. Raises Unbalanced."""
        args: List[str] = []
        stack: List[str] = []
        begin = self.code[open_index].end
        for k in range(open_index, len(self.code)):
            t = self.code[k]
            prev = self.code[k - 1] if k else None
            if t.text in ("(", "[", "{") or (t.text == "<" and prev is not None
                                             and prev.kind == "ident" and prev.end == t.start):
                stack.append(t.text)
            elif t.text in (")", "]", "}") or (t.text in (">", ">>") and stack and stack[-1] == "<"):
                for _ in range(2 if t.text == ">>" and stack[-2:] == ["<", "<"] else 1):
                    stack.pop()
                if not stack:
                    args.append(self.between(begin, t.start).strip())
                    return args, k
            elif t.text == "," and len(stack) == 1:
                args.append(self.between(begin, t.start).strip())
                begin = t.end
        raise Unbalanced(self.code[open_index], "the call's parentheses do not close")

    def tests(self) -> List[Tuple[str, str, int, int]]:
        """(suite, name, code index of TEST, code index of the body's `{`) of every
        `TEST(Suite, Name) {` / `TEST_F(...)` that opens a line."""
        found = []
        code = self.code
        for k, t in enumerate(code):
            if t.text not in ("TEST", "TEST_F") or (k and code[k - 1].end_line == t.line):
                continue
            words = [x.text for x in code[k + 1:k + 7]]
            if len(words) == 6 and words[0] == "(" and words[2] == "," and words[4] == ")" \
                    and words[5] == "{" and code[k + 2].kind == "ident" and code[k + 4].kind == "ident":
                found.append((words[1], words[3], k, k + 6))
        return found


def string_literals_value(text: str) -> Optional[str]:
    """The value of a text made of adjacent C string literals only (None otherwise)."""
    toks = [t for t in lex(text.encode("utf-8"), "argument.cpp") if t.kind != "comment"]
    if not toks or any(t.kind != "literal" or not t.text.startswith('"') for t in toks):
        return None
    return "".join(ast.literal_eval(t.text) for t in toks)
