"""exercise_policy.py: every starter and reference solution passes; every rule refuses what it is
for, naming the line; what a student legitimately writes passes; every attack of the
hostile-submission suite is refused by the rule it names (here on the CPU, without building:
tools/course/grading/hostile/run_hostile.py grades them)."""

from __future__ import annotations

import re
import textwrap
import unittest
from typing import List

from course_testing import ROOT, ToolTest

from course.model.course_model import find_lessons, lesson_by_number
from course.policy import exercise_policy as policy

try:
    policy.load_lexer()
    policy.library_names()
    MISSING = ""
except Exception as e:  # no libclang bindings, or no host compiler: say so, never pass silently
    MISSING = str(e)

LESSONS = find_lessons(ROOT)


def rules_of(findings) -> List[str]:
    return sorted({f.rule for f in findings})


@unittest.skipIf(MISSING, f"the exercise policy cannot run here: {MISSING}")
class PolicyTest(ToolTest):
    lesson = "01"

    def check(self, body: str, top: str = "", name: str = "exercise.hpp", lesson: str = ""):
        """The findings on a file: the starter's #include lines and `top` after `#pragma once`,
        `body` inside the namespace (so the file compiles as the student's would)."""
        lesson = lesson_by_number(LESSONS, lesson or self.lesson)
        starter = lesson.dir / name
        includes = [line for line in starter.read_text().splitlines()
                    if line.startswith("#include")] if starter.is_file() else []
        head = "#pragma once\n" + "\n".join(includes) + f"\n{textwrap.dedent(top)}\n" \
               f"namespace {lesson.label} {{\n"
        self.body_line = head.count("\n")  # the file's line of the body's first line, less 1
        text = head + f"{textwrap.dedent(body)}\n}} // namespace {lesson.label}\n"
        files = {p.name: p.read_bytes() for p in lesson.student_files()}
        files[name] = text.encode()
        return [f for f in policy.check_lesson(ROOT, lesson, files) if f.path.endswith(name)]

    def assertRefused(self, rule: str, body: str, top: str = "", line: int = 0, **kw):
        """Refused by `rule`; with `line`, at that line of the body (1: its first)."""
        findings = self.check(body, top, **kw)
        self.assertIn(rule, rules_of(findings), "\n".join(map(str, findings)))
        if line:
            self.assertIn(self.body_line + line, [f.line for f in findings if f.rule == rule])

    def assertPasses(self, body: str, top: str = "", **kw):
        findings = self.check(body, top, **kw)
        self.assertEqual(findings, [], "\n".join(map(str, findings)))


class EveryLesson(PolicyTest):
    def test_every_starter_and_solution_passes(self):
        # A student repository has no solutions/: its starters then.
        trees = 2 if (ROOT / "solutions").is_dir() else 1
        proc = self.run_tool("course.policy.exercise_policy", "lessons", *(["--solutions"] if trees == 2 else []))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        count = sum(len(lesson.student_files()) for lesson in LESSONS)
        self.assertIn(f"{trees * count} exercise files, 0 findings", proc.stdout)

    def test_check_names_the_line_and_exits_1(self):
        bad = self.tmp / "lessons" / "01_no_conflict" / "exercise.hpp"
        bad.parent.mkdir(parents=True)
        starter = (ROOT / "lessons" / "01_no_conflict" / "exercise.hpp").read_text()
        bad.write_text(starter.replace("#pragma once", "#pragma once\n#define X 1", 1))
        line = starter.splitlines().index("#pragma once") + 2
        proc = self.run_tool("course.policy.exercise_policy", "check", bad, "--lesson", "01")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertRegex(proc.stdout, rf"exercise\.hpp:{line}: \[directive\] `#define`")

    def test_a_starter_edited_in_place_is_held_to_the_starter_at_head(self):
        # Checked where it stands, a lesson's own exercise file is compared with its starter as
        # the course's HEAD has it, not with itself: a model function written into it in place
        # is refused, as the grader refuses it in a student's file.
        from course.grading.hostile.run_hostile import pinned_course
        course = pinned_course(self.tmp)
        target = course / "lessons" / "03_stride_32" / "exercise.hpp"
        text = target.read_text()
        line = next(n for n, l in enumerate(text.splitlines(), 1) if "kTilePitch = " in l)
        target.write_text(re.sub(r"(kTilePitch = )[^;]*;", r"\1kit::narrowest_column_pitch(kTileDim, 4);",
                                 text, count=1))
        proc = self.run_tool("course.policy.exercise_policy", "--course", course, "check", target)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn(f"exercise.hpp:{line}: [not on the list] `kit::narrowest_column_pitch`",
                      proc.stdout)

    def test_one_file_of_two_is_read_with_the_other(self):
        # Lesson 05's exercise.cu uses what its exercise.hpp declares: checked alone, it is read
        # with the file beside it, and only its own findings are told.
        folder = self.tmp / "lessons" / "05_padded_transpose"
        folder.mkdir(parents=True)
        for p in lesson_by_number(LESSONS, "05").student_files():
            (folder / p.name).write_bytes(p.read_bytes())
        with (folder / "exercise.hpp").open("a") as f:
            f.write("int stray;\n")
        proc = self.run_tool("course.policy.exercise_policy", "check", folder / "exercise.cu", "--lesson", "05")
        self.assertEqual((proc.returncode, proc.stdout), (0, ""), proc.stderr)
        proc = self.run_tool("course.policy.exercise_policy", "check", folder / "exercise.hpp", "--lesson", "05")
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("exercise.hpp", proc.stdout)
        self.assertNotIn("exercise.cu", proc.stdout)

    def test_a_machine_that_lacks_a_header_judges_no_file(self):
        # Not the student's error, so never a refusal: a header of the machine's that is not
        # there (libclang's own, the CUDA toolkit's) stops the policy, saying what is missing.
        from unittest import mock
        from course.policy import allowlist
        cuda = self.tmp / "cuda" / "include"
        cuda.mkdir(parents=True)
        (cuda / "cuda_runtime.h").write_text("#include <a_header_this_machine_lacks.h>\n")
        lesson = lesson_by_number(LESSONS, "01")
        files = {p.name: p.read_bytes() for p in lesson.student_files()}
        with mock.patch.dict("os.environ", {"CUDA_HOME": str(self.tmp / "cuda")}):
            with self.assertRaises(policy.LexerUnavailable) as caught:
                allowlist.check_parsed(ROOT, lesson, files, files, "x")
        self.assertIn("file not found", str(caught.exception))
        self.assertIn("libclang-common-19-dev", str(caught.exception))

    def test_errors(self):
        self.assertOneLineError(self.run_tool("course.policy.exercise_policy", "check", self.tmp / "none.hpp"),
                                2, "no such file")
        self.assertOneLineError(self.run_tool("course.policy.exercise_policy", "check", __file__), 2,
                                "not in a lesson's folder")


class Rules(PolicyTest):
    def test_directives(self):
        self.assertRefused("directive", "", "#define EXPECT_EQ(a, b) (void)0")
        self.assertRefused("directive", "", "#undef ASSERT_EQ")
        self.assertRefused("directive", "#line 1 \"x.cpp\"")
        self.assertRefused("directive", "", "#if 1\n#endif")
        self.assertRefused("directive", "", "#pragma GCC optimize(\"O0\")")
        self.assertRefused("directive", "", "#pragma push_macro(\"ASSERT_EQ\")")
        self.assertRefused("directive", "", "/* a comment\n   across lines */ #define X 1")
        self.assertPasses("KIT_HD constexpr int f(int n) {\n  int s = 0;\n#pragma unroll 8\n"
                          "  for (int i = 0; i < n; ++i) {\n    s += i;\n  }\n  return s;\n}")

    def test_includes(self):
        self.assertRefused("include", "", '#include "/etc/hostname"')
        self.assertRefused("include", "", '#include "../../tests/01_no_conflict/reverse_trace.hpp"')
        self.assertRefused("include", "", "#include <gtest/gtest.h>")
        self.assertRefused("include", "", "#include <fstream>")
        self.assertRefused("include", "", "#include \"kit/testing.hpp\"")
        self.assertRefused("include", "", "#include < demo.hpp >")
        self.assertPasses("", "#include <demo.hpp>\n#include \"kit/layout.hpp\"\n#include <cstdint>")

    def test_lexical_tricks(self):
        self.assertRefused("line splice", "", "#def\\\nine X 1")
        self.assertRefused("line splice", "inline constexpr int k = 1; // \\\nint x;")
        self.assertRefused("trigraph", "", "??=define X 1")
        self.assertRefused("digraph", "", "%:define X 1")
        self.assertRefused("digraph", "inline constexpr int k<:1:> = <%1%>;")
        self.assertRefused("characters", "inline constexpr int \\u0078k = 1;")
        self.assertRefused("characters", "inline constexpr int $k = 1;")
        self.assertRefused("characters", "inline constexpr int k = 1; @")
        self.assertRefused("characters", "inline constexpr int k\u00e9 = 1;")
        self.assertPasses("// a comment may say anything: exit(0), #define, \u00e9\n"
                          "/* even across lines: _Pragma, %: */ inline constexpr int k = 1;")

    def test_files_that_are_not_source(self):
        lesson = lesson_by_number(LESSONS, "01")
        r = policy.lesson_rules(ROOT, lesson)
        for data, what in ((b"int a;\0", "NUL"), (b"\xff\xfe", "not UTF-8"),
                           (b"//" + b"x" * (policy.MAX_BYTES + 1), "bytes")):
            findings = policy.check_file(data, "exercise.hpp", r)
            self.assertEqual(rules_of(findings), ["file"], what)
            self.assertIn(what, findings[0].message)

    def test_the_lexer_and_the_braces_are_checked(self):
        lesson = lesson_by_number(LESSONS, "01")
        r = policy.lesson_rules(ROOT, lesson)
        checker = policy._Checker(b"int a; ?? int b;", "x.hpp", r, set())
        checker.coverage([policy.Tok("keyword", "int", 1, 1, 0, 3),
                          policy.Tok("punct", ";", 1, 1, 5, 6)])  # skips "a" and the rest
        self.assertEqual(rules_of(checker.findings), ["lexer"])
        self.assertRefused("braces", "inline constexpr int k = 1; {")

    def test_structure(self):
        self.assertRefused("namespace", "", "inline constexpr int k = 1;")
        self.assertRefused("namespace", "namespace kit {\nconstexpr int bank_of(unsigned) { return 0; }\n}")
        self.assertRefused("namespace", "", "namespace testing {\nstruct X {};\n}")
        self.assertRefused("namespace", "namespace k = kit;")
        self.assertPasses("namespace {\nKIT_HD constexpr int helper(int x) { return x; }\n}")

    def test_keywords(self):
        self.assertRefused("keyword", 'extern "C" void _exit(int);')
        self.assertRefused("keyword", "inline thread_local int k = 0;")
        self.assertRefused("keyword", "inline void f() { asm(\"nop\"); }")
        self.assertRefused("keyword", "__attribute__((constructor)) static void f() {}")
        self.assertRefused("keyword", "struct S { friend void f(S) {} };")
        self.assertRefused("keyword", '_Pragma("GCC poison printf")')
        self.assertRefused("operator", "struct S {};\nconstexpr bool operator==(S, S) { return true; }")
        self.assertRefused("specialization", "template <>\ninline int kit::cosize<int>() { return 0; }")
        self.assertRefused("specialization", "template <class T> struct Helper;\n"
                                             "template <class T> struct Helper<T*> {};")
        self.assertRefused("using namespace", "using namespace std;")
        self.assertRefused("reserved name", "inline void f() { __trap(); }")
        self.assertPasses("struct Layout {\n  KIT_HD constexpr int operator()(int r, int c) const "
                          "{ return r + c; }\n};")

    def test_nothing_runs_outside_the_tests(self):
        self.assertRefused("constexpr", "inline const int k = 1;", line=1)
        self.assertRefused("constexpr", "int k = 1;")
        self.assertRefused("constexpr", "struct S { S() {} };\ninline S s;")
        self.assertRefused("constexpr", "struct S { static int count; };")
        self.assertRefused("static", "inline int f() { static int calls = 0; return ++calls; }")
        self.assertPasses("struct S { static constexpr int kRows = 2; KIT_HD static constexpr "
                          "int row(int i) { return i; } };\n"
                          "inline int f() { static constexpr int kTable[] = {1, 2}; return kTable[0]; }\n"
                          "inline constexpr int kOne = 1;\n"
                          "int g(int x);\n"
                          "static int h(int x) { return x; }")

    def test_denied_names(self):
        self.assertRefused("process control", "inline void f() { std::exit(0); }", "#include <cstdlib>")
        self.assertRefused("process control", "inline void f() { ::abort(); }")
        self.assertRefused("process control", "inline auto g = &std::quick_exit;")
        self.assertRefused("signal handling", "inline void f() { std::signal(2, nullptr); }")
        self.assertRefused("new processes and threads", "inline int f() { return fork(); }")
        self.assertRefused("new processes and threads", "inline int f() { return std::system(\"x\"); }")
        self.assertRefused("files, the terminal and the environment", "inline auto f() { return std::getenv(\"H\"); }")
        self.assertRefused("files, the terminal and the environment", "inline void f() { std::ofstream o(\"x\"); }")
        self.assertRefused("files, the terminal and the environment", "inline void f() { printf(\"[  OK  ]\"); }")
        self.assertRefused("dynamic loading and memory mapping", "inline void f() { dlopen(0, 0); }")
        self.assertRefused("the test framework", "inline void f() { GTEST_SKIP(); }")
        self.assertRefused("the test framework", "struct E : ::testing::Environment {};")
        self.assertRefused("the test framework", "inline constexpr int k = EXPECT_EQ;")
        self.assertRefused("compiler built-ins", "inline void* f() { return __builtin_frame_address(1); }")
        # The CPU run's recording is reached only through kit::SharedTile and the CUDA names.
        self.assertRefused("the kit's CPU run",
                           "inline void f() { kit::cpu_runtime::Runtime::get().start_recording(); }",
                           "#include \"internal.cuh\"", lesson="05")
        # Even as the student's own name: a variable called `system` is refused.
        self.assertRefused("new processes and threads", "inline int f() { int system = 0; return system; }")

    def test_library_names_and_lists(self):
        self.assertRefused("library", "inline int f(int* p) { return memcmp(p, p, 4); }")
        self.assertRefused("library", "inline int f() { int kill2 = 0; return getpid() + kill2; }")
        self.assertRefused("not on the list", "inline void f() { std::this_thread::yield(); }")
        self.assertRefused("undeclared", "inline constexpr const char* kWhere = COURSE_EXERCISE_DIR;")
        self.assertRefused("undeclared", "inline void f() { atomicAdd(nullptr, 1); }")
        self.assertRefused("CUDA host callbacks and device state",
                           "inline void f() { cudaLaunchHostFunc(0, 0, 0); }", lesson="10")
        self.assertRefused("library", "inline void f() { cudaStreamCreate(nullptr); }", lesson="10")
        self.assertRefused("library", "inline void f() { int d; cudaGetDevice(&d); }")
        self.assertPasses("inline void f() { int d; cudaGetDevice(&d); }", lesson="10")
        self.assertPasses("inline double f(double x) { return std::sqrt(x) + fabs(x) + "
                          "std::min(1.0, x); }\ninline int g(int index, int time) { return index + time; }",
                          "#include <cmath>\n#include <utility>")

    def test_a_starters_function_in_other_words_is_the_same_function(self):
        # The type as the compiler knows it: a parameter's own const, a typedef of the same type,
        # a trailing return type, noexcept.
        for spelled in ("KIT_HD constexpr int bank_of(const unsigned byte_address) {",
                        "KIT_HD constexpr int bank_of(std::uint32_t byte_address) {",
                        "KIT_HD constexpr auto bank_of(unsigned byte_address) -> int {",
                        "KIT_HD constexpr int bank_of(unsigned byte_address) noexcept {"):
            with self.subTest(spelled=spelled):
                self.assertPasses(spelled + "\n  return static_cast<int>(byte_address / 4u % 32u);\n}",
                                  "#include <cstdint>")
        # ... but another function of the starter's name is refused, saying what to keep.
        findings = self.check("KIT_HD constexpr int bank_of(int byte_address) {\n  return 0;\n}")
        self.assertIn("course name", rules_of(findings))
        self.assertIn("declared there as `int (unsigned int)`", str(findings))

    def test_honest_code_passes(self):
        self.assertPasses("namespace helpers {\nKIT_HD constexpr int twice(int x) { return 2 * x; }\n}\n"
                          "KIT_HD constexpr int four(int x) { return helpers::twice(helpers::twice(x)); }")
        self.assertPasses("inline int lowest(int a, int b) { return std::min(a, b); }\n"
                          "inline int common(int a, int b) { return std::gcd(a, b); }",
                          "#include <algorithm>\n#include <numeric>")
        self.assertPasses("inline constexpr int kBytes = kit::kWavefrontBytes;\n"
                          "inline constexpr unsigned kMask = kit::kFullMask;", "#include \"kit/config.hpp\"")
        # A namespace named as one of the course's would shadow it (the kit has a `detail`).
        self.assertRefused("namespace", "namespace detail {\nconstexpr int one = 1;\n}", line=1)
        self.assertRefused("namespace", "inline namespace v1 {\nconstexpr int one = 1;\n}", line=1)

    def test_a_macros_argument_is_the_files_own(self):
        # What CUDA_CHECK(...) is given is judged as the file's: a name, a construct, a
        # declaration (the macro's own body is the kit's).
        top = "#include \"kit/cuda_check.hpp\""
        self.assertRefused("not on the list", "inline void f() {\n  CUDA_CHECK((kit::bank_of(4u), "
                                              "cudaSuccess));\n}", top, line=2)
        self.assertRefused("construct", "inline void f() {\n  CUDA_CHECK(cudaError_t(reinterpret_cast"
                                        "<long>(&f)));\n}", top, line=2)
        self.assertRefused("construct", "inline void f() {\n  CUDA_CHECK(([] { int x = 1; return "
                                        "cudaError_t(x); }()));\n}", top, line=2)
        self.assertPasses("inline void f(float* p) {\n  CUDA_CHECK(cudaFree(p));\n}", top, lesson="10")

    def test_a_shared_tile_passes(self):
        self.assertPasses("""\
            namespace {
            template <class Tile>
            __global__ void k(float* out) {
              KIT_SHARED kit::SharedTile<Tile> tile;
              tile(0, static_cast<int>(threadIdx.x)) = 1.0f;
              __syncthreads();
              out[threadIdx.x] = tile(static_cast<int>(threadIdx.x), 0);
            }
            }""", "#include \"internal.cuh\"", lesson="05")

    def test_course_names(self):
        # Lesson 05's twin and helpers are the course's: no second declaration, no overload.
        self.assertRefused("course name", "template <class T>\nvoid transpose_naive(const T*, T*, "
                                          "int, int, cudaStream_t) {}", lesson="05")
        self.assertRefused("course name", "KIT_HD constexpr int matrix_index(int a, int b) "
                                          "{ return a + b; }", lesson="05")
        # ... while the starter's own declarations are the student's to write.
        self.assertPasses("KIT_HD constexpr int my_helper(int x) { return x; }", lesson="05")

    def test_what_students_write_passes(self):
        self.assertPasses("""\
            template <class T>
            KIT_HD constexpr T twice(T x) { return 2 * x; }
            struct Pair { int a, b; };
            enum class Mode { fast, slow };
            using Table = kit::Pitched<float, 32, 32, 33>;
            KIT_HD constexpr int f(int t) {
              const auto g = [&](int y) { return y + t; };
              int a = 1, b = 2, *c = nullptr;
              for (int i = 0; i < 4; ++i) {
                a += g(i) * b;
              }
              auto [p, q] = Pair{1, 2};
              return c ? 0 : a + p + q + static_cast<int>(Mode::fast) + twice(t);
            }""", "#include \"kit/layout.hpp\"")


class Shortcuts(PolicyTest):
    """An exercise cannot reach what its tests compare it against: in every lesson, each kit
    name the lesson's tests use that the exercise's parse can see, and that is not on the
    lesson's list, is refused when the exercise names it, with the sentence that says why."""

    def kit_names_of_tests(self, lesson) -> set:
        names = set()
        for path in sorted((ROOT / "tests" / lesson.folder).glob("*")):
            if path.suffix in (".cpp", ".hpp", ".cu", ".cuh"):
                names |= set(re.findall(r"\bkit::(?:\w+::)*\w+", path.read_text()))
        return names

    def visible_kit_names(self, lesson) -> set:
        from course.policy import allowlist
        files = {p.name: p.read_bytes() for p in lesson.student_files()}
        seen = set()
        kit_dir = str((ROOT / "common" / "include").resolve())

        def walk(children):
            for c in children:
                f = c.location.file
                if f is None or not f.name.startswith(kit_dir + "/"):
                    continue
                if c.spelling:
                    seen.add(allowlist.qualified(c))
                if c.kind.name in ("NAMESPACE", "STRUCT_DECL", "CLASS_DECL", "CLASS_TEMPLATE",
                                   "ENUM_DECL"):
                    walk(c.get_children())
        for name in files:
            walk(c for c, _f in allowlist.parse(ROOT, lesson, files, name, name).top())
        return seen

    def test_what_the_tests_compare_against_is_out_of_reach(self):
        from course.policy import exercise_rules
        probed = 0
        for lesson in LESSONS:
            listed = set(exercise_rules.KIT_NAMES) | set(lesson.manifest.policy.kit)
            probes = sorted(n for n in self.kit_names_of_tests(lesson) & self.visible_kit_names(lesson)
                            if "::".join(n.split("::")[:2]) not in listed)
            if not probes:
                continue
            # The starter's exercise.hpp, and in its namespace each name in a using-declaration
            # of a function of its own.
            files = {p.name: p.read_bytes() for p in lesson.student_files()}
            lines = files["exercise.hpp"].decode().splitlines()
            opens = lines.index(f"namespace {lesson.label} {{") + 1
            lines[opens:opens] = [f"inline void forwarded{i}() {{\n  using {name};\n}}"
                                  for i, name in enumerate(probes)]
            files["exercise.hpp"] = "\n".join(lines).encode()
            findings = policy.check_lesson(ROOT, lesson, files)
            for i, probe in enumerate(probes):
                with self.subTest(lesson=lesson.number, name=probe):
                    said = [f.message for f in findings
                            if f.rule == "not on the list" and f.line == opens + 3 * i + 2]
                    self.assertTrue(said, "\n".join(map(str, findings)))
                    self.assertIn("compute the answers", said[0])
                    probed += 1
        # Every lesson's tests compare against the model (bank_of, wavefronts, analyze ...).
        self.assertGreater(probed, 3 * len(LESSONS))


class EveryPosition(PolicyTest):
    """Each construct the allowlist refuses, written in every place C++ lets it stand: the
    refusal follows the construct, not the place a rule was written for."""

    #: Where a construct stands: {decl} a declaration, {member} a class member, {stmt} a
    #: statement in a function body, {local} a member of a local class; with the rule that
    #: refuses every construct there, where one does.
    PLACES = {
        "namespace scope": "{decl}",
        "a nested namespace": "namespace inner{n} {{\n{decl}\n}}",
        "an unnamed namespace": "namespace {{\n{decl}\n}}",
        "a class": "struct Holder{n} {{\n{member}\n}};",
        "a class template": "template <class T>\nstruct Holder{n} {{\n{member}\n}};",
        "a function body": "inline int holder{n}() {{\n{stmt}\nreturn 0;\n}}",
        "a function template": "template <int N>\ninline int holder{n}() {{\n{stmt}\nreturn N;\n}}",
        "a kernel": "__global__ void holder{n}(int* out) {{\n{stmt}\nout[0] = 0;\n}}",
        "a lambda": "inline int holder{n}() {{\nconst auto inner = [] {{\n{stmt}\nreturn 0;\n}};\n"
                    "return inner();\n}}",
        "a local class": "inline int holder{n}() {{\nstruct Local {{\n{local}\n}};\nreturn 0;\n}}",
        # (refused as a declaration in a macro's argument, whatever it declares)
        "a macro's argument": ("inline void holder{n}() {{\nCUDA_CHECK(([] {{\n{stmt}\n"
                               "return cudaSuccess;\n}}()));\n}}", "construct"),
    }
    #: construct -> (the rule that refuses it, its spelling as decl / member / stmt / local
    #: member; a place it cannot stand in is left out).
    CONSTRUCTS = {
        "a standard attribute": ("attribute", dict(
            decl="[[gnu::used]] inline int a{n}() {{ return 0; }}",
            member="[[gnu::used]] int a{n}() const {{ return 0; }}",
            stmt="[[gnu::unused]] const int a{n} = 0;",
            local="[[gnu::unused]] int a{n}() const {{ return 0; }}")),
        "an attribute after the declarator": ("attribute", dict(
            decl="inline int b{n}() [[gnu::cold]];",
            member="int b{n}() const [[gnu::cold]];",
            stmt="int b{n} [[gnu::unused]] = 0;",
            local="int b{n} [[gnu::unused]] = 0;")),
        "alignas": ("attribute", dict(
            decl="struct alignas(16) C{n} {{ int v; }};",
            member="alignas(16) int c{n} = 0;",
            stmt="alignas(16) int c{n} = 0;",
            local="alignas(16) int c{n} = 0;")),
        "a union": ("construct", dict(
            decl="union U{n} {{ int i; float f; }};",
            member="union U{n} {{ int i; float f; }};",
            stmt="union U{n} {{ int i; float f; }};",
            local="union U{n} {{ int i; float f; }};")),
        "a destructor": ("construct", dict(
            decl="struct D{n} {{ ~D{n}() {{}} }};",
            member="struct D{n} {{ ~D{n}() {{}} }};",
            stmt="struct D{n} {{ ~D{n}() {{}} }};",
            local="struct D{n} {{ ~D{n}() {{}} }};")),
        "a conversion operator": ("construct", dict(
            decl="struct V{n} {{ operator int() const {{ return 0; }} }};",
            member="operator bool() const {{ return true; }}",
            stmt="struct V{n} {{ operator int() const {{ return 0; }} }};",
            local="operator bool() const {{ return true; }}")),
        "a mutable member": ("mutable", dict(
            decl="struct M{n} {{ mutable int m = 0; }};",
            member="mutable int m{n} = 0;",
            stmt="struct M{n} {{ mutable int m = 0; }};",
            local="mutable int m{n} = 0;")),
        "a variable made outside the tests": ("constexpr", dict(
            decl="inline int s{n} = 0;",
            member="static inline int s{n} = 0;",
            stmt="static int s{n} = 0;")),
        "a thread's variable": ("static", dict(
            decl="inline thread_local int t{n} = 0;",
            member="static inline thread_local int t{n} = 0;",
            stmt="static thread_local int t{n} = 0;")),
        "a lambda outside a function": ("lambda", dict(
            decl="inline constexpr auto l{n} = [](int x) {{ return x; }};",
            member="static constexpr auto l{n} = [](int x) {{ return x; }};")),
        "a pointer outside a function": ("pointer", dict(
            decl="inline constexpr int (*p{n})(int) = nullptr;")),
        "a declarator in parentheses": ("declarator", dict(
            decl="inline constexpr int (r{n}) = 0;",
            member="static constexpr int (r{n}) = 0;",
            stmt="const int (r{n}) = 0;",
            local="int (r{n}) = 0;")),
        "reinterpret_cast": ("construct", dict(
            stmt="const int q{n} = 1;\nconst auto* qp{n} = reinterpret_cast<const char*>(&q{n});\n"
                 "(void)qp{n};")),
        "new and delete": ("construct", dict(
            stmt="int* h{n} = new int(1);\ndelete h{n};")),
        "goto": ("construct", dict(stmt="goto done{n};\ndone{n}:;")),
        "a namespace alias": ("construct", dict(decl="namespace k{n} = kit;", stmt="namespace k{n} = kit;")),
        "using namespace": ("using namespace", dict(decl="using namespace kit;", stmt="using namespace kit;")),
        "an operator overload": ("operator", dict(
            decl="struct O{n} {{}};\nconstexpr bool operator==(O{n}, O{n}) {{ return true; }}",
            member="bool operator==(const int&) const {{ return true; }}",
            stmt="struct O{n} {{ bool operator==(const O{n}&) const {{ return true; }} }};",
            local="bool operator==(const int&) const {{ return true; }}")),
    }

    def test_each_construct_is_refused_in_every_place(self):
        # One file per place, every construct in it (a parse a place, not a parse a pair); each
        # construct's finding is looked for on its own lines.
        pairs = 0
        for place, frame in self.PLACES.items():
            frame, rule_here = frame if isinstance(frame, tuple) else (frame, "")
            slot = next(k for k in ("decl", "member", "stmt", "local") if "{" + k + "}" in frame)
            body, spans = [], {}
            for n, (construct, (rule, spellings)) in enumerate(self.CONSTRUCTS.items()):
                if slot not in spellings:
                    continue
                text = frame.format(n=n, **{slot: spellings[slot].format(n=n)})
                first = sum(part.count("\n") + 1 for part in body) + 1
                spans[construct] = (rule_here or rule, first, first + text.count("\n"))
                body.append(text)
            findings = self.check("\n".join(body), "#include \"kit/cuda_check.hpp\"\n"
                                                    "#include \"kit/layout.hpp\"")
            self.assertNotIn("compile", rules_of(findings), f"{place}:\n" + "\n".join(map(str, findings)))
            for construct, (rule, first, last) in spans.items():
                with self.subTest(construct=construct, place=place):
                    lines = range(self.body_line + first, self.body_line + last + 1)
                    self.assertIn(rule, [f.rule for f in findings if f.line in lines],
                                  "\n".join(map(str, findings)))
                    pairs += 1
        self.assertGreaterEqual(pairs, 100)


@unittest.skipIf(MISSING, f"the exercise policy cannot run here: {MISSING}")
class Attacks(ToolTest):
    """Every attack of the hostile-submission suite, checked by the policy alone (its grading
    through grade_run.sh is tools/course/grading/hostile/run_hostile.py)."""

    def test_each_attack_is_refused_by_its_rule(self):
        from course.grading.hostile import run_hostile
        rules_seen = set()
        for path in run_hostile.attack_files():
            attack = run_hostile.read_attack(path)
            lesson = lesson_by_number(LESSONS, attack.lesson)
            starters = {p.name: p.read_bytes() for p in lesson.student_files()}
            with self.subTest(attack=attack.name):
                if attack.file not in starters or any(k.startswith("symlink") for k in attack.sections):
                    continue  # a new file or a link: the grader's overlay refuses it, not the policy
                files = dict(starters)
                files[attack.file] = run_hostile.apply(attack, starters[attack.file].decode()).encode()
                findings = policy.check_lesson(ROOT, lesson, files)
                if attack.allowed:
                    self.assertEqual(findings, [], "\n".join(map(str, findings)))
                else:
                    self.assertIn(attack.rule, rules_of(findings), "\n".join(map(str, findings)))
                    rules_seen.add(attack.rule)
        # Each rule has an attack that it stops (the lexer and braces are backstops, tested above).
        every_rule = {"file", "line splice", "trigraph", "digraph", "characters", "directive",
                      "include", "namespace", "keyword", "operator", "specialization",
                      "using namespace", "constexpr", "static", "process control",
                      "signal handling", "new processes and threads", "files, the terminal and the environment",
                      "dynamic loading and memory mapping", "the test framework",
                      "CUDA host callbacks and device state", "compiler built-ins", "library",
                      "not on the list", "undeclared", "course name", "reserved name",
                      "attribute", "mutable", "compile", "pointer", "lambda", "construct",
                      "declarator"}
        self.assertEqual(sorted(every_rule - rules_seen), [])


if __name__ == "__main__":
    unittest.main()
