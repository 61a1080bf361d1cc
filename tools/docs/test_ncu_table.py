#!/usr/bin/env python3
"""Unit tests of ncu_table.py on a small raw page as Nsight Compute writes it."""

import os
import tempfile
import unittest

import ncu_table

RAW = '''==PROF== Connected to process 1
"ID","Kernel Name","sm__a.sum","sm__b.pct"
"","","","%"
"0","void cutlass_sgemm<x>(int)","1,234","50.5"
"1","void gemm_tiled<lesson09::Blocked, 1>(float*)","10","20"
"2","void gemm_tiled<lesson09::StridedByFour, 4>(float*)","30","40"
'''


class NcuTable(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.raw = os.path.join(self.dir.name, "raw.csv")
        with open(self.raw, "w") as f:
            f.write(RAW)

    def tearDown(self):
        self.dir.cleanup()

    def run_table(self, *extra):
        out = os.path.join(self.dir.name, "out.csv")
        args = ["--raw", self.raw, "--device", "GPU (sm_90, 1 SMs)", "--command", "c",
                "--date", "2026-01-01", "-o", out] + list(extra)
        self.assertEqual(ncu_table.main(args), 0)
        with open(out) as f:
            return f.read().splitlines()

    def test_rows_by_pattern_in_order(self):
        lines = self.run_table("--kernel", "twin=StridedByFour", "--kernel",
                               "cublas=^(?!.*gemm_tiled)", "--metric", "a=sm__a.sum",
                               "--metric", "b=sm__b.pct")
        self.assertEqual(lines[:3], ["# device: GPU (sm_90, 1 SMs)", "# date: 2026-01-01",
                                     "# command: c"])
        self.assertEqual(lines[3:], ["kernel,a,b", "twin,30,40", "cublas,1234,50.50"])

    def test_missing_metric_or_kernel_is_an_error(self):
        with self.assertRaises(SystemExit):
            self.run_table("--kernel", "twin=StridedByFour", "--metric", "x=sm__missing")
        with self.assertRaises(SystemExit):
            self.run_table("--kernel", "none=NoSuchKernel", "--metric", "a=sm__a.sum")


if __name__ == "__main__":
    unittest.main()
