"""model/manifest.py: every lesson's manifest reads and is written in the course's own form; a
manifest that says something the reader does not know, or says it wrongly, is refused with one
sentence naming the file and the key."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from course_testing import ROOT, ToolTest
from course.model.course_model import CourseError, find_lessons
from course.model.manifest import manifest_json, parse_manifest

GOOD = {"lesson": "03", "title": "T", "teaches": "t", "points": 10, "kernel_on_cpu": False,
        "gpu": {"compute_capability": "7.5", "tma": False, "ldmatrix": False, "stmatrix": False,
                "shared_memory_per_block": 4096, "counters": True}}


def parse(data, number: str = "03"):
    text = data if isinstance(data, str) else json.dumps(data)
    return parse_manifest(text, Path("lesson.json"), "lessons/03_x/lesson.json", number)


class CourseManifests(unittest.TestCase):
    def test_every_lesson_has_one_in_the_courses_form(self):
        lessons = find_lessons(ROOT)
        self.assertTrue(lessons)
        for lesson in lessons:
            with self.subTest(lesson=lesson.folder):
                m = lesson.manifest
                self.assertEqual(m.lesson, lesson.number)
                self.assertEqual(manifest_json(m), (lesson.dir / "lesson.json").read_text(),
                                 "not in the form the course writes (model/manifest.py)")


class Refusals(ToolTest):
    def assertRefused(self, data, *words: str, number: str = "03") -> None:
        with self.assertRaises(CourseError) as e:
            parse(data, number)
        message = str(e.exception)
        self.assertTrue(message.startswith("lessons/03_x/lesson.json: "), message)
        self.assertNotIn("\n", message)
        for w in words:
            self.assertIn(w, message)

    def test_a_good_one_reads(self):
        m = parse(dict(GOOD, policy={"std": ["vector"]}, measured=[
            {"block": "lesson03", "table": "docs/measurements/lessons.csv", "rows": ["lesson=03"]}]))
        self.assertEqual((m.title, m.points, m.gpu.counters, m.policy.std), ("T", 10, True,
                                                                              ("vector",)))
        self.assertEqual(m.measured[0].where, "lessons/03_x/lesson.json, measured[0]")

    def test_what_only_a_gpu_judges(self):
        m = parse(dict(GOOD, gpu_judges="Speed: the bandwidth test runs on a GPU."))
        self.assertEqual(m.gpu_judges, "Speed: the bandwidth test runs on a GPU.")
        self.assertIn('"gpu_judges": "Speed: the bandwidth test runs on a GPU."', m.to_json())
        self.assertEqual(parse(GOOD).gpu_judges, "")
        self.assertNotIn("gpu_judges", parse(GOOD).to_json())
        self.assertRefused(dict(GOOD, gpu_judges=["speed"]), "gpu_judges")

    def test_what_tests_need_beyond_their_lesson(self):
        entry = {"tests": ["Stores.*", "DemoCounters.PairStore*"], "wide_rules": True,
                 "why": "8-byte stores"}
        m = parse(dict(GOOD, gpu=dict(GOOD["gpu"], tests=[entry])))
        self.assertEqual(m.gpu.shared_memory_per_block, 4096)
        self.assertEqual(m.gpu.tests[0].tests, ("Stores.*", "DemoCounters.PairStore*"))
        self.assertTrue(m.gpu.tests[0].wide_rules)
        self.assertFalse(m.gpu.tests[0].ldmatrix_rule)
        self.assertEqual(parse(m.to_json()), m, "written as read")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], tests=[dict(entry, tests=[])])),
                           "gpu.tests[0].tests", "no test")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], tests=[dict(entry, tests=["x y"])])),
                           "gpu.tests[0].tests[0]")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], tests=[
            {"tests": ["A.B"], "why": "w"}])), "gpu.tests[0]", "says no need")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], tests=[dict(entry, fp64=True)])),
                           "gpu.tests[0]", "unknown key fp64")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], tests=[
            {k: v for k, v in entry.items() if k != "why"}])), "gpu.tests[0]", "missing why")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], shared_memory_per_block=-1)),
                           "gpu.shared_memory_per_block")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], shared_memory_per_block="4 KB")),
                           "gpu.shared_memory_per_block")

    def test_which_counter_tests_may_take_the_cpu_recording(self):
        on_cpu = dict(GOOD, kernel_on_cpu=True)
        m = parse(dict(on_cpu, gpu=dict(GOOD["gpu"], cpu_recording=["TransposeCounters.*"])))
        self.assertEqual(m.gpu.cpu_recording, ("TransposeCounters.*",))
        self.assertEqual(parse(m.to_json()), m, "written as read")
        self.assertEqual(parse(on_cpu).gpu.cpu_recording, ())
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], cpu_recording=["A.B"])),
                           "gpu.cpu_recording", "kernel runs on the CPU")
        self.assertRefused(dict(on_cpu, gpu=dict(GOOD["gpu"], cpu_recording=[])),
                           "gpu.cpu_recording", "no test")
        self.assertRefused(dict(on_cpu, gpu=dict(GOOD["gpu"], cpu_recording=["x y"])),
                           "gpu.cpu_recording[0]")
        self.assertRefused(dict(on_cpu, gpu=dict(GOOD["gpu"], counters=False,
                                                 cpu_recording=["A.B"])),
                           "gpu.cpu_recording", "gpu.counters is false")

    def test_which_tests_run_alone_when_graded(self):
        m = parse(dict(GOOD, grade_tests_alone="its exercise is host code"))
        self.assertEqual((m.grade_tests_alone, m.grade_tests_alone_tests),
                         ("its exercise is host code", ()))
        self.assertTrue(m.graded_alone("Any.Test"))
        m = parse(dict(GOOD, grade_tests_alone={"tests": ["Harness*.*"], "why": "host code"}))
        self.assertEqual(m.grade_tests_alone_tests, ("Harness*.*",))
        self.assertEqual(parse(m.to_json()), m, "written as read")
        self.assertTrue(m.graded_alone("HarnessRatio.InTheBand"))
        self.assertFalse(m.graded_alone("DemoChain.Latency"))
        self.assertFalse(parse(GOOD).graded_alone("Any.Test"))
        self.assertRefused(dict(GOOD, grade_tests_alone={"tests": [], "why": "x"}),
                           "grade_tests_alone.tests", "no test")
        self.assertRefused(dict(GOOD, grade_tests_alone={"tests": ["A.B"]}),
                           "grade_tests_alone", "missing why")
        self.assertRefused(dict(GOOD, grade_tests_alone={"tests": ["not a test"], "why": "x"}),
                           "grade_tests_alone.tests[0]")

    def test_what_is_refused(self):
        self.assertRefused("{", "not JSON")
        self.assertRefused(dict(GOOD, color="red"), "unknown key color")
        self.assertRefused({k: v for k, v in GOOD.items() if k != "points"}, "missing points")
        self.assertRefused(GOOD, "'03' is not the folder's number, 04", number="04")
        self.assertRefused(dict(GOOD, points=-1), "points")
        self.assertRefused(dict(GOOD, points=True), "points")
        self.assertRefused(dict(GOOD, title=""), "title")
        self.assertRefused(dict(GOOD, kernel_on_cpu="yes"), "kernel_on_cpu", "true or false")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], compute_capability="9")),
                           "gpu.compute_capability")
        self.assertRefused(dict(GOOD, gpu=dict(GOOD["gpu"], fp64=True)), "gpu", "unknown key fp64")
        self.assertRefused(dict(GOOD, policy={"names": "system"}), "policy.names", "list")
        self.assertRefused(dict(GOOD, pictures=[{"svg": "../x.svg", "bank_map": []}]),
                           "pictures[0].svg")
        self.assertRefused(dict(GOOD, pictures=[{"svg": "a.svg"}]), "pictures[0]",
                           "either bank_map")
        self.assertRefused(dict(GOOD, measured=[{"block": "b", "chart": "c.svg", "rows": ["a=b"]}]),
                           "measured[0]", "no rows")
        self.assertRefused(dict(GOOD, answer_exceptions=[{"file": "README.md"}]),
                           "answer_exceptions[0]", "missing")


if __name__ == "__main__":
    unittest.main()
