"""Grading against hostile student code: the tree to grade (grade_tree), each lesson built
(build_lessons), every test in a sandbox with its verdict from GoogleTest's report
(grade_tests, sandbox), the points and the score (points_table, scoring), the report
(grade, grade_report), the whole run (grade_run) and the hostile-submission suite (hostile/).
Imports model and policy, never the student's loop."""
