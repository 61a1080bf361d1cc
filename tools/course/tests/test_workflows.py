"""The GitHub workflows parse as YAML and name only presets and scripts that exist; grading runs
on the self-hosted GPU runner; the Classroom workflow has one step per lesson worth the lesson's
points; the student workflow preset ends in the progress table."""

from __future__ import annotations

import json
import re
import tempfile
import unittest
from pathlib import Path

from course_testing import ROOT, have_yaml
from course.model.course_model import find_lessons

WORKFLOWS = ROOT / ".github" / "workflows"
PRESET_KINDS = {  # how a command names a preset -> the CMakePresets.json list it must be in
    r"cmake\s+--workflow\s+--preset[= ]+([\w.-]+)": "workflowPresets",
    r"cmake\s+--build\s+--preset[= ]+([\w.-]+)": "buildPresets",
    r"ctest\s+--preset[= ]+([\w.-]+)": "testPresets",
    r"cmake\s+--preset[= ]+([\w.-]+)": "configurePresets",
}
# Paths a command runs: scripts of this repository. `course/` is the pinned checkout of this
# repository in the grading workflows.
SCRIPT = re.compile(r"(?<![\w/.-])(?:course/)?((?:\.ci|tools|\.github)/[\w./-]*\w)")
REGENERATE = "./course-admin regenerate"


def presets() -> dict:
    data = json.loads((ROOT / "CMakePresets.json").read_text())
    return {kind: {p["name"]: p for p in data.get(kind, [])}
            for kind in ("configurePresets", "buildPresets", "testPresets", "workflowPresets")}


def commands(workflow: dict):
    """(job, step, command text) of every run: and every autograding command:."""
    for job_name, job in workflow.get("jobs", {}).items():
        for step in job.get("steps", []):
            if "run" in step:
                yield job_name, step.get("name", step.get("id", "?")), step["run"]
            command = (step.get("with") or {}).get("command")
            if command:
                yield job_name, step.get("name", step.get("id", "?")), command


@unittest.skipUnless(have_yaml(), "PyYAML is not installed (Debian: python3-yaml), so the "
                                  "workflow files were not parsed")
class Workflows(unittest.TestCase):
    def setUp(self) -> None:
        import yaml
        self.workflows = {}
        for path in sorted(WORKFLOWS.glob("*.yml")):
            self.workflows[path.name] = yaml.safe_load(path.read_text())
        self.presets = presets()

    def test_the_workflows_parse(self):
        for name in ("ci.yml", "grade.yml", "classroom.yml", "grade-class.yml"):
            with self.subTest(workflow=name):
                wf = self.workflows.get(name)
                self.assertIsInstance(wf, dict, f"{name} is missing or not a mapping")
                self.assertIn("jobs", wf)
                self.assertTrue(wf.get("on") or wf.get(True), f"{name} has no triggers")  # YAML 1.1: on = true

    def test_only_presets_that_exist(self):
        for name, wf in self.workflows.items():
            for job, step, text in commands(wf):
                for pattern, kind in PRESET_KINDS.items():
                    for preset in re.findall(pattern, text):
                        with self.subTest(workflow=name, step=step, preset=preset):
                            self.assertIn(preset, self.presets[kind],
                                          f"{name} / {step}: no {kind[:-7]} preset '{preset}'")

    def test_only_scripts_that_exist(self):
        found = 0
        for name, wf in self.workflows.items():
            for job, step, text in commands(wf):
                for script in SCRIPT.findall(text):
                    found += 1
                    with self.subTest(workflow=name, step=step, script=script):
                        self.assertTrue((ROOT / script).exists(), f"{name} / {step}: {script} is missing")
        self.assertGreater(found, 5)

    def test_actions_are_pinned_to_a_version(self):
        for name, wf in self.workflows.items():
            for job in wf["jobs"].values():
                for step in job.get("steps", []):
                    if "uses" in step:
                        self.assertRegex(step["uses"], r"^[\w.-]+/[\w.-]+@v\d+$", f"{name}: {step['uses']}")

    def test_ci_runs_the_project_suite_without_a_gpu(self):
        ci = self.workflows["ci.yml"]
        job = next(iter(ci["jobs"].values()))
        self.assertNotIn("self-hosted", str(job["runs-on"]))
        self.assertIn("cuda", str(job.get("container", "")) + str(job.get("steps")), "no CUDA toolkit")
        runs = " ".join(text for _, _, text in commands(ci))
        self.assertTrue("bash .ci/run" in runs or "cmake --workflow --preset ci" in runs)
        self.assertIn("--preset docs", (WORKFLOWS / "ci.yml").read_text(),
                      "the commented docs step is gone")

    def test_grading_runs_on_the_gpu_runner(self):
        for name in ("grade.yml", "classroom.yml"):
            for job in self.workflows[name]["jobs"].values():
                with self.subTest(workflow=name):
                    self.assertEqual(job["runs-on"], ["self-hosted", "gpu"])
                    self.assertIn("COURSE_GRADER", job["if"])

    def test_a_students_workflows_see_no_hidden_test_and_no_secret(self):
        # The workflows a student repository gets run files the student can edit: no hidden
        # tests, no secret, not on every push (Classroom's excepted: it grades pushes), and a
        # new run replaces the student's queued one.
        from course.model.student_repo import left_out
        shipped = [name for name in self.workflows
                   if not left_out(f".github/workflows/{name}") and name != "pages.yml"]
        self.assertEqual(sorted(shipped), ["classroom.yml", "grade.yml"])
        for name in shipped:
            with self.subTest(workflow=name):
                text = (WORKFLOWS / name).read_text()
                self.assertNotIn("secrets.", text)
                self.assertNotIn("COURSE_HIDDEN_TESTS", text)
                wf = self.workflows[name]
                self.assertEqual(wf["concurrency"]["cancel-in-progress"], True)
                self.assertIn("github.repository", wf["concurrency"]["group"])
                on = wf.get("on") or wf.get(True)
                if name != "classroom.yml":
                    self.assertNotIn("push", on)
                    self.assertEqual(sorted(on), ["pull_request", "workflow_dispatch"])

    def test_the_class_is_graded_from_the_instructors_repository(self):
        from course.model.student_repo import left_out
        self.assertTrue(left_out(".github/workflows/grade-class.yml"))
        wf = self.workflows["grade-class.yml"]
        self.assertEqual(list(wf.get("on") or wf.get(True)), ["workflow_dispatch"])
        jobs = wf["jobs"]
        self.assertEqual(jobs["grade"]["runs-on"], ["self-hosted", "gpu", "course-grader"])
        self.assertEqual(jobs["grade"]["strategy"]["matrix"]["include"],
                         "${{ fromJSON(needs.roster.outputs.students) }}")
        self.assertFalse(jobs["grade"]["strategy"]["fail-fast"])
        runs = "\n".join(text for _, _, text in commands(wf))
        self.assertIn("--matrix", runs)
        self.assertIn('--only "$STUDENT"', runs)
        self.assertIn("--merge", runs)
        self.assertEqual(jobs["gradebook"]["needs"], ["roster", "grade"])
        self.assertTrue(jobs["gradebook"]["if"].startswith("always()"))
        # The students' token reaches the step that fetches, never the one that compiles their
        # code and runs their tests.
        for step in jobs["grade"]["steps"]:
            env = " ".join(str(v) for v in (step.get("env") or {}).values())
            if "grade_class" in step.get("run", "") and "--only" in step.get("run", ""):
                self.assertNotIn("secrets.", env)
                self.assertIn("COURSE_HIDDEN_TESTS", step["env"])
            elif "secrets.COURSE_STUDENTS_TOKEN" in env:
                self.assertIn("clone", step["run"])

    def test_grade_takes_the_course_from_the_pinned_commit(self):
        steps = self.workflows["grade.yml"]["jobs"]["grade"]["steps"]
        pinned = [s for s in steps if (s.get("with") or {}).get("ref") == "${{ env.COURSE_PIN_REF }}"]
        self.assertEqual(len(pinned), 1)
        self.assertEqual(pinned[0]["with"]["path"], "course")
        runs = "\n".join(s.get("run", "") for s in steps)
        self.assertIn("grade_run.sh --student student --course course", runs)
        self.assertIn("GITHUB_STEP_SUMMARY", runs)
        script = (ROOT / "tools" / "course" / "grade_run.sh").read_text()
        self.assertIn("gpu-env.sh", script)
        self.assertIn("course.grading.grade_run", script)
        run = (ROOT / "tools" / "course" / "grading" / "grade_run.py").read_text()
        for step in ("grade_tree.overlay", '"cmake", "--preset", "grade"', "grading_build(",
                     "course-machine-check", "grade_tests.run_tests", '"course.grading.grade"',
                     '"report"'):
            self.assertIn(step, run, "the grading run lost a step")
        self.assertTrue(any("upload-artifact" in s.get("uses", "") for s in steps))

    def test_classroom_builds_with_the_same_script(self):
        steps = self.workflows["classroom.yml"]["jobs"]["autograding"]["steps"]
        runs = "\n".join(s.get("run", "") for s in steps)
        self.assertIn("grade_run.sh --student student --course course --build-only", runs)

    def test_classroom_has_a_step_per_lesson_worth_its_points(self):
        from course.grading.points_table import course_points
        table = course_points(ROOT, find_lessons(ROOT))
        steps = self.workflows["classroom.yml"]["jobs"]["autograding"]["steps"]
        graders = {s["id"]: s for s in steps
                   if s.get("uses", "").startswith("classroom-resources/autograding-command-grader")}
        lessons = find_lessons(ROOT)
        labels = [lesson.label for lesson in lessons]
        self.assertEqual(sorted(graders), labels,
                         f"the Classroom steps are not the lessons: run `{REGENERATE}`")
        for lesson in lessons:
            step = graders[lesson.label]
            with self.subTest(lesson=lesson.label):
                self.assertEqual(int(step["with"]["max-score"]), int(table.get(lesson.label).points),
                                 f"max-score differs from the lesson's points: run `{REGENERATE}`")
                self.assertIn(f"grade.py lesson {lesson.number}", step["with"]["command"])
                self.assertTrue(step["with"]["command"].startswith("bash course/tools/course/gpu-env.sh "))
        reporter = [s for s in steps if "autograding-grading-reporter" in s.get("uses", "")]
        self.assertEqual(len(reporter), 1)
        self.assertEqual(reporter[0]["with"]["runners"].split(","), labels)
        for label in labels:
            self.assertEqual(reporter[0]["env"][f"{label.upper()}_RESULTS"],
                             f"${{{{ steps.{label}.outputs.result }}}}")


class ClassroomTemplate(unittest.TestCase):
    def test_the_committed_workflow_is_what_the_template_gives_now(self):
        from course.grading import grade
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "classroom.yml"
            self.assertEqual(grade.main(["classroom", "-o", str(out)]), 0)
            self.assertEqual((WORKFLOWS / "classroom.yml").read_text(), out.read_text(),
                             f"classroom.yml is stale: run `{REGENERATE}`")

    def test_a_template_value_the_tool_does_not_give_is_an_error(self):
        from course.model import templates
        from course.model.course_model import CourseError
        with self.assertRaises(CourseError) as e:
            templates.render("classroom.yml.in", {}, {"lesson": []})
        self.assertIn("no value for @RUNNERS@", str(e.exception))


class Presets(unittest.TestCase):
    def test_the_student_workflow_ends_in_the_progress_table(self):
        p = presets()
        steps = p["workflowPresets"]["student"]["steps"]
        self.assertEqual(steps[-1]["type"], "build")
        self.assertEqual(p["buildPresets"][steps[-1]["name"]].get("targets"), ["progress"])

    def test_the_grade_presets(self):
        p = presets()
        grade = p["configurePresets"]["grade"]["cacheVariables"]
        self.assertEqual(grade["COURSE_BUILD_SOLUTIONS"], "OFF")
        self.assertEqual(grade["COURSE_EXTRA_TESTS_DIR"], "$env{COURSE_HIDDEN_TESTS}")
        test = p["testPresets"]["grade"]
        self.assertEqual(test["filter"]["include"]["label"], "^student$")
        self.assertTrue(test["output"]["outputJUnitFile"].endswith("build/grade/junit.xml"))

    def test_the_tools_are_in_the_ci_test_preset(self):
        label = presets()["testPresets"]["ci"]["filter"]["include"]["label"]
        self.assertRegex("tools", label)


if __name__ == "__main__":
    unittest.main()
