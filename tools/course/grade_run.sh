#!/usr/bin/env bash
# The grading run: the steps both grading workflows take (.github/workflows/grade.yml runs all
# of them, classroom.yml the build, then one scoring step per lesson). From the folder that
# holds both checkouts:
#
#   bash course/tools/course/grade_run.sh --student student --course course \
#        [--build-only] [--pass-mark PERCENT] [--heading TEXT]
#
#   1. the tree to grade: the student's exercise files on the course at the pinned commit;
#   2. configure the `grade` preset (the instructor's hidden tests from $COURSE_HIDDEN_TESTS);
#   3. build every lesson on its own: one that does not compile scores 0, the others count;
#   4. every student test (hidden ones too), JUnit in course/build/grade/junit.xml;
#   5. the grade report: course/build/grade/grade.md and score.json.
# --build-only stops after step 3. Every step runs with the CUDA toolkit's environment
# (gpu-env.sh). Exit status: the report's (1 below --pass-mark, else 0), 2 for bad usage or a
# step that could not run (no toolkit, a course that does not configure).
set -uo pipefail

usage() {
  echo "grade_run.sh: $1 (usage: grade_run.sh --student DIR --course DIR [--build-only]" \
       "[--pass-mark PERCENT] [--heading TEXT])" >&2
  exit 2
}

student="" course="" build_only=0 heading="Grade" pass_mark=()
while [ $# -gt 0 ]; do
  case "$1" in
    --student) [ $# -ge 2 ] || usage "--student needs a folder"; student="$2"; shift 2 ;;
    --course) [ $# -ge 2 ] || usage "--course needs a folder"; course="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --pass-mark) [ $# -ge 2 ] || usage "--pass-mark needs a percentage"; pass_mark=(--pass-mark "$2"); shift 2 ;;
    --heading) [ $# -ge 2 ] || usage "--heading needs a text"; heading="$2"; shift 2 ;;
    *) usage "unknown argument '$1'" ;;
  esac
done
[ -n "$student" ] && [ -n "$course" ] || usage "give --student and --course"
[ -d "$student" ] || usage "no folder $student"
[ -f "$course/CMakePresets.json" ] || usage "$course is not the course (no CMakePresets.json)"

tools="$(cd "$course/tools/course" && pwd)"
env_run() { bash "$tools/gpu-env.sh" "$@"; }

python3 "$tools/grade_tree.py" --student "$student" --course "$course" || exit 2
cd "$course" || exit 2
env_run cmake --preset grade || exit 2
# A lesson that does not build is recorded (build/grade/course/build-status.json) and scores 0.
env_run python3 tools/course/build_lessons.py --build-dir build/grade
[ "$build_only" = 1 ] && exit 0
# Failing tests are what the report scores, not a reason to stop.
env_run ctest --preset grade -j "$(nproc)" > build/grade/ctest.log 2>&1
tail -n 3 build/grade/ctest.log
python3 tools/course/grade.py report --junit build/grade/junit.xml --build-dir build/grade \
  --points tests/points.json --heading "$heading" --markdown build/grade/grade.md \
  --json build/grade/score.json "${pass_mark[@]}"
