"""loop_bench.py without timing anything: the steps it would time (--dry-run), on a machine with
and without a GPU, and its error paths. A timed run builds the course for minutes: it is run by
hand, never here."""

from __future__ import annotations

import unittest

from course_testing import ROOT, ToolTest, make_course


class DryRun(ToolTest):
    def bench(self, *args: str):
        return self.run_tool("course.ci.loop_bench", "--source", ROOT, *args)

    def with_gpu(self, name: str = "NVIDIA H100 80GB HBM3") -> None:
        smi = self.bin / "nvidia-smi"
        smi.write_text(f"#!/bin/sh\necho '{name}'\n")
        smi.chmod(0o755)

    def steps(self, proc) -> list:
        return [line.split(":", 1)[0] for line in proc.stdout.splitlines()]

    def test_without_a_gpu_the_cpu_loop_and_progress(self):
        self.env["PATH"] = str(self.bin)  # no nvidia-smi
        proc = self.bench("--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.steps(proc), [
            "first build", "cpu verdict, lesson 01, exercise.hpp edited",
            "cpu verdict, lesson 03, exercise.hpp edited",
            "cpu verdict, lesson 05, exercise.cu edited", "progress, lesson 01 edited"])
        self.assertIn("first build: cmake --workflow --preset student (goal 30 s)", proc.stdout)
        self.assertIn("lesson 03, exercise.hpp edited: edit lessons/03_stride_32/exercise.hpp; "
                      "./course test 03 --cpu (goal 2 s)", proc.stdout)
        # An edit of a kernel file runs the kernel on the CPU too: its goal is longer.
        self.assertIn("./course test 05 --cpu (goal 5 s) [the median of 3]", proc.stdout)
        self.assertIn("first build: cmake --workflow --preset student (goal 30 s)\n",
                      proc.stdout)  # built once
        proc = self.bench("--dry-run", "--repeat", "1")
        self.assertNotIn("median", proc.stdout)
        self.assertOneLineError(self.bench("--dry-run", "--repeat", "0"), 2, "out of range")

    def test_with_a_gpu_the_gpu_verdict_too(self):
        self.with_gpu()
        proc = self.bench("--dry-run", "--gpu-edit", "5:exercise.hpp")
        self.assertIn("first build: cmake --workflow --preset student (goal 90 s)", proc.stdout)
        self.assertIn("gpu verdict, lesson 05, exercise.hpp edited: edit "
                      "lessons/05_padded_transpose/exercise.hpp; ./course test 05 (goal 10 s)",
                      proc.stdout)
        proc = self.bench("--dry-run", "--no-gpu")
        self.assertNotIn("gpu verdict", proc.stdout)

    def test_other_steps_can_be_timed(self):
        proc = self.bench("--dry-run", "--edit", "06:exercise.cu", "--first-build",
                          "cmake --preset student")
        self.assertIn("first build: cmake --preset student (goal", proc.stdout)
        self.assertEqual([s for s in self.steps(proc) if s.startswith("cpu")],
                         ["cpu verdict, lesson 06, exercise.cu edited"])

    def test_a_row_names_what_the_build_compiled(self):
        import os
        import time
        from course.ci import loop_bench
        build = self.tmp / "build"
        (build / "tests").mkdir(parents=True)
        old, new = build / "tests" / "old.cxx.o", build / "tests" / "unity_0_cxx.cxx.o"
        old.write_text("")
        os.utime(old, (time.time() - 60, time.time() - 60))
        since = time.time() - 1
        new.write_text("")
        (build / "CMakeCache.txt").write_text("")
        self.assertEqual(loop_bench.compiled_since(build, since), ["unity_0_cxx.cxx"])
        self.assertEqual(loop_bench.compiled_since(self.tmp / "none", since), [])
        step = loop_bench.Step("cpu verdict", ["./course test 03 --cpu"], goal=2.0)
        rows = [(step, 1.5, ["unity_0_cxx.cxx"]), (step, 2.5, []), (step, None, [])]
        text = loop_bench.table(rows, 2, None)
        self.assertIn("| cpu verdict | `./course test 03 --cpu` | 1 (unity_0_cxx.cxx) | 1.5 | 2 | "
                      "yes |", text)
        self.assertIn("| 0 | 2.5 | 2 | no |", text)
        self.assertIn("| failed | 2 | failed |", text)
        csv_path = self.tmp / "loop.csv"
        loop_bench.write_csv(csv_path, rows, 2, "NVIDIA H100 80GB HBM3")
        lines = csv_path.read_text().splitlines()
        self.assertEqual(lines[0], "# device: NVIDIA H100 80GB HBM3, 2 core(s)")
        self.assertIn("step,command,compiled,seconds,goal,within", lines)
        self.assertIn("cpu verdict,./course test 03 --cpu,unity_0_cxx.cxx,1.5,2,yes", lines)

    def test_errors(self):
        self.assertOneLineError(self.bench("--dry-run", "--edit", "99:exercise.hpp"), 2,
                                "there is no lesson 99")
        self.assertOneLineError(self.bench("--dry-run", "--edit", "x3:exercise.hpp"), 2,
                                "not a lesson number")
        self.assertOneLineError(self.bench("--dry-run", "--edit", "03"), 2, "is not NN:FILE")
        self.assertOneLineError(self.bench("--dry-run", "--edit", "03:nothing.hpp"), 2,
                                "lesson 03 has no nothing.hpp")
        plain = make_course(self.tmp / "plain")
        self.assertOneLineError(self.run_tool("course.ci.loop_bench", "--source", plain, "--dry-run"), 2,
                                "is not the course (no CMakePresets.json)")
        self.assertOneLineError(self.bench("--time-limit", "5"), 2, "unrecognized arguments")


if __name__ == "__main__":
    unittest.main()
