"""The exercise-file policy's second wall: an allowlist read from the parsed file.

The token layer (exercise_policy.py) reads a file as tokens: directives, splices, digraphs,
characters, names by their spelling. This layer parses it with libclang, as the course's CPU
build compiles it (C++17, the lesson's folder, the kit, the kernel families and the CUDA
headers on the include path; an exercise.cu with the kit's host-side CUDA), and holds every
construct the file spells to a list:

- every cursor the file holds is of a listed kind (declarations, statements, expressions and
  references an exercise needs); any other kind, including one this list does not know, is
  refused with its line and a sentence;
- no attribute in any spelling or position (`[[...]]`, `__attribute__`, `alignas`,
  `__declspec`), but those of the CUDA and kit macros a kernel is written with (`__global__`,
  `__device__`, `__host__`, `__forceinline__`, `__launch_bounds__`, `KIT_HD`);
- no variable with static or thread storage duration that is not `constexpr` (the course's
  `KIT_SHARED` tile the one exception), no pointer or reference at namespace scope (a function
  pointer is a start-up hook), no `mutable` member, no declarator in parentheses, no lambda
  outside a function body, no specialization;
- a name the lesson's own headers declare may be declared in the file only as the starter
  declares it (the same kind and type), whatever the spelling; a name the kit declares at
  namespace scope is not declared at namespace scope but where the starter does;
- every name the file uses resolves (through the parse: qualification, `using`, aliases and
  argument-dependent lookup included) to the file itself, the lesson's own headers, the kernel
  families, or a name on the lesson's lists: the kit's (`policy.kit` of its manifest: never
  the model's functions, which compute the answers), the standard library's, CUDA's and the C
  library's (exercise_rules.py and the manifest's `policy`). A name used only through a macro
  of the lists (`threadIdx`, `CUDA_CHECK`) is the macro's, which the token layer judges.

A file that does not parse cleanly is refused: what the checker cannot read, it does not
accept. libclang 19 (cxx_tokens.LIBCLANG_MAJOR) reads it, the same on every machine.
"""

from __future__ import annotations

import ctypes
import fnmatch
import hashlib
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from course.model.course_model import CourseError, Lesson
from course.policy import exercise_rules as rules
from course.policy.cxx_tokens import LIBCLANG_MAJOR, LexerUnavailable, load_lexer
from course.policy.findings import Finding

#: The cursor kinds an exercise may hold, by what they are.
ALLOWED_KINDS = {
    # declarations
    "NAMESPACE", "VAR_DECL", "FUNCTION_DECL", "FUNCTION_TEMPLATE", "CLASS_TEMPLATE",
    "STRUCT_DECL", "CLASS_DECL", "FIELD_DECL", "CXX_METHOD", "CONSTRUCTOR", "PARM_DECL",
    "TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER", "TYPE_ALIAS_DECL",
    "TYPE_ALIAS_TEMPLATE_DECL", "TYPEDEF_DECL", "ENUM_DECL", "ENUM_CONSTANT_DECL",
    "STATIC_ASSERT", "USING_DECLARATION", "CXX_ACCESS_SPEC_DECL",
    # statements
    "COMPOUND_STMT", "DECL_STMT", "RETURN_STMT", "IF_STMT", "FOR_STMT", "CXX_FOR_RANGE_STMT",
    "WHILE_STMT", "DO_STMT", "BREAK_STMT", "CONTINUE_STMT", "NULL_STMT", "SWITCH_STMT",
    "CASE_STMT", "DEFAULT_STMT",
    # expressions
    "INTEGER_LITERAL", "FLOATING_LITERAL", "CHARACTER_LITERAL", "STRING_LITERAL",
    "CXX_BOOL_LITERAL_EXPR", "CXX_NULL_PTR_LITERAL_EXPR", "DECL_REF_EXPR", "MEMBER_REF_EXPR",
    "CALL_EXPR", "BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR", "UNARY_OPERATOR",
    "CONDITIONAL_OPERATOR", "PAREN_EXPR", "ARRAY_SUBSCRIPT_EXPR", "CXX_STATIC_CAST_EXPR",
    "CXX_FUNCTIONAL_CAST_EXPR", "CSTYLE_CAST_EXPR", "INIT_LIST_EXPR", "LAMBDA_EXPR",
    "CXX_THROW_EXPR", "CXX_THIS_EXPR", "CXX_UNARY_EXPR", "UNEXPOSED_EXPR",
    # references and the preprocessor's record
    "TYPE_REF", "TEMPLATE_REF", "NAMESPACE_REF", "MEMBER_REF", "OVERLOADED_DECL_REF",
    "VARIABLE_REF", "MACRO_INSTANTIATION", "INCLUSION_DIRECTIVE",
}
#: A few kinds refused with a sentence of their own.
REFUSED_KINDS = {
    "NAMESPACE_ALIAS": "a namespace alias: write the course's names as they are",
    "USING_DIRECTIVE": "`using namespace`: write the names with their namespace",
    "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION": "a partial specialization: the tests would pick it up",
    "UNION_DECL": "a union: an exercise reads no value as another type",
    "CXX_REINTERPRET_CAST_EXPR": "`reinterpret_cast`: an exercise reads no memory as another type "
                                 "(a tile's typed view is kit::SharedTile::as)",
    "CXX_CONST_CAST_EXPR": "`const_cast`",
    "CXX_DYNAMIC_CAST_EXPR": "`dynamic_cast`",
    "CXX_NEW_EXPR": "`new`: an exercise allocates no memory of its own",
    "CXX_DELETE_EXPR": "`delete`",
    "CONVERSION_FUNCTION": "a conversion operator",
    "DESTRUCTOR": "a destructor: code that runs when an object ends",
    "FRIEND_DECL": "`friend`",
    "LINKAGE_SPEC": "a linkage specification (`extern \"C\"`)",
    "ASM_STMT": "inline assembly", "MS_ASM_STMT": "inline assembly",
    "GOTO_STMT": "`goto`", "INDIRECT_GOTO_STMT": "`goto`", "LABEL_STMT": "a label",
    "CXX_TRY_STMT": "`try`", "CXX_CATCH_STMT": "`catch`",
    "UNEXPOSED_DECL": "a declaration the checker cannot name (a deduction guide, an explicit "
                      "instantiation ...)",
    "UNEXPOSED_STMT": "a statement the checker cannot name",
}
#: The macros whose expansion may put attributes on a declaration (a kernel's, a function the
#: GPU and the host share), and those whose expansion names the course's or CUDA's internals
#: (judged by the token layer, by their own name).
ATTRIBUTE_MACROS = {"__global__", "__device__", "__host__", "__forceinline__", "__noinline__",
                    "__launch_bounds__", "KIT_HD"}
#: The kit's macro for a kernel's shared tile: the one variable with static storage an
#: exercise may declare (kit/shared_tile.hpp).
SHARED_TILE_MACRO = "KIT_SHARED"
SHARED_TILE_TYPE = "kit::SharedTile"
_FUNCTIONS = {"FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD", "CONSTRUCTOR"}
_SCOPES = {"NAMESPACE", "TRANSLATION_UNIT"}
_RECORDS = {"STRUCT_DECL", "CLASS_DECL", "CLASS_TEMPLATE"}


@dataclass
class Parsed:
    """One exercise file parsed as the course's CPU build reads it."""

    path: str  # the file as the parse names it (its place in the lesson's folder)
    shown: str  # the file as findings name it
    tu: object
    errors: List[Tuple[int, str]] = field(default_factory=list)
    _top: Optional[List[Tuple[object, str]]] = None

    def top(self) -> List[Tuple[object, str]]:
        """The translation unit's outermost cursors with their files' names (a CUDA header's
        thousands among them: read once, as every check walks them)."""
        if self._top is None:
            self._top = []
            for c in self.tu.cursor.get_children():
                f = c.location.file
                self._top.append((c, f.name if f is not None else ""))
        return self._top


class _Context:
    """What the checks of one lesson share: the libclang module, the lesson's folders, its
    lists, and what its starter declares."""

    def __init__(self, course: Path, lesson: Lesson, kit_names: Set[str], std_names: Set[str],
                 names: Set[str]):
        self.ci = load_lexer()
        self.course = course
        self.lesson = lesson
        self.lesson_dir = str((course / "lessons" / lesson.folder).resolve())
        self.kit_dir = str((course / "common" / "include").resolve())
        self.families_dir = str((course / "families").resolve())
        self.kit_names = kit_names
        self.std_names = std_names
        self.names = names


def spelling_location(ci):
    """libclang's clang_getSpellingLocation (where a token was written: for a macro's argument,
    the file that passes it), which the bindings do not wrap."""
    fn = ci.conf.lib.clang_getSpellingLocation
    fn.argtypes = [ci.SourceLocation, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                   ctypes.c_void_p]
    fn.restype = None
    return fn


def cuda_include_dir() -> Optional[Path]:
    """The CUDA toolkit's include folder ($CUDA_HOME, nvcc on PATH, /usr/local/cuda)."""
    candidates = [os.environ.get("CUDA_HOME", ""), os.environ.get("CUDA_PATH", "")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        candidates.append(str(Path(nvcc).resolve().parents[1]))
    candidates += ["/usr/local/cuda", "/opt/cuda"]
    for c in candidates:
        if c and Path(c, "include", "cuda_runtime.h").is_file():
            return Path(c, "include")
    return None


def _include_args(course: Path, lesson: Lesson) -> List[str]:
    cuda = cuda_include_dir()
    if cuda is None:
        raise CourseError("the exercise-file policy parses exercises with the CUDA headers: no "
                          "CUDA toolkit found (set CUDA_HOME)")
    return ["-x", "c++", "-std=c++17", f"-I{course / 'lessons' / lesson.folder}",
            f"-I{course / 'common' / 'include'}", f"-I{course / 'families'}",
            f"-isystem{cuda}", "-Wno-unknown-pragmas", "-Wno-pragma-once-outside-header"]


_parse_memo: Dict[str, Parsed] = {}


def parse(course: Path, lesson: Lesson, files: Dict[str, bytes], name: str,
          shown: str) -> Parsed:
    """Parses one of a lesson's exercise files, its siblings as given (not as on disk)."""
    ci = load_lexer()
    folder = course.resolve() / "lessons" / lesson.folder
    unsaved = [(str(folder / n), data.decode("utf-8")) for n, data in sorted(files.items())]
    args = _include_args(course.resolve(), lesson)
    key = hashlib.sha256(repr((unsaved, args, name)).encode()).hexdigest()
    if key not in _parse_memo:
        path = str(folder / name)
        tu = ci.Index.create().parse(path, args=args, unsaved_files=unsaved,
                                     options=ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
        p = Parsed(path, shown, tu)
        for d in tu.diagnostics:
            if d.severity >= ci.Diagnostic.Error:
                line = d.location.line if d.location.file and d.location.file.name == path else 0
                where = "" if line or not d.location.file else \
                    f" (in {Path(d.location.file.name).name}, which the file includes)"
                if not line and "file not found" in d.spelling:
                    # A header of the machine's is missing: no file can be judged here.
                    raise LexerUnavailable(
                        f"libclang {LIBCLANG_MAJOR} cannot compile the course's headers here "
                        f"({d.spelling}{where}): its own headers (libclang-common-"
                        f"{LIBCLANG_MAJOR}-dev, which python3-clang-{LIBCLANG_MAJOR} brings) or "
                        f"the CUDA toolkit's are missing")
                p.errors.append((line, d.spelling + where))
        _parse_memo[key] = p
    return _parse_memo[key]


def qualified(cursor) -> str:
    """'lesson01::stage_offset', 'kit::Pitched', 'std::vector::push_back'."""
    parts = []
    c = cursor
    while c is not None and c.kind.name != "TRANSLATION_UNIT":
        if c.spelling and c.kind.name not in ("LINKAGE_SPEC",):
            parts.append(c.spelling)
        c = c.semantic_parent
    return "::".join(reversed(parts))


def signature(cursor) -> Tuple[str, str, str]:
    """What a declaration declares: its qualified name, its kind, its type as the compiler
    knows it (`std::uint32_t` is `unsigned int`; a parameter's own `const`, a trailing return
    type and `noexcept` do not make another function)."""
    spelled = cursor.type.get_canonical().spelling
    return qualified(cursor), cursor.kind.name, re.sub(r"\s+noexcept(\(true\))?$", "", spelled)


class _Checker:
    def __init__(self, ctx: _Context, parsed: Parsed, starter: Set[Tuple[str, str, str]],
                 course_names: Dict[str, Set[Tuple[str, str, str]]], kit_names: Set[str]):
        self.ctx, self.p = ctx, parsed
        self.starter, self.course_names, self.kit_names = starter, course_names, kit_names
        self.findings: List[Finding] = []
        self._said: Set[Tuple[str, str]] = set()
        self.macros: List[Tuple[str, int, int, int, int]] = []  # name, line/col start, end

    def bad(self, line: int, rule: str, message: str, key: Optional[str] = None) -> None:
        k = (rule, key if key is not None else f"{line}:{message}")
        if k in self._said:
            return
        self._said.add(k)
        self.findings.append(Finding(self.p.shown, line, message, rule))

    # -- where a cursor comes from --------------------------------------------------------
    def mine(self, c) -> bool:
        f = c.location.file
        return f is not None and f.name == self.p.path

    def spelling(self, c) -> Tuple[str, int, int]:
        """Where the cursor was written: the file, line and column of its text, or of a macro's
        argument that holds it (a macro's body is written where the macro is defined)."""
        ci = self.ctx.ci
        f, line, col, off = ci.c_object_p(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        spelling_location(ci)(c.location, ctypes.byref(f), ctypes.byref(line), ctypes.byref(col),
                              ctypes.byref(off))
        return (ci.File(f).name if f else ""), line.value, col.value

    def spelled_here(self, c) -> bool:
        return self.spelling(c)[0] == self.p.path

    def in_macro_argument(self, c) -> bool:
        """Written in the file, inside a macro's argument (`CUDA_CHECK(...)`)."""
        name, line, col = self.spelling(c)
        return name == self.p.path and (line, col) != (c.location.line, c.location.column)

    def macro_at(self, c) -> Optional[str]:
        """The macro whose body made the cursor, if any (what a macro's argument holds is the
        file's own, and judged as such)."""
        if self.spelled_here(c):
            return None
        loc = c.location
        for name, l0, c0, l1, c1 in self.macros:
            if (l0, c0) <= (loc.line, loc.column) < (l1, c1 + (1 if l1 == l0 and c1 == c0 else 0)):
                return name
        return None

    def declared_where(self, decl) -> str:
        """'file' (an exercise file), 'lesson', 'families', 'kit', or 'outside' (the standard
        library, CUDA, the C library) for a declaration."""
        f = decl.location.file
        if f is None:
            return "outside"
        name = str(Path(f.name).resolve()) if Path(f.name).exists() else f.name
        if Path(f.name).name.startswith("exercise") and Path(f.name).parent == Path(self.p.path).parent:
            return "file"
        for where, folder in (("lesson", self.ctx.lesson_dir), ("families", self.ctx.families_dir),
                              ("kit", self.ctx.kit_dir)):
            if name.startswith(folder + "/"):
                return where
        return "outside"

    # -- the walk -----------------------------------------------------------------------------
    def run(self) -> List[Finding]:
        for line, message in self.p.errors:
            self.bad(line or 1, "compile", f"the file does not compile as the course's CPU build "
                                           f"reads it: {message}")
        if self.p.errors:
            return self.findings
        top = [c for c, f in self.p.top() if f == self.p.path]
        for c in top:
            if c.kind.name == "MACRO_INSTANTIATION":
                e = c.extent
                self.macros.append((c.spelling, e.start.line, e.start.column, e.end.line,
                                    e.end.column))
        for c in top:
            self.visit(c, [])
        self.findings.sort(key=lambda f: (f.line, f.rule))
        return self.findings

    def visit(self, c, parents: List) -> None:
        kind = c.kind.name
        line = c.location.line
        if c.kind.is_attribute():
            macro = self.macro_at(c)
            if macro not in ATTRIBUTE_MACROS:
                self.bad(line, "attribute", "an attribute (`[[...]]`, `__attribute__`, `alignas`): "
                                            "an exercise declares plain C++, and only the CUDA and "
                                            "kit macros of a kernel (`__global__`, `KIT_HD` ...) "
                                            "put attributes on it", key=f"attr{line}")
            return
        if c.kind.is_declaration() and self.in_macro_argument(c):
            self.bad(line, "construct", "a declaration inside a macro's argument (`CUDA_CHECK(...)`): "
                                        "declare it before the macro", key=f"arg{line}")
            return
        if kind == "UNEXPOSED_STMT" and self.unrolled_loop(c):
            pass
        elif kind == "UNEXPOSED_DECL" and self.local_binding(c, parents):
            pass
        elif kind in REFUSED_KINDS or kind not in ALLOWED_KINDS:
            if self.macro_at(c) is None:
                what = REFUSED_KINDS.get(kind, f"a construct the exercise-file policy does not "
                                               f"list ({kind.lower().replace('_', ' ')})")
                self.bad(line, "construct", f"{what}: refused", key=f"{kind}{line}")
                return
        check = getattr(self, f"on_{kind.lower()}", None)
        if check is not None:
            check(c, parents)
        if c.kind.is_reference() or kind in ("DECL_REF_EXPR", "MEMBER_REF_EXPR", "CALL_EXPR"):
            self.reference(c)
        if kind in ("MACRO_INSTANTIATION", "INCLUSION_DIRECTIVE"):
            return
        for child in c.get_children():
            if self.mine(child):
                self.visit(child, parents + [c])

    def unrolled_loop(self, c) -> bool:
        """A loop after `#pragma unroll` (libclang shows the pair as one unnamed statement)."""
        words = [t.spelling for t in self.tokens(c)[:3]]
        loops = [ch.kind.name for ch in c.get_children()]
        return words == ["#", "pragma", "unroll"] and \
            loops in (["FOR_STMT"], ["WHILE_STMT"], ["DO_STMT"], ["CXX_FOR_RANGE_STMT"])

    def local_binding(self, c, parents: List) -> bool:
        """A structured binding in a function body (`auto [a, b] = pair;`), not `static`: local
        names for a pair's parts (libclang shows it as an unnamed declaration)."""
        if parents and parents[-1].kind.name == "UNEXPOSED_DECL":  # one of its names
            return self.local_binding(parents[-1], parents[:-1])
        words = [t.spelling for t in self.tokens(c)]
        if "[" not in words:
            return False
        head = words[:words.index("[")]
        return bool(head) and head[-1] in ("auto", "&", "&&") and "static" not in head and \
            "thread_local" not in head and any(p.kind.name in _FUNCTIONS for p in parents)

    # -- declarations -------------------------------------------------------------------------
    def tokens(self, c) -> List:
        return list(c.get_tokens())

    def declarator_in_parentheses(self, c) -> bool:
        toks = self.tokens(c)
        for k, t in enumerate(toks):
            if t.spelling == c.spelling and t.location.line == c.location.line and \
                    t.location.column == c.location.column:
                return k > 0 and toks[k - 1].spelling == "(" and \
                    not (k > 1 and toks[k - 2].spelling == "operator")
        return False

    def is_constexpr(self, c) -> bool:
        for t in self.tokens(c):
            if t.location.line == c.location.line and t.location.column >= c.location.column:
                break
            if t.spelling == "constexpr":
                return True
        return False

    def declaration(self, c, parents: List) -> None:
        if self.declarator_in_parentheses(c):
            self.bad(c.location.line, "declarator", f"`{c.spelling}` is declared in parentheses: "
                                                    f"write the declaration as the starter does",
                     key=f"paren{c.location.line}")
        self.collision(c, parents)

    def collision(self, c, parents: List) -> None:
        """A name the lesson's headers declare, declared here other than as the starter does."""
        if not c.spelling or not parents or parents[-1].kind.name not in _SCOPES | _RECORDS:
            return
        sig = signature(c)
        if sig in self.starter:
            return
        # A function of the starter's name is the starter's function: another is an overload
        # (a type or a constant of the starter's is the student's to write as they choose).
        as_starter = sorted(t for n, k, t in self.starter if n == sig[0] and k == sig[1]) \
            if sig[1] in _FUNCTIONS else []
        if as_starter:
            self.bad(c.location.line, "course name",
                     f"`{sig[0]}` is the starter's, declared there as `{as_starter[0]}`: keep "
                     f"that declaration (this one is `{sig[2]}`, another function the tests "
                     f"would not call, or would call instead)", key=f"coll{sig[0]}")
        elif self.course_names.get(sig[0]):
            self.bad(c.location.line, "course name",
                     f"`{sig[0]}` is declared by the lesson's headers: the exercise declares it "
                     f"only as the starter does (an overload or another kind of it is refused)",
                     key=f"coll{sig[0]}")
        elif parents[-1].kind.name in _SCOPES and c.spelling in self.kit_names:
            self.bad(c.location.line, "course name",
                     f"`{c.spelling}` is a name of the kit (kit::{c.spelling}): give yours another "
                     f"name, so that nothing which means the kit's can reach yours",
                     key=f"coll{sig[0]}")

    def on_function_decl(self, c, parents: List) -> None:
        self.declaration(c, parents)
        if c.get_num_template_arguments() > 0:
            self.bad(c.location.line, "specialization", f"`{c.spelling}` specializes a template: "
                                                        f"the tests would pick it up",
                     key=f"spec{c.location.line}")
        self.operator(c)

    def on_function_template(self, c, parents: List) -> None:
        self.declaration(c, parents)
        self.operator(c)

    def on_cxx_method(self, c, parents: List) -> None:
        self.declaration(c, parents)
        self.operator(c)

    def operator(self, c) -> None:
        if c.spelling.startswith("operator") and c.spelling != "operator()" and \
                signature(c) not in self.starter:
            self.bad(c.location.line, "operator", f"`{c.spelling}`: an operator other than the call "
                                                  f"operator `()` (the tests would pick up an "
                                                  f"overload)", key=f"op{c.location.line}")

    def on_struct_decl(self, c, parents: List) -> None:
        self.declaration(c, parents)
        if "<" in c.displayname:
            self.bad(c.location.line, "specialization", f"`{c.displayname}` specializes a "
                                                        f"template: the tests would pick it up",
                     key=f"spec{c.location.line}")

    on_class_decl = on_struct_decl

    def on_class_template(self, c, parents: List) -> None:
        self.declaration(c, parents)

    def on_type_alias_decl(self, c, parents: List) -> None:
        self.collision(c, parents)

    on_type_alias_template_decl = on_type_alias_decl
    on_typedef_decl = on_type_alias_decl

    def on_field_decl(self, c, parents: List) -> None:
        self.declaration(c, parents)
        if c.is_mutable_field():
            self.bad(c.location.line, "mutable", f"`mutable {c.spelling}`: a constant object "
                                                 f"that changes between calls", key=f"mut{c.location.line}")

    def on_var_decl(self, c, parents: List) -> None:
        self.declaration(c, parents)
        parent = parents[-1].kind.name if parents else "TRANSLATION_UNIT"
        storage = c.storage_class.name
        if c.tls_kind.name != "NONE":
            self.bad(c.location.line, "static", f"`{c.spelling}` lives as long as a thread: code "
                                                f"would run when the thread ends",
                     key=f"tls{c.location.line}")
            return
        static = parent in _SCOPES or storage in ("STATIC", "EXTERN")
        if not static:
            return
        if parent in _SCOPES:
            t = c.type.get_canonical().kind.name
            if t in ("POINTER", "LVALUEREFERENCE", "RVALUEREFERENCE", "MEMBERPOINTER",
                     "BLOCKPOINTER"):
                self.bad(c.location.line, "pointer", f"`{c.spelling}` is a pointer or a "
                                                     f"reference at namespace scope (a function "
                                                     f"pointer is a start-up hook): an exercise "
                                                     f"declares values and functions",
                         key=f"ptr{c.location.line}")
                return
        if self.is_constexpr(c):
            return
        if self.shared_tile(c):
            return
        where = "at namespace scope" if parent in _SCOPES else "with static storage"
        self.bad(c.location.line, "constexpr", f"`{c.spelling}`, a variable {where} that is not "
                                               f"`constexpr`: it would be made, changed or "
                                               f"destroyed outside the tests",
                 key=f"cx{c.location.line}")

    def shared_tile(self, c) -> bool:
        """The course's KIT_SHARED tile: a kernel's shared memory, `KIT_SHARED
        kit::SharedTile<Layout> name;` (the macro opens the declaration, on its line)."""
        opened = any(name == SHARED_TILE_MACRO and l0 == c.location.line and
                     (l0, c0) == (c.extent.start.line, c.extent.start.column)
                     for name, l0, c0, _l1, _c1 in self.macros)
        decl = c.type.get_declaration()
        return opened and decl is not None and qualified(decl) == SHARED_TILE_TYPE

    def on_lambda_expr(self, c, parents: List) -> None:
        if not any(p.kind.name in _FUNCTIONS for p in parents):
            self.bad(c.location.line, "lambda", "a lambda outside a function body: its object "
                                                "would be made before the tests run",
                     key=f"lam{c.location.line}")

    def on_using_declaration(self, c, parents: List) -> None:
        """`using kit::bank_of;` names what it brings in: each of the overloads it names is
        judged as a use (libclang's overload set, which the bindings do not wrap)."""
        lib = self.ctx.ci.conf.lib
        for child in c.get_children():
            if child.kind.name == "OVERLOADED_DECL_REF":
                for i in range(lib.clang_getNumOverloadedDecls(child)):
                    self.entity(child, lib.clang_getOverloadedDecl(child, i))

    # -- names --------------------------------------------------------------------------------
    def reference(self, c) -> None:
        if self.macro_at(c) is not None:
            return  # the macro's own expansion: the token layer judges the macro's name
        decl = c.referenced
        if decl is None or decl == c:
            return
        self.entity(c, decl)

    def entity(self, use, decl) -> None:
        kind = decl.kind.name
        if kind in ("PARM_DECL", "TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER"):
            return
        where = self.declared_where(decl)
        if where in ("file", "lesson", "families"):
            return
        name = qualified(decl)
        line = use.location.line
        if kind == "NAMESPACE":
            if name in ("kit", "std"):
                return
            self.bad(line, "not on the list", f"the namespace `{name}`: not one an exercise "
                                              f"uses", key=f"ns{name}")
            return
        if where == "kit" and name.startswith("kit::"):
            if self.on_list(name, self.ctx.kit_names):
                return
            self.bad(line, "not on the list",
                     f"`{name}` is the kit's, and not on lesson {self.ctx.lesson.number}'s list of "
                     f"kit names (the model's functions compute the answers an exercise asks "
                     f"you for)", key=f"kit{name}")
            return
        if name.startswith("std::"):
            if self.on_list(name[len("std::"):], self.ctx.std_names):
                return
            self.bad(line, "not on the list", f"`{name}` is not on lesson "
                                              f"{self.ctx.lesson.number}'s list of standard names",
                     key=f"std{name}")
            return
        rule = rules.denied_rule(name.split("::")[-1])
        if rule:
            self.bad(line, rule, f"`{name}`: an exercise never uses {rule}", key=f"den{name}")
            return
        last = name.split("::")[-1]
        if self.on_list(name, self.ctx.names) or \
                (kind == "ENUM_CONSTANT_DECL" and self.on_list(last, self.ctx.names)):
            return
        self.bad(line, "library", f"`{name}` (the C library's, CUDA's or the compiler's) is not on "
                                  f"lesson {self.ctx.lesson.number}'s list", key=f"lib{name}")

    @staticmethod
    def on_list(name: str, listed: Iterable[str]) -> bool:
        """A qualified name whose first part, or whole prefix, is listed (members of a listed
        type come with it); `*` in a listed name is a wildcard."""
        parts = name.split("::")
        prefixes = ["::".join(parts[:k]) for k in range(1, len(parts) + 1)]
        return any(p == x or ("*" in x and fnmatch.fnmatchcase(p, x))
                   for x in listed for p in prefixes)


def lesson_declarations(parsed: Parsed, lesson: Lesson, files: Sequence[str]) -> Dict[str, Set[Tuple[str, str, str]]]:
    """The names the lesson's own headers declare in the lesson's namespace (as this parse sees
    them): qualified name -> their signatures."""
    out: Dict[str, Set[Tuple[str, str, str]]] = {}

    def walk(children) -> None:
        for child, f in children:
            if not f or f in files:
                continue
            kind = child.kind.name
            if kind == "NAMESPACE":
                if qualified(child).split("::")[0] == lesson.label:
                    walk([(c, c.location.file.name if c.location.file else "")
                          for c in child.get_children()])
                continue
            if kind in _FUNCTIONS | _RECORDS | {"VAR_DECL", "TYPE_ALIAS_DECL", "TYPEDEF_DECL",
                                               "TYPE_ALIAS_TEMPLATE_DECL", "ENUM_DECL"} \
                    and qualified(child).startswith(lesson.label + "::"):
                sig = signature(child)
                out.setdefault(sig[0], set()).add(sig)
    walk(parsed.top())
    return out


def kit_declarations(parsed: Parsed, kit_dir: str) -> Set[str]:
    """The names the kit declares at namespace scope (`kit::bank_of` -> 'bank_of'), as this
    parse sees them."""
    out: Set[str] = set()
    kinds = _FUNCTIONS | _RECORDS | {"VAR_DECL", "TYPE_ALIAS_DECL", "TYPEDEF_DECL",
                                     "TYPE_ALIAS_TEMPLATE_DECL", "ENUM_DECL"}

    def walk(children) -> None:
        for child, f in children:
            if not f.startswith(kit_dir + "/"):
                continue
            if child.kind.name == "NAMESPACE":
                walk([(c, c.location.file.name if c.location.file else "")
                      for c in child.get_children()])
            elif child.kind.name in kinds and child.spelling:
                out.add(child.spelling)
    walk(parsed.top())
    return out


def file_declarations(parsed: Parsed) -> Set[Tuple[str, str, str]]:
    """Every declaration an exercise file makes, as (qualified name, kind, type)."""
    out = set()

    def walk(children) -> None:
        for child in children:
            f = child.location.file
            if f is None or f.name != parsed.path:
                continue
            if child.kind.is_declaration() and child.spelling:
                out.add(signature(child))
            walk(child.get_children())
    walk(c for c, f in parsed.top() if f == parsed.path)
    return out


def check_parsed(course: Path, lesson: Lesson, files: Dict[str, bytes],
                 starters: Dict[str, bytes], label: str) -> List[Finding]:
    """The allowlist's findings on a lesson's exercise files (name -> bytes), shown as
    label/name. `starters`: the lesson's starter files (what they declare may be declared)."""
    m = lesson.manifest.policy
    ctx = _Context(course, lesson,
                   kit_names=set(rules.KIT_NAMES) | set(m.kit),
                   std_names=set(rules.STD_NAMES) | set(m.std),
                   names=set(rules.CUDA_NAMES) | set(rules.C_NAMES) | set(m.names))
    starter_sigs: Set[Tuple[str, str, str]] = set()
    for name in sorted(starters):
        p = parse(course, lesson, starters, name, name)
        if not p.errors:
            starter_sigs |= file_declarations(p)
    findings: List[Finding] = []
    for name in sorted(files):
        p = parse(course, lesson, files, name, f"{label}/{name}")
        own = [str((course.resolve() / "lessons" / lesson.folder / n)) for n in files]
        names = lesson_declarations(p, lesson, own)
        findings += _Checker(ctx, p, starter_sigs, names, kit_declarations(p, ctx.kit_dir)).run()
    return findings
