#!/bin/bash
# Grades a class on a Slurm cluster: a job array, one student of the roster per task (one GPU
# each), then a job that merges the students' folders into the gradebook once every task has
# ended (whatever its end). docs/instructors.md, section 3, says how to set it up.
#
#   bash tools/course/grading/slurm/submit.sh --roster roster.csv --course COURSE --out CLASS \
#       [--lessons 01,03] [--no-gpu] [--dry-run] [-- SBATCH_ARGS...]
#
# COURSE is the pinned course (a git checkout, nothing uncommitted) and CLASS the class folder,
# both on a file system every node sees. --no-gpu asks for no GPU (the CPU part of grading, e.g.
# on a partition without GPUs: the report then says the grade is incomplete). SBATCH_ARGS go to
# both jobs (e.g. --partition=gpu --account=cs149). --dry-run prints the sbatch commands and
# submits nothing. Exit status: 0 submitted, 1 sbatch refused, 2 bad usage.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { echo "usage: submit.sh --roster CSV --course COURSE --out CLASS [--lessons L] [--no-gpu] [--dry-run] [-- SBATCH_ARGS...]" >&2; exit 2; }
roster="" course="" class="" lessons="" gpu=1 dry=0 extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --roster) roster=${2:-}; shift 2 || usage ;;
    --course) course=${2:-}; shift 2 || usage ;;
    --out) class=${2:-}; shift 2 || usage ;;
    --lessons) lessons=${2:-}; shift 2 || usage ;;
    --no-gpu) gpu=0; shift ;;
    --dry-run) dry=1; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "submit.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$roster" ] && [ -n "$course" ] && [ -n "$class" ] || usage
roster=$(realpath "$roster") course=$(realpath "$course")
mkdir -p "$class" && class=$(realpath "$class")
[ -f "$course/tools/course/grade_run.sh" ] || { echo "submit.sh: $course is not the course" >&2; exit 2; }
count=$(PYTHONPATH="$course/tools" python3 -m course.grading.grade_class --roster "$roster" --matrix |
  python3 -c 'import json, sys; print(len(json.load(sys.stdin)))') || exit 2
mkdir -p "$class/slurm"
export ROSTER="$roster" COURSE="$course" CLASS="$class" LESSONS="$lessons"
grade=(sbatch --parsable --array="0-$((count - 1))" --export=ALL
       --output="$class/slurm/grade-%A-%a.log" "${extra[@]}")
[ "$gpu" = 1 ] && grade+=(--gres=gpu:1)
grade+=("$here/grade-class.sbatch")
merge_command="python3 -m course.grading.grade_class --roster '$roster' --course '$course' --out '$class' --merge"
if [ "$dry" = 1 ]; then
  printf '%q ' "${grade[@]}"; echo
  echo "sbatch --parsable --dependency=afterany:JOB --export=ALL,PYTHONPATH=$course/tools --output=$class/slurm/merge-%j.log ${extra[*]} --wrap \"$merge_command\""
  exit 0
fi
job=$("${grade[@]}") || { echo "submit.sh: sbatch refused the grading array" >&2; exit 1; }
job=${job%%;*}
merge=$(sbatch --parsable --dependency="afterany:$job" --export="ALL,PYTHONPATH=$course/tools" \
  --output="$class/slurm/merge-%j.log" "${extra[@]}" --wrap "$merge_command") ||
  { echo "submit.sh: sbatch refused the merge job (the array $job is queued)" >&2; exit 1; }
echo "submitted: $count students in job array $job; the gradebook after it, job ${merge%%;*}:"
echo "  $class/gradebook.csv, $class/summary.md (logs in $class/slurm/)"
