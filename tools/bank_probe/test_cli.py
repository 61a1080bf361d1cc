#!/usr/bin/env python3
"""CPU tests of the bank-probe command: its error paths (one line, exit status 2), the
model-only output on a machine without a usable GPU (forced with KIT_FORCE_NO_GPU, so it
behaves the same everywhere), draws that do not depend on where a probe starts, a sample of the
structured set (--every, --offset), and patterns read back from an earlier output."""

import csv
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "bank-probe"
COLUMNS = ("set,index,op,width,mask,offsets,model_wavefronts,model_ideal,"
           "counter_wavefronts,l1tex_wavefronts,bank_conflicts,name").split(",")


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=120)


def rows(text):
    body = [line for line in text.splitlines() if not line.startswith("#")]
    table = list(csv.reader(body))
    assert table[0] == COLUMNS, table[0]
    return [dict(zip(COLUMNS, r)) for r in table[1:]]


class Errors(unittest.TestCase):
    def expect_usage_error(self, args, words):
        p = run(*args)
        self.assertEqual(p.returncode, 2, f"{args}: {p.stderr}")
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{args}: want one line, got {p.stderr!r}")
        self.assertIn(words, lines[0], f"{args}")
        self.assertTrue(lines[0].startswith("bank-probe: "))

    def test_bad_arguments(self):
        with tempfile.TemporaryDirectory() as d:
            bad_header = os.path.join(d, "bad.csv")
            with open(bad_header, "w") as f:
                f.write("a,b,c\n")
            short_row = os.path.join(d, "short.csv")
            with open(short_row, "w") as f:
                f.write(",".join(COLUMNS) + "\nrandom:1,0,load,4\n")
            bad_mask = os.path.join(d, "mask.csv")
            with open(bad_mask, "w") as f:
                f.write(",".join(COLUMNS) + "\nx,0,load,4,zz," + " ".join(["0"] * 32) +
                        ",1,1,,,,n\n")
            cases = [
                ([], "give one of"),
                (["--random"], "--random needs a value"),
                (["--random", "0"], "--random"),
                (["--random", "5", "--structured"], "only one of"),
                (["--structured", "--seed", "3"], "--seed goes with --random"),
                (["--random", "5", "--append"], "--append adds to --output"),
                (["--patterns", os.path.join(d, "missing.csv")], "cannot read"),
                (["--patterns", bad_header], "not bank-probe's header row"),
                (["--patterns", short_row], "4 fields, not 12"),
                (["--patterns", bad_mask], "mask 'zz'"),
                (["--random", "3", "--output", "/nonexistent/dir/x.csv"], "cannot write"),
                (["--random", "3", "--frobnicate"], "unknown argument"),
                (["--random", "5", "--every", "3"], "--every goes with --structured"),
                (["--patterns", bad_header, "--offset", "1"], "--offset goes with --structured"),
                (["--structured", "--offset", "2"], "--offset goes with --every"),
                (["--structured", "--every", "0"], "--every: '0' is out of range"),
                (["--structured", "--every", "4", "--offset", "4"], "is not less than --every 4"),
                (["--structured", "--every", "900000", "--offset", "899999"],
                 "no structured pattern has such an index"),
            ]
            for args, words in cases:
                with self.subTest(args=args):
                    self.expect_usage_error(args, words)


class ModelOnly(unittest.TestCase):
    def test_no_gpu_leaves_the_counters_empty_and_says_why(self):
        p = run("--random", "40", "--seed", "5")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("# note: counter columns empty:", p.stdout)
        self.assertIn("40 patterns, 0 measured", p.stderr)
        table = rows(p.stdout)
        self.assertEqual(len(table), 40)
        for r in table:
            self.assertEqual(r["counter_wavefronts"], "")
            self.assertGreaterEqual(int(r["model_wavefronts"]), 1)
            self.assertEqual(len(r["offsets"].split()), 32)

    def test_a_draw_does_not_depend_on_where_the_probe_starts(self):
        whole = rows(run("--random", "30", "--seed", "9").stdout)
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "parts.csv")
            self.assertEqual(run("--random", "12", "--seed", "9", "--output", out).returncode, 0)
            p = run("--random", "18", "--seed", "9", "--first", "12", "--output", out, "--append")
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(out) as f:
                parts = rows(f.read())
        self.assertEqual(parts, whole)
        self.assertEqual([int(r["index"]) for r in parts], list(range(30)))

    def test_draws_land_on_masked_wide_accesses(self):
        table = rows(run("--random", "400", "--seed", "2").stdout)
        wide_masked = [r for r in table if r["width"] in ("8", "16") and r["mask"] != "ffffffff"]
        # The draws exist to look where partial wide loads are costed: at least a third of them.
        self.assertGreater(len(wide_masked), len(table) // 3)
        self.assertEqual({r["op"] for r in table}, {"load", "store"})
        self.assertEqual({r["width"] for r in table}, {"1", "2", "4", "8", "16"})

    def test_a_structured_sample_keeps_every_kth_pattern_with_its_index(self):
        whole = rows(run("--structured").stdout)
        samples = []
        for offset in range(7):
            p = run("--structured", "--every", "7", "--offset", str(offset))
            self.assertEqual(p.returncode, 0, p.stderr)
            sample = rows(p.stdout)
            self.assertEqual(sample, [r for r in whole if int(r["index"]) % 7 == offset])
            samples += sample
        # The seven offsets together are the whole set, each pattern once.
        self.assertEqual(sorted(samples, key=lambda r: int(r["index"])), whole)
        # Offset 0 by default; a sample holds both widths, loads and stores, and lane triples.
        default = rows(run("--structured", "--every", "7").stdout)
        self.assertEqual([r["index"] for r in default], [r["index"] for r in samples[:len(default)]])
        self.assertEqual({r["width"] for r in default}, {"8", "16"})
        self.assertEqual({r["op"] for r in default}, {"load", "store"})
        self.assertTrue(any(r["name"].endswith("three groups") for r in default))

    def test_patterns_read_back_keep_their_model_counts(self):
        first = run("--structured").stdout
        table = rows(first)
        self.assertGreater(len(table), 10000)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "earlier.csv")
            with open(path, "w") as f:
                f.write(first)
            again = rows(run("--patterns", path).stdout)
        keep = ("set", "index", "op", "width", "mask", "offsets", "model_wavefronts", "name")
        self.assertEqual([{k: r[k] for k in keep} for r in again],
                         [{k: r[k] for k in keep} for r in table])


if __name__ == "__main__":
    unittest.main()
