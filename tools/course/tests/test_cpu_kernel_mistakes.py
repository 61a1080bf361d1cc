"""Tests of the tests: realistic mistakes, applied inside the reference kernels of lessons 05 and
06 (solutions/NN_topic/exercise.cu), are each caught by the lessons' CPU kernel tests (the
kernel run on the CPU: kit/cpu_runtime.hpp), with a message that names the thread or the element;
and the reference kernels themselves pass. Among them, kernels that lose or duplicate data: the
CPU kernel tests are exercise tests, so such a kernel costs points on a grader without a GPU.

The build configured here is a small one: a copy of the course with lessons 05 and 06 only, the
solutions tree only, no GPU test program. Each mistake is written into the copy's exercise.cu,
the lesson's CPU test program rebuilt, the kernel tests run, and the file put back.

And a plain `__shared__` array, compiled for the CPU run, is a compile error that names the
kit's type (`KIT_SHARED kit::SharedTile<Layout>`).

This file holds pieces of the reference solutions, so a student's repository leaves it out
(make_student_repo.LEFT_OUT).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import List, Tuple

from course_testing import ROOT, build_tools, configure_solutions_on_the_cpu, copy_of_the_course

LESSONS = ("05_padded_transpose", "06_half_types")

#: (what, lesson folder, [(text in the solution's exercise.cu, its replacement)], the CPU
#: tests to run, the patterns their output must hold), and where the file is another, its name.
MISTAKES: List[Tuple] = [
    ("store_coord and load_coord swapped in the kernel's body", "05_padded_transpose",
     [("const kit::Coord e = store_coord(x, y);", "const kit::Coord e = @LOAD@(x, y);"),
      ("const kit::Coord e = load_coord(x, y);", "const kit::Coord e = store_coord(x, y);"),
      ("@LOAD@", "load_coord")],
     "KernelOnCpu.*",
     [r"warp \d+ of block \(\d+, \d+\), exercise\.cu:\d+, 4-byte store: lane 0 \(thread \(0, \d+\)\) "
      r"at tile element \(\d+, \d+\)",
      r"no instruction of the expected trace accesses these lanes and offsets"]),
    ("the ragged guard x <= tile_cols (a read past the last column)", "05_padded_transpose",
     [("if (x < tile_cols) {", "if (x <= tile_cols) {")],
     "KernelOnCpu.*",
     [r"global memory out of bounds: thread \(13, 5\) of block \(1, 2\) \(warp 5, lane 13\) reads "
      r"element 3150 of `in`, a buffer of 3150 element\(s\): 1 past its last element"]),
    ("the barriers deleted (lesson 05)", "05_padded_transpose",
     [("__syncthreads();", "")],
     "KernelOnCpu.*",
     [r"shared-memory race \((read after write|write after read)\) on tile element \(\d+, \d+\) .*: "
      r"thread \(\d+, \d+\) of block \(\d+, \d+\) .* at exercise\.cu:\d+, and thread \(\d+, \d+\) of "
      r"block \(\d+, \d+\) .* at exercise\.cu:\d+ with no __syncthreads\(\) between"]),
    ("the barrier deleted (lesson 06's pair path)", "06_half_types",
     [("__syncthreads();", "")],
     "KernelOnCpu.*",
     [r"shared-memory race \((read after write|write after read)\) on tile element \(\d+, \d+\) .*: "
      r"thread \(\d+, \d+\) of block \(\d+, \d+\) .* at exercise\.cu:\d+, and thread \(\d+, \d+\) of "
      r"block \(\d+, \d+\) .* at exercise\.cu:\d+"]),
    ("phase 2 writes half of an interior tile (the output loses data)", "05_padded_transpose",
     [("    for (int k = 0; k < kTileDim; k += kBlockWarps) {\n      write_out(",
       "    for (int k = 0; k < kTileDim / 2; k += kBlockWarps) {\n      write_out(")],
     "KernelOnCpu.*",
     [r"\d+ of \d+ output elements differ; the first, out\(\d+, \d+\) in output tile "
      r"\(\d+, \d+\), was never written \(it still holds the poison\); expected in\(\d+, \d+\)"]),
    ("phase 2 writes where it read (a copy, not a transpose)", "05_padded_transpose",
     [("out[kit::matrix_index(col0 + y, row0 + x, rows)] = tile(e.row, e.col);",
       "out[kit::matrix_index(row0 + x, col0 + y, cols)] = tile(e.row, e.col);")],
     "KernelOnCpu.*",
     [r"output elements differ; the first, out\(0, 1\) in output tile \(0, 0\), holds in\(0, 1\); "
      r"expected in\(1, 0\)"]),
    # The one mistake in exercise.hpp's load_coord: the ragged tiles read what phase 1 did not
    # fill, once with a count; the full tiles name the element's origin, the thread and the
    # kernel's lines that moved it; the failure is reported at the student's line, the messages
    # read the same for both kernels (no kernel's name), so the view prints one of them.
    ("load_coord reads back what the thread stored itself (exercise.hpp)", "05_padded_transpose",
     [("  return {x, y};", "  return {y, x};")],
     "KernelOnCpu.*",
     [r"uninitialised shared read: thread \(\d+, \d+\) of block \(\d+, \d+\) .* at exercise\.cu:\d+, "
      r"which no thread of the block has written before it \(and \d+ more like it",
      r"holds in\(0, 1\); expected in\(1, 0\) \(the 64 x 96 input transposed is 96 x 64\)\.\n"
      r"On the CPU, thread \(1, 0\) of block \(0, 0\) read it at exercise\.cu:\d+ from tile element "
      r"\(0, 1\), where thread \(1, 0\) had stored it at exercise\.cu:\d+ in tile element \(0, 1\)",
      r"/solutions/05_padded_transpose/exercise\.cu:\d+: Failure\non the 70 x 45 matrix: the CPU "
      r"run of your kernel found:"],
     "exercise.hpp"),
    ("phase 1 stages every row into tile row 0 (threads overwrite each other)",
     "05_padded_transpose",
     [("tile(e.row, e.col) = in[", "tile(0, e.col) = in[")],
     "KernelOnCpu.*",
     [r"shared-memory race \(write after write\) on tile element \(0, \d+\) .*: thread "
      r"\(\d+, \d+\) of block \(\d+, \d+\) .* writes it at exercise\.cu:\d+, and thread "
      r"\(\d+, \d+\) of block \(\d+, \d+\) .* wrote it at exercise\.cu:\d+"]),
    ("lesson 06's phase 2 one pair step short (the output loses data)", "06_half_types",
     [("for (int k = 0; k < kPairSteps; ++k) {", "for (int k = 0; k < kPairSteps - 1; ++k) {")],
     "KernelOnCpu.*",
     [r"\d+ of \d+ output elements differ; the first, out\(\d+, \d+\) in output tile "
      r"\(\d+, \d+\), was never written \(it still holds the poison\); expected in\(\d+, \d+\)"]),
    ("lesson 06's phase 1 with __lows2half2 and __highs2half2 swapped", "06_half_types",
     [("tile.as<__half2>(2 * j, 2 * i) = __lows2half2(top, bottom);",
       "tile.as<__half2>(2 * j, 2 * i) = @HIGHS@(top, bottom);"),
      ("tile.as<__half2>(2 * j + 1, 2 * i) = __highs2half2(top, bottom);",
       "tile.as<__half2>(2 * j + 1, 2 * i) = __lows2half2(top, bottom);"),
      ("@HIGHS@", "__highs2half2")],
     "KernelOnCpu.*",
     [r"out\(0, 0\) in output tile \(0, 0\), holds in\(0, 1\); expected in\(0, 0\)",
      r"On the CPU, thread \(0, 0\) of block \(0, 0\) read it at exercise\.cu:\d+ as the low half "
      r"of the 4-byte load of tile element \(0, 0\), where thread \(0, 0\) had stored it at "
      r"exercise\.cu:\d+ as the low half of the 4-byte store to tile element \(0, 0\)",
      r"/solutions/06_half_types/exercise\.cu:\d+: Failure"]),
    ("lesson 06's phase 1 stores both column pairs into one tile row", "06_half_types",
     [("tile.as<__half2>(2 * j + 1, 2 * i) = __highs2half2(top, bottom);",
       "tile.as<__half2>(2 * j, 2 * i) = __highs2half2(top, bottom);")],
     "KernelOnCpu.*",
     [r"uninitialised shared read: thread \(\d+, \d+\) of block \(\d+, \d+\) .* reads tile "
      r"element \(\d+, \d+\) of .* at exercise\.cu:\d+, which no thread of the block has "
      r"written before it"]),
    ("lesson 06's phase 2 with adjacent rows in the two half-warps (2-way)", "06_half_types",
     [("const int c = out_row(w, k, lane);",
       "const int c = 2 * (w + kBlockRows * k) + lane / kHalfWarp;")],
     "KernelOnCpu.*",
     [r"warp \d+ of block \(\d+, \d+\), exercise\.cu:\d+, 4-byte load: .*more wavefronts than the "
      r"ideal of its width \(a bank conflict: lanes \d+ and \d+ \(threads \(\d+, \d+\) and "
      r"\(\d+, \d+\)\) ask bank \d+ for different words: tile elements \(\d+, \d+\) and "
      r"\(\d+, \d+\)\)"]),
    ("lesson 06's tile padded by 4 halves (its column reads conflict in the course's tile code)",
     "06_half_types",
     [("inline constexpr int kHalfPad = 2;", "inline constexpr int kHalfPad = 4;")],
     "KernelOnCpu.*",
     [r"internal\.cuh:\d+, 2-byte load: .*a bank conflict: lanes 0 and 16 .* ask bank 0 for "
      r"different words",
      r"That access is the course's tile code \(internal\.cuh, which you need not read\); which "
      r"banks it asks is decided by your tile: HalfTileLayout and kHalfPad in exercise\.hpp\.",
      r"\(the same on 2 more shapes: ",
      # Reported at the tile's line in exercise.hpp, not at internal.cuh's.
      r"/solutions/06_half_types/exercise\.hpp:\d+: Failure\non the 70 x 45 matrix"],
     "exercise.hpp"),
]


@unittest.skipUnless((ROOT / "solutions").is_dir(), "needs the reference solutions")
@unittest.skipUnless(all(build_tools().values()), "needs cmake and the CUDA toolkit (nvcc) to "
                                                  "configure a build")
class MistakesInsideTheKernels(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix="cpu-kernel-mistakes-")
        cls.source = copy_of_the_course(Path(cls._tmp.name) / "course", list(LESSONS))
        cls.cmake = build_tools()["cmake"]
        cls.build = cls.source / "build" / "mistakes"
        cls.env, cls.configure = configure_solutions_on_the_cpu(cls.source, cls.build)

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def run_kernel_tests(self, lesson: str, gtest_filter: str) -> subprocess.CompletedProcess:
        self.assertEqual(self.configure.returncode, 0,
                         self.configure.stdout[-3000:] + self.configure.stderr[-3000:])
        target = f"lesson{lesson[:2]}_solution_cpu_kernel"
        build = subprocess.run([self.cmake, "--build", str(self.build), "--target", target],
                               env=self.env, capture_output=True, text=True, timeout=600)
        self.assertEqual(build.returncode, 0, build.stdout[-3000:] + build.stderr[-3000:])
        program = self.build / "tests" / "solution" / target
        run = subprocess.run([str(program), f"--gtest_filter={gtest_filter}"],
                             capture_output=True, text=True, timeout=120)
        self.assertNotIn("Running 0 tests", run.stdout, f"{target}: no test matches {gtest_filter}")
        return run

    def test_the_reference_kernels_pass(self):
        for lesson in LESSONS:
            with self.subTest(lesson=lesson):
                run = self.run_kernel_tests(lesson, "*KernelOnCpu.*")
                self.assertEqual(run.returncode, 0, run.stdout[-4000:])
                self.assertRegex(run.stdout, r"\[  PASSED  \] [1-9]")

    def test_each_mistake_is_caught_by_name(self):
        for what, lesson, edits, gtest_filter, patterns, *file in MISTAKES:
            with self.subTest(mistake=what):
                path = self.source / "solutions" / lesson / (file[0] if file else "exercise.cu")
                original = path.read_text()
                text = original
                for old, new in edits:
                    self.assertIn(old, text, f"{what}: the reference kernel changed; update the "
                                             f"mistake")
                    text = text.replace(old, new)
                path.write_text(text)
                try:
                    run = self.run_kernel_tests(lesson, gtest_filter)
                finally:
                    path.write_text(original)
                self.assertNotEqual(run.returncode, 0, f"{what}: not caught\n{run.stdout[-4000:]}")
                self.assertRegex(run.stdout, r"\[  FAILED  \] KernelOnCpu\.")
                for pattern in patterns:
                    self.assertRegex(run.stdout, pattern, f"{what}: the message does not name it")


@unittest.skipUnless(shutil.which("c++") and Path("/usr/local/cuda/include/cuda_fp16.h").exists()
                     or os.environ.get("CUDA_HOME"), "needs a host compiler and the CUDA headers")
class PlainSharedArray(unittest.TestCase):
    def test_a_plain_shared_array_is_a_compile_error_naming_the_kit_type(self):
        cuda = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "include"
        source = ('#include "kit/launch.hpp"\n#include "kit/shared_tile.hpp"\n'
                  "__global__ void k(float* out) {\n"
                  "  __shared__ float tile[32];\n"
                  "  tile[threadIdx.x] = 1.0f;\n"
                  "  out[threadIdx.x] = tile[threadIdx.x];\n"
                  "}\n")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "plain.cpp"
            path.write_text(source)
            proc = subprocess.run([shutil.which("c++") or "c++", "-std=c++17", "-fsyntax-only",
                                   f"-I{ROOT / 'common' / 'include'}", f"-isystem{cuda}", str(path)],
                                  capture_output=True, text=True, timeout=120)
        self.assertNotEqual(proc.returncode, 0, "a plain __shared__ array compiled for the CPU")
        self.assertIn("KIT_SHARED kit::SharedTile<Layout> tile;", proc.stderr)
        self.assertIn("plain.cpp:4", proc.stderr)


if __name__ == "__main__":
    unittest.main()
