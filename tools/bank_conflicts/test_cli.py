#!/usr/bin/env python3
"""CPU tests of the bank-conflicts command: its error paths (one line, exit status 2) and its
model-only output on a machine without a usable GPU (the test forces that with
KIT_FORCE_NO_GPU, so it behaves the same on every machine)."""

import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "bank-conflicts"


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=60)


class Errors(unittest.TestCase):
    def expect_usage_error(self, args, words):
        p = run(*args)
        self.assertEqual(p.returncode, 2, f"{args}: {p.stderr}")
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{args}: want one line, got {p.stderr!r}")
        self.assertIn(words, lines[0], f"{args}")
        self.assertTrue(lines[0].startswith("bank-conflicts: "))

    def test_bad_arguments(self):
        cases = [
            ([], "--type is required"),
            (["--type", "float"], "give one of"),
            (["--type", "quad", "--stride", "1"], "unknown type 'quad'"),
            (["--type", "float", "--stride", "-1"], "'-1' is negative"),
            (["--type", "float", "--stride", "x"], "not a non-negative integer"),
            (["--type", "float", "--stride"], "--stride needs a value"),
            (["--type", "float", "--strides", "1,,2"], "not a non-negative integer"),
            (["--type", "float", "--strides", "1,2,"], "not a comma-separated list"),
            (["--type", "float", "--sweep", "5"], "not FIRST:LAST"),
            (["--type", "float", "--sweep", "9:3"], "FIRST <= LAST"),
            (["--type", "float", "--stride", "1", "--sweep", "0:3"], "only one of"),
            (["--type", "float", "--offsets", "0,4,8"], "3 offsets given"),
            (["--type", "float", "--offsets", ",".join(["2"] * 32)], "not a multiple of the access width"),
            (["--type", "float", "--stride", "100000"], "do not fit in shared memory"),
            (["--type", "float", "--stride", "1", "--frobnicate"], "unknown argument"),
            (["--type", "float", "--index", "l*s +", "--sweep", "0:3"], "--index 'l*s +'"),
            (["--type", "float", "--index", "l - 40", "--stride", "1"], "outside the shared memory"),
            (["--type", "float", "--index", "l", "--offsets", ",".join(["0"] * 32)], "not --offsets"),
            (["--type", "float", "--stride", "1", "--output", "/nonexistent/dir/x.csv"], "cannot write"),
        ]
        for args, words in cases:
            with self.subTest(args=args):
                self.expect_usage_error(args, words)


class ModelOnly(unittest.TestCase):
    def test_index_sweeps_your_own_pattern(self):
        def model(*args):
            p = run("--type", "float", *args, "--sweep", "0:40", "--csv")
            self.assertEqual(p.returncode, 0, p.stderr)
            body = [l for l in p.stdout.splitlines() if not l.startswith("#")]
            return {int(r["stride"]): int(r["model_wavefronts"]) for r in csv.DictReader(body)}

        plain = model()
        jagged = model("--index", "l*s + 32*l")
        self.assertEqual(model("--index", "l*s"), plain)
        for s in range(1, 41):
            self.assertEqual(jagged[s], plain[s], f"offset {s}")
        self.assertEqual((plain[0], jagged[0]), (1, 32), "offset 0: a broadcast, or word 32 l")

    def test_sweep_csv_has_header_and_gcd_law(self):
        p = run("--type", "float", "--sweep", "0:64", "--csv")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        header = [l for l in lines if l.startswith("#")]
        self.assertTrue(any(l.startswith("# device: none (model only)") for l in header), header)
        self.assertTrue(any(l.startswith("# date: ") for l in header))
        self.assertTrue(any(l.startswith("# command: bank-conflicts --type float") for l in header))
        self.assertTrue(any("measured columns empty" in l for l in header))
        rows = list(csv.DictReader(io.StringIO("\n".join(l for l in lines if not l.startswith("#")))))
        self.assertEqual([int(r["stride"]) for r in rows], list(range(0, 65)))
        for r in rows:
            s = int(r["stride"])
            self.assertEqual(int(r["model_wavefronts"]), math.gcd(s, 32) if s else 1, r)
            self.assertEqual(r["counter_wavefronts"], "")
            self.assertEqual(r["slowdown"], "")

    def test_json_and_output_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "half.json")
            p = run("--type", "half", "--strides", "1,2,32,64", "--json", "--output", path)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(path) as f:
                data = json.load(f)
        self.assertEqual(data["type"], "half")
        self.assertEqual([r["model_wavefronts"] for r in data["rows"]], [1, 1, 16, 32])
        self.assertIsNone(data["rows"][0]["counter_wavefronts"])
        self.assertIn("none (model only)", data["device"])

    def test_table_and_stores(self):
        p = run("--type", "double", "--stride", "0", "--store")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("double stores", p.stdout)
        # An 8-byte broadcast store, as the model's rule 4 prices it.
        row = [l for l in p.stdout.splitlines() if l.strip().startswith("0 ")][0]
        self.assertEqual(row.split()[1], "2")

    def test_custom_offsets(self):
        offsets = ",".join(str(4 * ((l % 8) * 32 + l // 8)) for l in range(32))
        p = run("--type", "float", "--offsets", offsets, "--csv")
        self.assertEqual(p.returncode, 0, p.stderr)
        last = p.stdout.strip().splitlines()[-1].split(",")
        self.assertEqual(last[1], "custom")
        self.assertEqual(last[2], "8")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
