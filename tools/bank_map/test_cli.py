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
            ([], "give one of --index, --layout, --stride or --offsets"),
            (["--width", "4"], "give one of --index"),
            (["--width", "3", "--offsets", good], "unknown width '3'"),
            (["--width", "32", "--stride", "1"], "unknown width '32'"),
            (["--width", "four", "--stride", "1"], "'four' is not a non-negative integer"),
            (["--type", "quad", "--stride", "1"], "unknown type 'quad'"),
            (["--width", "4", "--type", "float", "--stride", "1"], "not both"),
            (["--type", "float", "--offsets", good, "--stride", "1"], "give one of"),
            (["--width", "4", "--offsets", offsets(lambda l: 4 * l).rsplit(",", 1)[0]],
             "31 offsets given, a warp has 32 lanes"),
            (["--width", "4", "--offsets", good + ",128"], "33 offsets given"),
            (["--width", "4", "--offsets", good.replace("12", "-12", 1)], "'-12' is negative"),
            (["--width", "4", "--offsets", good.replace("12", "1x2", 1)],
             "'1x2' is not a non-negative integer"),
            (["--width", "4", "--offsets", good.replace(",12,", ",,", 1)],
             "'' is not a non-negative integer"),
            (["--width", "4", "--offsets", good + ","], "is not a comma-separated list"),
            (["--width", "4", "--offsets", good.replace(",124", ",4294967296")],
             "'4294967296' is out of range (0 to 4294967295)"),
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
            (["--type", "float", "--stride", "1", "--frobnicate"], "unknown argument '--frobnicate'"),
            (["--type", "float", "--stride", "1", "extra"], "unknown argument 'extra'"),
            (["--type", "float", "--stride", "1", "--json", "--svg"], "only one can be printed"),
            (["--type", "float", "--stride", "1", "--svg", "/nonexistent/dir/x.svg"],
             "--svg: cannot write '/nonexistent/dir/x.svg'"),
            (["--type", "float", "--index", "l", "--stride", "1"], "give one of"),
            (["--type", "float", "--index", "l", "--offsets", good], "give one of"),
            (["--type", "float", "--index", "l", "--layout", "32x32", "--column", "0"],
             "give one of"),
        ]
        for args, words in cases:
            with self.subTest(args=args):
                self.expect_error(args, words)

    def test_bad_index(self):
        cases = [
            ("", "position 1: expected a number, l, min(, max( or '(', found the end"),
            ("   ", "position 4: expected a number"),
            ("33**l", "--index '33**l': position 4: expected a number, l, min(, max( or '(',"
                      " found '*'"),
            ("33*l+", "position 6: expected a number, l, min(, max( or '(', found the end"),
            ("(l%8", "position 5: expected ')' (opened at position 1), found the end"),
            ("l)", "position 2: unexpected ')'"),
            ("33 l", "position 4: unexpected 'l'"),
            ("33*x", "position 4: unknown name 'x' (the lane is l)"),
            ("lane*2", "position 1: unknown name 'lane' (the lane is l)"),
            ("min(l)", "position 6: expected ',' after min's first argument, found ')'"),
            ("max(l, 1, 2)", "position 9: expected ')' closing max(, found ','"),
            ("min l", "position 5: expected '(' after min"),
            ("l $ 2", "position 3: unexpected character '$'"),
            ("l < 2", "position 3: unexpected character '<' (shifts are << and >>)"),
            ("l == 2", "position 3: unexpected character '='"),
            ("010", "position 1: '010' has a leading zero (C reads it as octal)"),
            ("0x", "position 1: '0x' has no hexadecimal digits"),
            ("99999999999999999999", "position 1: '99999999999999999999' is too large"),
            ("2.5*l", "position 2: unexpected character '.'"),
            ("l +\n\t*", "--index 'l +  *': position 6: expected a number"),
            ("l\x01", "position 2: unexpected character '?'"),
            ("(" * 300 + "l" + ")" * 300, "nested more than 100 deep"),
            ("32/(l%8)", "position 3: division by zero at lane 0"),
            ("l % (l - 3)", "position 3: modulo by zero at lane 3"),
            ("l - 1", "lane 0: index -1 is negative"),
            ("l * 9223372036854775807", "position 3: overflow at lane 2"),
            ("1 << 64", "position 3: shift by 64 at lane 0 (0 to 63)"),
            ("l >> -1", "position 3: shift by -1 at lane 0 (0 to 63)"),
            ("(l - 5) << 2", "position 9: shift of a negative value (-5) at lane 0"),
            ("l << 62", "position 3: overflow at lane 2"),
            ("1 << 63", "position 3: overflow at lane 0"),
            ("12abc", "position 1: '12abc' is not a number"),
            ("0x1g", "position 1: '0x1g' is not a number"),
            ("l * 1073741824", "lane 1: index 1073741824 puts the byte offset beyond 32 bits"
                               " (4294967296)"),
        ]
        for expr, words in cases:
            with self.subTest(expr=expr):
                self.expect_error(["--type", "float", "--index", expr], words)

    def test_bad_layout(self):
        tile = ["--type", "float", "--layout", "32x33"]
        cases = [
            (["--type", "float", "--column", "1", "--index", "l"], "--column needs --layout"),
            (["--type", "float", "--row", "1", "--stride", "1"], "--row needs --layout"),
            (tile, "--layout needs --column C or --row R"),
            (tile + ["--column", "1", "--row", "1"], "--column or --row, not both"),
            (["--type", "float", "--layout", "32", "--column", "0"],
             "--layout: '32' is not ROWSxPITCH (e.g. 32x33)"),
            (["--type", "float", "--layout", "32x", "--column", "0"], "is not ROWSxPITCH"),
            (["--type", "float", "--layout", "0x33", "--column", "0"],
             "--layout: a tile has at least one row and one element per row"),
            (["--type", "float", "--layout", "32x-3", "--column", "0"], "is not ROWSxPITCH"),
            (["--type", "float", "--layout", "100000000x33", "--column", "0"],
             "--layout: '100000000x33' is too large (at most 2147483647 elements)"),
            (["--type", "float", "--layout", "99999999999x1", "--column", "0"],
             "--layout: '99999999999x1' is too large"),
            (tile + ["--column", "33"], "--column: column 33 is outside the 33 columns (0-32)"),
            (tile + ["--row", "32"], "--row: row 32 is outside the 32 rows (0-31)"),
            (tile + ["--column", "-1"], "'-1' is negative"),
            (["--type", "float", "--layout", "16x32", "--column", "0"],
             "lane 16 reads row 16, outside the 16 rows (0-15): --mask it out"),
            (["--type", "float", "--layout", "32x16", "--row", "0"],
             "lane 16 reads column 16, outside the 16 columns (0-15): --mask it out"),
            (["--type", "float4", "--layout", "16777216x32", "--row", "8388608"],
             "lane 0: offset 268435456 puts the byte offset beyond 32 bits (4294967296)"),
            (tile + ["--column", "1", "--swizzle", "3,0"],
             "--swizzle: '3,0' is not B,M,S (e.g. 3,0,3)"),
            (tile + ["--column", "1", "--swizzle", "3,0,2"],
             "--swizzle: '3,0,2': the source bits must not overlap the bits they change (S >= B)"),
            (tile + ["--column", "1", "--swizzle", "10,10,12"],
             "--swizzle: '10,10,12': B + M + S is at most 30"),
            (["--type", "float", "--stride", "1", "--swizzle", "3,0,3"],
             "--swizzle needs --index or --layout"),
        ]
        for args, words in cases:
            with self.subTest(args=args):
                self.expect_error(args, words)

    def test_help(self):
        p = run("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("usage: bank-map", p.stdout)


def swizzle(offset, b, m, s):
    """CuTe's Swizzle<B, M, S> (and kit::Swizzle): the B bits at M + S XORed into the B bits at M."""
    return offset ^ ((offset & (((1 << b) - 1) << (m + s))) >> s)


def c_div(a, b):
    """C's integer division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def c_mod(a, b):
    return a - b * c_div(a, b)


def lane_offsets(*args):
    d = model_json(*args)
    return [lane["offset"] for lane in d["lanes"]], d


class Index(unittest.TestCase):
    """--index EXPR: lane l accesses element EXPR(l); the byte offset is that times the width."""

    def expect(self, width_args, expr, f, size):
        got, d = lane_offsets(*width_args, "--index", expr)
        self.assertEqual(d["width"], size)
        self.assertEqual(got, [f(l) * size for l in range(32)], expr)

    def test_documented_examples(self):
        self.expect(["--type", "float"], "33*l", lambda l: 33 * l, 4)
        self.expect(["--type", "float"], "(l%8)*32 + l/8", lambda l: (l % 8) * 32 + l // 8, 4)
        self.expect(["--type", "half"], "l*34 + 1", lambda l: l * 34 + 1, 2)
        self.expect(["--width", "8"], "l ^ 1", lambda l: l ^ 1, 8)

    def test_no_type_is_a_float(self):
        # `bank-map --index '33*l'` as a README shows it: 4-byte elements.
        got, d = lane_offsets("--index", "33*l")
        self.assertEqual(d["width"], 4)
        self.assertEqual(got, [4 * 33 * l for l in range(32)])
        self.assertEqual(d["wavefronts"], 1)

    def test_same_as_stride(self):
        for type_ in ("u8", "half", "float", "double", "float4"):
            for stride in (0, 1, 2, 32, 33):
                with self.subTest(type=type_, stride=stride):
                    by_stride = model_json("--type", type_, "--stride", str(stride))
                    by_index = model_json("--type", type_, "--index", f"{stride} * l")
                    del by_stride["title"], by_index["title"]
                    self.assertEqual(by_index, by_stride)

    def test_c_operators_and_precedence(self):
        cases = [
            ("l + 2*3", lambda l: l + 6),
            ("(7*l + 3) % 32", lambda l: (7 * l + 3) % 32),
            ("l/2", lambda l: l // 2),
            ("100 - 3*l", lambda l: 100 - 3 * l),
            ("-l + 31", lambda l: 31 - l),
            ("--l + 31", lambda l: 31 + l),
            ("+l", lambda l: l),
            ("~l & 31", lambda l: ~l & 31),
            ("l ^ 3 & 1", lambda l: l ^ (3 & 1)),
            ("l | 1 ^ 3", lambda l: l | (1 ^ 3)),
            ("1 << 2 + 1", lambda l: 1 << 3),
            ("l >> 1 << 2", lambda l: (l >> 1) << 2),
            ("l * 32 + l ^ 5", lambda l: (l * 32 + l) ^ 5),
            ("l % 5 * 3 / 2", lambda l: (l % 5) * 3 // 2),
            ("(l - 40) / 3 + 20", lambda l: c_div(l - 40, 3) + 20),
            ("(l - 40) % 7 + 10", lambda l: c_mod(l - 40, 7) + 10),
            ("min(l, 7)", lambda l: min(l, 7)),
            ("max(l - 16, 0) * 2", lambda l: max(l - 16, 0) * 2),
            ("min(max(l, 4), 20)", lambda l: min(max(l, 4), 20)),
            ("0x10 + l", lambda l: 16 + l),
            ("0", lambda l: 0),
            ("\t l\t*\n2 ", lambda l: 2 * l),
        ]
        for expr, f in cases:
            with self.subTest(expr=expr):
                self.expect(["--type", "float"], expr, f, 4)

    def test_inactive_lanes_are_not_evaluated(self):
        got, d = lane_offsets("--type", "float", "--index", "64/l", "--mask", "0xfffffffe")
        self.assertFalse(d["lanes"][0]["active"])
        self.assertEqual(got, [0] + [4 * (64 // l) for l in range(1, 32)])

    def test_offsets_are_whole_elements(self):
        # An index counts elements, so no --index address is misaligned for its width.
        for type_, size in (("u8", 1), ("half", 2), ("double", 8), ("float4", 16)):
            got, _ = lane_offsets("--type", type_, "--index", "l*l + 3")
            self.assertTrue(all(o % size == 0 for o in got), type_)

    def test_default_title_names_the_expression(self):
        self.assertEqual(model_json("--type", "half", "--index", "l*34 + 1")["title"],
                         "half load, index l*34 + 1")
        self.assertEqual(model_json("--width", "4", "--store", "--index", "l")["title"],
                         "4-byte store, index l")


class Layouts(unittest.TestCase):
    """--layout ROWSxPITCH with --column C or --row R, and --swizzle B,M,S on top."""

    def test_column_of_a_padded_tile(self):
        got, d = lane_offsets("--type", "float", "--layout", "32x33", "--column", "1")
        self.assertEqual(got, [4 * (33 * l + 1) for l in range(32)])
        self.assertEqual(d["wavefronts"], 1)
        self.assertEqual(d["title"], "float load, column 1 of a 32x33 tile")
        self.assertEqual(model_json("--type", "float", "--layout", "32x32", "--column", "0")
                         ["wavefronts"], 32)

    def test_row(self):
        got, _ = lane_offsets("--type", "half", "--layout", "4x40", "--row", "3")
        self.assertEqual(got, [2 * (3 * 40 + l) for l in range(32)])

    def test_same_as_the_index_it_stands_for(self):
        for type_ in ("u8", "half", "float", "double", "float4"):
            with self.subTest(type=type_):
                by_layout = model_json("--type", type_, "--layout", "32x34", "--column", "1")
                by_index = model_json("--type", type_, "--index", "l*34 + 1")
                del by_layout["title"], by_index["title"]
                self.assertEqual(by_layout, by_index)

    def test_swizzle(self):
        for b, m, s in ((5, 0, 5), (3, 0, 3), (3, 2, 3), (2, 1, 4), (0, 0, 0)):
            for column in (0, 7, 31):
                with self.subTest(swizzle=(b, m, s), column=column):
                    got, d = lane_offsets("--type", "float", "--layout", "32x32", "--column",
                                          str(column), "--swizzle", f"{b},{m},{s}")
                    self.assertEqual(got, [4 * swizzle(32 * l + column, b, m, s)
                                           for l in range(32)])
        # Swizzle<5,0,6> on a 32 x 64 float tile (the row's 5 bits into the column's): every
        # column of the first 32 meets 32 banks.
        self.assertEqual(model_json("--type", "float", "--layout", "32x64", "--column", "9",
                                    "--swizzle", "5,0,6")["wavefronts"], 1)
        self.assertEqual(model_json("--type", "float", "--layout", "32x32", "--column", "0",
                                    "--swizzle", "5,0,5")["title"],
                         "float load, column 0 of a 32x32 tile, swizzle 5,0,5")

    def test_swizzles_compose_in_order(self):
        got, d = lane_offsets("--type", "half", "--layout", "32x64", "--column", "5",
                              "--swizzle", "3,3,3", "--swizzle", "1,2,7")
        self.assertEqual(got, [2 * swizzle(swizzle(64 * l + 5, 3, 3, 3), 1, 2, 7)
                               for l in range(32)])
        self.assertTrue(d["title"].endswith(", swizzle 3,3,3, swizzle 1,2,7"), d["title"])

    def test_swizzle_on_an_index(self):
        got, _ = lane_offsets("--type", "float", "--index", "32*l + 2", "--swizzle", "5,0,5")
        self.assertEqual(got, [4 * swizzle(32 * l + 2, 5, 0, 5) for l in range(32)])

    def test_short_tile_with_a_mask(self):
        got, d = lane_offsets("--type", "float", "--layout", "16x32", "--column", "3",
                              "--mask", "0x0000ffff")
        self.assertEqual(got[:16], [4 * (32 * l + 3) for l in range(16)])
        self.assertEqual(d["wavefronts"], 16)


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
