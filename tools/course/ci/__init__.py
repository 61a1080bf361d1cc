"""The course's own checks and measurements, for maintainers and CI: fail-first (fail_first),
where a run's time goes (slowest_tests), the student loop's timings (loop_bench) and the student
repository (make_student_repo). May import every room below."""
