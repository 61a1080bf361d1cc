"""`python3 -m course`: the student's command (course.student.main)."""

import sys

from course.student.main import main

sys.exit(main(sys.argv[1:]))
