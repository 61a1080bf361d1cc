"""Tests of the tests: correctness carries points without a GPU. Wrong answers that keep every
shared access conflict-free but lose data (a layout that is not one-to-one, an offset outside
its buffer, a swizzle that is not a bijection, a pair store or a wide load that reads another
element than the layout keeps there, a column assignment that owns a column twice), written
into the reference solutions (solutions/NN_topic/exercise.hpp), are each caught by a CPU
exercise test of the lesson: a test that fails on the starter, so the grader weighs it (guards
weigh nothing by default), with a message that names what is lost. And the reference
solutions themselves pass.

A layout is held to the lesson's tile, not to its own word: one whose kRows, kCols or
value_type differ from the lesson's constants (a layout that says it has one row, so the checks
see one row while the kernel stores them all into it; a value_type of 2 bytes, so the model
prices as shorts the floats the kernel stores) does not compile. Such a mistake is
caught when the lesson's CPU test program fails to build with the message that names the rule
(the grader scores every test of a program that did not build zero, the named exercise test
among them).

The build configured here is a small one: a copy of the course with the lessons whose student
writes a layout, an index function or an assignment (not lesson 10, whose exercise is a timing
harness), the solutions tree only, no GPU test program. Each mistake is written into the copy's
exercise.hpp, the lesson's CPU test program rebuilt, the named test run, and the file put back.
The test's role is read from the build's own labels (`ctest -N`), as the grader reads it.

A kernel that loses or duplicates data (lessons 05 and 06, exercise.cu) is the CPU kernel run's
to catch: test_cpu_kernel_mistakes.py.

This file holds pieces of the reference solutions, so a student's repository leaves it out
(student_repo.LEFT_OUT).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

from course_testing import (ROOT, build_tools, configure_solutions_on_the_cpu,
                            copy_of_the_course)

LESSONS = ("01_no_conflict", "02_stride_two", "03_stride_32", "04_broadcast",
           "05_padded_transpose", "06_half_types", "07_wide_accesses", "08_xor_swizzle",
           "09_gemm_tiles", "11_tma_swizzle")


@dataclass
class Mistake:
    what: str
    lesson: str  # the lesson folder
    edits: List[Tuple[str, str]]  # (text in the solution's exercise.hpp, its replacement)
    test: str  # Suite.Name: the CPU exercise test that must fail
    pattern: str  # what its output must hold (the compiler's, where the program must not build)
    builds: bool = True  # False: the lesson's CPU test program must not compile


def layout_struct(name: str, rows: str, cols: str, value_type: str, body: str) -> str:
    """A layout type of the student's own (any type with value_type, kRows, kCols and
    operator() is a layout): `body` is the offset of (r, c)."""
    return (f"struct {name} {{\n"
            f"  using value_type = {value_type};\n"
            f"  static constexpr int kRows = {rows};\n"
            f"  static constexpr int kCols = {cols};\n"
            f"  KIT_HD constexpr int operator()(int r, int c) const {{ return {body}; }}\n"
            f"}};")


STAGE_OFFSET = "KIT_HD constexpr int stage_offset(int t) {\n  return t;\n}"
RE_OFFSET = "KIT_HD constexpr int re_offset(int i) const { return i; }"
IM_OFFSET = "KIT_HD constexpr int im_offset(int i) const { return kTileElems + i; }"
TWO_FLOATS = "static constexpr PairAccess kPairAccess = PairAccess::two_floats;"
ONE_FLOAT2 = "static constexpr PairAccess kPairAccess = PairAccess::one_float2;"
L03_LAYOUT = "using TileLayout = kit::Pitched<float, kTileRows, kTileDim, kTilePitch>;"
L04_LAYOUT = "using CoefLayout = kit::Pitched<float, kPolysPerBlock, kCoefs, kTablePitch>;"
L04_PARTIAL = "KIT_HD constexpr int partial_offset(int warp) {\n  return warp;\n}"
L05_LAYOUT = "using PaddedLayout = kit::Pitched<float, kTileDim, kTileDim, kPaddedPitch>;"
L06_LAYOUT = "using HalfTileLayout = kit::Pitched<__half, kTileDim, kTileDim, kHalfPitch>;"
L06_FITS = ("static_assert(kit::cosize<HalfTileLayout>() * kHalfBytes <= 48 * 1024,\n"
            "              \"the tile must fit a block's static shared memory\");")
L07_LAYOUT = L03_LAYOUT
L08_LAYOUT = "using TileLayout = kit::Swizzled<TileRows, kit::Swizzle<5, 0, 5>>;"
L08_PAIR = "return {first < second ? first : second, second < first};"
L08_PAIR_BODY = ("const int first = TileLayout{}(r, kPairFloats * p);      // element (r, 2 p)\n"
                 "  const int second = TileLayout{}(r, kPairFloats * p + 1); "
                 "// element (r, 2 p + 1)\n  " + L08_PAIR)
L08_FRAGMENT = "using FragmentTile = kit::Swizzled<FragmentRows, kit::Swizzle<3, 3, 3>>;"
L09_SCALAR = "KIT_HD static constexpr int col(int t, int j) { return t + kThreadsX * j; }"
L09_FLOAT4 = ("KIT_HD static constexpr int col(int t, int j) { return 4 * t + 4 * kThreadsX * "
              "(j / 4) + j % 4; }")
L11_LAYOUT = ("using Read128Layout = kit::Swizzled<PlainBoxLayout<kBox128Cols>, "
              "kit::Swizzle<3, 2, 3>>;")

#: The compiler's message for a score_rows tile layout (lessons 03, 07 and 08) of another shape
#: or element type than the lesson's tile.
SCORE_ROWS_TILE = (r"static assertion failed: TileLayout must be kTileRows x kTileDim floats "
                   r"\(kRows == ScoreRows::kTileRows, kCols == kTileDim, value_type float\)")

MISTAKES: List[Mistake] = [
    # Lesson 01: reverse_blocks' staging layout.
    Mistake("stage_offset t % 32: every warp stages into the same 32 floats", "01_no_conflict",
            [(STAGE_OFFSET, "KIT_HD constexpr int stage_offset(int t) {\n"
                            "  return t % kit::kWarpSize;\n}")],
            "Layout.EveryWarpInstructionIsConflictFree",
            r"stage_offset: threads 0 and 32 share offset 0: the block loses data"),
    Mistake("stage_offset a constant: one float for the whole block", "01_no_conflict",
            [(STAGE_OFFSET, "KIT_HD constexpr int stage_offset(int t) {\n  return 0 * t;\n}")],
            "Layout.EveryWarpInstructionIsConflictFree",
            r"stage_offset: threads 0 and 1 share offset 0: the block loses data"),
    Mistake("stage_offset one float past the block's buffer", "01_no_conflict",
            [(STAGE_OFFSET, "KIT_HD constexpr int stage_offset(int t) {\n  return t + 1;\n}")],
            "Layout.EveryWarpInstructionIsConflictFree",
            r"stage_offset: thread 255 stages at offset 256, outside the block's 256 floats"),
    # Lesson 02: correlate's tile.
    Mistake("re and im of a number at one float", "02_stride_two",
            [(IM_OFFSET, "KIT_HD constexpr int im_offset(int i) const { return i; }")],
            "Layout.EveryInstructionCostsItsIdeal",
            r"TileLayout: staged number 0's re and im share float 0: the tile loses data"),
    Mistake("a tile of 32 numbers (i % 32): later numbers overwrite earlier ones", "02_stride_two",
            [(RE_OFFSET, "KIT_HD constexpr int re_offset(int i) const { return i % 32; }"),
             (IM_OFFSET, "KIT_HD constexpr int im_offset(int i) const { return 32 + i % 32; }")],
            "Layout.AsCheapAsTheConflictFreeTwin",
            r"TileLayout: staged numbers 0 and 32 share float 0: the tile loses data"),
    Mistake("the imaginary parts past the tile's end", "02_stride_two",
            [(IM_OFFSET, "KIT_HD constexpr int im_offset(int i) const { "
                         "return kTileFloats + i; }")],
            "Layout.EveryInstructionCostsItsIdeal",
            r"TileLayout: staged number 0 has a part at float 1024, outside the tile's 1024 "
            r"floats"),
    Mistake("float2 pairs of 32 numbers (i % 32)", "02_stride_two",
            [(TWO_FLOATS, ONE_FLOAT2),
             (RE_OFFSET, "KIT_HD constexpr int re_offset(int i) const { return 2 * (i % 32); }"),
             (IM_OFFSET, "KIT_HD constexpr int im_offset(int i) const { "
                         "return 2 * (i % 32) + 1; }")],
            "Layout.EveryInstructionCostsItsIdeal",
            r"TileLayout: staged numbers 0 and 32 share float 0: the tile loses data"),
    Mistake("float2 pairs whose im is not the float after re", "02_stride_two",
            [(TWO_FLOATS, ONE_FLOAT2),
             (RE_OFFSET, "KIT_HD constexpr int re_offset(int i) const { return 2 * i; }")],
            "Layout.AsCheapAsTheConflictFreeTwin",
            r"TileLayout: staged number 0: one float2 reads re and the float right after it, but "
            r"im_offset\(0\) is 512 and re_offset\(0\) 0"),
    # Lesson 03: score_rows' tile.
    Mistake("pitch 65: rows past the tile's buffer", "03_stride_32",
            [("inline constexpr int kTilePitch = kTileDim + 1;",
              "inline constexpr int kTilePitch = 2 * kTileDim + 1;")],
            "TileLayout.EveryColumnIsOneWavefront",
            r"TileLayout: element \(63, 1\) at offset 4096 lies outside the tile's kTileCapacity "
            r"floats: score_rows would lose data"),
    Mistake("a tile of 32 rows (r % 32): rows 32-63 on rows 0-31", "03_stride_32",
            [(L03_LAYOUT, layout_struct("TileLayout", "kTileRows", "kTileDim", "float",
                                        "(r % 32) * kTilePitch + c"))],
            "TileLayout.ScoreRowsAsCheapAsItsTwin",
            r"TileLayout: element \(32, 0\) at offset 0 shares its offset with element \(0, 0\): "
            r"score_rows would lose data"),
    Mistake("a swizzle that is not a bijection (the row's base left out)", "03_stride_32",
            [(L03_LAYOUT, layout_struct("TileLayout", "kTileRows", "kTileDim", "float",
                                        "32 * (r / 32) + ((c ^ r) % 32)"))],
            "TileLayout.EveryColumnIsOneWavefront",
            r"TileLayout: element \(1, 0\) at offset 1 shares its offset with element \(0, 1\)"),
    Mistake("a layout that says it has one row (kRows = 1): every row stored into 32 floats",
            "03_stride_32",
            [(L03_LAYOUT, layout_struct("TileLayout", "1", "kTileDim", "float", "c + 0 * r"))],
            "TileLayout.EveryColumnIsOneWavefront", SCORE_ROWS_TILE, builds=False),
    Mistake("a value_type of 2 bytes: the model prices a 2-way conflict of floats as shorts",
            "03_stride_32",
            [(L03_LAYOUT, layout_struct("TileLayout", "kTileRows", "kTileDim", "short",
                                        "2 * (r * kTileDim + (c + r) % kTileDim)"))],
            "TileLayout.ScoreRowsAsCheapAsItsTwin", SCORE_ROWS_TILE, builds=False),
    # Lesson 04: eval_polys' table and center_blocks' partial sums.
    Mistake("pitch 97: polynomials past the table's end", "04_broadcast",
            [("inline constexpr int kTablePitch = kCoefs + 1;",
              "inline constexpr int kTablePitch = 3 * kCoefs + 1;")],
            "TableLayout.EveryInstructionCostsOneWavefront",
            r"CoefLayout: polynomial 11, coefficient 0 at offset 1067 lies outside the table's "
            r"1024 floats: eval_polys would lose data"),
    Mistake("a table of two polynomials (q % 2)", "04_broadcast",
            [(L04_LAYOUT, layout_struct("CoefLayout", "kPolysPerBlock", "kCoefs", "float",
                                        "(r % 2) * (kCoefs + 1) + c"))],
            "TableLayout.AsCheapAsTheTwin",
            r"CoefLayout: polynomial 2, coefficient 0 at offset 0 shares its float with "
            r"polynomial 0, coefficient 0"),
    Mistake("a table that says it holds one polynomial (kRows = 1)", "04_broadcast",
            [(L04_LAYOUT, layout_struct("CoefLayout", "1", "kCoefs", "float", "c + 0 * r"))],
            "TableLayout.EveryInstructionCostsOneWavefront",
            r"static assertion failed: CoefLayout must be kPolysPerBlock x kCoefs floats "
            r"\(kRows == kPolysPerBlock, kCols == kCoefs, value_type float\)", builds=False),
    Mistake("every warp's partial sum at one offset", "04_broadcast",
            [(L04_PARTIAL, "KIT_HD constexpr int partial_offset(int warp) {\n"
                           "  return 0 * warp;\n}")],
            "FindConflict.FixedEveryAccessCostsOneWavefront",
            r"partial_offset: warps 0 and 1 share offset 0: the block loses a partial sum"),
    Mistake("the partial sums past `partials`", "04_broadcast",
            [(L04_PARTIAL, "KIT_HD constexpr int partial_offset(int warp) {\n"
                           "  return kPartialCapacity + warp;\n}")],
            "FindConflict.FixedEveryAccessCostsOneWavefront",
            r"partial_offset: warp 0's offset 256 lies outside `partials` \(256 floats\)"),
    # Lesson 05: the padded tile.
    Mistake("a padded tile wrapped into 1024 floats", "05_padded_transpose",
            [(L05_LAYOUT, layout_struct("PaddedLayout", "kTileDim", "kTileDim", "float",
                                        "(r * kPaddedPitch + c) % 1024"))],
            "Layout.PaddedColumnReadIsOneWavefrontForEveryColumn",
            r"PaddedLayout: element \(31, 1\) at offset 0 shares its offset with element "
            r"\(0, 0\): transpose_padded would lose data"),
    Mistake("a padded tile larger than a block's static shared memory", "05_padded_transpose",
            [("inline constexpr int kPaddedPitch = kTileDim + 1;",
              "inline constexpr int kPaddedPitch = 64 * kTileDim + 1;")],
            "Layout.PaddedKernelCostsTheIdealEverywhere",
            r"PaddedLayout spans \d+ bytes, more than the 49152 bytes of __shared__ a block "
            r"may declare"),
    Mistake("a padded tile that says it has one row (kRows = 1)", "05_padded_transpose",
            [(L05_LAYOUT, layout_struct("PaddedLayout", "1", "kTileDim", "float", "c + 0 * r"))],
            "Layout.PaddedColumnReadIsOneWavefrontForEveryColumn",
            r"static assertion failed: PaddedLayout must be kTileDim x kTileDim floats "
            r"\(kRows == kCols == kTileDim, value_type float\)", builds=False),
    # Lesson 06: the half tile.
    Mistake("a half tile of 16 rows (r % 16)", "06_half_types",
            [(L06_LAYOUT, layout_struct("HalfTileLayout", "kTileDim", "kTileDim", "__half",
                                        "(r % 16) * kHalfPitch + c"))],
            "HalfLayout.EveryColumnReadIsOneWavefront",
            r"HalfTileLayout: element \(16, 0\) at offset 0 shares its offset with element "
            r"\(0, 0\): the transposes would lose data"),
    Mistake("a half tile larger than a block's static shared memory (its check deleted)",
            "06_half_types",
            [("inline constexpr int kHalfPad = 2;", "inline constexpr int kHalfPad = 2 + 64 * 12;"),
             (L06_FITS, "")],
            "PairLayout.Half2KernelCostsTheIdealEverywhere",
            r"HalfTileLayout spans \d+ bytes, more than the 49152 bytes of __shared__ a block "
            r"may declare"),
    Mistake("a half tile that says it has 16 rows (kRows = 16, r % 16)", "06_half_types",
            [(L06_LAYOUT, layout_struct("HalfTileLayout", "16", "kTileDim", "__half",
                                        "(r % 16) * kHalfPitch + c"))],
            "HalfLayout.EveryColumnReadIsOneWavefront",
            r"static assertion failed: HalfTileLayout must be kTileDim x kTileDim halves "
            r"\(kRows == kCols == kTileDim, value_type __half\)", builds=False),
    Mistake("a tile of floats, rows 33 floats apart (value_type float)", "06_half_types",
            [(L06_LAYOUT, "using HalfTileLayout = kit::Pitched<float, kTileDim, kTileDim, "
                          "kTileDim + 1>;")],
            "HalfLayout.TransposeHalfCostsTheIdealEverywhere",
            r"static assertion failed: HalfTileLayout must be kTileDim x kTileDim halves "
            r"\(kRows == kCols == kTileDim, value_type __half\)", builds=False),
    # Lesson 07: score_rows4's tile.
    Mistake("pitch 68: rows past the tile's buffer", "07_wide_accesses",
            [("inline constexpr int kTilePitch = kTileDim + kVec;",
              "inline constexpr int kTilePitch = 2 * kTileDim + kVec;")],
            "TileLayout.EveryFloat4LoadCostsItsIdeal",
            r"TileLayout: element \(60, 16\) at offset 4096 lies outside the tile's kTileCapacity "
            r"floats"),
    Mistake("a tile of 32 rows (r % 32)", "07_wide_accesses",
            [(L07_LAYOUT, layout_struct("TileLayout", "kTileRows", "kTileDim", "float",
                                        "(r % 32) * kTilePitch + c"))],
            "TileLayout.ScoreRows4AsCheapAsItsTwin",
            r"TileLayout: element \(32, 0\) at offset 0 shares its offset with element \(0, 0\)"),
    Mistake("the floats of each float4 out of order (aligned, one-to-one)", "07_wide_accesses",
            [(L07_LAYOUT, layout_struct("TileLayout", "kTileRows", "kTileDim", "float",
                                        "r * kTilePitch + (c & ~3) + ((4 - (c & 3)) & 3)"))],
            "TileLayout.EveryFloat4LoadCostsItsIdeal",
            r"TileLayout: element \(0, 1\) lives at offset 3, but the float4 load of row 0 at "
            r"column 0 reads it from offset 1: score_rows would lose data"),
    Mistake("a layout that says it has one row, its rows 8 apart in 288 floats", "07_wide_accesses",
            [(L07_LAYOUT, layout_struct("TileLayout", "1", "kTileDim", "float",
                                        "(r % 8) * 36 + c"))],
            "TileLayout.EveryFloat4LoadCostsItsIdeal", SCORE_ROWS_TILE, builds=False),
    Mistake("a value_type of 2 bytes: rows 2k and 2k + 1 share their float4 chunks' banks (a "
            "2-way conflict of floats), priced as 8-byte loads at their ideal",
            "07_wide_accesses",
            [(L07_LAYOUT, layout_struct("TileLayout", "kTileRows", "kTileDim", "short",
                                        "r * kTileDim + 4 * ((c / 4 + r / 2) % 8) + c % 4"))],
            "TileLayout.EveryFloat4LoadCostsItsIdeal", SCORE_ROWS_TILE, builds=False),
    # Lesson 08: score_rows' swizzled tile, its pair store, and the ldmatrix tile.
    Mistake("a swizzle that is not a bijection (the row's base left out)", "08_xor_swizzle",
            [(L08_LAYOUT, layout_struct("TileLayout", "kTileDim", "kTileDim", "float", "c ^ r"))],
            "TileLayout.EveryColumnIsOneWavefront",
            r"TileLayout: element \(1, 0\) at offset 1 shares its offset with element \(0, 1\): "
            r"score_rows would lose data"),
    Mistake("the pair store never swaps", "08_xor_swizzle",
            [(L08_PAIR, "return {first < second ? first : second, false};")],
            "TileLayout.ScoreRowsAtItsIdeal",
            r"pair_store: row 1, pair 0 .*: element \(1, 0\) lives at offset 33 but the store "
            r"puts it at 32 \(in order\)"),
    Mistake("the pair store at the plain tile's offsets", "08_xor_swizzle",
            [(L08_PAIR_BODY, "return {TileRows{}(r, kPairFloats * p), false};")],
            "TileLayout.FewerWavefrontsThanTheBestPadding",
            r"pair_store: row 1, pair 0 .*: element \(1, 0\) lives at offset 33 but the store "
            r"puts it at 32"),
    Mistake("a fragment tile of 8 rows (r % 8)", "08_xor_swizzle",
            [(L08_FRAGMENT, layout_struct(
                "FragmentTile", "kFragmentRows", "kFragmentCols", "__half",
                "kit::Swizzled<FragmentRows, kit::Swizzle<3, 3, 3>>{}(r % 8, c)"))],
            "FragmentTile.EveryLdmatrixAtItsIdeal",
            r"FragmentTile: element \(8, 0\) at offset 0 shares its offset with element \(0, 0\): "
            r"the fragments would lose data"),
    Mistake("a tile that says it has one row (kRows = 1): every row stored into 32 floats",
            "08_xor_swizzle",
            [(L08_LAYOUT, layout_struct("TileLayout", "1", "kTileDim", "float", "c + 0 * r"))],
            "TileLayout.EveryColumnIsOneWavefront", SCORE_ROWS_TILE, builds=False),
    Mistake("a value_type of 2 bytes: rows 2k and 2k + 1 share their banks (a 2-way conflict "
            "of floats), priced as shorts at one wavefront",
            "08_xor_swizzle",
            [(L08_LAYOUT, layout_struct("TileLayout", "kTileDim", "kTileDim", "short",
                                        "r * kTileDim + 2 * ((c / 2 + r / 2) % 16) + c % 2"))],
            "TileLayout.FewerWavefrontsThanTheBestPadding", SCORE_ROWS_TILE, builds=False),
    Mistake("a fragment tile that says it has 8 rows (kRows = 8, r % 8)", "08_xor_swizzle",
            [(L08_FRAGMENT, layout_struct(
                "FragmentTile", "8", "kFragmentCols", "__half",
                "kit::Swizzled<FragmentRows, kit::Swizzle<3, 3, 3>>{}(r % 8, c)"))],
            "FragmentTile.EveryLdmatrixAtItsIdeal",
            r"static assertion failed: FragmentTile must be kFragmentRows x kFragmentCols halves "
            r"\(kRows == kFragmentRows, kCols == kFragmentCols, value_type __half\)",
            builds=False),
    # Lesson 09: the column assignments.
    Mistake("every element of a fragment in one column", "09_gemm_tiles",
            [(L09_SCALAR, "KIT_HD static constexpr int col(int t, int j) { return t + 0 * j; }")],
            "FragmentColumns.EveryReadAtItsIdeal",
            r"FragmentColumns::col\(0, 1\) = 0 = col\(0, 0\): column 0 is owned twice, so some "
            r"column of C is never computed"),
    Mistake("a column past the tile", "09_gemm_tiles",
            [(L09_SCALAR, "KIT_HD static constexpr int col(int t, int j) { "
                          "return t + kThreadsX * j + 1; }")],
            "FragmentColumns.KernelAsCheapAsTheTwin",
            r"FragmentColumns::col\(15, 7\) = 128 lies outside the tile's 128 columns"),
    Mistake("both float4 loads of a fragment on the same four columns", "09_gemm_tiles",
            [(L09_FLOAT4, "KIT_HD static constexpr int col(int t, int j) { "
                          "return 4 * t + j % 4; }")],
            "Float4Columns.EveryReadAtItsIdeal",
            r"Float4Columns::col\(0, 4\) = 0 = col\(0, 0\): column 0 is owned twice"),
    # Lesson 11: the 128B mode's read layout.
    Mistake("a read layout of 8 rows (r % 8)", "11_tma_swizzle",
            [(L11_LAYOUT, layout_struct(
                "Read128Layout", "kBoxRows", "kBox128Cols", "float",
                "kit::Swizzled<PlainBoxLayout<kBox128Cols>, kit::Swizzle<3, 2, 3>>{}(r % 8, c)"))],
            "Read128Layout.ChunkReadsCostTheIdeal",
            r"Read128Layout: element \(8, 0\) at offset 0 shares its offset with element \(0, 0\): "
            r"copy_tiles and score_tiles would read wrong data"),
    Mistake("a read layout that says it has 8 rows (kRows = 8, r % 8)", "11_tma_swizzle",
            [(L11_LAYOUT, layout_struct(
                "Read128Layout", "8", "kBox128Cols", "float",
                "kit::Swizzled<PlainBoxLayout<kBox128Cols>, kit::Swizzle<3, 2, 3>>{}(r % 8, c)"))],
            "Read128Layout.ChunkReadsCostTheIdeal",
            r"static assertion failed: Read128Layout must be kBoxRows x kBox128Cols floats "
            r"\(kRows == kBoxRows, kCols == kBox128Cols, value_type float\)", builds=False),
]


def program_of(lesson: str) -> str:
    return f"lesson{lesson[:2]}_solution_cpu"


@unittest.skipUnless((ROOT / "solutions").is_dir(), "needs the reference solutions")
@unittest.skipUnless(all(build_tools().values()), "needs cmake, ctest and the CUDA toolkit (nvcc) "
                                                  "to configure a build")
class WrongAnswersThatLoseData(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls._tmp = tempfile.TemporaryDirectory(prefix="layout-mistakes-")
        cls.source = copy_of_the_course(Path(cls._tmp.name) / "course", list(LESSONS))
        cls.cmake, ctest = build_tools()["cmake"], build_tools()["ctest"]
        cls.build = cls.source / "build" / "mistakes"
        cls.env, cls.configure = configure_solutions_on_the_cpu(cls.source, cls.build)
        cls.labels: Dict[str, List[str]] = {}
        if cls.configure.returncode == 0:
            listed = subprocess.run([ctest, "--test-dir", str(cls.build), "-N",
                                     "--show-only=json-v1"],
                                    capture_output=True, text=True, timeout=120)
            for test in json.loads(listed.stdout or "{}").get("tests", []):
                for prop in test.get("properties", []):
                    if prop.get("name") == "LABELS":
                        cls.labels[test["name"]] = list(prop.get("value", []))

    @classmethod
    def tearDownClass(cls) -> None:
        cls._tmp.cleanup()

    def build_program(self, lesson: str) -> subprocess.CompletedProcess:
        self.assertEqual(self.configure.returncode, 0,
                         self.configure.stdout[-3000:] + self.configure.stderr[-3000:])
        return subprocess.run([self.cmake, "--build", str(self.build), "--target",
                               program_of(lesson)],
                              env=self.env, capture_output=True, text=True, timeout=600)

    def run_program(self, lesson: str, gtest_filter: str) -> subprocess.CompletedProcess:
        target = program_of(lesson)
        build = self.build_program(lesson)
        self.assertEqual(build.returncode, 0, build.stdout[-3000:] + build.stderr[-3000:])
        program = self.build / "tests" / "solution" / target
        run = subprocess.run([str(program), f"--gtest_filter={gtest_filter}"],
                             capture_output=True, text=True, timeout=120)
        self.assertNotIn("Running 0 tests", run.stdout, f"{target}: no test matches {gtest_filter}")
        return run

    def test_the_reference_solutions_pass(self):
        for lesson in LESSONS:
            with self.subTest(lesson=lesson):
                run = self.run_program(lesson, "*")
                self.assertEqual(run.returncode, 0, run.stdout[-4000:])

    def test_every_lesson_with_a_layout_has_its_mistakes(self):
        self.assertEqual(sorted({m.lesson for m in MISTAKES}), sorted(LESSONS))

    def test_each_mistake_fails_a_cpu_exercise_test(self):
        self.assertTrue(self.labels, "ctest listed no test of the build")
        for m in MISTAKES:
            with self.subTest(mistake=f"lesson {m.lesson[:2]}: {m.what}"):
                labels = self.labels.get(f"solution/lesson{m.lesson[:2]}/{m.test}")
                self.assertIsNotNone(labels, f"{m.test}: no such test in lesson {m.lesson[:2]}")
                self.assertIn("exercise", labels, f"{m.test} is not an exercise test: a guard "
                                                  f"weighs nothing by default")
                self.assertIn("cpu", labels, f"{m.test} needs a GPU")
                path = self.source / "solutions" / m.lesson / "exercise.hpp"
                original = path.read_text()
                text = original
                for old, new in m.edits:
                    self.assertIn(old, text, f"{m.what}: the reference solution changed; update "
                                             f"the mistake")
                    text = text.replace(old, new)
                path.write_text(text)
                try:
                    if m.builds:
                        run = self.run_program(m.lesson, m.test)
                    else:
                        build = self.build_program(m.lesson)
                finally:
                    path.write_text(original)
                if m.builds:
                    self.assertNotEqual(run.returncode, 0, f"{m.what}: not caught by {m.test}\n"
                                                           f"{run.stdout[-4000:]}")
                    self.assertIn(f"[  FAILED  ] {m.test} ", run.stdout)
                    self.assertRegex(run.stdout, m.pattern,
                                     f"{m.what}: the message does not name it")
                else:
                    said = build.stdout + build.stderr
                    self.assertNotEqual(build.returncode, 0,
                                        f"{m.what}: {program_of(m.lesson)} compiles, so "
                                        f"{m.test} judges the layout by its own word")
                    self.assertRegex(said, m.pattern,
                                     f"{m.what}: the compiler's message does not name the rule\n"
                                     f"{said[-4000:]}")


if __name__ == "__main__":
    unittest.main()
