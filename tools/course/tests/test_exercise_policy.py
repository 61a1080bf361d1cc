"""exercise_policy.py: every starter and reference solution passes; every rule refuses what it is
for, naming the line; what a student legitimately writes passes; every attack of the
hostile-submission suite is refused by the rule it names (here on the CPU, without building:
tools/course/grading/hostile/run_hostile.py grades them)."""

from __future__ import annotations

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
        """The findings on a file: `top` after `#pragma once`, `body` inside the namespace."""
        lesson = lesson_by_number(LESSONS, lesson or self.lesson)
        text = f"#pragma once\n{textwrap.dedent(top)}\nnamespace {lesson.label} {{\n" \
               f"{textwrap.dedent(body)}\n}} // namespace {lesson.label}\n"
        files = {p.name: p.read_bytes() for p in lesson.student_files()}
        files[name] = text.encode()
        return [f for f in policy.check_lesson(ROOT, lesson, files) if f.path.endswith(name)]

    def assertRefused(self, rule: str, body: str, top: str = "", line: int = 0, **kw):
        findings = self.check(body, top, **kw)
        self.assertIn(rule, rules_of(findings), "\n".join(map(str, findings)))
        if line:
            self.assertIn(line, [f.line for f in findings if f.rule == rule])

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
        self.assertRefused("constexpr", "inline const int k = 1;", line=4)
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
                          "std::min(1.0, x); }\ninline int g(int index, int time) { return index + time; }")

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
                      "not on the list", "undeclared", "course name", "reserved name"}
        self.assertEqual(sorted(every_rule - rules_seen), [])


if __name__ == "__main__":
    unittest.main()
