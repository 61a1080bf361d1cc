#!/usr/bin/env bash
# The grading run, with the CUDA toolkit's environment (gpu-env.sh): both grading workflows take
# its steps (.github/workflows/grade.yml all of them, classroom.yml the build, then one scoring
# step per lesson). From the folder that holds both checkouts:
#
#   bash course/tools/course/grade_run.sh --student student --course course \
#        [--lessons 01,03] [--build-only] [--pass-mark PERCENT] [--heading TEXT]
#
# The steps, the options and the exit statuses: course.grading.grade_run (tools/course/grading/
# grade_run.py; --help).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/gpu-env.sh" python3 "$here/bootstrap.py" course.grading.grade_run "$@"
