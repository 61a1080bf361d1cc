"""The ground every room stands on: the course and its lessons (course_model), test names and
results (ctest_results), a program's tests in few processes (batched_tests), the machine, the
command-line plumbing (cli), the starter files and the answers pack, the templates, the lesson
table and the site's manifests (site_manifests). Imports nothing of the other rooms."""
