#!/usr/bin/env python3
"""CPU tests of the reliability scripts: bad arguments exit 2 with one line; a machine without
a GPU (no nvidia-smi on PATH) or without compute-sanitizer exits 77, the ctest convention for
"skipped"; a sanitizer run is judged on its findings alone (a stand-in compute-sanitizer and
nvidia-smi play the GPU machine)."""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
import sanitizer

# A stand-in compute-sanitizer: prints what FAKE_SANITIZER_OUTPUT says and exits with
# FAKE_SANITIZER_EXIT, as the real one does after running the program.
FAKE_SANITIZER = """#!/bin/sh
printf '%b' "$FAKE_SANITIZER_OUTPUT"
exit "$FAKE_SANITIZER_EXIT"
"""
FAKE_SMI = """#!/bin/sh
echo "NVIDIA Stand-in GPU"
"""


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

    def test_kernel_code_diff_bad_usage(self):
        self.one_line_error(run("kernel_code_diff.py", "--before", "no-such-revision-or-folder"),
                            "is neither a folder nor a revision")
        self.one_line_error(run("kernel_code_diff.py", "--before", str(ROOT), "--lessons", "99"),
                            "has no lesson 99")

    @unittest.skipUnless(shutil.which("nvcc") or Path("/usr/local/cuda/bin/nvcc").exists(),
                         "needs nvcc")
    def test_kernel_code_diff_of_a_tree_with_itself(self):
        p = run("kernel_code_diff.py", "--before", str(ROOT), "--lessons", "05")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"solution_05_padded_transpose_exercise\.cubin: identical "
                                   r"\(2 kernel\(s\)")

    def test_no_gpu_is_a_skip(self):
        empty = tempfile.mkdtemp(dir=self._tmp.name)
        p = run("repeat_suites.py", "--build-dir", self.build, path=empty)
        self.assertEqual(p.returncode, 77, p.stdout + p.stderr)
        self.assertIn("skipped: no GPU", p.stdout)

    def test_suite_times_bad_usage(self):
        course = HERE.parents[1]
        self.one_line_error(run("suite_times.py", "--source", self.nowhere, "--work", self.build),
                            "is not the course (no CMakePresets.json)")
        self.one_line_error(run("suite_times.py", "--source", course, "--work", self.build,
                                "--steps", "student,lunch"), "unknown step(s) lunch")
        empty = tempfile.mkdtemp(dir=self._tmp.name)
        p = run("suite_times.py", "--source", course, "--work", self.build, path=empty)
        self.assertEqual(p.returncode, 77, p.stdout + p.stderr)
        self.assertIn("skipped: nvidia-smi not found", p.stdout)

    def test_suite_times_keeps_the_rows_of_steps_not_measured_now(self):
        import suite_times
        table = self.build / "times.csv"
        suite_times.write_csv(table, "GPU A", {"gpu-check": 100.0, "sanitize": 50.0}, "0,1")
        suite_times.write_csv(table, "GPU A", {"student": 80.0}, "0,1")
        rows = [line for line in table.read_text().splitlines() if not line.startswith("#")]
        self.assertEqual(rows, ["step,seconds,goal_seconds",
                                '"first `cmake --workflow --preset student` (taskset -c 0,1)",80.0,90',
                                '"`cmake --workflow --preset gpu-check` test step",100.0,150',
                                '"`cmake --build build/gpu-check --target sanitize`",50.0,120'])
        self.assertIn("# note: the rows of gpu-check, sanitize are kept from an earlier run",
                      table.read_text())
        # Another device: nothing kept.
        suite_times.write_csv(table, "GPU B", {"student": 81.0}, "0,1")
        self.assertEqual(len([x for x in table.read_text().splitlines() if x.startswith('"')]), 1)


class Judge(unittest.TestCase):
    """The classification of one finished run."""

    def test_a_finding_is_named(self):
        text = ("========= Invalid __global__ read of size 4 bytes\n"
                "=========     at transpose_tile_kernel+0x1f0\n========= ERROR SUMMARY: 1 error\n")
        o = sanitizer.judge("memcheck", sanitizer.FINDINGS_EXIT_CODE, text)
        self.assertEqual(o.kind, "findings")
        self.assertEqual(o.findings, 1)
        self.assertIn("Invalid __global__ read", o.first)

    def test_hazards_are_findings(self):
        o = sanitizer.judge("racecheck", sanitizer.FINDINGS_EXIT_CODE,
                            "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)")
        self.assertEqual((o.kind, o.findings), ("findings", 2))

    def test_failing_tests_are_not_findings(self):
        o = sanitizer.judge("memcheck", 1, "[  FAILED  ] Reverse.Blocks\n"
                                           "========= ERROR SUMMARY: 0 errors\n")
        self.assertEqual(o.kind, "tests failed")
        self.assertFalse(o.is_finding)

    def test_clean_no_kernels_and_no_verdict(self):
        self.assertEqual(sanitizer.judge("racecheck", 0, "========= RACECHECK SUMMARY: 0 hazards "
                                                         "displayed (0 errors, 0 warnings)").kind,
                         "clean")
        self.assertEqual(sanitizer.judge("memcheck", 0, sanitizer.NO_CUDA).kind, "no kernels")
        self.assertEqual(sanitizer.judge("memcheck", 139, "Segmentation fault").kind,
                         "did not finish")


class Exclusions(unittest.TestCase):
    """racecheck leaves out the tests that race on purpose, whatever filter the run has."""

    def test_the_negative_part_of_the_filter(self):
        racy = next(iter(sanitizer.RACECHECK_EXCLUDE))
        self.assertEqual(sanitizer.with_exclusions("racecheck", ["p", "--gtest_filter=A.B:C.D"]),
                         ["p", f"--gtest_filter=A.B:C.D-{racy}"])
        self.assertEqual(sanitizer.with_exclusions("racecheck", ["p", "--gtest_filter=-X.Y"]),
                         ["p", f"--gtest_filter=-X.Y:{racy}"])
        self.assertEqual(sanitizer.with_exclusions("racecheck", ["p"]),
                         ["p", f"--gtest_filter=-{racy}"])
        self.assertEqual(sanitizer.with_exclusions("memcheck", ["p", "--gtest_filter=A.B"]),
                         ["p", "--gtest_filter=A.B"])


class SanitizerTest(unittest.TestCase):
    """sanitizer_test.py, the suites' sanitizer tests, with stand-ins for the GPU machine."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.bin = Path(self._tmp.name)
        for name, text in (("compute-sanitizer", FAKE_SANITIZER), ("nvidia-smi", FAKE_SMI)):
            f = self.bin / name
            f.write_text(text)
            f.chmod(f.stat().st_mode | stat.S_IEXEC)

    def tearDown(self):
        self._tmp.cleanup()

    def run_test(self, output, exit_code, path=None):
        env = dict(os.environ, PATH=path or str(self.bin),
                   CUDA_HOME=str(self.bin / "nowhere"), FAKE_SANITIZER_OUTPUT=output,
                   FAKE_SANITIZER_EXIT=str(exit_code))
        return subprocess.run([sys.executable, str(HERE / "sanitizer_test.py"), "--tool", "memcheck",
                               "--name", "student/lesson05/memcheck/gpu_guard_transpose", "--",
                               "/bin/true", "--gtest_filter=A.B"],
                              capture_output=True, text=True, timeout=60, env=env)

    def test_findings_fail_with_the_first_one(self):
        p = self.run_test("========= Invalid __global__ read of size 4 bytes\n"
                          "========= ERROR SUMMARY: 1 error\n", sanitizer.FINDINGS_EXIT_CODE)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("memcheck found 1 problem(s)", p.stdout)
        self.assertIn("Invalid __global__ read", p.stdout)

    def test_failing_tests_alone_pass(self):
        p = self.run_test("[  FAILED  ] A.B\n========= ERROR SUMMARY: 0 errors\n", 1)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("0 findings", p.stdout)
        self.assertIn("own tests failed", p.stdout)

    def test_clean(self):
        p = self.run_test("[  PASSED  ] 1 test.\n========= ERROR SUMMARY: 0 errors\n", 0)
        self.assertEqual(p.returncode, 0, p.stdout)

    def test_no_sanitizer_or_no_gpu_skips_with_the_reason(self):
        empty = tempfile.mkdtemp(dir=self._tmp.name)
        p = self.run_test("", 0, path=empty)
        self.assertEqual(p.returncode, 77, p.stdout)
        self.assertIn("compute-sanitizer not found", p.stdout)
        (self.bin / "nvidia-smi").unlink()
        p = self.run_test("", 0, path=str(self.bin))
        self.assertEqual(p.returncode, 77, p.stdout)
        self.assertIn("no usable GPU", p.stdout)

    def test_no_summary_is_no_verdict(self):
        p = self.run_test("Segmentation fault\n", 139)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("without the sanitizer's summary", p.stdout)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
