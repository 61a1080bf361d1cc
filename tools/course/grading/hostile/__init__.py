"""The hostile-submission suite: cheating exercise files (attacks/), each graded through the
real grading command (run_hostile)."""
