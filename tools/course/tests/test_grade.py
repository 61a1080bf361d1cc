"""grade.py: recorded JUnit reports (GPU skipped, some failing, all passing, not built) turned
into the Markdown report, the JSON score file and the exit status; the points table; the
Classroom step per lesson; every error path."""

from __future__ import annotations

import json
import unittest

from course_testing import (FIXTURES, ToolTest, have_yaml, junit_case, junit_file, make_build,
                            make_course, manifest, passing_output)
from course.grading.sandbox import Sandbox

ALL_PASSING = "junit-solution-allpass.xml"  # recorded on a GPU: every test of the solutions


class GradeReport(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.points = self.tmp / "points.json"
        self.points.write_text('{"lessons": {"lesson01": 10}}')
        self.md = self.tmp / "out" / "report.md"
        self.json = self.tmp / "out" / "score.json"

    def grade(self, *args: str, junit=("junit-student-nogpu.xml",)):
        reports = []
        for j in junit:
            reports += ["--junit", str(j) if "/" in str(j) else str(FIXTURES / j)]
        return self.run_tool("course.grading.grade", "--source-dir", self.source, "report", *reports,
                             "--points", self.points, "--markdown", self.md, "--json", self.json,
                             *args)

    def score(self) -> dict:
        return json.loads(self.json.read_text())

    def test_gpu_skipped_scores_zero_and_says_why(self):
        # This machine, no GPU; the build folder's test list says which tests are exercises.
        build = make_build(self.tmp / "build", self.source)
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-student-nogpu.json")
        proc = self.grade("--build-dir", build)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = self.score()
        self.assertEqual(data["total"], {"score": 0, "max": 10.0, "percent": 0.0})
        lesson = data["lessons"]["lesson01"]
        self.assertEqual((lesson["passed"], lesson["tests"]), (1, 15))
        self.assertEqual(lesson["title"], "Banks, words and wavefronts")
        # Parts of 10 points weighed 1:2:2: the predictions 2, the CPU tests 4, the GPU tests 4,
        # the GPU part shared by its 2 exercise tests.
        self.assertEqual(lesson["parts"], {"predictions": {"score": 0, "max": 2.0},
                                           "cpu": {"score": 0, "max": 4.0},
                                           "gpu": {"score": 0, "max": 4.0}})
        test = data["tests"]["lesson01/ReverseCounters.OneWavefrontPerRequest"]
        self.assertEqual((test["score"], test["max"], test["role"]), (0, 2.0, "exercise"))
        prediction = data["tests"]["lesson01/Predictions.StrideOneWavefronts"]
        self.assertEqual(prediction["max"], 0.5)  # 2 points, 4 predictions
        self.assertEqual(test["status"], "not run")
        self.assertTrue(test["detail"].startswith("no usable GPU: CUDA driver version is insufficient"))
        failed = data["tests"]["lesson01/Banks.BankOfMatchesTheModel"]
        self.assertEqual(failed["status"], "failed")
        self.assertEqual(failed["detail"], "assertion at cpu_exercise_banks_test.cpp:12")
        guard = data["tests"]["lesson01/Layout.StageSlotIsAPermutationOfTheBlock"]
        self.assertEqual((guard["status"], guard["score"], guard["max"], guard["role"]),
                         ("passed", 0, 0, "guard"))
        self.assertEqual(data["warnings"], [])

        md = self.md.read_text()
        self.assertIn("## Grade: 0 / 10 points (0.0%)", md)
        self.assertIn("| 01 Banks, words and wavefronts | 0 / 10 | 1 / 15 | 8 | 6 | 0 |", md)
        self.assertIn("Parts: predictions 0 / 2, CPU tests 0 / 4, GPU tests 0 / 4.", md)
        self.assertIn("| ReverseCounters.OneWavefrontPerRequest | 0 / 2 | not run: `no usable GPU: "
                      "CUDA driver version is insufficient", md)
        self.assertIn("| Layout.StageSlotIsAPermutationOfTheBlock (guard) | 0 / 0 | passed |", md)
        self.assertIn("Grade: 0 / 10 points", proc.stdout)

    def test_without_roles_every_test_counts_and_a_warning_says_so(self):
        # ctest 3.25 records no labels in its JUnit report; no build folder given.
        proc = self.grade()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = self.score()
        # Every test weighs 1, and without labels none is known to be a GPU test: the
        # predictions (4, by their suite's name) take 3 points and the other 11 tests 7 (weights
        # 1:2, the largest remainder to the CPU part); the one test that passed is worth 7/11 of
        # a point, which rounds to 1.
        self.assertEqual(data["total"], {"score": 1.0, "max": 10.0, "percent": 10.0})
        self.assertIn("does not say whether 15 tests are exercises or guards", data["warnings"][0])
        self.assertIn("warning: the report does not say", proc.stdout)

    def test_some_failing_on_a_gpu(self):
        # The starter on an H200 (counters refused by that run's toolkit). Its JUnit report
        # carries the labels: no build folder needed for the roles.
        proc = self.grade(junit=("junit-l01-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = self.score()
        self.assertEqual(data["total"]["score"], 0)
        self.assertEqual(data["warnings"], [])
        lesson = data["lessons"]["lesson01"]
        self.assertEqual((lesson["passed"], lesson["tests"]), (3, 15))
        self.assertEqual(data["tests"]["lesson01/ReverseBlocks.MatchesTheCpuOnRandomData"]["detail"],
                         "assertion at gpu_exercise_reverse_test.cpp:42")
        skipped = data["tests"]["lesson01/DemoCounters.EqualTheModel"]
        self.assertEqual(skipped["status"], "not run")
        self.assertIn("too old for the Range Profiler API", skipped["detail"])
        slow = data["tests"]["lesson01/DemoSlowdown.Stride33OverStrideOne"]
        self.assertEqual(slow["measured"], ["'float stride 33' over 'float stride 1': measured 1.00x "
                                            "model 1.00x fidelity 0.999 warps/SM 64 (pass)"])
        self.assertIn("Measured:", self.md.read_text())

    def test_guards_can_carry_points(self):
        self.points.write_text('{"role_weights": {"guard": 1}, "lessons": {"lesson01": 10}}')
        self.grade(junit=("junit-l01-h200.xml",))
        self.assertEqual(self.score()["total"]["score"], 2.0)  # 3 of 15, all weighing 1

    def test_the_solution_tree_of_the_same_run(self):
        proc = self.grade("--tree", "solution", junit=("junit-l01-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # 9 of 10 exercise tests passed; the one not run is one of the GPU part's 2: predictions
        # 2 + CPU tests 4 + GPU tests 2 of 4.
        self.assertEqual(self.score()["total"]["score"], 8.0)

    @unittest.skipUnless((FIXTURES / ALL_PASSING).is_file(), f"{ALL_PASSING} not recorded")
    def test_all_passing(self):
        proc = self.grade("--tree", "solution", "--pass-mark", "100", junit=(ALL_PASSING,))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        data = self.score()
        self.assertEqual(data["total"]["percent"], 100.0)
        self.assertTrue(all(t["status"] == "passed" for t in data["tests"].values()))

    def test_hidden_tests_recorded_on_a_gpu(self):
        # The starter with the documented hidden tests (docs/examples/hidden-tests), on an H200.
        proc = self.grade(junit=("junit-starter-hidden-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = self.score()
        lesson = data["lessons"]["lesson01"]
        self.assertEqual((lesson["score"], lesson["passed"], lesson["tests"]), (0, 5, 17))
        hidden = {k: v for k, v in data["tests"].items() if v["hidden"]}
        self.assertEqual(sorted(hidden), ["lesson01/hidden/HiddenBanks.BankAndWordAgreeWithTheModelEverywhere",
                                          "lesson01/hidden/HiddenLayout.ReadbackReversesEveryBlockSize"])
        for test in hidden.values():  # the CPU part's 4 points over its 4 + 2 hidden tests
            self.assertEqual((test["role"], test["status"], test["max"]), ("exercise", "failed", 0.6667))
        # Counters that ran show beside the model.
        counters = data["tests"]["lesson01/ReverseCounters.OneWavefrontPerRequest"]
        self.assertEqual(counters["status"], "failed")
        self.assertIn("load 8.00 wavefronts/request (model 8.00)", counters["measured"][0])

    def test_all_passing_synthetic(self):
        cases = [junit_case(f"student/lesson01/S.T{i}", output=passing_output(f"S.T{i}"))
                 for i in range(3)]
        report = junit_file(self.tmp / "pass.xml", cases)
        proc = self.grade("--pass-mark", "100", junit=(report,))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(self.score()["total"], {"score": 10.0, "max": 10.0, "percent": 100.0})

    def test_programs_that_did_not_build_score_zero(self):
        # ctest reports each test of a program that is not built as not run, "Unable to find
        # executable": every such test scores 0, "did not build".
        proc = self.grade(junit=("junit-not-built.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = self.score()
        self.assertEqual(data["total"]["score"], 0)
        lesson = data["lessons"]["lesson01"]
        self.assertEqual(lesson["tests"], 15)
        test = data["tests"]["lesson01/Banks.BankOfMatchesTheModel"]
        self.assertEqual((test["status"], test["detail"]), ("did not build",
                                                            "lesson01_student_cpu is not built"))
        gpu = data["tests"]["lesson01/ReverseBlocks.MatchesTheCpuOnRandomData"]
        self.assertEqual(gpu["detail"], "lesson01_student_gpu is not built")
        self.assertIn("| 0 / 10 | 0 / 15 | 0 | 0 | 0 | 15 |", self.md.read_text())

    def test_the_build_folder_finds_what_did_not_run_or_build(self):
        # A report without the lesson's tests: the build folder's test list brings them back,
        # and says which have no program (ctest's list names no command for them).
        build = make_build(self.tmp / "build", self.source)
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-not-built.json")
        proc = self.grade("--build-dir", build, junit=("junit-kit-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.score()["lessons"]["lesson01"]["tests"], 15)
        self.assertEqual(self.score()["tests"]["lesson01/Banks.BankOfMatchesTheModel"]["status"],
                         "did not build")
        # A registered test missing from the report scores 0, "not run".
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-student-nogpu.json")
        one = junit_file(self.tmp / "one.xml", [junit_case(
            "student/lesson01/Layout.StageSlotIsAPermutationOfTheBlock",
            output=passing_output("Layout.StageSlotIsAPermutationOfTheBlock"))])
        self.grade("--build-dir", build, junit=(one,))
        data = self.score()
        self.assertEqual(data["total"]["score"], 0)  # the one that ran is a guard
        self.assertEqual((data["lessons"]["lesson01"]["passed"], data["lessons"]["lesson01"]["tests"]), (1, 15))
        self.assertEqual(data["tests"]["lesson01/Banks.BankOfMatchesTheModel"]["detail"],
                         "not in the test report")

    def test_a_lesson_that_did_not_build_at_all(self):
        status = self.tmp / "build-status.json"
        status.write_text(json.dumps({"version": 1, "lessons": {"lesson01": {
            "status": "did not build", "error": "exercise.cu(12): error: expected a ';'"}}}))
        proc = self.grade("--build-status", status, junit=("junit-kit-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lesson = self.score()["lessons"]["lesson01"]
        self.assertEqual((lesson["score"], lesson["max"]), (0, 10.0))
        self.assertEqual(lesson["note"], "Did not build: exercise.cu(12): error: expected a ';'")

    def test_what_a_students_code_wrote_is_plain_text_on_its_line(self):
        # A compiler's message quotes the student's raw string: no line, link, image or bold of
        # theirs in the report, and the log's lines are the grader's.
        error = ('exercise.hpp:3: error: static assertion failed: "\n\n**Trusted grade. 10 / 10**'
                 '\n![x](https://example.com/p.png) [see](https://example.com) <b>x</b>\r\u202e"')
        status = self.tmp / "build-status.json"
        status.write_text(json.dumps({"version": 1, "lessons": {"lesson01": {
            "status": "did not build", "error": error}}}))
        proc = self.grade("--build-status", status, junit=("junit-kit-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        md = self.md.read_text()
        note = next(line for line in md.splitlines() if "static assertion failed" in line)
        self.assertEqual(note, "`Did not build: " + error.replace("\n", "\\n").replace(
            "\r", "\\r").replace("\u202e", "\\u202e") + "`")
        self.assertEqual(md.count("\n**"), 1)  # the grader's verdict, and no bold line of theirs
        for text in ("\r", "\u202e"):
            self.assertNotIn(text, md)

    def test_a_lesson_with_no_results_scores_zero(self):
        (self.source / "lessons" / "02_stride_two").mkdir()
        (self.source / "lessons" / "02_stride_two" / "lesson.json").write_text(
            manifest("02_stride_two", "Stride two", points=7))
        self.points.write_text('{"default_lesson_points": 5, "lessons": {"lesson01": 10}}')
        self.grade()
        data = self.score()
        self.assertEqual(data["total"]["max"], 15.0)
        self.assertEqual(data["lessons"]["lesson02"]["note"], "No results: the lesson's tests did not run.")

    def test_per_test_points(self):
        self.points.write_text(json.dumps({"lessons": {"lesson01": {"tests": {
            "Banks.BankOfMatchesTheModel": 1, "Layout.StageSlotIsAPermutationOfTheBlock": 2,
            "ReverseCounters.OneWavefrontPerRequest": 2, "hidden/Extra.Missing": 1}}}}))
        proc = self.grade(junit=("junit-l01-h200.xml",))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = self.score()
        self.assertEqual(data["total"], {"score": 2.0, "max": 6.0, "percent": 33.33})
        self.assertEqual(data["tests"]["lesson01/hidden/Extra.Missing"],
                         {"lesson": "lesson01", "score": 0, "max": 1.0, "status": "not run",
                          "detail": "not in the test report", "role": "", "hidden": True,
                          "measured": []})
        unlisted = data["tests"]["lesson01/Banks.WordOfMatchesTheModel"]
        self.assertEqual((unlisted["status"], unlisted["max"]), ("not in the points table", 0))
        self.assertEqual(data["lessons"]["lesson01"]["tests"], 4)

    def test_the_pass_mark(self):
        self.assertEqual(self.grade("--pass-mark", "50").returncode, 1)
        self.assertFalse(self.score()["passed"])
        self.assertIn("below the pass mark", self.md.read_text())
        proc = self.grade("--pass-mark", "5%")
        self.assertEqual(proc.returncode, 0)
        self.assertTrue(self.score()["passed"])
        self.assertEqual(self.grade().returncode, 0)  # no pass mark asked: 0 whatever the score
        self.assertIsNone(self.score()["passed"])

    def grader_case(self, name: str, verdict: str, detail: str = "") -> str:
        """One <testcase> as the grader writes it (grade_tests.py): its verdict as a property."""
        labels = "cpu;exercise;lesson01;student"
        skipped = verdict in ("skipped", "not gradable here")
        out = f"{name}: Skipped\n{detail}\n[  SKIPPED ] {name}\n" if skipped else ""
        failure = '<failure message="assertion"/>' if verdict == "failed" else ""
        if verdict == "failed":
            out = f"/src/hidden_test.cpp:12: Failure\nExpected: the secret\n[  FAILED  ] {name}\n"
        return (f'<testcase name="{name}" classname="grade" time="0.01" '
                f'status="{"notrun" if skipped else "run"}"><properties>'
                f'<property name="cmake_labels" value="{labels}"/>'
                f'<property name="course_verdict" value="{verdict}"/></properties>{failure}'
                f'<system-out>{out}</system-out></testcase>\n')

    def test_an_incomplete_grade_says_so_and_hidden_tests_keep_their_names(self):
        report = junit_file(self.tmp / "incomplete.xml", [
            self.grader_case("student/lesson01/A.Cpu", "passed"),
            self.grader_case("student/lesson01/G.Gpu", "not gradable here",
                             "no GPU: no usable GPU (nvidia-smi found none)"),
            self.grader_case("student/lesson01/hidden/H.Secret", "failed")])
        proc = self.grade(junit=(report,))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)  # not asked to require it
        md = self.md.read_text()
        self.assertIn("**Incomplete grade: 3.33 of 10 points were not gradable on this machine "
                      "(no GPU: no usable GPU (nvidia-smi found none))", md)
        self.assertIn("INCOMPLETE: 3.33 of 10 points not gradable on this machine", proc.stdout)
        data = self.score()
        self.assertEqual((data["complete"], data["not_gradable_points"]), (False, 3.3333))
        # The student reads the Markdown: hidden tests by count and points, never by name or
        # assertion. The JSON score file, the instructor's, keeps them.
        self.assertIn("| hidden tests (1) | 0 / 3.33 | 0 of 1 passed |", md)
        self.assertNotIn("H.Secret", md)
        self.assertNotIn("hidden_test.cpp", md)
        self.assertIn("lesson01/hidden/H.Secret", data["tests"])
        proc = self.grade("--require-complete", junit=(report,))
        self.assertEqual(proc.returncode, 3, proc.stdout + proc.stderr)
        self.assertIn("Incomplete grade", proc.stderr)
        complete = junit_file(self.tmp / "complete.xml", [
            self.grader_case("student/lesson01/A.Cpu", "passed")])
        self.assertEqual(self.grade("--require-complete", junit=(complete,)).returncode, 0)
        self.assertTrue(self.score()["complete"])
        self.assertNotIn("Incomplete", self.md.read_text())

    def test_a_test_passed_from_the_cpu_recording_earns_its_points_and_is_listed_apart(self):
        # The grader lists a counter test so only where the instructor let such tests earn
        # their points (grade_tests.py); the report counts it apart from those that passed.
        report = junit_file(self.tmp / "recorded.xml", [
            self.grader_case("student/lesson01/A.Cpu", "passed"),
            self.grader_case("student/lesson01/C.Counts", "passed from the CPU recording")])
        proc = self.grade(junit=(report,))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        data = self.score()
        self.assertEqual(data["tests"]["lesson01/C.Counts"]["status"],
                         "passed from the CPU recording")
        self.assertEqual(data["tests"]["lesson01/C.Counts"]["score"],
                         data["tests"]["lesson01/C.Counts"]["max"])
        self.assertGreater(data["tests"]["lesson01/C.Counts"]["max"], 0)
        self.assertEqual((data["lessons"]["lesson01"]["passed"],
                          data["lessons"]["lesson01"]["from_cpu_recording"]), (1, 1))
        self.assertTrue(data["complete"])
        self.assertIn("| 1 / 2 (and 1 from the CPU recording) |", self.md.read_text())
        self.assertIn("1 passed from the CPU recording", proc.stdout)

    def test_several_reports_merge(self):
        proc = self.grade(junit=("junit-kit-h200.xml", "junit-student-nogpu.xml"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.score()["lessons"]["lesson01"]["tests"], 15)

    def test_markdown_to_stdout(self):
        proc = self.run_tool("course.grading.grade", "--source-dir", self.source, "report", "--junit",
                             FIXTURES / "junit-student-nogpu.xml", "--points", self.points,
                             "--markdown", "-")
        self.assertIn("| Lesson | Points | Passed | Failed | Not run | Not gradable here | "
                      "Did not build |", proc.stdout)
        # Not the grader's own JUnit file: the report says it cannot be trusted.
        self.assertIn("**NOT a trusted grade.**", proc.stdout)

    def test_the_course_points_table_reads(self):
        proc = self.run_tool("course.grading.grade", "report", "--junit", FIXTURES / "junit-student-nogpu.xml")
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_each_lesson_is_worth_its_manifests_points(self):
        (self.source / "lessons" / "01_no_conflict" / "lesson.json").write_text(
            manifest("01_no_conflict", "Banks, words and wavefronts", points=7))
        proc = self.run_tool("course.grading.grade", "--source-dir", self.source, "report",
                             "--junit", FIXTURES / "junit-student-nogpu.xml", "--json", self.json)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.score()["total"]["max"], 7.0)

    def test_an_instructors_table_overrides_the_lessons_it_names(self):
        (self.source / "lessons" / "02_stride_two").mkdir()
        (self.source / "lessons" / "02_stride_two" / "lesson.json").write_text(
            manifest("02_stride_two", "Stride two", points=7))
        self.points.write_text('{"lessons": {"lesson01": 3}}')
        self.grade()
        lessons = self.score()["lessons"]
        self.assertEqual((lessons["lesson01"]["max"], lessons["lesson02"]["max"]), (3.0, 7.0))
        # The course's own instructor table (tests/points.json) is read where there is one.
        (self.source / "tests" / "points.json").write_text('{"default_lesson_points": 5}')
        proc = self.run_tool("course.grading.grade", "--source-dir", self.source, "report",
                             "--junit", FIXTURES / "junit-student-nogpu.xml", "--json", self.json)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lessons = self.score()["lessons"]
        self.assertEqual((lessons["lesson01"]["max"], lessons["lesson02"]["max"]), (5.0, 5.0))

    def test_a_broken_manifest_is_one_line(self):
        (self.source / "lessons" / "01_no_conflict" / "lesson.json").write_text('{"lesson": "01"}')
        self.assertOneLineError(self.grade(), 2, "lessons/01_no_conflict/lesson.json")


class GradeErrors(ToolTest):
    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.points = self.tmp / "points.json"
        self.points.write_text('{"lessons": {"lesson01": 10}}')

    def report(self, junit, *args: str, points=None):
        return self.run_tool("course.grading.grade", "--source-dir", self.source, "report", "--junit", junit,
                             "--points", points or self.points, *args)

    def test_missing_empty_malformed_and_empty_junit(self):
        self.assertOneLineError(self.report(self.tmp / "none.xml"), 2, "no such JUnit file")
        (self.tmp / "empty.xml").write_text("\n")
        self.assertOneLineError(self.report(self.tmp / "empty.xml"), 2, "the JUnit file is empty")
        (self.tmp / "bad.xml").write_text("<testsuite><testcase name='a'></testsuite>")
        self.assertOneLineError(self.report(self.tmp / "bad.xml"), 2, "not valid JUnit XML")
        (self.tmp / "html.xml").write_text("<html><body/></html>")
        self.assertOneLineError(self.report(self.tmp / "html.xml"), 2, "not a JUnit test suite")
        # ctest writes this when it found no tests.
        (self.tmp / "none-ran.xml").write_text('<?xml version="1.0"?>\n<testsuite name="(empty)" tests="0"/>\n')
        self.assertOneLineError(self.report(self.tmp / "none-ran.xml"), 2, "holds no test results")

    def test_bad_points_tables(self):
        junit = FIXTURES / "junit-student-nogpu.xml"
        self.assertOneLineError(self.report(junit, points=self.tmp / "nope.json"), 2, "no such points table")
        bad = self.tmp / "bad.json"
        for text, message in (("{", "not valid JSON"),
                              ("[]", "expected an object"),
                              ('{"lessons": {"one": 10}}', "named like lesson01"),
                              ('{"lessons": {"lesson1": 10}}', "named like lesson01"),
                              ('{"lessons": {"lesson01": -1}}', "negative"),
                              ('{"lessons": {"lesson01": "ten"}}', "not a number"),
                              ('{"lessons": {"lesson01": {"pts": 1}}}', "unknown key 'pts'"),
                              ('{"lessons": {"lesson01": {"tests": {"A.B": 0}}}}', "add up to 0"),
                              ('{"lesson": {}}', "unknown key 'lesson'"),
                              ('{"role_weights": {"demo": 1}, "lessons": {"lesson01": 1}}', "role_weights"),
                              ('{"role_weights": {"guard": -1}, "lessons": {"lesson01": 1}}', "negative")):
            with self.subTest(text=text):
                bad.write_text(text)
                self.assertOneLineError(self.report(junit, points=bad), 2, message)

    def test_bad_flags_and_numbers(self):
        junit = FIXTURES / "junit-student-nogpu.xml"
        self.assertOneLineError(self.report(junit, "--pass-mark", "120"), 2, "not between 0 and 100")
        self.assertOneLineError(self.report(junit, "--pass-mark", "most"), 2, "not a percentage")
        self.assertOneLineError(self.report(junit, "--tree", "mine"), 2, "invalid choice")
        self.assertOneLineError(self.report(junit, "--colour"), 2, "unrecognized arguments")
        self.assertOneLineError(self.run_tool("course.grading.grade", "report"), 2, "--junit")
        self.assertOneLineError(self.run_tool("course.grading.grade"), 2)

    def test_unwritable_outputs(self):
        junit = FIXTURES / "junit-student-nogpu.xml"
        blocker = self.tmp / "a-file"
        blocker.write_text("x")
        self.assertOneLineError(self.report(junit, "--json", blocker / "score.json"), 2, "cannot write")
        self.assertOneLineError(self.report(junit, "--markdown", blocker / "report.md"), 2, "cannot write")
        self.assertOneLineError(self.report(junit, "--markdown", self.tmp), 2, "it is a folder")

    def test_bad_build_status_and_build_dir(self):
        junit = FIXTURES / "junit-student-nogpu.xml"
        self.assertOneLineError(self.report(junit, "--build-status", self.tmp / "none.json"), 2,
                                "no such build status file")
        (self.tmp / "status.json").write_text("[1, 2]")
        self.assertOneLineError(self.report(junit, "--build-status", self.tmp / "status.json"), 2,
                                "not a build status file")
        self.assertOneLineError(self.report(junit, "--build-dir", self.tmp), 2,
                                "not a configured build folder")


@unittest.skipUnless(Sandbox.probe().isolated, "no sandbox here")
class LessonStep(ToolTest):
    """grade.py lesson NN: one Classroom step; exit 0 only if every test of the lesson passed
    (test_grade_tests.py runs it on test programs that pass, skip and cheat)."""

    def setUp(self) -> None:
        super().setUp()
        self.source = make_course(self.tmp / "course")
        self.build = make_build(self.tmp / "build", self.source)
        self.points = self.tmp / "points.json"
        self.points.write_text('{"lessons": {"lesson01": 10}}')

    def lesson(self, *args: str):
        return self.run_tool("course.grading.grade", "--source-dir", self.source, "lesson", "01",
                             "--build-dir", self.build, "--points", self.points, *args)

    def test_a_program_that_did_not_build(self):
        self.env["FAKE_CTEST_JUNIT"] = str(FIXTURES / "junit-kit-h200.xml")
        self.env["FAKE_CTEST_LIST"] = str(FIXTURES / "tests-not-built.json")
        proc = self.lesson()
        self.assertEqual(proc.returncode, 1)
        self.assertIn("did not build  Banks.BankOfMatchesTheModel: its test program is not built",
                      proc.stdout)

    def test_errors(self):
        self.assertOneLineError(self.run_tool("course.grading.grade", "lesson", "01", "--build-dir", self.tmp / "x",
                                              "--points", self.points), 2, "not a configured build folder")
        self.assertOneLineError(self.run_tool("course.grading.grade", "lesson", "1x", "--build-dir", self.build), 2,
                                "not a lesson number")
        self.assertOneLineError(self.run_tool("course.grading.grade", "--source-dir", self.source, "lesson", "04",
                                              "--build-dir", self.build, "--points", self.points),
                                2, "no lesson 04")
        self.assertOneLineError(self.lesson("--jobs", "0"), 2, "out of range")


class PointsAndClassroom(ToolTest):
    def test_points_lists_every_test_of_a_reference_run(self):
        out = self.tmp / "points.json"
        points = "--source-dir", make_course(self.tmp / "course"), "points"
        proc = self.run_tool("course.grading.grade", *points, "--junit",
                             FIXTURES / "junit-l01-h200.xml", "--output", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        data = json.loads(out.read_text())
        self.assertEqual(data["lessons"]["lesson01"]["points"], 10, "the manifest's points")
        self.assertEqual(len(data["lessons"]["lesson01"]["tests"]), 15)
        # An instructor's points are kept when the table is written again.
        data["lessons"]["lesson01"]["points"] = 12
        out.write_text(json.dumps(data))
        proc = self.run_tool("course.grading.grade", *points, "--junit",
                             FIXTURES / "junit-l01-h200.xml", "--output", out)
        self.assertEqual(json.loads(out.read_text())["lessons"]["lesson01"]["points"], 12)
        self.assertOneLineError(self.run_tool("course.grading.grade", *points, "--junit",
                                              FIXTURES / "junit-kit-h200.xml"), 2,
                                "no solution lesson tests")

    def test_classroom_has_one_step_per_lesson(self):
        source = make_course(self.tmp / "course", {"01_no_conflict": None, "02_stride_two": None})
        points = self.tmp / "points.json"
        points.write_text('{"default_lesson_points": 10, "lessons": {"lesson02": 20}}')
        proc = self.run_tool("course.grading.grade", "--source-dir", source, "classroom", "--points", points)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("grade.py lesson 01", proc.stdout)
        self.assertIn("max-score: 20", proc.stdout)
        self.assertIn("runners: lesson01,lesson02", proc.stdout)
        if have_yaml():
            import yaml
            steps = yaml.safe_load(proc.stdout)["jobs"]["autograding"]["steps"]
            self.assertEqual([s.get("id") for s in steps if s.get("id")], ["lesson01", "lesson02"])
        points.write_text('{"lessons": {"lesson01": 2.5, "lesson02": 1}}')
        proc = self.run_tool("course.grading.grade", "--source-dir", source, "classroom", "--points", points)
        self.assertOneLineError(proc, 2, "whole numbers")

class Parts(unittest.TestCase):
    """A lesson's points by parts, scored from results made here: whole points per part, each
    part's score rounded, the sanitizer's penalty, a table that lists tests has no parts."""

    def results(self, *cases):
        from course.model.ctest_results import ASSERTION, PASS, TestResult
        out = {}
        for name, labels, passed in cases:
            full = f"student/lesson01/{name}"
            out[full] = TestResult(full, PASS if passed else ASSERTION, labels=labels)
        return out

    def grade(self, table, *cases):
        from course.grading import scoring
        return scoring.score(table, self.results(*cases)).lessons[0]

    def table(self, text='{"lessons": {"lesson01": 10}}'):
        import tempfile
        from pathlib import Path
        from course.grading.points_table import load_points
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "points.json"
            path.write_text(text)
            return load_points(path)

    CPU = ["cpu", "exercise", "lesson01", "student"]
    PRED = CPU + ["predictions"]
    GPU = ["gpu", "exercise", "lesson01", "student"]
    GUARD = ["cpu", "guard", "lesson01", "student"]
    RACE = ["gpu", "guard", "racecheck", "sanitize", "lesson01", "student"]

    def test_whole_split(self):
        from fractions import Fraction as F
        from course.grading.scoring import whole_split
        self.assertEqual(whole_split(F(10), {"p": F(1), "c": F(2), "g": F(2)}),
                         {"p": 2, "c": 4, "g": 4})
        self.assertEqual(whole_split(F(10), {"p": F(1), "c": F(2)}), {"p": 3, "c": 7})
        self.assertEqual(whole_split(F(7), {"a": F(1), "b": F(1), "c": F(1)}),
                         {"a": 3, "b": 2, "c": 2})
        self.assertEqual(sum(whole_split(F(13), {"p": F(1), "c": F(2), "g": F(2)}).values()), 13)

    def test_parts_round_to_whole_points(self):
        lesson = self.grade(self.table(),
                            ("Predictions.A", self.PRED, True), ("Predictions.B", self.PRED, False),
                            ("Layout.A", self.CPU, True), ("Layout.B", self.CPU, True),
                            ("Layout.C", self.CPU, False), ("Gpu.A", self.GPU, False),
                            ("Guard.A", self.GUARD, True))
        self.assertEqual(lesson.parts, {"predictions": 2, "cpu": 4, "gpu": 4})
        # predictions 1 of 2, CPU tests 2 of 3 (8/3 rounds to 3), GPU tests 0.
        self.assertEqual((lesson.part_score("predictions"), lesson.part_score("cpu"),
                          lesson.part_score("gpu")), (1, 3, 0))
        self.assertEqual(lesson.score, 4)
        self.assertEqual(lesson.score.denominator, 1)

    def test_a_lesson_without_gpu_exercises_gives_their_weight_to_the_others(self):
        lesson = self.grade(self.table(), ("Predictions.A", self.PRED, True),
                            ("Layout.A", self.CPU, True))
        self.assertEqual(lesson.parts, {"predictions": 3, "cpu": 7})
        self.assertEqual(lesson.score, 10)

    def test_a_failed_sanitizer_run_costs_its_share(self):
        cases = [("Predictions.A", self.PRED, True), ("Layout.A", self.CPU, True),
                 ("Gpu.A", self.GPU, True)]
        clean = self.grade(self.table(), *cases, ("racecheck/gpu_exercise_x_test", self.RACE, True))
        self.assertEqual((clean.score, clean.penalty), (10, 0))
        racing = self.grade(self.table(), *cases,
                            ("racecheck/gpu_exercise_x_test", self.RACE, False))
        self.assertEqual((racing.score, racing.penalty), (8, 2))
        self.assertIn("A sanitizer run of the kernel failed (racecheck/gpu_exercise_x_test): "
                      "-2 points.", racing.note)
        # Down to zero, never below; and the table sets the share.
        starter = self.grade(self.table('{"sanitizer_penalty": 0.5, "lessons": {"lesson01": 10}}'),
                             ("Layout.A", self.CPU, False), ("Gpu.A", self.GPU, True),
                             ("racecheck/gpu_exercise_x_test", self.RACE, False))
        self.assertEqual((starter.penalty, starter.score), (5, 0))

    def test_the_table_sets_the_weights_and_a_list_of_tests_has_no_parts(self):
        lesson = self.grade(self.table('{"part_weights": {"predictions": 0, "cpu": 1, "gpu": 1},'
                                       ' "lessons": {"lesson01": 10}}'),
                            ("Predictions.A", self.PRED, True), ("Layout.A", self.CPU, True),
                            ("Gpu.A", self.GPU, False))
        self.assertEqual((lesson.parts, lesson.score), ({"cpu": 5, "gpu": 5}, 5))
        listed = self.grade(self.table('{"lessons": {"lesson01": {"points": 10, "tests": '
                                       '{"Layout.A": 1, "Gpu.A": 3}}}}'),
                            ("Layout.A", self.CPU, True), ("Gpu.A", self.GPU, False),
                            ("racecheck/gpu_exercise_x_test", self.RACE, False))
        self.assertEqual((listed.parts, listed.penalty, listed.score), ({}, 0, 2.5))

    def test_bad_tables(self):
        from course.model.course_model import CourseError
        for text, words in (('{"part_weights": {"cpu": -1}}', "negative"),
                            ('{"part_weights": {"kernel": 1}}', "part_weights: expected"),
                            ('{"part_weights": {"predictions": 0, "cpu": 0, "gpu": 0}}',
                             "every part weighs 0"),
                            ('{"sanitizer_penalty": 2}', "a share of the lesson's points")):
            with self.subTest(text=text):
                with self.assertRaises(CourseError) as e:
                    self.table(text)
                self.assertIn(words, str(e.exception))


if __name__ == "__main__":
    unittest.main()
