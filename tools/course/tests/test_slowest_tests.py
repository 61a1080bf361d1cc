"""slowest_tests.py: where a report's time goes, by kind (from the labels), by program and test
by test; CSV of every test; one-line errors."""

from __future__ import annotations

import unittest

from course_testing import ToolTest, junit_case, junit_file


def timed(name: str, labels: str, seconds: float) -> str:
    return junit_case(name, labels=labels).replace('time="0.01"', f'time="{seconds}"')


class SlowestTests(ToolTest):
    def report(self):
        return junit_file(self.tmp / "r.xml", [
            timed("student/lesson03/A.Cpu", "cpu;exercise;lesson03;student", 0.02),
            timed("student/lesson03/B.Gpu", "gpu;guard;lesson03;student", 0.5),
            timed("student/lesson03/C.Counters", "counters;gpu;guard;lesson03;student", 1.5),
            timed("student/lesson03/D.Speed", "gpu;perf;exercise;lesson03;student", 0.75),
            timed("student/lesson03/racecheck/gpu_guard_x_test",
                  "gpu;guard;lesson03;racecheck;sanitize;student", 4.0),
            timed("kit/E.Counters", "counters;gpu;kit", 2.0),
        ])

    def test_the_summary(self):
        p = self.run_tool("course.ci.slowest_tests", self.report(), "--top", "3")
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertIn("6 tests", lines[0])
        self.assertIn("8.8 s summed over tests", lines[0])
        kinds = {line.split()[0] + (" " + line.split()[1] if not line.split()[1].isdigit() else ""):
                 line for line in lines[2:8]}
        self.assertRegex(kinds["sanitizer run"], r"sanitizer run\s+1\s+4\.0")
        self.assertRegex(kinds["counters"], r"counters\s+2\s+3\.5")
        self.assertRegex(kinds["timing"], r"timing\s+1\s+0\.8")
        self.assertIn("the 3 slowest tests:", p.stdout)
        slowest = p.stdout.split("the 3 slowest tests:\n")[1].splitlines()
        self.assertIn("student/lesson03/racecheck/gpu_guard_x_test", slowest[0])
        self.assertIn("kit/E.Counters", slowest[1])
        self.assertIn("student/lesson03/C.Counters", slowest[2])

    def test_csv(self):
        p = self.run_tool("course.ci.slowest_tests", self.report(), "--csv")
        rows = p.stdout.splitlines()
        self.assertEqual(rows[0], "report,test,kind,program,seconds")
        self.assertEqual(rows[1], "r.xml,student/lesson03/racecheck/gpu_guard_x_test,"
                                  "sanitizer run,student/lesson03,4.000")
        self.assertEqual(len(rows), 7)

    def test_errors(self):
        self.assertOneLineError(self.run_tool("course.ci.slowest_tests", self.tmp / "none.xml"), 1,
                                "no such JUnit file")
        bad = self.tmp / "bad.xml"
        bad.write_text("<html/>")
        self.assertOneLineError(self.run_tool("course.ci.slowest_tests", bad), 1,
                                "is not a JUnit test suite")
        self.assertOneLineError(self.run_tool("course.ci.slowest_tests", self.report(), "--top", "0"), 2,
                                "--top")


if __name__ == "__main__":
    unittest.main()
