"""grade_tests.py and sandbox.py: every graded test runs in a sandbox of its own that shows it
only what it reads, and is judged from its GoogleTest report, never from its exit status or
what it printed; the report keeps of what it printed only its measurements and its first failed
assertion. The test programs here are stand-ins (fixtures/fake_gtest.py) that behave as a
cheating program would: end early with status 0, turn a failure's status into 0, skip through a
global environment, run another test, rewrite the grader's files, leave a process behind, read
what lies outside its sandbox, print into the report."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import unittest
import uuid
from pathlib import Path
from typing import Dict, List

from course_testing import FIXTURES, ToolTest, make_build, make_course

from course.grading.build_lessons import Made
from course.grading.grade_tests import Planned, past_seconds, shared_order
from course.grading.sandbox import Sandbox
from course.model.trust import file_hash

FAKE = FIXTURES / "fake_gtest.py"
#: The grader's machine check on an H100 whose counters are readable and which shows slowdowns.
H100 = {"gpu": True, "counters": True, "arch": "sm_90", "compute_capability": 90,
        "shared_memory_per_block": 232448, "tma": True, "ldmatrix": True, "stmatrix": True,
        "wide_rules": True, "ldmatrix_rule": True, "timing": True}
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

    def register(self, modes: Dict[str, str], extra: Dict[str, list] = None, gpu=False, timeout=30,
                 labels: Dict[str, List[str]] = None, env: Dict[str, str] = None):
        """A test list: student/lesson01/<name> running the stand-in in each mode (`labels`:
        a test's labels besides the usual ones, such as counters or perf; `env`: more of every
        test's environment)."""
        entries = []
        for name, mode in modes.items():
            command = [sys.executable, str(FAKE), f"--gtest_filter={name}"]
            props = [{"name": "LABELS", "value": ["lesson01", "student", "exercise",
                                                  "gpu" if gpu else "cpu",
                                                  *(labels or {}).get(name, [])]},
                     {"name": "TIMEOUT", "value": timeout},
                     {"name": "ENVIRONMENT", "value": [
                         f"FAKE_GTEST_MODE={mode}", f"FAKE_GTEST_TARGET={self.target}",
                         f"FAKE_GTEST_MARKER={self.marker}",
                         *(f"{k}={v}" for k, v in (env or {}).items())]}]
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
        h100 = dict(H100)
        machine.write_text(json.dumps(h100))
        got = self.grade("--machine", machine)
        self.assertEqual(got["G.Skip"]["status"], "skipped")  # a GPU here: the test's own skip
        # A GPU short of what the lesson's manifest says its tests need: not gradable, not run
        # (the stand-in would have skipped).
        machine.write_text(json.dumps(dict(h100, arch="sm_61", compute_capability=61)))
        got = self.grade("--machine", machine)
        self.assertEqual((got["G.Skip"]["status"], got["G.Skip"]["detail"]),
                         ("not gradable here", "needs compute capability 7.5 (sm_75) or later; "
                                               "this GPU is sm_61"))
        self.assertEqual(got["G.Skip"]["exit_code"], None)


    def test_a_gpu_that_shows_no_slowdown_grades_no_timing_test(self):
        self.register({"P.Slowdown": "pass", "G.Correct": "pass"}, gpu=True,
                      labels={"P.Slowdown": ["perf"]})
        h100 = dict(H100)
        machine = self.tmp / "machine.json"
        machine.write_text(json.dumps(h100))
        got = self.grade("--machine", machine)
        self.assertEqual((got["P.Slowdown"]["status"], got["G.Correct"]["status"]),
                         ("passed", "passed"))
        # The machine check's probe saw no slowdown (here: too few warps per SM): the timing
        # test is not run, and says why; the others run.
        why = "float stride 32 over float stride 1: unsupported: 8 warps per SM"
        machine.write_text(json.dumps(dict(h100, timing=False, timing_reason=why)))
        got = self.grade("--machine", machine)
        self.assertEqual(got["P.Slowdown"]["status"], "not gradable here")
        self.assertEqual(got["P.Slowdown"]["exit_code"], None)
        self.assertIn(f"the machine check's probe did not: {why}", got["P.Slowdown"]["detail"])
        self.assertEqual(got["G.Correct"]["status"], "passed")
        # A machine check that did not probe timing: no timing test is graded (fail closed).
        machine.write_text(json.dumps({k: v for k, v in h100.items() if k != "timing"}))
        got = self.grade("--machine", machine)
        self.assertIn("did not probe timing", got["P.Slowdown"]["detail"])

    def test_where_counters_are_refused_the_cpu_recording_stands_in_only_where_declared(self):
        # Lesson 01 of the stand-in course runs its kernel on the CPU, and its manifest lets
        # C.Recorded and C.Wrong take their counts from the CPU recording; C.Other it does not.
        path = self.source / "lessons" / "01_no_conflict" / "lesson.json"
        data = json.loads(path.read_text())
        data["kernel_on_cpu"] = True
        data["gpu"].update(counters=True, cpu_recording=["C.Recorded", "C.Wrong"])
        path.write_text(json.dumps(data))
        self.register({"C.Recorded": "recorded", "C.Wrong": "recorded-fail",
                       "C.Other": "recorded"}, gpu=True,
                      labels={n: ["counters"] for n in ("C.Recorded", "C.Wrong", "C.Other")})
        h100 = dict(H100)
        machine = self.tmp / "machine.json"
        # Counters readable: every counter test reads them (the stand-in fails without the
        # grader's word, as a test that read counters it should not have).
        machine.write_text(json.dumps(h100))
        got = self.grade("--machine", machine)
        self.assertEqual({n: t["status"] for n, t in got.items()},
                         {"C.Recorded": "failed", "C.Wrong": "failed", "C.Other": "failed"})
        self.assertEqual({t["counts_from"] for t in got.values()}, {""})
        # Refused, without the instructor's switch: the declared tests run from the CPU
        # recording, each listed with its outcome and not gradable; the other is not run.
        machine.write_text(json.dumps(dict(h100, counters=False,
                                           counters_reason="ERR_NVGPUCTRPERM")))
        got = self.grade("--machine", machine)
        self.assertEqual({n: t["status"] for n, t in got.items()},
                         {n: "not gradable here" for n in got})
        self.assertEqual(got["C.Other"]["exit_code"], None)
        self.assertIn("needs the hardware counters", got["C.Other"]["detail"])
        self.assertEqual(got["C.Recorded"]["counts_from"], "cpu recording")
        self.assertIn("from the CPU recording it passed, which earns points only with "
                      "grade_run.sh --cpu-recording-points", got["C.Recorded"]["detail"])
        self.assertIn("ERR_NVGPUCTRPERM", got["C.Recorded"]["detail"])
        self.assertIn("from the CPU recording it failed", got["C.Wrong"]["detail"])
        self.assertFalse(self.record["cpu_recording_points"])
        # With the switch: passed from the CPU recording, apart from passed; a failure fails.
        got = self.grade("--machine", machine, "--cpu-recording-points")
        self.assertEqual({n: t["status"] for n, t in got.items()},
                         {"C.Recorded": "passed from the CPU recording", "C.Wrong": "failed",
                          "C.Other": "not gradable here"})
        self.assertIn("from the CPU recording (counters refused on this machine "
                      "(ERR_NVGPUCTRPERM))", got["C.Wrong"]["detail"])
        self.assertTrue(self.record["cpu_recording_points"])
        junit = (self.tmp / "junit.xml").read_text()
        self.assertIn('<property name="course_verdict" value="passed from the CPU recording"/>',
                      junit)
        self.assertIn("(from the CPU recording): load 1.00", junit)


def gpu_slots(n: int) -> dict:
    """A test's property asking for n slots of the GPU, as ctest lists it."""
    return {"name": "RESOURCE_GROUPS", "value": [{"requirements": [{".type": "gpus", "slots": n}]}]}


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class Batches(Runner):
    """The GPU tests of one program run in one process (those that need the GPU alone in one,
    those that share it in another), each still judged from the report: a test passes there
    only after every test before it passed; from the first that did not, and for a process that
    went wrong as a whole, each runs again on its own."""

    NAMES = ("C.First", "C.Second", "C.Third")
    ALONE = [{"name": "RESOURCE_LOCK", "value": ["gpu"]}, gpu_slots(8)]
    SHARED = [gpu_slots(1)]

    def batch(self, modes: str = "", exit_status: str = "", shared=()) -> Dict[str, dict]:
        """The three tests, each alone on the GPU (counters) but those named in `shared`."""
        self.register({n: "several" for n in self.NAMES}, gpu=True,
                      extra={n: self.SHARED if n in shared else self.ALONE for n in self.NAMES},
                      labels={n: [] if n in shared else ["counters"] for n in self.NAMES},
                      env={"FAKE_GTEST_MODES": modes, "FAKE_GTEST_EXIT": exit_status})
        machine = self.tmp / "machine.json"
        machine.write_text(json.dumps(H100))
        return self.grade("--machine", machine)

    def test_passes_in_one_process(self):
        got = self.batch()
        self.assertEqual({n: t["status"] for n, t in got.items()},
                         {n: "passed" for n in self.NAMES})
        for i, n in enumerate(self.NAMES):
            self.assertEqual(got[n]["batch"], list(self.NAMES))
            self.assertEqual(got[n]["report"], f"{n}: passed, test {i + 1} of 3 in one process")
        # Each keeps its own measurement lines, not the others'.
        junit = (self.tmp / "junit.xml").read_text()
        case = junit[junit.index('name="student/lesson01/C.Second"'):]
        case = case[:case.index("</testcase>")]
        self.assertIn("[kit-counters] C.Second:", case)
        self.assertNotIn("C.First:", case)

    def test_the_tests_that_share_the_gpu_share_a_process_of_their_own(self):
        got = self.batch(shared=self.NAMES)
        self.assertEqual({n: (t["status"], t["batch"]) for n, t in got.items()},
                         {n: ("passed", list(self.NAMES)) for n in self.NAMES})
        # Never with a test that needs the GPU alone, though the program is the same.
        got = self.batch(shared=("C.Second", "C.Third"))
        self.assertEqual({n: (t["status"], t["batch"]) for n, t in got.items()},
                         {"C.First": ("passed", []),
                          "C.Second": ("passed", ["C.Second", "C.Third"]),
                          "C.Third": ("passed", ["C.Second", "C.Third"])})
        # From the first that did not pass, each runs again on its own, as for the others.
        got = self.batch("C.Second=fail", shared=self.NAMES)
        self.assertEqual([(got[n]["status"], bool(got[n]["batch"])) for n in self.NAMES],
                         [("passed", True), ("failed", False), ("passed", False)])

    def test_from_the_first_that_did_not_pass_each_runs_alone(self):
        got = self.batch("C.Second=fail")
        self.assertEqual([got[n]["status"] for n in self.NAMES], ["passed", "failed", "passed"])
        self.assertEqual([bool(got[n]["batch"]) for n in self.NAMES], [True, False, False])
        self.assertEqual(got["C.Second"]["detail"], "assertion: x.cpp:9")
        got = self.batch("C.First=skip")
        self.assertEqual([got[n]["status"] for n in self.NAMES], ["skipped", "passed", "passed"])
        self.assertEqual([bool(got[n]["batch"]) for n in self.NAMES], [False, False, False])

    def test_a_process_that_went_wrong_as_a_whole_counts_for_nothing(self):
        # A crash leaves no report: each test runs again alone (there, the second crashes).
        got = self.batch("C.Second=crash")
        self.assertEqual([got[n]["status"] for n in self.NAMES], ["passed", "failed", "passed"])
        self.assertEqual([bool(got[n]["batch"]) for n in self.NAMES], [False, False, False])
        # Every test passed, yet the process exited 3: alone, each does the same, and fails.
        got = self.batch(exit_status="3")
        self.assertEqual({t["status"] for t in got.values()}, {"failed"})
        self.assertIn("exited with status 3", got["C.First"]["detail"])

    def test_a_lesson_that_keeps_its_tests_apart(self):
        path = self.source / "lessons" / "01_no_conflict" / "lesson.json"
        path.write_text(json.dumps(dict(json.loads(path.read_text()),
                                        grade_tests_alone="its exercise is host code")))
        got = self.batch()
        self.assertEqual({n: (t["status"], t["batch"]) for n, t in got.items()},
                         {n: ("passed", []) for n in self.NAMES})
        # Only the tests it names (those that call its host code): the others share a process.
        path.write_text(json.dumps(dict(json.loads(path.read_text()), grade_tests_alone={
            "tests": ["C.Sec*"], "why": "its harness is host code"})))
        got = self.batch()
        self.assertEqual({n: (t["status"], t["batch"]) for n, t in got.items()},
                         {"C.First": ("passed", ["C.First", "C.Third"]),
                          "C.Second": ("passed", []),
                          "C.Third": ("passed", ["C.First", "C.Third"])})


class SharedOrder(ToolTest):
    """The processes of the tests that share the GPU start longest first: by what their tests
    took the last time the build graded, else racecheck runs, other sanitizer runs, then the
    rest."""

    @staticmethod
    def planned(name: str, sanitizer: bool) -> Planned:
        command = ["python3", "sanitizer_test.py", "--tool", "racecheck"] if sanitizer else \
            ["prog", f"--gtest_filter={name.rsplit('/', 1)[-1]}"]
        return Planned(f"student/lesson01/{name}", ["lesson01", "student", "gpu"], command, 60,
                       False, 1, "/", {}, None)

    def test_longest_first(self):
        quick, slow, other = (self.planned(n, False) for n in ("A.Quick", "B.Slow", "C.Other"))
        memcheck, racecheck = (self.planned(f"{tool}/gpu_x_test", True)
                               for tool in ("memcheck", "racecheck"))
        processes = [[quick, other], [memcheck], [racecheck], [slow]]

        def names(order):
            return [[t.name.split("/", 2)[2] for t in process] for process in order]
        self.assertEqual(names(shared_order(processes, {})),
                         [["racecheck/gpu_x_test"], ["memcheck/gpu_x_test"],
                          ["A.Quick", "C.Other"], ["B.Slow"]])
        record = self.tmp / "evidence.json"
        record.write_text(json.dumps({"tests": [
            {"name": "student/lesson01/A.Quick", "seconds": 0.5},
            {"name": "student/lesson01/C.Other", "seconds": 4.0},
            {"name": "student/lesson01/B.Slow", "seconds": 9.0},
            {"name": "student/lesson01/racecheck/gpu_x_test", "seconds": 4.0}]}))
        # Those measured before, longest first (a process: the sum of its tests); then the
        # others by their kind.
        self.assertEqual(names(shared_order(processes, past_seconds(record))),
                         [["B.Slow"], ["A.Quick", "C.Other"], ["racecheck/gpu_x_test"],
                          ["memcheck/gpu_x_test"]])
        for broken in ("not json", json.dumps({"tests": [{"name": "x"}]})):
            record.write_text(broken)
            self.assertEqual(past_seconds(record), {})
        self.assertEqual(past_seconds(self.tmp / "none.json"), {})
        self.assertEqual(past_seconds(None), {})


class Order(ToolTest):
    """The steps of the tests: first those that need the GPU alone, lesson after lesson, each
    lesson's once its build is done (a pipelined build says so: `ready`), the first built
    first; then those that share the GPU and the CPU tests, once every lesson is built."""

    def test_alone_first_each_lesson_once_it_is_built(self):
        import unittest.mock
        from course.grading import grade_tests
        from course.model.course_model import Build
        source = make_course(self.tmp / "course", {"01_a": None, "02_b": None})
        build = make_build(self.tmp / "course" / "build" / "grade", source)

        def planned(lesson: str, name: str, alone: bool, gpu: bool = True) -> Planned:
            return Planned(f"student/{lesson}/{name}", [lesson, "student", "gpu" if gpu else "cpu"],
                           [f"{lesson}_gpu", f"--gtest_filter={name}"], 60, alone,
                           4 if alone else int(gpu),
                           "/", {}, None)

        tests = [planned("lesson01", "A.Shared", False), planned("lesson01", "A.Counters", True),
                 planned("lesson01", "A.Cpu", False, gpu=False),
                 planned("lesson02", "B.Counters", True), planned("lesson02", "B.Timing", True),
                 planned("lesson02", "B.Shared", False)]
        events, lock = [], __import__("threading").Lock()

        class FakeRunner:
            def __init__(self, *args, **kwargs):
                self.needs, self.cpu_recording = {}, set()

            def run(self, test):
                with lock:
                    events.append(("run", test.name.split("/")[-1]))
                return grade_tests.Verdict(test.name, grade_tests.PASSED)

            def run_batch(self, batch):
                assert all(t.command and t.timeout == 60 for t in batch), batch
                with lock:
                    events.append(("alone" if batch[0].lock else "shared",
                                   [t.name.split("/")[-1] for t in batch]))
                if "lesson02" in batch[0].name:
                    second_ran.set()
                return [grade_tests.Verdict(t.name, grade_tests.PASSED) for t in batch]

        # ctest lists no command for a program that is not there yet: lesson 01's is planned
        # again once it is built.
        # Only that command is taken from the new list: the rest stays as first listed.
        built = {t.name: Planned(**dict(vars(t), timeout=999)) for t in tests
                 if "lesson01" in t.name}
        tests[1] = Planned(**dict(vars(tests[1]), command=[]))

        # Lesson 02 is built first: its tests run first.
        second_ran = __import__("threading").Event()

        def ready(label: str, block: bool = True):
            if label == "lesson01":
                if not block and not second_ran.is_set():
                    return None
                self.assertTrue(second_ran.wait(10), "waited for lesson 01 before running 02")
            with lock:
                events.append(("ready", label))
            return built if label == "lesson01" else {}

        machine = grade_tests.Machine(True, "", "H100", True)
        with unittest.mock.patch.object(grade_tests, "Runner", FakeRunner):
            verdicts = grade_tests.run_tests(tests, None, machine, 2, None, say=lambda line: None,
                                             build=Build(build, source), ready=ready)
        self.assertEqual([v.name for v in verdicts], [t.name for t in tests])
        # The tests that need the GPU alone first, each lesson's once it is built, the first
        # built first ...
        self.assertEqual(events[:4], [("ready", "lesson02"), ("alone", ["B.Counters", "B.Timing"]),
                                      ("ready", "lesson01"), ("alone", ["A.Counters"])])
        # ... then the others, each once its lesson is built: the GPU tests of a program that
        # share the GPU in a process of their own, each CPU test in its own.
        rest = events[4:]
        for event in (("shared", ["A.Shared"]), ("run", "A.Cpu"), ("shared", ["B.Shared"])):
            self.assertIn(event, rest)
        self.assertEqual(events.count(("ready", "lesson01")), 1)  # planned again only once


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class Programs(Runner):
    """A test runs only a program the grading build made, as it made it (its record,
    course/programs.json): never one an earlier build left, one changed since, or none."""

    def program(self, name: str) -> Path:
        """A stand-in test program in the build folder, where the lesson's programs are (a
        script, which the test's command gives to the interpreter, as a sanitizer run does)."""
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
            t["command"] = [sys.executable, str(programs[name]), f"--gtest_filter={name}"]
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
                t["command"][1] = str(made if name == "S.Made" else stale)
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


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class Binds(Runner):
    """A test sees the system's runtime, its programs and what the build says it reads: no other
    checkout, no home folder, nothing else of the course or its build."""

    def setUp(self) -> None:
        super().setUp()
        exercise = self.source / "lessons" / "01_no_conflict" / "exercise.hpp"
        info = json.loads((self.build / "course" / "build.json").read_text())
        info["test_reads"] = {"student/lesson01/": [str(exercise)],
                              "student/lesson02/": [str(self.source / "lessons")]}
        (self.build / "course" / "build.json").write_text(json.dumps(info))
        self.secrets = {
            "other checkout": self.tmp / "other-checkout" / "lessons" / "01_no_conflict" / "exercise.hpp",
            "home": self.home / "notes.txt",
            "policy cache": self.build / "course" / "policy-lesson01.json",
            "solutions in the course": self.source / "solutions" / "01_no_conflict" / "exercise.hpp",
            "solutions beside it": self.tmp / "solutions" / "01_no_conflict" / "exercise.hpp",
            "a hidden test's program": self.build / "tests" / "student" / "lesson01_student_hidden_cpu",
            "the points table": self.target,
        }
        for path in self.secrets.values():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{self.marker}-secret\n")
        self.seen = [exercise, FAKE, Path(sys.executable)]

    def probe(self, seen, unseen):
        # The grader's own environment is not the test's, not even in the sandbox's first process.
        self.env["COURSE_TEST_GRADER_ONLY"] = "the grader's"
        self.register({"S.Probe": "probe"}, extra={"S.Probe": [{"name": "ENVIRONMENT", "value": [
            "FAKE_GTEST_MODE=probe", "FAKE_GTEST_SEEN=" + os.pathsep.join(map(str, seen)),
            "FAKE_GTEST_UNSEEN=" + os.pathsep.join(map(str, unseen)),
            "FAKE_GTEST_HIDDEN_VARIABLE=COURSE_TEST_GRADER_ONLY"]}]})
        return self.grade()["S.Probe"]

    def test_a_test_reads_what_it_needs_and_nothing_else(self):
        # The folders that hold what is shown are there, empty but for it; a file is not.
        machine = [p for p in ("/etc/hostname", "/etc/hosts", "/etc/shadow", "/etc/os-release",
                               str(Path.home() / ".bashrc")) if os.path.isfile(p)]
        got = self.probe(self.seen, list(self.secrets.values()) + machine + [
            self.source / "lessons" / "01_no_conflict" / "README.md", self.build / "course",
            self.source / "tests", "/run", "/home"])
        self.assertEqual(got["status"], "passed", got["detail"])
        self.assertIn(str(self.seen[0]), got["shown"])
        self.assertNotIn(str(self.source), got["shown"])
        junit = (self.tmp / "junit.xml").read_text() + (self.tmp / "evidence.json").read_text()
        self.assertNotIn(f"{self.marker}-secret", junit)

    def test_what_a_test_sees_is_shown_without_running_it(self):
        self.register({"S.Tamper": "tamper"})
        proc = self.run_tool("course.grading.grade_tests", "--build-dir", self.build,
                             "--show-sandbox")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("every test sees:\n  /usr\n", proc.stdout)
        own = proc.stdout.split(f"student/lesson01/S.Tamper: {sys.executable} {FAKE} "
                                "--gtest_filter=S.Tamper\n")[1].split("\n")
        self.assertIn(f"  {self.seen[0]}", own)
        self.assertIn(f"  {FAKE}", own)
        self.assertEqual(self.target.read_text(), f"{self.marker}-secret\n", "it ran")
        self.assertOneLineError(self.run_tool("course.grading.grade_tests", "--build-dir",
                                              self.build), 2, "give --junit and --record")

    def test_the_probe_fails_where_it_reads_what_it_must_not(self):
        got = self.probe([self.secrets["home"]], [self.seen[0]])
        self.assertEqual(got["status"], "failed")
        self.assertIn(f"cannot read {self.secrets['home']}", got["detail"])
        self.assertIn(f"can read {self.seen[0]}", got["detail"])

    def test_what_a_link_out_of_a_shown_folder_reaches_is_shown_too(self):
        folder = self.source / "lessons" / "01_no_conflict"
        link = folder / "exercise.hpp"
        target = self.tmp / "elsewhere" / "exercise.hpp"
        target.parent.mkdir()
        target.write_text("// the student's file, reached through a link\n")
        link.unlink()
        link.symlink_to(target)
        info = json.loads((self.build / "course" / "build.json").read_text())
        info["test_reads"]["student/lesson01/"] = [str(folder), str(link)]
        (self.build / "course" / "build.json").write_text(json.dumps(info))
        got = self.probe([link, folder / "README.md"], [self.secrets["other checkout"]])
        self.assertEqual(got["status"], "passed", got["detail"])
        self.assertIn(str(target), got["shown"])


@unittest.skipUnless(BOX.isolated, f"no sandbox here: {BOX.reason}")
class Output(Runner):
    """What a test prints is the student's: the report keeps the kit's measurement lines and a
    failing test's first failed assertion, and no more unless the grader is told to."""

    secret = f"printed-{uuid.uuid4().hex}"

    def print_and(self, modes: Dict[str, str], *args: str) -> str:
        self.register(modes, extra={name: [{"name": "ENVIRONMENT", "value": [
            f"FAKE_GTEST_MODE={mode}", f"FAKE_GTEST_SECRET={self.secret}"]}]
            for name, mode in modes.items()})
        self.got = self.grade(*args)
        return (self.tmp / "junit.xml").read_text()

    def test_a_passing_test_keeps_only_its_measurements(self):
        junit = self.print_and({"S.Chatty": "chatty"})
        self.assertEqual(self.got["S.Chatty"]["status"], "passed")
        self.assertIn("[kit-counters] the reversal: load 1.00 wavefronts/request", junit)
        self.assertNotIn(self.secret, junit)
        self.assertIn("nothing else a test printed", self.record["output"])
        junit = self.print_and({"S.Chatty": "chatty"}, "--keep-failing-output")
        self.assertNotIn(self.secret, junit)

    def test_a_failing_test_keeps_its_assertion_and_its_end_only_when_asked(self):
        junit = self.print_and({"S.Fail": "chatty-fail"})
        self.assertEqual(self.got["S.Fail"]["status"], "failed")
        self.assertIn("cpu_exercise_x_test.cpp:12: Failure", junit)
        self.assertIn("[grader] the rest of what it printed", junit)
        self.assertNotIn(self.secret, junit)
        # The report reads what it needs from what is kept.
        points = self.tmp / "points.json"
        points.write_text('{"lessons": {"lesson01": 10}}')
        score = self.tmp / "score.json"
        proc = self.run_tool("course.grading.grade", "--source-dir", self.source, "report",
                             "--junit", self.tmp / "junit.xml", "--points", points, "--json", score)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        test = json.loads(score.read_text())["tests"]["lesson01/S.Fail"]
        self.assertEqual(test["detail"], "assertion at cpu_exercise_x_test.cpp:12")
        self.assertEqual(test["measured"], ["the reversal: load 1.00 wavefronts/request (model 1.00)"])
        junit = self.print_and({"S.Fail": "chatty-fail"}, "--keep-failing-output")
        self.assertIn(self.secret, junit)
        self.assertIn("[grader] the end of what it printed", junit)
        self.assertIn("last 4096 bytes of a failing test's output", self.record["output"])

    def test_a_flood_is_cut(self):
        junit = self.print_and({"S.Flood": "flood"}, "--keep-failing-output")
        self.assertEqual(self.got["S.Flood"]["status"], "failed")
        self.assertLess(len(junit), 32 * 1024)
        self.assertNotIn(self.secret, junit)
        self.assertIn("[grader] 3968 more measurement lines are not kept", junit)
        self.assertRegex(junit, r"the end of what it printed \(\d+ bytes; the \d+ before it are not kept\)")


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
        # The CPU part's 5 points over S.Cpu and S.Forged, the GPU part's 5 on S.Gpu: one of
        # two CPU tests passed, 2.5 points, a whole 3.
        self.assertIn(": 3 / 10 points", proc.stdout)


if __name__ == "__main__":
    unittest.main()
