"""grade_tests.py and sandbox.py: every graded test runs in a sandbox of its own and is judged
from its GoogleTest report, never from its exit status or what it printed. The test programs
here are stand-ins (fixtures/fake_gtest.py) that behave as a cheating program would: end early
with status 0, turn a failure's status into 0, skip through a global environment, run another
test, rewrite the grader's files, leave a process behind."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import unittest
import uuid
from pathlib import Path
from typing import Dict

from course_testing import FIXTURES, ToolTest, make_build, make_course

from course.grading.build_lessons import Made
from course.grading.sandbox import Sandbox
from course.model.trust import file_hash

FAKE = FIXTURES / "fake_gtest.py"
BOX = Sandbox.probe()


class Runner(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "course" / "build" / "grade", self.source)
        self.target = self.source / "tests" / "points.json"
        self.target.write_text("the points table\n")
        self.home = self.tmp / "home"
        self.home.mkdir()
        self.env["HOME"] = str(self.home)

    def register(self, modes: Dict[str, str], extra: Dict[str, list] = None, gpu=False, timeout=30):
        """A test list: student/lesson01/<name> running the stand-in in each mode."""
        entries = []
        for name, mode in modes.items():
            command = [sys.executable, str(FAKE), f"--gtest_filter={name}"]
            props = [{"name": "LABELS", "value": ["lesson01", "student", "exercise",
                                                  "gpu" if gpu else "cpu"]},
                     {"name": "TIMEOUT", "value": timeout},
                     {"name": "ENVIRONMENT", "value": [
                         f"FAKE_GTEST_MODE={mode}", f"FAKE_GTEST_TARGET={self.target}",
                         f"FAKE_GTEST_MARKER={self.marker}"]}]
            entries.append({"name": f"student/lesson01/{name}", "command": command,
                            "properties": props + (extra or {}).get(name, [])})
        listing = self.tmp / "tests.json"
        listing.write_text(json.dumps({"kind": "ctestInfo", "tests": entries}))
        self.env["FAKE_CTEST_LIST"] = str(listing)

    marker = f"fake-gtest-{uuid.uuid4().hex}"

    def grade(self, *args: str) -> Dict[str, dict]:
        proc = self.run_tool("course.grading.grade_tests", "--build-dir", self.build, "--junit",
                             self.tmp / "junit.xml", "--record", self.tmp / "evidence.json", *args)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        record = json.loads((self.tmp / "evidence.json").read_text())
        self.record = record
        return {t["name"][len("student/lesson01/"):]: t for t in record["tests"]}


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class Evidence(Runner):
    def test_only_a_report_that_says_passed_and_a_clean_exit_pass(self):
        self.register({"S.Pass": "pass", "S.Fail": "fail", "S.Skip": "skip", "S.Exit0": "exit0",
                    "S.Status0": "status0", "S.NeverStarted": "never-started",
                    "S.Other": "other-test", "S.Extra": "extra-test", "S.Doctype": "doctype"})
        got = self.grade()
        self.assertEqual(got["S.Pass"]["status"], "passed")
        self.assertEqual(got["S.Fail"]["status"], "failed")
        self.assertIn("cpu_exercise_x_test.cpp:12", got["S.Fail"]["detail"])
        self.assertEqual((got["S.Skip"]["status"], got["S.Skip"]["detail"]),
                         ("skipped", "no usable GPU: no CUDA device found"))
        for name, why in (("S.Exit0", "no GoogleTest report"),
                          ("S.Status0", "assertion"),
                          ("S.NeverStarted", "never started"),
                          ("S.Other", "not asked to run"),
                          ("S.Extra", "not asked to run"),
                          ("S.Doctype", "document type")):
            self.assertEqual(got[name]["status"], "failed", name)
            self.assertIn(why, got[name]["detail"], name)
        self.assertTrue(self.record["sandbox"]["isolated"])
        junit = (self.tmp / "junit.xml").read_text()
        self.assertIn('name="student/lesson01/S.Pass" classname="grade" ', junit)
        self.assertIn('<property name="course_verdict" value="passed"/>', junit)

    def test_what_a_test_writes_stays_in_its_sandbox(self):
        self.register({"S.Tamper": "tamper"})
        got = self.grade()
        self.assertEqual(got["S.Tamper"]["status"], "passed")  # it passed: it only tried
        self.assertEqual(self.target.read_text(), "the points table\n")
        self.assertEqual(list(self.home.iterdir()), [])

    def test_nothing_a_test_starts_outlives_it(self):
        self.register({"S.Detach": "detach"})
        self.grade()
        time.sleep(0.5)
        survivors = subprocess.run(["pgrep", "-f", self.marker], capture_output=True, text=True)
        self.assertEqual(survivors.stdout.strip(), "", "a process of the test outlived it")

    def test_a_test_that_never_ends_is_stopped(self):
        self.register({"S.Hang": "hang"}, timeout=2)
        start = time.monotonic()
        got = self.grade()
        self.assertLess(time.monotonic() - start, 30)
        self.assertEqual(got["S.Hang"]["status"], "failed")
        self.assertIn("timeout", got["S.Hang"]["detail"])

    def test_sanitizer_runs_need_the_report_of_their_tests(self):
        wrapper = self.source / "sanitizer_test.py"  # the course is readable in the sandbox
        shutil.copyfile(FAKE, wrapper)
        self.register({"memcheck/gpu_x_test": "sanitizer", "racecheck/gpu_x_test": "exit0"},
                   gpu=True)
        listing = json.loads(Path(self.env["FAKE_CTEST_LIST"]).read_text())
        for t in listing["tests"]:
            t["command"] = [sys.executable, str(wrapper), "--gtest_filter=S.A:S.B-S.C"]
            t["properties"].append({"name": "SKIP_RETURN_CODE", "value": 77})
        Path(self.env["FAKE_CTEST_LIST"]).write_text(json.dumps(listing))
        got = self.grade()
        self.assertEqual(got["memcheck/gpu_x_test"]["status"], "passed")
        self.assertEqual(got["racecheck/gpu_x_test"]["status"], "failed")
        self.assertIn("no evidence", got["racecheck/gpu_x_test"]["detail"])

    def test_no_gpu_by_the_graders_own_check_is_not_gradable(self):
        self.register({"G.Skip": "skip"}, gpu=True)
        machine = self.tmp / "machine.json"
        machine.write_text(json.dumps({"gpu": False, "reason": "nvidia-smi not found"}))
        got = self.grade("--machine", machine)
        self.assertEqual((got["G.Skip"]["status"], got["G.Skip"]["detail"]),
                         ("not gradable here", "no GPU: nvidia-smi not found"))
        machine.write_text(json.dumps({"gpu": True, "counters": True}))
        got = self.grade("--machine", machine)
        self.assertEqual(got["G.Skip"]["status"], "skipped")  # a GPU here: the test's own skip


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class Programs(Runner):
    """A test runs only a program the grading build made, as it made it (its record,
    course/programs.json): never one an earlier build left, one changed since, or none."""

    def program(self, name: str) -> Path:
        """A stand-in test program in the build folder, where the lesson's programs are."""
        path = self.build / "tests" / "student" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!{sys.executable}\n" + FAKE.read_text().split("\n", 1)[1])
        path.chmod(0o755)
        return path

    def test_only_the_programs_the_grading_build_made_run(self):
        made, changed, stale = (self.program(n) for n in ("made", "changed", "stale"))
        missing = self.build / "tests" / "student" / "missing"
        record = Made("build-1", {"lesson01": {str(made): file_hash(made),
                                                str(changed): "0" * 64}})
        (self.build / "course" / "programs.json").write_text(record.as_json())
        self.register({"S.Made": "pass", "S.Changed": "pass", "S.Stale": "pass",
                       "S.Missing": "pass"})
        listing = json.loads(Path(self.env["FAKE_CTEST_LIST"]).read_text())
        programs = {"S.Made": made, "S.Changed": changed, "S.Stale": stale, "S.Missing": missing}
        for t in listing["tests"]:
            name = t["name"].rsplit("/", 1)[1]
            t["command"] = [str(programs[name]), f"--gtest_filter={name}"]
        Path(self.env["FAKE_CTEST_LIST"]).write_text(json.dumps(listing))
        got = self.grade()
        self.assertEqual(got["S.Made"]["status"], "passed")
        self.assertEqual(got["S.Made"]["programs"],
                         [{"path": str(made), "sha256": file_hash(made), "build": "build-1"}])
        self.assertEqual(self.record["build"], "build-1")
        for name, why in (("S.Changed", "its sha256 is not the one the grading build recorded"),
                          ("S.Stale", "the grading build did not make it")):
            self.assertEqual(got[name]["status"], "failed", name)
            self.assertIn("not run: its program", got[name]["detail"], name)
            self.assertIn(why, got[name]["detail"], name)
            self.assertEqual(got[name]["programs"][0]["build"], "", name)
        self.assertEqual((got["S.Missing"]["status"], got["S.Missing"]["detail"]),
                         ("did not build", "its test program is not built"))
        for name in ("S.Changed", "S.Stale", "S.Missing"):
            self.assertIsNone(got[name]["exit_code"], f"{name} ran")

        # Without the grading build's record, no program of the build folder runs.
        (self.build / "course" / "programs.json").unlink()
        got = self.grade()
        self.assertEqual(got["S.Made"]["status"], "failed")
        self.assertIn("no record of the grading build", got["S.Made"]["detail"])
        self.assertIsNone(got["S.Made"]["exit_code"])

    def test_the_report_trusts_only_programs_of_the_grading_build(self):
        made, stale = self.program("made"), self.program("stale")
        (self.build / "course" / "programs.json").write_text(
            Made("build-1", {"lesson01": {str(made): file_hash(made)}}).as_json())
        (self.build / "course" / "overlay.json").write_text(json.dumps(
            {"policy": True, "lessons": {"lesson01": {"files": "the student's"}}}))
        points = self.tmp / "points.json"
        points.write_text('{"lessons": {"lesson01": 10}}')

        def report(*tests: str) -> str:
            self.register({name: "pass" for name in tests})
            data = json.loads(Path(self.env["FAKE_CTEST_LIST"]).read_text())
            for t in data["tests"]:
                name = t["name"].rsplit("/", 1)[1]
                t["command"][:2] = [str(made if name == "S.Made" else stale)]
            Path(self.env["FAKE_CTEST_LIST"]).write_text(json.dumps(data))
            junit = self.build / "junit.xml"
            self.assertEqual(self.run_tool("course.grading.grade_tests", "--build-dir", self.build,
                                           "--junit", junit, "--record",
                                           self.build / "course" / "evidence.json").returncode, 0)
            proc = self.run_tool("course.grading.grade", "--source-dir", self.source, "report",
                                 "--junit", junit, "--build-dir", self.build, "--points", points,
                                 "--markdown", "-")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            return proc.stdout

        trusted = report("S.Made")
        self.assertIn("**Trusted grade.**", trusted)
        self.assertIn("Programs: every test that ran, ran a program the grading build made "
                      "(build build-1;", trusted)
        refused = report("S.Made", "S.Stale")
        self.assertIn("**NOT a trusted grade.**", refused)
        self.assertIn("Programs: 1 tests' programs are NOT the ones the grading build made "
                      "(first: student/lesson01/S.Stale)", refused)


class NoSandbox(Runner):
    def test_without_a_sandbox_the_run_refuses_or_says_so(self):
        self.env["COURSE_BWRAP"] = str(self.tmp / "no-bwrap")
        self.register({"S.Pass": "pass"})
        proc = self.run_tool("course.grading.grade_tests", "--build-dir", self.build, "--junit",
                             self.tmp / "junit.xml", "--record", self.tmp / "evidence.json")
        self.assertOneLineError(proc, 2, "no sandbox: bubblewrap (bwrap) is not installed")
        got = self.grade("--not-isolated")
        self.assertEqual(got["S.Pass"]["status"], "passed")
        self.assertFalse(self.record["sandbox"]["isolated"])
        self.assertIn("NOT ISOLATED", self.record["sandbox"]["what"])


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class LessonStep(Runner):
    """grade.py lesson NN (one Classroom step) runs the lesson's tests the same way."""

    def setUp(self) -> None:
        super().setUp()
        self.points = self.tmp / "points.json"
        self.points.write_text('{"lessons": {"lesson01": 10}}')

    def lesson(self, *args: str):
        return self.run_tool("course.grading.grade", "--source-dir", self.source, "lesson", "01",
                             "--build-dir", self.build, "--points", self.points, *args)

    def test_all_passed(self):
        self.register({"S.T0": "pass", "S.T1": "pass"})
        proc = self.lesson()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("lesson01 Banks, words and wavefronts: 10 / 10 points", proc.stdout)

    def test_a_skip_or_a_forged_exit_status_is_not_a_pass(self):
        self.register({"S.Cpu": "pass", "S.Gpu": "skip", "S.Forged": "exit0"})
        proc = self.lesson()
        self.assertEqual(proc.returncode, 1)
        self.assertIn("not run        S.Gpu: no usable GPU: no CUDA device found", proc.stdout)
        self.assertIn("failed         S.Forged: no GoogleTest report", proc.stdout)
        self.assertIn("3.33 / 10 points", proc.stdout)


if __name__ == "__main__":
    unittest.main()
