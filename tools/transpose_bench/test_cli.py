#!/usr/bin/env python3
"""CPU tests of one transpose-bench program (test_cli.py PROGRAM TREE: transpose-bench of the
student tree, transpose-bench-solution of the solution tree): bad arguments give one line on
stderr, starting with the program's name, and exit status 2; --list, --help and --built-from
need no GPU; the table's note names the exercise of the program's tree; and without a usable GPU
(forced with KIT_FORCE_NO_GPU, so it behaves the same on every machine) it says why and exits 1
without writing anything."""

import os
from pathlib import Path
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "transpose-bench"
TREE = sys.argv.pop(1) if len(sys.argv) > 1 else "student"
PROGRAM = Path(TOOL).name
ROOT = Path(__file__).resolve().parents[2]
NO_GPU = {"KIT_FORCE_NO_GPU": "the test runs the tool as if no GPU were here"}


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **NO_GPU))


class Errors(unittest.TestCase):
    def test_bad_arguments(self):
        cases = [
            (["--size"], "--size needs two values"),
            (["--size", "64"], "--size needs two values"),
            (["--size", "64", "x"], "'x' is not a positive integer"),
            (["--size", "-1", "64"], "'-1' is negative"),
            (["--size", "0", "64"], "out of range"),
            (["--size", "64", "2000000"], "out of range"),
            (["--size", "1048576", "1048576"], "more than"),
            (["--kernels"], "--kernels needs a value"),
            (["--kernels", "transpose_fast"], "unknown kernel 'transpose_fast'"),
            (["--kernels", "transpose_padded,"], "not a comma-separated list"),
            (["--kernels", "transpose_padded,,copy_matrix"], "unknown kernel ''"),
            (["--repeats", "3"], "out of range"),
            (["--repeats"], "--repeats needs a value"),
            (["--output", "/nonexistent/dir/transpose.csv"], "cannot write"),
            (["--frobnicate"], "unknown argument '--frobnicate'"),
        ]
        for args, words in cases:
            with self.subTest(args=args):
                p = run(*args)
                self.assertEqual(p.returncode, 2, f"{args}: {p.stderr}")
                lines = p.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, f"{args}: want one line, got {p.stderr!r}")
                self.assertTrue(lines[0].startswith(f"{PROGRAM}: "), lines[0])
                self.assertIn(words, lines[0])
                self.assertEqual(p.stdout, "")


class WithoutGpu(unittest.TestCase):
    def test_says_why_and_exits_1(self):
        for args in ([], ["--csv"], ["--size", "1000", "777", "--kernels", "transpose_padded"]):
            with self.subTest(args=args):
                p = run(*args)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("no usable GPU", p.stderr)
                self.assertTrue(p.stderr.startswith(f"{PROGRAM}: "), p.stderr)
                self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
                self.assertEqual(p.stdout, "")

    def test_writes_no_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "transpose.csv")
            p = run("--csv", "--output", path)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertFalse(os.path.exists(path), "an empty measurement file was left behind")

    def test_list_and_help_need_no_gpu(self):
        p = run("--list")
        self.assertEqual(p.returncode, 0, p.stderr)
        names = p.stdout.split()
        for name in ("copy_matrix", "transpose_naive", "transpose_tiled", "transpose_padded",
                     "transpose_padded_64x8", "copy_vec4"):
            self.assertIn(name, names)
        self.assertEqual(len(names), len(set(names)), "a kernel is listed twice")
        p = run("--help")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("usage: transpose-bench", p.stdout)


class BuiltFrom(unittest.TestCase):
    def test_the_note_names_the_exercise_of_the_program_s_tree(self):
        want = {"solution": "the reference solution, solutions/05_padded_transpose/exercise.cu",
                "student": "your exercise, lessons/05_padded_transpose/exercise.cu"}[TREE]
        p = run("--built-from")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, f"transpose_tiled and transpose_padded: {want}\n")
        self.assertTrue((ROOT / want.split(", ")[1]).is_file(), want)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
