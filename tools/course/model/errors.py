"""The one kind of error the course's tools show their user: a sentence, never a traceback."""


class CourseError(Exception):
    """An error the user can fix, said in one line (the tools print it and exit non-zero)."""
