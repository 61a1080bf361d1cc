#!/usr/bin/env python3
"""CPU tests of the docs tools on small repositories made in a temporary folder: the README
blocks (measured figures, code excerpts, the course README's lesson table), the lessons'
measurement file from a GPU fail-first report, the lesson pages' headings and hints, the Doxygen
filter, the pictures check and the charts. Also checks that the site's main page gives the
README's commands."""

import contextlib
import io
import json
import os
import re
import sys
import tempfile
import textwrap
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))

import docs_common
import doxygen_filter
import lesson_pages
import measurements
import pictures
import readme_blocks
from charts import chart
from measurements import read_measurement, read_sweep

BANK_MAP = None
if "--bank-map" in sys.argv:
    i = sys.argv.index("--bank-map")
    BANK_MAP = sys.argv[i + 1]
    del sys.argv[i:i + 2]

SWEEP = """# device: {device}
# date: 2026-11-22
# command: bank-conflicts --type float --sweep 0:4 --csv
# access: load
type,stride,model_wavefronts,counter_wavefronts,slowdown,model_slowdown
float,0,1,{c0},{s0},1.000
float,1,1,{c1},{s1},1.000
float,2,2,{c2},{s2},2.000
float,3,1,,,1.000
float,4,4,,,4.000
"""


class Repo:
    """A small repository: two lessons with their manifests (lesson 01's picture and measured
    block), docs/ with the site's pictures and measured blocks, and a measurement."""

    def __init__(self, tmp, measured=False):
        self.root = tmp
        values = dict(device="NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)", c0="1.00", c1="1.00",
                      c2="2.00", s0="1.002", s1="1.000", s2="1.931") if measured else \
            dict(device="none (model only): no usable GPU", c0="", c1="", c2="", s0="",
                 s1="", s2="")
        self.write("docs/measurements/sweep_float.csv", SWEEP.format(**values))
        self.write("docs/measured.txt", "# the site's blocks\n")
        self.write("docs/pictures.txt", """\
            # comment
            docs/measurements/sweep_float.svg     chart docs/measurements/sweep_float.csv
            """)
        self.manifest("01_demo", "A demo", pictures=[
            {"svg": "lessons/01_demo/images/stride_2.svg",
             "bank_map": ["--type", "float", "--stride", "2", "--title", "Stride 2"]}],
            measured=[{"block": "lesson01", "table": "docs/measurements/sweep_float.csv",
                       "strides": "1,2"},
                      {"block": "lesson01", "chart": "docs/measurements/sweep_float.svg"}])
        self.manifest("02_next", "Next")
        self.write("lessons/01_demo/demo.hpp", """\
            #pragma once
            namespace demo {
            // [index]
            constexpr int index(int lane) { return 2 * lane; } // bank (2 l) % 32
            // [index]
            }
            """)
        self.write("lessons/01_demo/README.md", """\
            # Lesson 01: A demo

            ## Goal

            See [the next lesson](../02_next/README.md#goal), [the kit](../../common/include/kit/config.hpp),
            [the demo](demo.hpp), [above](#goal) and `[not a link](x.md)`.

            ![Stride 2](images/stride_2.svg)

            ```
            ![in code](images/nothing.svg)
            ## Not a heading
            ```

            <!-- snippet:demo.hpp#index -->
            <!-- /snippet -->

            ## What you should see

            <!-- measured:lesson01 -->
            old text
            <!-- /measured -->
            """)
        self.write("lessons/02_next/README.md", "# Lesson 02: Next\n\n## Goal\n\nMore.\n")
        self.write("docs/mainpage.md", "# Course\n\n<!-- lessons -->\n")
        self.write("docs/lessons.md", "# Lessons\n\n<!-- lessons -->\n")

    def manifest(self, folder, title, **facts):
        """Writes lessons/<folder>/lesson.json (the facts not given: the course's defaults)."""
        data = {"lesson": folder[:2], "title": title, "teaches": title.lower(), "points": 10,
                "kernel_on_cpu": False, "gpu": {"compute_capability": "7.5", "tma": False,
                                                "ldmatrix": False, "stmatrix": False,
                                                "shared_memory_per_block": 0,
                                                "counters": False}}
        data.update(facts)
        self.write(f"lessons/{folder}/lesson.json", json.dumps(data, indent=2) + "\n")

    def facts(self, folder):
        return json.loads(self.read(f"lessons/{folder}/lesson.json"))

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))

    def read(self, path):
        with open(os.path.join(self.root, path), encoding="utf-8") as f:
            return f.read()


class Common(unittest.TestCase):
    def test_strides(self):
        self.assertEqual(docs_common.parse_strides("1,4:6,32"), ["1", "4", "5", "6", "32"])
        with self.assertRaises(docs_common.DocsError):
            docs_common.parse_strides("1;2")

    def test_links_outside_code_only(self):
        seen = []
        docs_common.map_links("a [x](y.md) `[z](w.md)` ![i](j.svg)",
                              lambda img, t, target, whole: seen.append((img, target)) or whole)
        self.assertEqual(seen, [(False, "y.md"), (True, "j.svg")])

    def test_slug(self):
        self.assertEqual(docs_common.github_slug("Why the numbers (can) be trusted!"),
                         "why-the-numbers-can-be-trusted")


class ReadmeBlocks(unittest.TestCase):
    def test_write_fills_blocks_and_check_passes_after(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            open(os.path.join(tmp, "docs/measurements/sweep_float.svg"), "w").close()
            stale = readme_blocks.sync(tmp, write=False)
            self.assertEqual(len(stale), 1)
            self.assertIn("lessons/01_demo/README.md: generated blocks are stale", stale[0])
            readme_blocks.sync(tmp, write=True)
            self.assertEqual(readme_blocks.sync(tmp, write=False), [])
            text = repo.read("lessons/01_demo/README.md")
            self.assertIn("```cpp\nconstexpr int index(int lane) { return 2 * lane; } "
                          "// bank (2 l) % 32\n```", text)
            self.assertNotIn("old text", text)
            self.assertIn("| float load | 2 | 2 | — | 2.00x | — |", text)
            self.assertIn("Model only: no GPU measurement is committed yet "
                          "(`docs/measurements/sweep_float.csv`)", text)
            self.assertIn("](../../docs/measurements/sweep_float.svg)", text)
            # Text outside the markers is untouched.
            self.assertTrue(text.startswith("# Lesson 01: A demo\n\n## Goal\n"))

    def test_a_lessons_answers_hold_its_block_and_name_its_chart(self):
        # Measured figures answer predictions: the block stands in solutions/NN/answers.md,
        # which travels alone (packed), so it names the chart rather than linking it.
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            open(os.path.join(tmp, "docs/measurements/sweep_float.svg"), "w").close()
            repo.write("solutions/01_demo/answers.md", """\
                # Lesson 01: answers

                <!-- measured:lesson01 -->
                <!-- /measured -->
                """)
            stale = readme_blocks.sync(tmp, write=False)
            self.assertTrue(any(r.startswith("solutions/01_demo/answers.md: generated blocks "
                                             "are stale") for r in stale), stale)
            readme_blocks.sync(tmp, write=True)
            text = repo.read("solutions/01_demo/answers.md")
            self.assertIn("| float load | 2 | 2 | — | 2.00x | — |", text)
            self.assertIn("Chart (float loads by stride: wavefronts and slowdown, model and "
                          "measured): `docs/measurements/sweep_float.svg`", text)
            self.assertNotIn("](", text)

    def test_measured_figures_come_from_the_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp, measured=True)
            open(os.path.join(tmp, "docs/measurements/sweep_float.svg"), "w").close()
            readme_blocks.sync(tmp, write=True)
            text = repo.read("lessons/01_demo/README.md")
            self.assertIn("| float load | 2 | 2 | 2.00 | 2.00x | 1.93x |", text)
            self.assertIn("Measured on NVIDIA H100 80GB HBM3 (sm_90, 132 SMs), 2026-11-22: "
                          "`bank-conflicts --type float --sweep 0:4 --csv`", text)

    def test_a_table_taken_with_a_solution_program_is_the_course_s_own_run(self):
        # The solution tree's lesson programs (transpose-bench-solution) read the reference
        # solutions, which a student repository has not: a README names such a run by what it
        # is. The student tree's programs (transpose-bench) read the student's lessons.
        def source_line(command):
            m = measurements.Measurement("docs/measurements/transpose.csv",
                                         {"device": H100, "date": "2026-11-23",
                                          "command": command}, [], [], [])
            return measurements.source_lines([m])[0]

        for command in ("transpose-bench-solution --csv",
                        "measuring-bench-solution --setups-csv FILE --latency-csv FILE"):
            with self.subTest(command=command):
                line = source_line(command)
                self.assertIn("by the course's own GPU checks", line)
                self.assertNotIn(command, line)
        self.assertIn(": `transpose-bench --csv` (`docs/measurements/transpose.csv`)",
                      source_line("transpose-bench --csv"))

    def test_errors_name_the_problem(self):
        cases = [
            ("<!-- measured:lesson09 -->\n<!-- /measured -->\n", "is declared nowhere"),
            ("<!-- measured:lesson01 -->\n", "has no <!-- /measured -->"),
            ("<!-- snippet:demo.hpp#nope -->\n<!-- /snippet -->\n", "has 0 '// [nope]' markers"),
            ("<!-- snippet:gone.hpp#index -->\n<!-- /snippet -->\n", "does not exist"),
        ]
        for block, words in cases:
            with self.subTest(block=block), tempfile.TemporaryDirectory() as tmp:
                repo = Repo(tmp)
                open(os.path.join(tmp, "docs/measurements/sweep_float.svg"), "w").close()
                repo.write("lessons/01_demo/README.md", "# Lesson 01: A demo\n\n" + block)
                with self.assertRaises(docs_common.DocsError) as e:
                    readme_blocks.sync(tmp, write=False)
                self.assertIn(words, str(e.exception))

    def test_a_stride_missing_from_the_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            repo.manifest("01_demo", "A demo", measured=[
                {"block": "lesson01", "table": "docs/measurements/sweep_float.csv", "strides": "9"}])
            with self.assertRaises(docs_common.DocsError) as e:
                readme_blocks.sync(tmp, write=False)
            self.assertIn("lessons/01_demo/lesson.json, measured[0]", str(e.exception))
            self.assertIn("no row for stride 9", str(e.exception))



def _case(name, labels, *lines, status="run"):
    out = "\n".join(["Running main() from gtest_main.cc", "[----------] Global test environment "
                     "set-up."] + list(lines) + ["[  PASSED  ] 1 test."])
    return (f'<testcase name="{name}" classname="{name}" time="0.5" status="{status}">'
            f'<properties><property name="cmake_labels" value="{labels}"/></properties>'
            f"<system-out>{out}</system-out></testcase>")


DEVICE_LINE = "[kit-device] NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"
H100 = "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)"


def _counters(what, load, model_load, store, model_store, requests):
    return (f"[kit-counters] {what}: load {load} wavefronts/request (model {model_load}), "
            f"store {store} (model {model_store}), requests {requests} (model {requests})")


def _slowdown(a, b, measured, model, fidelity, verdict="pass"):
    return (f"[kit-slowdown] '{a}' over '{b}': measured {measured}x model {model}x "
            f"fidelity {fidelity} warps/SM 64 ({verdict})")


def junit_report(device=True):
    """A small GPU fail-first report: lesson 03's demos in both trees, its exercise against
    its twin in both, a store pattern, a busy-GPU timing, a cut output, a sanitizer run and a
    kit test."""
    dev = [DEVICE_LINE] if device else []
    cases = [
        _case("student/lesson03/DemoCounters.EqualTheModel", "gpu;guard;lesson03;student", *dev,
              _counters("float tile[32][32], row 0", "1.00", "1.00", "1.00", "1.00", "512/4"),
              _counters("float tile[32][32], column 0", "32.00", "32.00", "4.00", "4.00",
                        "512/32"),
              _counters("float store, one word", "0.00", "0.00", "1.00", "1.00", "0/512"),
              "[kit-counters] float tile[3...",
              "[This part of the test output was removed since it exceeds the threshold of "
              "1024 bytes.]"),
        _case("student/lesson03/DemoSlowdown.Column", "gpu;guard;lesson03;perf;student", *dev,
              _slowdown("float tile[32][32], column 0", "float tile[32][32], row 0", "31.33",
                        "32.00", "0.979")),
        _case("student/lesson03/DemoSlowdown.Busy", "gpu;guard;lesson03;perf;student", *dev,
              _slowdown("float tile[32][33], column 0", "float tile[32][32], row 0", "1.00",
                        "1.00", "0.500", verdict="inconclusive")),
        _case("student/lesson03/ScoreRowsTrace.Counters", "gpu;guard;lesson03;student", *dev,
              _counters("score_rows 1280x96", "21.67", "21.67", "1.00", "1.00", "184320/5760"),
              _counters("score_rows_twin 1280x96", "1.00", "1.00", "1.00", "1.00",
                        "184320/5760"),
              _counters("score_rows 1000x77", "20.00", "20.00", "1.00", "1.00", "147456/4608")),
        _case("student/lesson03/ScoreRowsSlowdown.Model", "gpu;guard;lesson03;perf;student",
              *dev, _slowdown("score_rows", "score_rows_twin", "17.86", "21.04", "0.849")),
        _case("solution/lesson03/DemoCounters.EqualTheModel", "gpu;guard;lesson03;solution",
              *dev, _counters("float tile[32][32], row 0", "1.00", "1.00", "1.00", "1.00",
                              "512/4")),
        _case("solution/lesson03/DemoSlowdown.Column", "gpu;guard;lesson03;perf;solution",
              *dev, _slowdown("float tile[32][32], column 0", "float tile[32][32], row 0",
                              "30.64", "32.00", "0.958")),
        _case("solution/lesson03/ScoreRowsTrace.Counters", "gpu;guard;lesson03;solution", *dev,
              _counters("score_rows 1280x96", "1.00", "1.00", "1.00", "1.00", "184320/5760")),
        _case("solution/lesson03/ScoreRowsSlowdown.Model", "gpu;guard;lesson03;perf;solution",
              *dev, _slowdown("score_rows", "score_rows_twin", "1.00", "1.00", "1.000")),
        _case("solution/lesson03/memcheck/gpu_guard_demo_counters_test",
              "gpu;lesson03;sanitize;solution", *dev,
              _counters("float tile[32][32], row 0", "9.00", "9.00", "1.00", "1.00", "512/4")),
        _case("kit/CountersModel.Float", "gpu;kit", *dev,
              _counters("float stride 2", "2.00", "2.00", "1.00", "1.00", "512/4")),
        _case("student/lesson01/Banks.BankOfMatchesTheModel", "cpu;exercise;lesson01;student",
              "[  FAILED  ] Banks.BankOfMatchesTheModel", status="fail"),
    ]
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="(empty)" tests="12" '
            'timestamp="2026-11-23T03:43:39">\n' + "\n".join(cases) + "\n</testsuite>\n")


class LessonMeasurements(unittest.TestCase):
    """tools/docs/measurements.py lessons: the JUnit report of the GPU fail-first check ->
    docs/measurements/lessons.csv."""

    def test_trailing_shapes_are_not_part_of_the_name(self):
        import lesson_measurements
        for what in ("score_rows 1280x96", "transpose_tiled 256 x 256", "gemm_twin 300x200x77",
                     "sweep n=64"):
            self.assertNotRegex(lesson_measurements.base_name(what), r"\d")
        self.assertEqual(lesson_measurements.base_name("gemm_twin 300x200x77"), "gemm_twin")

    def run_command(self, tmp, report, *extra):
        junit = os.path.join(tmp, "failfirst-gpu.xml")
        with open(junit, "w", encoding="utf-8") as f:
            f.write(report)
        out = os.path.join(tmp, "docs/measurements/lessons.csv")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = measurements.main(["lessons", "--junit", junit, "-o", out, *extra])
        return rc, err.getvalue(), out

    def test_one_row_per_measured_thing(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, err, out = self.run_command(tmp, junit_report())
            self.assertEqual(rc, 0, err)
            m = read_measurement(tmp, "docs/measurements/lessons.csv")
            self.assertTrue(m.is_lessons)
            self.assertEqual(m.header["device"], H100)  # from the [kit-device] line
            self.assertEqual(m.header["date"], "2026-11-23")  # the report's timestamp
            self.assertEqual(m.header["command"], "cmake --workflow --preset gpu-check")
            rows = [(r["lesson"], r["tree"], r["kind"], r["what"]) for r in m.rows]
            self.assertEqual(rows, [
                ("03", "starter", "demo", "float tile[32][32], row 0"),
                ("03", "starter", "demo", "float tile[32][32], column 0 over row 0"),
                ("03", "starter", "demo", "float store, one word"),
                ("03", "starter", "exercise", "score_rows over score_rows_twin"),
                ("03", "starter", "exercise", "score_rows_twin 1280x96"),
                ("03", "solution", "exercise", "score_rows over score_rows_twin"),
            ])
            by = {(r["tree"], r["what"]): r for r in m.rows}
            # A demo measured in both trees is the starter's run; its counters sit on its
            # slowdown's row, and a load pattern leaves out the stores that fill its region.
            column = by[("starter", "float tile[32][32], column 0 over row 0")]
            self.assertEqual([column[c] for c in measurements.LESSON_COLUMNS[4:]],
                             ["32.00", "32.00", "", "", "32.00", "31.33", "0.979"])
            store = by[("starter", "float store, one word")]
            self.assertEqual([store[c] for c in measurements.LESSON_COLUMNS[4:8]],
                             ["", "", "1.00", "1.00"])
            # The first shape the report has, loads and stores both for a kernel.
            starter = by[("starter", "score_rows over score_rows_twin")]
            self.assertEqual([starter[c] for c in measurements.LESSON_COLUMNS[4:]],
                             ["21.67", "21.67", "1.00", "1.00", "21.04", "17.86", "0.849"])
            self.assertEqual(by[("solution", "score_rows over score_rows_twin")]["slowdown"],
                             "1.00")
            # Neither the busy GPU's timing, the sanitizer run nor the kit's tests.
            with open(out, encoding="utf-8") as f:
                text = f.read()
            self.assertNotIn("tile[32][33]", text)
            self.assertNotIn("9.00", text)
            self.assertNotIn("float stride 2", text)
            # The cut output is said, on the terminal and in the file.
            self.assertIn("1 measurement lines are not whole", err)
            self.assertIn("ctest cut the output of 1 GPU tests", err)
            self.assertIn("# note: ctest cut the output of 1 tests", text)

    def test_a_report_without_the_device_needs_device(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, err, out = self.run_command(tmp, junit_report(device=False))
            self.assertEqual(rc, 1)
            self.assertIn("has no [kit-device] line", err)
            self.assertIn("--device", err)
            self.assertFalse(os.path.exists(out))
            rc, err, out = self.run_command(tmp, junit_report(device=False), "--device", H100)
            self.assertEqual(rc, 0, err)
            m = read_measurement(tmp, "docs/measurements/lessons.csv")
            self.assertEqual(m.header["device"], H100)
            self.assertIn("the device was given on the command line", " ".join(m.notes))

    def test_reports_that_cannot_be_used(self):
        other = junit_report().replace("H100 80GB HBM3", "H200", 1)
        no_gpu = junit_report().replace(
            DEVICE_LINE, "[kit-device] none (model only): no usable GPU: no driver")
        cpu_only = ('<testsuite name="x">' + _case("student/lesson01/Banks.Bank",
                                                   "cpu;lesson01;student", DEVICE_LINE) +
                    "</testsuite>")
        cases = [
            (other, [], "ran on more than one GPU"),
            (junit_report(), ["--device", "NVIDIA H200 (sm_90, 132 SMs)"],
             "the report says its GPU was 'NVIDIA H100"),
            (no_gpu, [], "ran without a usable GPU"),
            (cpu_only, [], "no [kit-counters] or [kit-slowdown] line"),
            ("<testsuite><testcase", [], "not a JUnit report"),
            ("<html/>", [], "not a JUnit report (the root element is <html>)"),
        ]
        for report, extra, words in cases:
            with self.subTest(words=words), tempfile.TemporaryDirectory() as tmp:
                rc, err, _ = self.run_command(tmp, report, *extra)
                self.assertEqual(rc, 1)
                self.assertIn(words, err)
        with tempfile.TemporaryDirectory() as tmp, \
                contextlib.redirect_stderr(io.StringIO()) as err:
            rc = measurements.main(["lessons", "--junit", os.path.join(tmp, "none.xml"),
                                    "-o", "-"])
            self.assertEqual(rc, 1)
            self.assertIn("cannot read the JUnit report", err.getvalue())

    def test_a_lesson_block_shows_that_lesson_only(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            report = junit_report().replace("lesson03", "lesson01", 2)  # the first demo test
            self.assertEqual(self.run_command(tmp, report)[0], 0)
            repo.manifest("01_demo", "A demo", measured=[
                {"block": "lesson01", "table": "docs/measurements/lessons.csv",
                 "rows": ["lesson=01"]}])
            repo.write("docs/measured.txt", "site     table docs/measurements/lessons.csv\n")
            repo.write("docs/site.md", "# All\n\n<!-- measured:site -->\n<!-- /measured -->\n")
            repo.write("lessons/01_demo/README.md",
                       "# Lesson 01: A demo\n\n<!-- measured:lesson01 -->\n<!-- /measured -->\n")
            readme_blocks.sync(tmp, write=True)
            text = repo.read("lessons/01_demo/README.md")
            self.assertIn("| demo | `float tile[32][32], row 0` | 1.00 / 1.00 | — | — | — |",
                          text)
            self.assertNotIn("score_rows", text)
            # A student repository has neither the gpu-check preset nor the solutions: the
            # line names the run, and the file keeps the command.
            self.assertIn(f"Measured on {H100}, 2026-11-23, by the course's own GPU checks "
                          "(the command, in `docs/measurements/lessons.csv`, needs the course's "
                          "reference solutions).", text)
            self.assertNotIn("gpu-check", text)
            site = repo.read("docs/site.md")
            self.assertIn("| 03 | exercise, starter | `score_rows` over `score_rows_twin` | "
                          "21.67 / 21.67 | 1.00 / 1.00 | 21.04x / 17.86x | 0.849 |", site)
            self.assertEqual(readme_blocks.sync(tmp, write=False), [])

    def test_row_filters_in_the_manifest(self):
        self.assertEqual(docs_common.parse_filters(["lesson=03", "kind=demo"]),
                         {"lesson": "03", "kind": "demo"})
        lessons = "docs/measurements/lessons.csv"
        cases = [
            ({"table": lessons, "rows": ["lesson=07"]}, "no row has lesson=07"),
            ({"table": lessons, "rows": ["chapter=01"]}, "no column 'chapter'"),
            ({"table": lessons, "rows": ["lesson=01", "lesson=02"]}, "filtered twice"),
            ({"table": lessons, "strides": "1,2"}, "give no strides"),
            ({"table": "docs/measurements/sweep_float.csv", "rows": ["type=float"]},
             "is a stride sweep"),
            ({"table": lessons, "rows": ["lesson=01", "=x"]}, "'=x' is not a row filter"),
        ]
        for entry, words in cases:
            with self.subTest(entry=entry), tempfile.TemporaryDirectory() as tmp:
                repo = Repo(tmp)
                self.assertEqual(self.run_command(tmp, junit_report())[0], 0)
                repo.manifest("01_demo", "A demo", measured=[{"block": "lesson01", **entry}])
                with self.assertRaises(docs_common.DocsError) as e:
                    readme_blocks.sync(tmp, write=False)
                self.assertIn("lessons/01_demo/lesson.json, measured[0]", str(e.exception))
                self.assertIn(words, str(e.exception))


COURSE_README = """\
# The course

## Lessons

<!-- lesson-table -->
| # | lesson | what it teaches |
|---|---|---|
| 01 | [Old title](lessons/01_demo/README.md) | banks |
<!-- /lesson-table -->

## Tools
"""


class LessonTable(unittest.TestCase):
    def test_check_names_each_stale_lesson_and_write_fixes_the_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            repo.write("README.md", COURSE_README)
            problems = readme_blocks.sync_lesson_table(tmp, write=False)
            self.assertEqual(len(problems), 2, problems)
            self.assertIn("README.md: lesson 01: the lesson table says '| 01 | [Old title]"
                          "(lessons/01_demo/README.md) | banks |', its manifest '| 01 | [A demo]"
                          "(lessons/01_demo/README.md) | a demo |'", problems[0])
            self.assertIn("README.md: lesson 02 (Next) is not in the lesson table", problems[1])
            self.assertEqual(readme_blocks.sync_lesson_table(tmp, write=True),
                             ["README.md: lesson table rewritten"])
            text = repo.read("README.md")
            self.assertIn("| 01 | [A demo](lessons/01_demo/README.md) | a demo |\n"
                          "| 02 | [Next](lessons/02_next/README.md) | next |\n"
                          "<!-- /lesson-table -->\n\n## Tools\n", text)
            self.assertEqual(readme_blocks.sync_lesson_table(tmp, write=False), [])
            # What a lesson teaches is its manifest's: the table follows it.
            repo.manifest("02_next", "Next", teaches="more")
            self.assertEqual(len(readme_blocks.sync_lesson_table(tmp, write=False)), 1)

    def test_a_lesson_the_course_does_not_have_and_no_table(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            repo.write("README.md", COURSE_README.replace(
                "| 01 | [Old title](lessons/01_demo/README.md) | banks |",
                "| 01 | [A demo](lessons/01_demo/README.md) | a demo |\n"
                "| 02 | [Next](lessons/02_next/README.md) | next |\n| 09 | [Old title](x) | y |"))
            self.assertEqual(readme_blocks.sync_lesson_table(tmp, write=False),
                             ["README.md: the lesson table lists lesson 09, which the course does "
                              "not have; `./course-admin regenerate` rewrites it"])
            repo.write("README.md", "# The course\n")
            with self.assertRaises(docs_common.DocsError) as e:
                readme_blocks.sync(tmp, write=False)
            self.assertIn("README.md has no lesson table", str(e.exception))


LESSON_README = """\
# Lesson 01: A demo

## Goal
## Background
## Predict
## Your task
## Run the tests
## Hints

Take them one at a time: `./course hint 01`.

## What you should see
"""


class LessonPages(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.root = self._tmp.name
        self.repo = Repo(self.root)
        self.repo.write("lessons/01_demo/README.md", LESSON_README)
        self.repo.write("lessons/01_demo/hints.md", "# Lesson 01 hints\n\n## Hint 1\na nudge\n\n"
                                                    "## Hint 2\nthe idea\n")
        self.repo.write("lessons/02_next/README.md",
                        LESSON_README.replace("01", "02").replace("A demo", "Next"))
        self.repo.write("lessons/02_next/hints.md", "## Hint 1\none\n## Hint 2\ntwo\n")

    def tearDown(self):
        self._tmp.cleanup()

    def test_the_contract_passes(self):
        self.assertEqual(lesson_pages.check(self.root), ([], []))
        self.assertEqual(lesson_pages.main(["check", "--root", self.root]), 0)

    def test_each_problem_is_named(self):
        self.repo.write("lessons/01_demo/README.md", LESSON_README.replace(
            "## Predict\n", "").replace("`./course hint 01`", "below")
            .replace("## What you should see", "### Hint 1\nthe answer\n\n## What you should see"))
        self.repo.write("lessons/02_next/hints.md", "## Hint 1\none\n## Hint 3\nthree\n")
        problems, old = lesson_pages.check(self.root)
        self.assertEqual(old, [])
        self.assertEqual(len(problems), 4, problems)
        self.assertIn("lessons/01_demo/README.md: the '##' headings are", problems[0])
        self.assertEqual("lessons/01_demo/README.md: '## Hints' holds hints; they belong in "
                         "hints.md", problems[1])
        self.assertIn("lessons/01_demo/README.md: '## Hints' should say how to take the hints",
                      problems[2])
        self.assertIn("lessons/02_next/hints.md: the hints are numbered [1, 3]", problems[3])
        self.assertEqual(lesson_pages.main(["check", "--root", self.root]), 1)

    def test_the_readme_does_not_point_at_the_hints_file(self):
        self.repo.write("lessons/01_demo/README.md", LESSON_README.replace(
            "`./course hint 01`.", "`./course hint 01` (they are in [hints.md](hints.md))."))
        problems, _ = lesson_pages.check(self.root)
        self.assertEqual(problems, ["lessons/01_demo/README.md: names hints.md; the hints are "
                                    "taken one at a time (`./course hint 01`), so the README does "
                                    "not point at all of them"])

    def test_the_first_line_is_the_manifests_title(self):
        self.repo.manifest("01_demo", "A better demo")
        problems, _ = lesson_pages.check(self.root)
        self.assertEqual(problems, ["lessons/01_demo/README.md: the first line is '# Lesson 01: "
                                    "A demo', not '# Lesson 01: A better demo' (the title is the "
                                    "manifest's, lessons/01_demo/lesson.json)"])
        os.remove(os.path.join(self.root, "lessons/01_demo/lesson.json"))
        problems, _ = lesson_pages.check(self.root)
        self.assertEqual(len(problems), 1)
        self.assertIn("lessons/01_demo/lesson.json: no such file", problems[0])

    def test_hints_in_the_readme_and_no_hints_file(self):
        os.remove(os.path.join(self.root, "lessons/02_next/hints.md"))
        problems, old = lesson_pages.check(self.root)
        self.assertEqual(problems, ["lessons/02_next/hints.md: missing (the lesson's graded hints)"])
        # The form before hints.md: named, and the check skips rather than fails.
        self.repo.write("lessons/02_next/README.md", "# Lesson 02: Next\n\n## Hints\n\n"
                                                     "### Hint 1\none\n### Hint 2\ntwo\n")
        problems, old = lesson_pages.check(self.root)
        self.assertEqual(problems, [])
        self.assertIn("lessons/02_next: its hints are still in README.md", old[0])
        self.assertEqual(lesson_pages.main(["check", "--root", self.root]), lesson_pages.SKIPPED)


class Filter(unittest.TestCase):
    def test_lesson_readme_becomes_a_page(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            out = doxygen_filter.filter_markdown(tmp, "lessons/01_demo/README.md",
                                                 repo.read("lessons/01_demo/README.md"))
            lines = out.split("\n")
            self.assertEqual(lines[0], "# Lesson 01: A demo {#lesson01}")
            self.assertIn("## Goal {#lesson01_goal}", lines)
            self.assertIn("[the next lesson](@ref lesson02_goal)", out)
            self.assertIn("[the kit](@ref config.hpp)", out)
            self.assertIn("\nthe demo, [above](#lesson01_goal)", out)  # no source browser
            self.assertIn("`[not a link](x.md)`", out)
            self.assertIn("![Stride 2](lessons/01_demo/images/stride_2.svg)", out)
            self.assertIn("![in code](images/nothing.svg)\n## Not a heading", out)

    def test_the_answers_are_a_page_of_their_own_linked_at_the_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            page = doxygen_filter.filter_markdown(tmp, "lessons/01_demo/README.md",
                                                  repo.read("lessons/01_demo/README.md"))
            self.assertNotIn("answers", page)  # no answers yet: no link
            repo.write("solutions/01_demo/answers.md", "# Lesson 01: answers\n\n## Predictions\n"
                                                       "Four. Back to [the lesson](../../lessons/"
                                                       "01_demo/README.md).\n")
            page = doxygen_filter.filter_markdown(tmp, "lessons/01_demo/README.md",
                                                  repo.read("lessons/01_demo/README.md"))
            tail = page.rstrip().split("\n")
            self.assertEqual(tail[-1], '\\subpage lesson01_answers "Lesson 01: A demo: the answers"')
            self.assertIn("**The answers.**", "\n".join(tail[-4:]))
            answers = doxygen_filter.filter_markdown(tmp, "solutions/01_demo/answers.md",
                                                     repo.read("solutions/01_demo/answers.md"))
            lines = answers.split("\n")
            self.assertEqual(lines[0], "# Lesson 01: answers {#lesson01_answers}")
            self.assertTrue(lines[2].startswith("**These are the answers** of [Lesson 01: A demo]"
                                                "(@ref lesson01)"), lines[2])
            self.assertIn("## Predictions {#lesson01_answers_predictions}", lines)
            self.assertIn("[the lesson](@ref lesson01)", answers)
            # A file that is no lesson's answers is no page.
            self.assertIsNone(doxygen_filter.page_of(tmp, "solutions/09_none/answers.md"))

    def test_source_url_links_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            out = doxygen_filter.filter_markdown(tmp, "lessons/01_demo/README.md",
                                                 repo.read("lessons/01_demo/README.md"),
                                                 "https://example.org/course/blob/main")
            self.assertIn("[the demo](https://example.org/course/blob/main/lessons/01_demo/"
                          "demo.hpp)", out)

    def test_the_gallery_shows_no_answer(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            facts = repo.facts("01_demo")
            facts["pictures"].append({"svg": "solutions/01_demo/images/answer.svg", "bank_map":
                                      ["--type", "float", "--stride", "33", "--title",
                                       "The answer"]})
            repo.manifest("01_demo", "A demo", pictures=facts["pictures"])
            shown = "\n".join(doxygen_filter.gallery(tmp))
            self.assertIn("lessons/01_demo/images/stride_2.svg", shown)
            self.assertNotIn("The answer", shown)
            self.assertNotIn("solutions/", shown)

    def test_lesson_lists(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            main = doxygen_filter.filter_markdown(tmp, "docs/mainpage.md",
                                                  repo.read("docs/mainpage.md"))
            self.assertIn("# Course {#mainpage}", main)
            self.assertIn("1. [Lesson 01: A demo](@ref lesson01)\n2. [Lesson 02: Next](@ref "
                          "lesson02)", main)
            index = doxygen_filter.filter_markdown(tmp, "docs/lessons.md",
                                                   repo.read("docs/lessons.md"))
            self.assertIn("1. \\subpage lesson01\n2. \\subpage lesson02", index)


class Pictures(unittest.TestCase):
    @unittest.skipUnless(BANK_MAP, "needs --bank-map")
    def test_check_finds_stale_missing_and_hand_drawn_pictures(self):
        with tempfile.TemporaryDirectory() as tmp:
            Repo(tmp)
            problems = pictures.check(tmp, BANK_MAP)
            self.assertIn("lessons/01_demo/images/stride_2.svg: missing "
                          "(lessons/01_demo/lesson.json, pictures[0])", problems)
            done = pictures.generate(tmp, BANK_MAP)
            self.assertEqual(done, ["lessons/01_demo/images/stride_2.svg",
                                    "docs/measurements/sweep_float.svg"])
            self.assertEqual(pictures.check(tmp, BANK_MAP), [])
            path = os.path.join(tmp, "lessons/01_demo/images/stride_2.svg")
            with open(path, "a") as f:
                f.write("<!-- edited -->\n")
            with open(os.path.join(tmp, "lessons/01_demo/images/drawn.svg"), "w") as f:
                f.write("<svg/>")
            problems = pictures.check(tmp, BANK_MAP)
            self.assertIn("lessons/01_demo/images/stride_2.svg: differs from what is drawn now "
                          "(lessons/01_demo/lesson.json, pictures[0])", problems)
            self.assertIn("lessons/01_demo/images/drawn.svg: not drawn by any picture of the "
                          "`pictures` of lessons/01_demo/lesson.json", problems)

    @unittest.skipUnless(BANK_MAP, "needs --bank-map")
    def test_the_answers_pictures_live_with_the_solutions(self):
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as html:
            repo = Repo(tmp)
            facts = repo.facts("01_demo")
            facts["pictures"].append({"svg": "solutions/01_demo/images/answer.svg",
                                      "bank_map": ["--type", "float", "--stride", "4"]})
            repo.manifest("01_demo", "A demo", pictures=facts["pictures"])
            pictures.generate(tmp, BANK_MAP)
            self.assertFalse(os.path.exists(os.path.join(tmp, "solutions")),
                             "no solutions here (a student repository): no answers' pictures")
            self.assertEqual(pictures.check(tmp, BANK_MAP), [])
            repo.write("solutions/01_demo/answers.md", "# Lesson 01: answers\n\n"
                       "![4 wavefronts](images/answer.svg)\n![gone](images/gone.svg)\n")
            self.assertIn("solutions/01_demo/images/answer.svg: missing "
                          "(lessons/01_demo/lesson.json, pictures[1])", pictures.check(tmp, BANK_MAP))
            pictures.generate(tmp, BANK_MAP)
            repo.write("solutions/01_demo/images/drawn.svg", "<svg/>")
            problems = pictures.check(tmp, BANK_MAP)
            self.assertIn("solutions/01_demo/answers.md: uses 'images/gone.svg', which does not "
                          "exist (add it to the `pictures` of lessons/01_demo/lesson.json)",
                          problems)
            self.assertIn("solutions/01_demo/images/drawn.svg: not drawn by any picture of the "
                          "`pictures` of lessons/01_demo/lesson.json", problems)
            self.assertEqual(len(problems), 2, problems)
            self.assertEqual(pictures.site(tmp, BANK_MAP, html), [])
            self.assertFalse(os.path.exists(os.path.join(html, "solutions")),
                             "the site shows no answer")

    @unittest.skipUnless(BANK_MAP, "needs --bank-map")
    def test_model_columns_must_match_the_model(self):
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            self.assertEqual(pictures.check_measurements(tmp, BANK_MAP), [])
            repo.write("docs/measurements/sweep_float.csv",
                       repo.read("docs/measurements/sweep_float.csv").replace(
                           "float,4,4,,,4.000", "float,4,3,,,3.000"))
            self.assertEqual(pictures.check_measurements(tmp, BANK_MAP),
                             ["docs/measurements/sweep_float.csv: stride 4: model_wavefronts is 3, "
                              "the bank model says 4 now (take the file again with "
                              "bank-conflicts)"])

    @unittest.skipUnless(BANK_MAP, "needs --bank-map")
    def test_model_columns_of_a_pattern_sweep(self):
        # bank-conflicts --index 'l * s + 32 * l': the type column names the pattern.
        jagged = ("# device: none (model only)\n# date: 2026-11-23\n# command: bank-conflicts\n"
                  "type,stride,model_wavefronts,counter_wavefronts,slowdown,model_slowdown\n"
                  "float [l * s + 32 * l],0,32,,,32.000\n"
                  "float [l * s + 32 * l],2,2,,,2.000\n")
        with tempfile.TemporaryDirectory() as tmp:
            repo = Repo(tmp)
            repo.write("docs/measurements/jagged.csv", jagged)
            self.assertEqual(pictures.check_measurements(tmp, BANK_MAP), [])
            repo.write("docs/measurements/jagged.csv", jagged.replace(",0,32,,,32.000", ",0,1,,,1.000"))
            self.assertEqual(pictures.check_measurements(tmp, BANK_MAP),
                             ["docs/measurements/jagged.csv: stride 0: model_wavefronts is 1, "
                              "the bank model says 32 now (take the file again with "
                              "bank-conflicts)"])

    @unittest.skipUnless(BANK_MAP, "needs --bank-map")
    def test_site_gets_every_picture(self):
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as html:
            Repo(tmp)
            self.assertEqual(pictures.site(tmp, BANK_MAP, html), [])
            for path in ("lessons/01_demo/images/stride_2.svg",
                         "docs/measurements/sweep_float.svg"):
                self.assertTrue(os.path.isfile(os.path.join(html, path)), path)


class Charts(unittest.TestCase):
    def test_deterministic_svg_with_both_series(self):
        with tempfile.TemporaryDirectory() as tmp:
            Repo(tmp, measured=True)
            sweep = read_sweep(tmp, "docs/measurements/sweep_float.csv")
            svg = chart(sweep)
            self.assertEqual(svg, chart(read_sweep(tmp, "docs/measurements/sweep_float.csv")))
            root = ET.fromstring(svg)
            ns = "{http://www.w3.org/2000/svg}"
            tips = [c.find(ns + "title").text for c in root.iter(ns + "circle")
                    if c.find(ns + "title") is not None]
            self.assertIn("stride 2: 2.00", tips)  # counters
            self.assertIn("stride 2: 1.93x", tips)  # timing
            texts = " ".join(t.text or "" for t in root.iter(ns + "text"))
            for words in ("stride (elements)", "wavefronts per request", "slowdown",
                          "bank model", "hardware counters", "measured on NVIDIA H100"):
                self.assertIn(words, texts)


class MainPage(unittest.TestCase):
    def test_main_page_gives_the_readme_commands(self):
        root = docs_common.repo_root()
        with open(os.path.join(root, "docs/mainpage.md"), encoding="utf-8") as f:
            main = f.read()
        with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        commands = re.findall(r"^(cmake --workflow --preset \S+)$", main, re.M)
        self.assertGreaterEqual(len(commands), 2)
        for command in commands:
            self.assertIn(command, readme, "the main page's commands must be the README's")


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
