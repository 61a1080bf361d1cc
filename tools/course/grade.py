#!/usr/bin/env python3
"""The grade report by its path: `python3 tools/course/grade.py report|lesson|classroom ...`
(the code is course.grading.grade). The grading workflows name this path."""

import bootstrap

bootstrap.run("course.grading.grade")
