"""shared_memory_needs.py: each lesson's GPU test programs run with the kit's audit on (stand-in
programs here, writing the audit's lines), the lesson's largest kernel held to its declared
shared_memory_per_block, per-test entries apart, the kit's kernels apart; the exit status."""

from __future__ import annotations

import json
import sys
import unittest
from pathlib import Path
from typing import Dict, Optional

from course.admin import COMMANDS
from course.ci.shared_memory_needs import read_audit, short_name
from course.model.course_model import CourseError
from course_testing import ToolTest, make_build, make_course

MODULE = "course.ci.shared_memory_needs"

#: A stand-in GPU test program: appends to $KIT_SHARED_MEMORY_AUDIT the lines of
#: $FAKE_AUDIT_LINES/<its name>.tsv ({pid}: its own process id; {child}: another's); with no such
#: file it crashes before writing. Exits with $FAKE_STATUS; logs its arguments to $FAKE_LOG.
FAKE_PROGRAM = r'''#!{python}
import os, sys
name = os.path.basename(sys.argv[0])
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(" ".join([name] + sys.argv[1:] + ["cwd=" + os.getcwd()]) + "\n")
lines = os.path.join(os.environ["FAKE_AUDIT_LINES"], name + ".tsv")
if not os.path.isfile(lines):
    sys.exit(134)
text = open(lines).read().replace("{{pid}}", str(os.getpid())).replace("{{child}}", "1")
with open(os.environ["KIT_SHARED_MEMORY_AUDIT"], "a") as f:
    f.write(text)
sys.exit(int(os.environ.get("FAKE_STATUS", "0")))
'''

SYMBOL = "_ZN8lesson0111tile_kernelEPf"
NAME = "lesson01::(anonymous namespace)::tile_kernel(float*)"
KIT_SYMBOL = "_ZN3kit12_GLOBAL__N_114pattern_kernelILi4ELb0EEEvNS0_11PatternArgsE"
KIT_NAME = "void kit::(anonymous namespace)::pattern_kernel<4, false>(kit::(anonymous namespace)::PatternArgs)"


def block(*lines: str) -> str:
    """One process's block of an audit file."""
    return "\n".join(["# kit shared-memory audit 1",
                      "process\t{pid}\tNVIDIA H100 80GB HBM3\tsm_90\t232448", *lines]) + "\n"


def kernel(test: str, static: int, dynamic: int = 0, symbol: str = SYMBOL,
           name: str = NAME, origin: str = "program") -> str:
    return f"kernel\t{test}\t{static}\t{dynamic}\t{static + dynamic}\t3\t{origin}\t{symbol}\t{name}"


class SharedMemoryNeeds(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course", {"01_no_conflict": None,
                                                        "02_stride_two": None})
        self.build = make_build(self.tmp / "build", self.source)
        self.lines = self.tmp / "lines"
        self.lines.mkdir()
        self.env["FAKE_AUDIT_LINES"] = str(self.lines)
        self.env.pop("FAKE_STATUS", None)
        self.env.pop("KIT_SHARED_MEMORY_AUDIT", None)
        self.declare("01", 4224)
        self.declare("02", 0)

    def declare(self, number: str, bytes_: int, tests: Optional[list] = None) -> None:
        """Lesson `number`'s manifest declares `bytes_` (and these gpu.tests entries)."""
        path = next((self.source / "lessons").glob(f"{number}_*")) / "lesson.json"
        m = json.loads(path.read_text())
        m["gpu"].update({"stmatrix": False, "shared_memory_per_block": bytes_})
        if tests:
            m["gpu"]["tests"] = tests
        path.write_text(json.dumps(m, indent=2) + "\n")

    def program(self, number: str, lines: Optional[str], tree: str = "student",
                hidden: bool = False) -> Path:
        """Lesson `number`'s GPU test program of `tree`, writing `lines` (None: it crashes)."""
        name = f"lesson{number}_{tree}_{'hidden_' if hidden else ''}gpu"
        path = self.build / "tests" / tree / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(FAKE_PROGRAM.format(python=sys.executable))
        path.chmod(0o755)
        if lines is not None:
            (self.lines / f"{name}.tsv").write_text(lines)
        return path

    def trees(self, *trees: str) -> None:
        info = json.loads((self.build / "course" / "build.json").read_text())
        info["trees"] = list(trees)
        (self.build / "course" / "build.json").write_text(json.dumps(info))

    def check(self, *args: str):
        return self.run_tool(MODULE, "--build-dir", self.build, "--audit-dir", self.tmp / "audit",
                             *args)

    def row(self, stdout: str, what: str) -> str:
        rows = [line for line in stdout.splitlines()
                if line.startswith(what + " ") and line[len(what):].lstrip()[:1].isdigit()]
        self.assertEqual(len(rows), 1, stdout)
        return rows[0]

    def both_lessons(self, one: str, two: Optional[str] = None) -> None:
        self.program("01", one)
        self.program("02", two if two is not None else block(kernel("B.C", 0, symbol="_Z1kv",
                                                                    name="k()")))

    # ---------------------------------------------------------------------------------------

    def test_every_need_as_declared(self):
        self.both_lessons(block(kernel("Tile.Small", 1024), kernel("Tile.Padded", 4224),
                                kernel("-", 0)))
        p = self.check()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        row = self.row(p.stdout, "01")
        self.assertRegex(row, r"^01\s+4224\s+4224\s+4224\s+lesson01::tile_kernel "
                              r"\(4224 static \+ 0 dynamic; student, Tile.Padded\): ok$")
        self.assertRegex(self.row(p.stdout, "02"), r"^02\s+0\s+0\s+0\s+k .*: ok$")
        self.assertIn("measured on NVIDIA H100 80GB HBM3 (sm_90, 232448 bytes per block opt-in)",
                      p.stdout)
        self.assertIn("every declared need (2) is as measured", p.stdout)
        # every test of the program ran, from the folder ctest runs it in, with the audit on
        calls = [c for c in self.calls() if c.startswith("lesson")]
        self.assertEqual(calls, [f"lesson01_student_gpu cwd={self.build / 'tests'}",
                                 f"lesson02_student_gpu cwd={self.build / 'tests'}"])
        audit = (self.tmp / "audit" / "lesson01_student_gpu.tsv").read_text()
        self.assertIn("Tile.Padded", audit)

    def test_too_little_and_too_much(self):
        self.declare("02", 512)
        self.both_lessons(block(kernel("Tile.Padded", 4096, 256)))
        p = self.check()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertRegex(self.row(p.stdout, "01"),
                         r"4224\s+4352\s+4352 .*\(4096 static \+ 256 dynamic; student, "
                         r"Tile.Padded\): declared too little \(a GPU with less than 4352 bytes")
        self.assertRegex(self.row(p.stdout, "02"),
                         r"512\s+0\s+0 .*declared too much \(a GPU with 0 bytes per block would "
                         r"be refused\)")
        self.assertIn("2 of 2 declared needs are not as measured", p.stdout)

    def test_the_kits_and_libraries_kernels_are_no_lessons(self):
        self.both_lessons(block(kernel("Tile.Padded", 4224),
                                kernel("Pattern.Bench", 0, 49152, KIT_SYMBOL, KIT_NAME),
                                kernel("Gemm.Cublas", 0, 65536, "sm80_gemm_cublas",
                                       "sm80_gemm_cublas", "other")))
        p = self.check()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(self.row(p.stdout, "01"), r"4224\s+4224 .*: ok$")
        self.assertIn("the kit's own kernels (no lesson's need):\n"
                      "  kit::pattern_kernel<4, false>: up to 49152 bytes", p.stdout)
        self.assertIn("libraries' kernels (no lesson's need: a library such as cuBLAS fits its "
                      "kernels to the GPU):\n  sm80_gemm_cublas: up to 65536 bytes", p.stdout)

    def test_a_test_that_needs_more_than_its_lesson(self):
        self.declare("01", 4224, [{"tests": ["Big.*"], "shared_memory_per_block": 65536,
                                   "why": "a tile of 64 KiB"},
                                  {"tests": ["Tma.*"], "tma": True, "why": "TMA"}])
        self.both_lessons(block(kernel("Tile.Padded", 4224), kernel("Big.Tile", 1024, 64512),
                                kernel("Tma.Copy", 4096)))
        p = self.check()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(self.row(p.stdout, "01"), r"4224\s+4224 .*Tile.Padded\): ok$")
        self.assertRegex(self.row(p.stdout, "01 [Big.*]"),
                         r"65536\s+65536 .*\(1024 static \+ 64512 dynamic; student, Big.Tile\): ok$")
        # an entry whose tests launched nothing is not measured
        self.declare("01", 4224, [{"tests": ["Gone.*"], "shared_memory_per_block": 1024,
                                   "why": "x"}])
        p = self.check()
        self.assertEqual(p.returncode, 1)
        self.assertRegex(self.row(p.stdout, "01 [Gone.*]"), r"not measured: none of its kernels ran")

    def test_both_trees_and_the_hidden_tests(self):
        self.trees("student", "solution")
        self.both_lessons(block(kernel("Tile.Padded", 4096)))
        self.program("01", block(kernel("Tile.Padded", 4224)), tree="solution")
        self.program("02", block(), tree="solution")
        self.program("01", block(kernel("Hidden.Tile", 2048)), hidden=True)
        p = self.check()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("student  solution", p.stdout.splitlines()[1])
        self.assertRegex(self.row(p.stdout, "01"), r"4224\s+4224\s+4096\s+4224 .*solution, "
                                                   r"Tile.Padded\): ok$")
        ran = [c.split()[0] for c in self.calls() if c.startswith("lesson")]
        self.assertEqual(ran, ["lesson01_student_gpu", "lesson01_student_hidden_gpu",
                               "lesson01_solution_gpu", "lesson02_student_gpu",
                               "lesson02_solution_gpu"])
        # one tree, and the lessons asked for; solutions is the tree's other name
        p = self.check("--tree", "solutions", "--lessons", "1", "--gtest-filter=-*Slow*")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(self.row(p.stdout, "01"), r"4224\s+4224\s+4224 .*: ok$")
        self.assertNotIn("02 ", p.stdout)
        self.assertIn("lesson01_solution_gpu --gtest_filter=-*Slow*", self.calls()[-1])

    def test_what_stops_a_measurement(self):
        self.both_lessons(None)  # lesson 01's program crashes before writing
        p = self.check()
        self.assertEqual(p.returncode, 1)
        self.assertIn("lesson01_student_gpu wrote no audit (exit status 134", p.stderr)
        self.assertRegex(self.row(p.stdout, "01"), r"not measured")
        (self.build / "tests" / "student" / "lesson02_student_gpu").unlink()
        p = self.check("--lessons", "02")
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"lesson02_student_gpu is not built: cmake --build {self.build} --target "
                      f"lesson02_student_gpu", p.stderr)

    def test_refusals_and_unmeasured_kernels(self):
        refused = "refused\t{pid}\tcuptiSubscribe returned 39 (CUPTI_ERROR_MULTIPLE_SUBSCRIBERS)"
        self.both_lessons(block(kernel("Tile.Padded", 4224), refused))
        p = self.check("--lessons", "01")
        self.assertEqual(p.returncode, 1)
        self.assertIn("lesson01_student_gpu: the audit could not watch its launches: "
                      "cuptiSubscribe returned 39", p.stderr)
        # a process the program started (a test under ncu) is a note, not a failure
        child = "# kit shared-memory audit 1\nprocess\t{child}\tNVIDIA H100\tsm_90\t232448\n" + \
            refused.replace("{pid}", "{child}") + "\n"
        self.program("01", block(kernel("Tile.Padded", 4224)) + child)
        p = self.check("--lessons", "01")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("note: lesson01_student_gpu: a process it started (pid 1) was not watched",
                      p.stdout)
        # a lesson's kernel whose size could not be read fails; the kit's is a note
        self.program("01", block(kernel("Tile.Padded", 4224),
                                 f"unmeasured\tTile.Other\tprogram\t{SYMBOL}\t{NAME}\t"
                                 f"cudaFuncGetAttributes: x",
                                 f"unmeasured\tB.C\tprogram\t{KIT_SYMBOL}\t{KIT_NAME}\tno",
                                 "unmeasured\tB.C\tother\tsm80_gemm_cublas\tsm80_gemm_cublas\t"
                                 "launched by a runtime other than the program's",
                                 "unmeasured\tB.D\tother\tsm80_gemm_cublas\tsm80_gemm_cublas\t"
                                 "launched by a runtime other than the program's"))
        p = self.check("--lessons", "01")
        self.assertEqual(p.returncode, 1)
        self.assertIn("lesson01::tile_kernel in Tile.Other: its static shared memory could not be "
                      "read (cudaFuncGetAttributes: x)", p.stderr)
        self.assertIn("note: lesson01_student_gpu: kit::pattern_kernel<4, false> in B.C", p.stdout)
        self.assertIn("note: lesson01_student_gpu: sm80_gemm_cublas in 2 tests: its static shared "
                      "memory could not be read (launched by a runtime other than the program's)",
                      p.stdout)
        # failed tests do not matter, only the launches
        self.program("01", block(kernel("Tile.Padded", 4224)))
        self.env["FAKE_STATUS"] = "1"
        p = self.check("--lessons", "01")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("lesson01_student_gpu exited with status 1", p.stdout)

    def test_no_gpu(self):
        self.both_lessons(block(kernel("Tile.Padded", 4224)).replace(
            "NVIDIA H100 80GB HBM3\tsm_90\t232448", "no device\t-\t0"))
        p = self.check("--lessons", "01")
        self.assertEqual(p.returncode, 1)
        self.assertIn("lesson01_student_gpu found no GPU", p.stderr)

    def test_bad_usage(self):
        self.assertOneLineError(self.check("--lessons", "07"), 2, "there is no lesson 07")
        self.assertOneLineError(self.check("--tree", "solution"), 2,
                                "does not build the solution tree")
        self.assertOneLineError(self.check("--tree", "mine"), 2, "--tree")
        self.assertOneLineError(self.run_tool(MODULE, "--build-dir", self.tmp / "nothing"), 2,
                                "no build folder")
        self.assertOneLineError(self.run_tool(MODULE), 2, "--build-dir")

    def test_a_manifest_that_does_not_say(self):
        path = self.source / "lessons" / "02_stride_two" / "lesson.json"
        m = json.loads(path.read_text())
        del m["gpu"]["shared_memory_per_block"]
        path.write_text(json.dumps(m))
        self.both_lessons(block(kernel("Tile.Padded", 4224)))
        p = self.check()
        self.assertEqual(p.returncode, 1)
        self.assertIn("lesson 02:", p.stderr)
        self.assertIn("shared_memory_per_block", p.stderr)

    def test_the_command(self):
        self.assertEqual(COMMANDS["shared-memory-needs"][0], MODULE)


class AuditFile(unittest.TestCase):
    def test_read(self):
        a = read_audit(block(kernel("A.B", 16, 32), "refused\t7\tno",
                             f"unmeasured\tA.C\tprogram\t{SYMBOL}\t{NAME}\twhy"
                             ).replace("{pid}", "7"), "f")
        self.assertEqual([(p.pid, p.arch, p.optin) for p in a.processes], [(7, "sm_90", 232448)])
        self.assertEqual([(k.test, k.static, k.dynamic, k.total, k.whose) for k in a.kernels],
                         [("A.B", 16, 32, 48, "lesson")])
        self.assertEqual(a.refused, [(7, "no")])
        self.assertEqual([u.test for u in a.unmeasured], ["A.C"])
        with self.assertRaisesRegex(CourseError, r"^f:2: not a line of the kit's"):
            read_audit("# kit shared-memory audit 1\nkernel\tA.B\t1\n", "f")
        with self.assertRaisesRegex(CourseError, r"'x' is not a number of bytes"):
            read_audit(kernel("A.B", 1).replace("\t1\t0\t1\t", "\tx\t0\t1\t"), "f")
        with self.assertRaisesRegex(CourseError, r"not a line of the kit's"):
            read_audit(kernel("A.B", 1, origin="elsewhere"), "f")

    def test_short_names(self):
        names: Dict[str, str] = {
            NAME: "lesson01::tile_kernel",
            KIT_NAME: "kit::pattern_kernel<4, false>",
            "void lesson09::gemm<(anonymous namespace)::T<2>, 32>(float const*)":
                "lesson09::gemm<T<2>, 32>",
            "plain_c_kernel": "plain_c_kernel",
        }
        for name, short in names.items():
            self.assertEqual(short_name(name), short)


if __name__ == "__main__":
    unittest.main()
