"""What the course tools' command lines share: one-line errors, argument types, the main
wrapper that turns a CourseError or a missing program into that one line, and writing an output
file whole or not at all."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, List, Optional

from course.model.course_model import CourseError, parse_lesson_number

#: The script that runs a module of this package by its name, from any folder (bootstrap.py).
BOOTSTRAP = Path(__file__).resolve().parents[1] / "bootstrap.py"

#: Programs whose absence is the user's to fix (a one-line error, not a traceback).
EXTERNAL_PROGRAMS = ("ctest", "cmake", "git")


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: `prog: what is wrong (see prog --help)`, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def typed(convert: Callable):
    """An argparse type from a function that raises CourseError with a readable message."""
    def parse(text: str):
        try:
            return convert(text)
        except CourseError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return parse


def _number(convert: Callable, what: str, ok: Callable, out_of_range: str):
    """An argparse type: `convert` the text (else "'text' is not <what>"), then check `ok`
    (else `out_of_range`, where {} is the text)."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}") from None
        if not ok(value):
            raise argparse.ArgumentTypeError(out_of_range.format(text))
        return value
    return parse


#: Argument types: jobs (1-1024), seconds (0-60], a percentage, a lesson number.
positive_int = _number(int, "a whole number", lambda v: 1 <= v <= 1024, "{} is out of range (1-1024)")
seconds = _number(float, "a number of seconds", lambda v: 0 < v <= 60,
                  "{} is out of range (more than 0, at most 60 seconds)")
percentage = _number(lambda t: float(t.strip().rstrip("%")), "a percentage (e.g. 60)",
                     lambda v: 0 <= v <= 100, "{} is not between 0 and 100")
lesson_number = typed(parse_lesson_number)


def default_jobs() -> int:
    """$CMAKE_BUILD_PARALLEL_LEVEL where it is a number, else the number of CPUs this process
    may run on (a `taskset` limit counts)."""
    level = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "")
    if level.isdigit() and int(level) > 0:
        return int(level)
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def jobs_option(parser: argparse.ArgumentParser) -> None:
    """--jobs/-j: tests and compilations at once."""
    parser.add_argument("--jobs", "-j", type=positive_int, default=default_jobs(),
                        help="tests and compilations at once (default: $CMAKE_BUILD_PARALLEL_LEVEL, "
                             "else the number of CPUs)")


def module_command(module: str) -> List[str]:
    """The command that runs a module of this package as a program ("course.grading.grade"),
    whatever the working folder and PYTHONPATH."""
    return [sys.executable, str(BOOTSTRAP), module]


def fail(prog: str, message: str, status: int = 1) -> int:
    """Prints the one-line error and returns the exit status."""
    print(f"{prog}: {message}", file=sys.stderr)
    return status


def run_main(prog: str, func: Callable[[], int], error_status: int = 1) -> int:
    """Runs a command; a CourseError, or a missing ctest, cmake or git, becomes one line on
    stderr and `error_status`."""
    try:
        return func()
    except CourseError as e:
        return fail(prog, str(e), error_status)
    except FileNotFoundError as e:
        name = os.path.basename(str(e.filename or ""))
        if name in EXTERNAL_PROGRAMS:
            return fail(prog, f"{name} is not installed, or not on PATH", error_status)
        raise


def print_lines(lines: Iterable[str]) -> int:
    """Prints what a command did, one line each; exit status 0."""
    for line in lines:
        print(line)
    return 0


def write_text_atomic(path: Path, text: str) -> None:
    """Writes a file whole or not at all. Raises CourseError (one line) when it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, str(path))
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as e:
        raise CourseError(f"cannot write {path}: {e.strerror or e}") from None


def write_output(path: Optional[Path], text: str) -> None:
    """Writes a command's output to a file, or to stdout for `-` (or no path)."""
    if path is None or str(path) == "-":
        sys.stdout.write(text)
        return
    if path.is_dir():
        raise CourseError(f"cannot write {path}: it is a folder")
    write_text_atomic(path, text)


def make_dir(path: Path) -> Path:
    """Creates a folder (and its parents). Raises CourseError (one line) when it cannot."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CourseError(f"cannot write {path}: {e.strerror or e}") from None
    return path


def text_output_that_never_fails() -> None:
    """Characters the terminal's encoding lacks (the status's dash) print as '?' rather than
    stopping the tool."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


def split_list(text: Optional[str]) -> List[str]:
    """'01,03' -> ['01', '03']; None -> []."""
    return [x.strip() for x in (text or "").split(",") if x.strip()]
