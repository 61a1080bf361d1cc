"""The student's loop: the `course` command (main: progress, test, watch, hint, next, reset),
one lesson's build and verdict (lesson_loop), the progress table (progress_report) and the
results kept between runs (progress_cache). Imports model and policy, never grading."""
