#!/usr/bin/env python3
"""CPU tests of the reliability scripts' error paths: bad arguments exit 2 with one line; a
machine without a GPU (no nvidia-smi on PATH) exits 77, the ctest convention for "skipped"."""

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(script, *args, path=None):
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, str(HERE / script), *map(str, args)],
                          capture_output=True, text=True, timeout=60, env=env)


class Scripts(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.build = Path(self._tmp.name)
        (self.build / "CTestTestfile.cmake").write_text("# configured\n")
        self.nowhere = Path(self._tmp.name) / "nowhere"

    def tearDown(self):
        self._tmp.cleanup()

    def one_line_error(self, p, words):
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(words, lines[0])

    def test_sanitizers_bad_usage(self):
        self.one_line_error(run("run_sanitizers.py", "--build-dir", self.build, "--tools",
                                "memcheck,leakcheck"), "unknown tool(s) leakcheck")
        self.one_line_error(run("run_sanitizers.py", "--build-dir", self.nowhere),
                            "is not a configured build folder")
        p = run("run_sanitizers.py", "--frobnicate")
        self.assertEqual(p.returncode, 2)

    def test_repeat_bad_usage(self):
        self.one_line_error(run("repeat_suites.py", "--build-dir", self.build, "--runs", "0"),
                            "--runs must be between 1 and 1000")
        self.one_line_error(run("repeat_suites.py", "--build-dir", self.nowhere),
                            "is not a configured build folder")
        p = run("repeat_suites.py", "--build-dir", self.build, "--runs", "many")
        self.assertEqual(p.returncode, 2)

    def test_no_gpu_is_a_skip(self):
        empty = tempfile.mkdtemp(dir=self._tmp.name)
        p = run("repeat_suites.py", "--build-dir", self.build, path=empty)
        self.assertEqual(p.returncode, 77, p.stdout + p.stderr)
        self.assertIn("skipped: no GPU", p.stdout)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
