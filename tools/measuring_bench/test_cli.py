#!/usr/bin/env python3
"""CPU tests of one measuring-bench program (test_cli.py PROGRAM TREE: measuring-bench of the
student tree, measuring-bench-solution of the solution tree): bad arguments give one line on
stderr, starting with the program's name, and exit status 2; --help and --built-from need no
GPU, and the harness row's note names the exercise of the program's tree; without a usable GPU
(forced with KIT_FORCE_NO_GPU) it says why and exits 77, writing nothing."""

import os
from pathlib import Path
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "measuring-bench"
TREE = sys.argv.pop(1) if len(sys.argv) > 1 else "student"
PROGRAM = Path(TOOL).name
ROOT = Path(__file__).resolve().parents[2]
NO_GPU = {"KIT_FORCE_NO_GPU": "the test runs the tool as if no GPU were here"}


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **NO_GPU))


class Errors(unittest.TestCase):
    def test_bad_arguments(self):
        for args, words in [(["--frobnicate"], "unknown argument '--frobnicate'"),
                            (["--setups-csv"], "--setups-csv needs a value"),
                            (["--latency-csv", "a.csv", "--latency-csv", "b.csv"],
                             "--latency-csv is given twice")]:
            with self.subTest(args=args):
                p = run(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                lines = p.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, f"{args}: want one line, got {p.stderr!r}")
                self.assertTrue(lines[0].startswith(f"{PROGRAM}: "), lines[0])
                self.assertIn(words, lines[0])
                self.assertEqual(p.stdout, "")


class WithoutGpu(unittest.TestCase):
    def test_says_why_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "setups.csv")
            p = run("--setups-csv", path)
            self.assertEqual(p.returncode, 77, p.stderr)
            self.assertIn("no usable GPU", p.stdout)
            self.assertTrue(p.stdout.startswith(f"{PROGRAM}: skipped: "), p.stdout)
            self.assertFalse(os.path.exists(path))

    def test_help(self):
        p = run("--help")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("usage: measuring-bench", p.stdout)


class BuiltFrom(unittest.TestCase):
    def test_the_note_names_the_exercise_of_the_program_s_tree(self):
        want = {"solution": "the reference solution, solutions/10_measuring_right/exercise.cu",
                "student": "your exercise, lessons/10_measuring_right/exercise.cu"}[TREE]
        p = run("--built-from")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip().split(" of ")[-1], want)
        self.assertTrue(p.stdout.startswith("the harness row: "), p.stdout)
        self.assertTrue((ROOT / want.split(", ")[1]).is_file(), want)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
