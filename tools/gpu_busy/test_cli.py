#!/usr/bin/env python3
"""CPU tests of gpu-busy's error paths: bad flags and numbers exit 2 with one line naming the
option and the value; without a usable GPU (forced with KIT_FORCE_NO_GPU) it says why and
exits 1."""

import os
import subprocess
import sys
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "gpu-busy"


def run(*args, env=None):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, **(env or {})))


class Errors(unittest.TestCase):
    def test_bad_arguments(self):
        for args, words in [([], "--seconds is required"),
                            (["--seconds"], "--seconds needs a value"),
                            (["--seconds", "abc"], "--seconds: 'abc' is not a number"),
                            (["--seconds", "-5"], "--seconds: '-5' is out of range"),
                            (["--seconds", "99999"], "--seconds: '99999' is out of range"),
                            (["--seconds", "1", "--kernel-ms", "0"], "--kernel-ms: '0' is out of range"),
                            (["--fast"], "unknown argument '--fast'")]:
            with self.subTest(args=args):
                p = run(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                lines = p.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, f"{args}: want one line, got {p.stderr!r}")
                self.assertIn(words, lines[0])

    def test_no_gpu(self):
        p = run("--seconds", "1", env={"KIT_FORCE_NO_GPU": "simulated"})
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("no usable GPU", p.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
