"""The course's own tools, as one package with rooms. Arrows only run down:

  ci, authoring      maintainers: fail-first, batched tests, timings, the student repository;
                     a new lesson scaffolded, the generated files written again
  student, grading   the student's loop (progress, test, watch, hint, next, reset) and
                     grading (the tree to grade, the sandbox, the tests, scoring, the report,
                     the hostile suite): neither imports the other
  policy             what an exercise file may hold; the answers and predictions checks
  model              the ground: the course and its lessons, test names and results, the
                     build folder, the machine, the command-line plumbing

A room imports only from the rooms below it (tools/course/tests/test_import_graph.py checks it).
The entry points sit at the package's top: `python3 -m course` (or `./course` at the course's
root) is the student's command, `./course-admin` the instructors' and maintainers'. Run a module
as `python3 -m course.<room>.<module>` with tools/ on PYTHONPATH; the scripts of tools/docs and
tools/reliability import the package the same way. Standard library only; Python 3.8 or newer.
"""

#: The rooms, each with its level: a module imports only from its own room or from a room of a
#: lower level (rooms of one level never import each other). The modules at the package's top
#: (the entry points and the shims) may import any room.
ROOMS = {"model": 0, "policy": 1, "student": 2, "grading": 2, "ci": 3, "authoring": 3}
