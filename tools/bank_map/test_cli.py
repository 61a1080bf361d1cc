#!/usr/bin/env python3
"""CPU tests of bank-map: every error path (one line naming the problem, exit status 2) and the
text, JSON and SVG outputs. Expected figures come from the rules the model states (bank and word
of an address, rule 1's distinct words per bank, the gcd law), never from typed-in counts."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

TOOL = sys.argv.pop(1) if len(sys.argv) > 1 else "bank-map"
SVG = "{http://www.w3.org/2000/svg}"


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=60)


def offsets(f):
    return ",".join(str(f(lane)) for lane in range(32))


def model_json(*args):
    p = run(*args, "--json")
    if p.returncode != 0:
        raise AssertionError(f"bank-map {' '.join(args)} --json: {p.stderr}")
    return json.loads(p.stdout)


def rule_one(lane_offsets, width):
    """Rule 1 for widths up to 4: the most distinct words any one bank is asked for."""
    words = {}
    for off in lane_offsets:
        words.setdefault((off // 4) % 32, set()).add(off // 4)
    return max(len(w) for w in words.values())


class Errors(unittest.TestCase):
    def expect_error(self, args, words):
        p = run(*args)
        self.assertEqual(p.returncode, 2, f"{args}: status {p.returncode}, stderr {p.stderr!r}")
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"{args}: want one line, got {p.stderr!r}")
        self.assertTrue(lines[0].startswith("bank-map: "), lines[0])
        self.assertIn(words, lines[0], f"{args}")
        self.assertEqual(p.stdout, "", f"{args}: nothing on stdout after an error")

    def test_bad_input(self):
        good = offsets(lambda l: 4 * l)
        cases = [
            ([], "give --width BYTES or --type NAME"),
            (["--width", "4"], "give --offsets"),
            (["--width", "3", "--offsets", good], "unknown width '3'"),
            (["--width", "32", "--stride", "1"], "unknown width '32'"),
            (["--width", "four", "--stride", "1"], "'four' is not a non-negative integer"),
            (["--type", "quad", "--stride", "1"], "unknown type 'quad'"),
            (["--width", "4", "--type", "float", "--stride", "1"], "not both"),
            (["--type", "float", "--offsets", good, "--stride", "1"], "not both"),
            (["--width", "4", "--offsets", offsets(lambda l: 4 * l).rsplit(",", 1)[0]],
             "31 offsets given, a warp has 32 lanes"),
            (["--width", "4", "--offsets", good + ",128"], "33 offsets given"),
            (["--width", "4", "--offsets", good.replace("12", "-12", 1)], "'-12' is negative"),
            (["--width", "4", "--offsets", good.replace("12", "1x2", 1)],
             "'1x2' is not a non-negative integer"),
            (["--width", "4", "--offsets", good.replace(",12,", ",,", 1)],
             "'' is not a non-negative integer"),
            (["--width", "4", "--offsets", good + ","], "ends with a comma"),
            (["--width", "4", "--offsets", good.replace(",124", ",4294967296")], "too large"),
            (["--width", "8", "--offsets", offsets(lambda l: 4 * l)],
             "lane 1: offset 4 is not aligned to the width (8 bytes)"),
            (["--width", "4", "--offsets", offsets(lambda l: 4 * l + (l == 5) * 2)],
             "lane 5: offset 22 is not aligned"),
            (["--type", "float", "--stride", "-2"], "'-2' is negative"),
            (["--type", "float", "--stride", "2.5"], "not a non-negative integer"),
            (["--type", "float4", "--stride", "100000000"], "beyond a 32-bit offset"),
            (["--type", "float", "--stride", "1", "--mask", "0xfffffffff"],
             "not a 32-bit hexadecimal mask"),
            (["--type", "float", "--stride", "1", "--mask", "zz"], "not a 32-bit hexadecimal mask"),
            (["--type", "float", "--stride", "1", "--mask", "0"], "leaves no lane active"),
            (["--type", "float", "--stride"], "--stride needs a value"),
            (["--type", "float", "--stride", "1", "--stride", "2"], "--stride is given twice"),
            (["--type", "float", "--stride", "1", "--frobnicate"], "unknown option '--frobnicate'"),
            (["--type", "float", "--stride", "1", "extra"], "unexpected argument 'extra'"),
            (["--type", "float", "--stride", "1", "--json", "--svg"], "only one can be printed"),
            (["--type", "float", "--stride", "1", "--svg", "/nonexistent/dir/x.svg"],
             "--svg: cannot write '/nonexistent/dir/x.svg'"),
        ]
        for args, words in cases:
            with self.subTest(args=args):
                self.expect_error(args, words)

    def test_help(self):
        p = run("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("usage: bank-map", p.stdout)


class Text(unittest.TestCase):
    def test_lanes_banks_words_and_total(self):
        p = run("--type", "float", "--stride", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[-1], "wavefronts: 2 (ideal 1)")
        self.assertTrue(lines[0].startswith("float load, stride 2: 4 bytes per lane"))
        self.assertIn("phase 0: lanes 0-31, 2 wavefronts (0-1)", lines)
        rows = {int(l.split()[0]): l.split() for l in lines if l[:6].strip().isdigit()}
        self.assertEqual(sorted(rows), list(range(32)))
        for lane, (_, off, bank, word, wavefront) in rows.items():
            self.assertEqual(int(off), 8 * lane)
            self.assertEqual(int(bank), (2 * lane) % 32)
            self.assertEqual(int(word), 2 * lane)
            self.assertEqual(int(wavefront), lane // 16)
        self.assertIn("  conflict: bank 0 serves 2 words: 0 (lane 0) 32 (lane 16)", lines)

    def test_phases_of_wide_accesses(self):
        for type_, lanes_per_phase in (("double", 16), ("float4", 8)):
            with self.subTest(type=type_):
                p = run("--type", type_, "--stride", "1")
                self.assertEqual(p.returncode, 0, p.stderr)
                for first in range(0, 32, lanes_per_phase):
                    self.assertIn(f": lanes {first}-{first + lanes_per_phase - 1}, 1 wavefront",
                                  p.stdout)

    def test_inactive_lanes(self):
        p = run("--type", "float", "--stride", "32", "--mask", "0x0000ffff")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("16 of 32 lanes active", p.stdout)
        self.assertIn("inactive lanes: 16-31", p.stdout)
        self.assertTrue(p.stdout.endswith("wavefronts: 16 (ideal 1)\n"))


class Json(unittest.TestCase):
    def test_per_lane_detail_follows_the_address(self):
        for width, f in ((4, lambda l: 4 * ((7 * l + 3) % 32)), (2, lambda l: 64 * l),
                         (1, lambda l: l), (8, lambda l: 8 * l), (16, lambda l: 16 * (l % 8))):
            with self.subTest(width=width):
                offs = [f(l) for l in range(32)]
                d = model_json("--width", str(width), "--offsets", offsets(f))
                self.assertEqual(d["width"], width)
                self.assertEqual(len(d["lanes"]), 32)
                for lane in d["lanes"]:
                    off = offs[lane["lane"]]
                    self.assertEqual(lane["offset"], off)
                    self.assertTrue(lane["active"])
                    self.assertEqual(lane["bank"], (off // 4) % 32)
                    self.assertEqual(lane["word"], off // 4)
                    self.assertEqual(lane["words"], max(1, width // 4))
                    self.assertLess(lane["wavefront"], d["wavefronts"])
                self.assertEqual(sum(d["phase_wavefronts"]), d["wavefronts"])
                self.assertEqual(d["phases"], len(d["phase_wavefronts"]))
                if width <= 4:
                    self.assertEqual(d["wavefronts"], rule_one(offs, width))
                    self.assertEqual(d["ideal"], 1)

    def test_gcd_law(self):
        for stride in range(0, 65):
            d = model_json("--type", "float", "--stride", str(stride))
            self.assertEqual(d["wavefronts"], math.gcd(stride, 32) if stride else 1, stride)

    def test_store_and_mask_reach_the_model(self):
        load = model_json("--type", "double", "--stride", "0")
        store = model_json("--type", "double", "--stride", "0", "--store")
        self.assertEqual((load["op"], store["op"]), ("load", "store"))
        # An 8-byte broadcast load is merged into one phase; a store never is.
        self.assertLess(load["phases"], store["phases"])
        masked = model_json("--type", "float", "--stride", "1", "--mask", "ffff0000")
        self.assertEqual(masked["mask"], "0xffff0000")
        self.assertEqual([l["active"] for l in masked["lanes"]], [False] * 16 + [True] * 16)
        self.assertIsNone(masked["lanes"][0]["bank"])


class Svg(unittest.TestCase):
    ARGS = ("--type", "float", "--stride", "2")

    def draw(self, *args):
        p = run(*args, "--svg")
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_file_and_stdout_agree_and_are_deterministic(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "map.svg")
            p = run(*self.ARGS, "--svg", path)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertTrue(p.stdout.endswith("wavefronts: 2 (ideal 1)\n"), "text still printed")
            with open(path) as f:
                from_file = f.read()
        self.assertEqual(from_file, self.draw(*self.ARGS))
        self.assertEqual(self.draw(*self.ARGS), self.draw(*self.ARGS))

    def test_picture_shows_lanes_banks_words_and_wavefronts(self):
        for args in (self.ARGS, ("--type", "float", "--stride", "32"),
                     ("--type", "float4", "--stride", "1"), ("--type", "float", "--stride", "0"),
                     ("--type", "half", "--stride", "32", "--mask", "0x00ff00ff")):
            with self.subTest(args=args):
                d = model_json(*args)
                root = ET.fromstring(self.draw(*args))
                self.assertEqual(root.tag, SVG + "svg")
                title = root.find(SVG + "title").text
                self.assertIn(f"{d['wavefronts']} wavefront", title)
                tips = [g.find(SVG + "title").text for g in root.iter(SVG + "g")]
                lane_tips = [t for t in tips if t.startswith("lane ")]
                word_tips = [t for t in tips if t.startswith("word ")]
                legend = [t for t in tips if t.startswith("wavefront ")]
                phases = d["phases"]
                self.assertEqual(len(lane_tips), 32 * phases)
                self.assertEqual(len(legend), d["wavefronts"])
                # One box per distinct (phase, word), filled with its wavefront's colour.
                words = {(l["phase"], l["word"] + k) for l in d["lanes"] if l["active"]
                         for k in range(l["words"])}
                self.assertEqual(len(word_tips), len(words))
                fills = {}
                for g in root.iter(SVG + "g"):
                    tip = g.find(SVG + "title").text
                    if tip.startswith("word ") or tip.startswith("wavefront "):
                        wf = int(tip.split("wavefront ")[1].split(",")[0])
                        fills.setdefault(wf, set()).add(g.find(SVG + "rect").get("fill"))
                self.assertEqual(sorted(fills), list(range(d["wavefronts"])))
                self.assertTrue(all(len(f) == 1 for f in fills.values()), "one colour each")
                self.assertEqual(len({next(iter(f)) for f in fills.values()}), d["wavefronts"],
                                 "a different colour per wavefront")
                lines = list(root.iter(SVG + "line"))
                self.assertEqual(len(lines), sum(l["words"] for l in d["lanes"] if l["active"]))

    def test_title_is_escaped(self):
        root = ET.fromstring(self.draw("--type", "float", "--stride", "1", "--title", "a < b & \"c\""))
        self.assertTrue(root.find(SVG + "title").text.startswith('a < b & "c"'))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
