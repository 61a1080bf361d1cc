"""What a student's repository holds: the course at a commit without the reference solutions
and without what only the course's own CI needs (ci.make_student_repo makes it; the hostile
suite grades against the same view of the course). Standard library only."""

from __future__ import annotations

import dataclasses
import json

from course.model.manifest import Manifest

#: Left out: the solutions, the course's own CI, the instructor's class grading workflow (it runs
#: from the instructor's repository, never from one a student can edit), the maintainers' command
#: and its rooms (ci/: the student repository is made there; authoring/ and the lesson template),
#: and the course's own tests of its tools, kit and grader: a student runs the lessons' tests,
#: and those hold the lessons' answers as their examples (the tools' recorded test output, whose
#: measured lines give the demos' costs; the kit's and bank-map's swizzle tests, lesson 08's
#: swizzles; the site tools' tables; the hostile suite's attacks, solved exercises).
LEFT_OUT = ("solutions", ".ci", ".github/workflows/ci.yml", ".github/workflows/grade-class.yml",
            "course-admin", "tools/course/ci",
            "tools/course/authoring", "tools/course/templates/lesson", "tools/course/tests",
            "tools/course/grading/hostile", "tools/bank_map/test_cli.py",
            "tools/docs/test_docs_tools.py", "tests/common")


def student_manifest(m: Manifest) -> Manifest:
    """A lesson's manifest as the student repository holds it: without the measured blocks and
    the answers' pictures (under solutions/, which it leaves out, their titles the answers),
    and without the answers check's exceptions (whose reasons name answers)."""
    return dataclasses.replace(
        m, measured=(), answer_exceptions=(),
        pictures=tuple(p for p in m.pictures if not p.svg.startswith("solutions/")))


def left_out(path: str) -> bool:
    return any(path == x or path.startswith(x + "/") for x in LEFT_OUT)


def student_presets(text: str) -> str:
    """CMakePresets.json without the presets that build the solutions."""
    data = json.loads(text)
    configure = {p["name"]: p for p in data.get("configurePresets", [])}

    def builds_solutions(name: str, seen=()) -> bool:
        p = configure.get(name, {})
        value = p.get("cacheVariables", {}).get("COURSE_BUILD_SOLUTIONS")
        if isinstance(value, dict):
            value = value.get("value")
        if value is not None:
            return str(value).upper() in ("ON", "TRUE", "1", "YES")
        parents = p.get("inherits", [])
        parents = [parents] if isinstance(parents, str) else parents
        return any(builds_solutions(q, seen + (name,)) for q in parents if q not in seen)

    dropped = {n for n, p in configure.items() if not p.get("hidden") and builds_solutions(n)}
    data["configurePresets"] = [p for p in data.get("configurePresets", []) if p["name"] not in dropped]
    gone = {"configure": set(dropped), "build": set(), "test": set()}
    for kind in ("build", "test"):
        key = f"{kind}Presets"
        if key in data:
            kept = []
            for p in data[key]:
                if p.get("configurePreset") in dropped:
                    gone[kind].add(p["name"])
                else:
                    kept.append(p)
            data[key] = kept
    if "workflowPresets" in data:
        data["workflowPresets"] = [
            w for w in data["workflowPresets"]
            if not any(s.get("name") in gone.get(s.get("type"), set()) for s in w.get("steps", []))]
    return json.dumps(data, indent=2) + "\n"
