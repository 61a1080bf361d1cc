"""The instructors' and maintainers' command: `./course-admin COMMAND [ARGS ...]` runs one of the
tools below with its own options (`./course-admin COMMAND --help`). Students use `./course`.

Each command is a module of the package, run as `python3 -m` would; this table is the one place
that names them.
"""

from __future__ import annotations

import runpy
import sys
import textwrap
from typing import Dict, List, Tuple

#: command -> (module, what it does), in the order `course-admin` lists them.
COMMANDS: Dict[str, Tuple[str, str]] = {
    # grading
    "grade-run": ("course.grading.grade_run",
                  "grade a student's checkout against the pinned course, end to end (a GPU "
                  "runner runs tools/course/grade_run.sh: the same, with the CUDA toolkit's "
                  "environment)"),
    "grade-class": ("course.grading.grade_class",
                    "grade a class: a roster of repositories in, one folder per student, a "
                    "gradebook, feedback and a summary out; resumable"),
    "grade": ("course.grading.grade",
              "the report of a graded build (report), one lesson's verdict (lesson NN), the "
              "Classroom workflow (classroom)"),
    "grade-tree": ("course.grading.grade_tree",
                   "the tree to grade: the pinned course with the student's exercise files"),
    "build-lessons": ("course.grading.build_lessons",
                      "build each lesson of a grading build, with its status"),
    "grade-tests": ("course.grading.grade_tests",
                    "run a grading build's tests, each in a sandbox, verdicts from GoogleTest"),
    "hostile": ("course.grading.hostile.run_hostile",
                "the hostile-submission suite: cheating exercise files graded for real"),
    "self-check": ("course.grading.self_check",
                   "the bank model against this GPU's counters: a few thousand single-instruction "
                   "patterns, about 2 minutes, a record per GPU, driver and course (where it "
                   "agrees, the 8- and 16-byte rules count as verified on this GPU)"),
    # the policy and the checks of what students see
    "policy": ("course.policy.exercise_policy",
               "hold exercise files to the exercise-file policy"),
    "check-answers": ("course.policy.check_answers",
                      "no lesson shows its answers before the student commits"),
    "check-predictions": ("course.policy.check_predictions",
                          "a wrong prediction's message never states the model's value"),
    # the course's own checks and measurements
    "fail-first": ("course.ci.fail_first",
                   "every exercise test fails on the starter and passes on the solution"),
    "shared-memory-needs": ("course.ci.shared_memory_needs",
                            "each lesson's declared shared memory per block against what its "
                            "kernels really use on this GPU (cudaFuncGetAttributes, the launches' "
                            "dynamic sizes)"),
    "slowest-tests": ("course.ci.slowest_tests", "where a JUnit report's time goes"),
    "loop-bench": ("course.ci.loop_bench", "time the student's loop, step by step"),
    "student-repo": ("course.ci.make_student_repo",
                     "make the student-facing repository (no solutions)"),
    # a lesson's authoring
    "new-lesson": ("course.authoring.new_lesson",
                   "scaffold lesson NN from the template: it builds, and its exercise tests fail "
                   "on the starter and pass on the stub solution"),
    "regenerate": ("course.authoring.regenerate",
                   "write again what the course generates from its lessons' manifests (the "
                   "README's lesson table, the Classroom workflow, the GPU table of "
                   "docs/instructors.md)"),
}


def usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: course-admin COMMAND [ARGS ...]   (course-admin COMMAND --help: its options)",
             "", "commands:"]
    for name, (_, what) in COMMANDS.items():
        wrapped = textwrap.wrap(what, 96 - width)
        lines.append(f"  {name:<{width}}  {wrapped[0]}")
        lines += [" " * (width + 4) + more for more in wrapped[1:]]
    return "\n".join(lines)


def main(argv: List[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"course-admin: no command '{name}' (see course-admin --help)", file=sys.stderr)
        return 2
    sys.argv = [f"course-admin {name}", *rest]
    runpy.run_module(COMMANDS[name][0], run_name="__main__", alter_sys=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
