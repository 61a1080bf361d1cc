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
        proc = self.bench("--dry-run", "--lesson", "3")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.steps(proc), ["first build", "cpu verdict", "progress"])
        self.assertIn("first build: cmake --workflow --preset student", proc.stdout)
        self.assertIn("cpu verdict: edit exercise.hpp; cmake --build --preset student --target "
                      "lesson03-cpu && ctest --preset student -L lesson03 -L cpu", proc.stdout)
        self.assertIn("progress: edit exercise.hpp; cmake --build --preset progress", proc.stdout)
        self.assertEqual(self.calls(), [], "a dry run builds and runs nothing")

    def test_with_a_gpu_the_gpu_verdict_too(self):
        self.with_gpu()
        proc = self.bench("--dry-run", "--lesson", "05")
        self.assertEqual(self.steps(proc), ["first build", "cpu verdict", "gpu verdict", "progress"])
        self.assertIn("gpu verdict: edit exercise.hpp; cmake --build --preset student --target "
                      "lesson05 && ctest --preset student -L lesson05", proc.stdout)
        proc = self.bench("--dry-run", "--no-gpu")
        self.assertNotIn("gpu verdict", proc.stdout)

    def test_other_commands_can_be_timed(self):
        proc = self.bench("--dry-run", "--cpu-build", "cmake --build --preset student",
                          "--first-build", "cmake --preset student")
        self.assertIn("first build: cmake --preset student\n", proc.stdout)
        self.assertIn("cpu verdict: edit exercise.hpp; cmake --build --preset student && ctest",
                      proc.stdout)

    def test_errors(self):
        self.assertOneLineError(self.bench("--dry-run", "--lesson", "99"), 2, "there is no lesson 99")
        self.assertOneLineError(self.bench("--dry-run", "--lesson", "x3"), 2, "not a lesson number")
        plain = make_course(self.tmp / "plain")
        self.assertOneLineError(self.run_tool("course.ci.loop_bench", "--source", plain, "--dry-run"), 2,
                                "is not the course (no CMakePresets.json)")
        self.assertOneLineError(self.bench("--time-limit", "5"), 2, "unrecognized arguments")


if __name__ == "__main__":
    unittest.main()
