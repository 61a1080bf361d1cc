#!/usr/bin/env python3
"""The bank model held to every pattern the counters measured (docs/measurements/bank_probe/):
each stored table is replayed through `bank-probe --patterns` on the CPU, and the model's
wavefronts must equal the counters' on every row. The random tables must also still be the
draws bank-probe makes from their seed, so that they check what the course's random test
draws. A CPU test: it needs no GPU, and it fails when a change to the model (or to the draws)
leaves a measured pattern behind."""

import csv
import glob
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "bank-probe"
TABLES = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "measurements", "bank_probe")
PATTERN = ("op", "width", "mask", "offsets")


def table(text):
    return list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))


def replay(path):
    """(the stored rows, the rows bank-probe writes for the same patterns)."""
    with gzip.open(path, "rt") as f:
        text = f.read()
    with tempfile.TemporaryDirectory() as d:
        plain = os.path.join(d, "measured.csv")
        with open(plain, "w") as f:
            f.write(text)
        p = subprocess.run([TOOL, "--patterns", plain], capture_output=True, text=True,
                           timeout=300)
    if p.returncode != 0:
        raise AssertionError(f"bank-probe --patterns {path}: {p.stderr.strip()}")
    return table(text), table(p.stdout)


class MeasuredPatterns(unittest.TestCase):
    def tables(self):
        found = sorted(glob.glob(os.path.join(TABLES, "*.csv.gz")))
        self.assertTrue(found, f"no measured tables in {TABLES}")
        return found

    def test_the_model_equals_the_counters_on_every_measured_pattern(self):
        total = 0
        for path in self.tables():
            stored, model = replay(path)
            self.assertEqual(len(stored), len(model), path)
            self.assertGreater(len(stored), 0, path)
            differ = [(s, m) for s, m in zip(stored, model)
                      if float(s["counter_wavefronts"]) != float(m["model_wavefronts"])]
            shown = "; ".join(f"{s['name']} ({s['op']}, width {s['width']}, mask {s['mask']}): "
                              f"counters {s['counter_wavefronts']}, model {m['model_wavefronts']}"
                              for s, m in differ[:5])
            self.assertEqual(len(differ), 0, f"{os.path.basename(path)}: {len(differ)} of "
                             f"{len(stored)} patterns differ from the model: {shown}")
            total += len(stored)
        print(f"{total} measured patterns, every one as the model counts it")

    def test_random_tables_are_the_draws_of_their_seed(self):
        for path in self.tables():
            with gzip.open(path, "rt") as f:
                stored = table(f.read())
            sets = {r["set"] for r in stored}
            if len(sets) != 1 or not next(iter(sets)).startswith("random:"):
                continue
            seed = next(iter(sets)).split(":", 1)[1]
            indexes = [int(r["index"]) for r in stored]
            self.assertEqual(indexes, list(range(len(stored))), path)
            p = subprocess.run([TOOL, "--random", str(len(stored)), "--seed", seed],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            drawn = table(p.stdout)
            changed = [s["name"] for s, d in zip(stored, drawn)
                       if any(s[k] != d[k] for k in PATTERN)]
            self.assertEqual(len(changed), 0, f"{os.path.basename(path)}: the draws of seed {seed} "
                             f"changed since they were measured ({len(changed)} of them): "
                             f"measure them again (docs/measurements.md)")


if __name__ == "__main__":
    unittest.main()
