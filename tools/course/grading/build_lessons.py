#!/usr/bin/env python3
"""The grading build: every lesson of a configured build folder built as its own target
(lesson01, lesson02, ...), keeping going, so one lesson that does not compile does not stop the
others (and, within a lesson, one test program that does not compile does not stop the lesson's
other programs). Writes which lessons built to a JSON file that the grade report reads ("did not
build").

  ./course-admin build-lessons --build-dir build/grade

Before it builds, it removes the files an earlier build made of these lessons (their libraries
and test programs, as the build lists them): grading one student after another in the same
course copy, a lesson whose build fails has none of the previous student's programs left to
run. After it, it records each file this build made, with its sha256, under an id of this
build's own (<build>/course/programs.json): the grader runs a test only on a program this record
names, with the same sha256 (grade_tests.py), and the report's trust says so.

Each lesson's build output goes to <build>/course/build-lessonNN.log. Exit status: 0 when
every lesson built, 1 when some did not (the status file says which), 2 for bad usage.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional

from course.model.cli import Parser, jobs_option, run_main, split_list, write_text_atomic
from course.model.course_model import (DID_NOT_BUILD, Build, CourseError, Lesson,
                                       LessonBuild, LessonsApart, build_status_json, first_error,
                                       lesson_by_number, remove_file, stop_processes)
from course.model.trust import PROGRAMS_RECORD, file_hash

PROG = "build_lessons"


@dataclass
class Made:
    """The record of one grading build: its id, and each lesson's files that it made, with
    their sha256 (a lesson that did not build at all has none)."""

    build: str
    lessons: Dict[str, Dict[str, str]]  # lessonNN -> {path: sha256}

    @classmethod
    def new(cls) -> "Made":
        """The record of a new grading build: an id of its own, no lesson yet."""
        return cls(f"{time.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(4)}", {})

    @staticmethod
    def files(build: Build, lesson: Lesson) -> Dict[str, str]:
        """The lesson's files the build made, with their sha256 (what the record keeps)."""
        return {str(p): file_hash(p) for p in build.lesson_files(lesson) if p.is_file()}

    def sha256(self, path: Path) -> Optional[str]:
        """The sha256 this build recorded for the file, None for a file it did not make."""
        wanted = os.path.realpath(path)
        for files in list(self.lessons.values()):  # a pipelined build adds lessons meanwhile
            for made, sha in files.items():
                if os.path.realpath(made) == wanted:
                    return sha
        return None

    def as_json(self) -> str:
        return json.dumps({"version": 1, "build": self.build, "lessons": self.lessons},
                          indent=1) + "\n"

    @classmethod
    def read(cls, build_dir: Path) -> Optional["Made"]:
        """The record in a build folder; None where there is none (or it is not one)."""
        try:
            data = json.loads((Build(build_dir).state_dir / PROGRAMS_RECORD).read_text())
            return cls(str(data["build"]), {str(k): dict(v) for k, v in data["lessons"].items()})
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None


def grading_build(build: Build, lessons: List[Lesson], jobs: int,
                  say: Callable[..., None] = print, timeout: Optional[float] = None,
                  status_path: Optional[Path] = None) -> Dict[str, LessonBuild]:
    """Builds the lessons for grading (Build.build_lessons, fresh: what an earlier build made of
    them is removed first) and writes the build status (to `status_path`, default
    <build>/course/build-status.json) and the record of what this build made (Made). The record
    of an earlier build is removed before anything is built."""
    record = build.state_dir / PROGRAMS_RECORD
    remove_file(record)
    made = Made.new()
    status = build.build_lessons(lessons, jobs, say=say, timeout=timeout, fresh=True)
    for lesson in lessons:
        made.lessons[lesson.label] = Made.files(build, lesson)
    write_text_atomic(status_path or build.status_path, build_status_json(status))
    write_text_atomic(record, made.as_json())
    return status


class PipelinedBuild:
    """The grading build of lessons, each in a make of its own as soon as its files are in
    place (its policy checked), side by side with the others and with the tests of lessons
    already built (grade_run.py). What the lessons share is made first, in one run
    (prepare()); after it, the makes of two lessons touch no file in common
    (Build.lessons_apart). Each lesson is built fresh (what an earlier build made of it removed
    first, and again when its build is stopped), within `timeout` seconds, and its programs go
    into the record of this build (Made, written again after each lesson) before wait() says it
    is done. The makes run at a lower priority (`nice`) than the tests beside them. None of
    this where the build cannot be split so (PipelinedBuild.of returns None): grading_build
    then builds them."""

    #: How much lower the priority of the lessons' makes is than the grader's (and its tests').
    #: (Measured on an H100 grading 11 lessons: giving the earlier lessons a higher priority
    #: brought the first one 1 s sooner and the last ones 2-3 s later; the tests waited on
    #: them.)
    NICE = 10
    #: What a lesson whose files were never placed (so never built) says.
    NOT_PLACED = "not built: its files were not placed"

    def __init__(self, build: Build, lessons: List[Lesson], plan: LessonsApart,
                 say: Callable[..., None] = print, timeout: Optional[float] = None):
        self.build, self.plan, self.say, self.timeout = build, plan, say, timeout
        self.lessons = {lesson.label: lesson for lesson in lessons}
        self.made = Made.new()
        self.status: Dict[str, LessonBuild] = {}
        self.began: Optional[float] = None  # when the first lesson's make started
        self.ended: Optional[float] = None  # when the last one ended
        self._done = {label: threading.Event() for label in self.lessons}
        self._threads: List[threading.Thread] = []
        self._prepared = threading.Event()
        self._prepare_error = ""
        self._running: List = []  # the makes' processes, for stop()
        self._stopped = False
        self._lock = threading.Lock()
        self._start = time.monotonic()
        remove_file(self.build.state_dir / PROGRAMS_RECORD)
        self._write_record()

    @classmethod
    def of(cls, build: Build, lessons: List[Lesson], jobs: int, also: List[str],
           say: Callable[..., None] = print,
           timeout: Optional[float] = None) -> Optional["PipelinedBuild"]:
        """The pipelined build of these lessons (and, made first with what they share, the
        `also` targets), None where the build cannot be split (Build.lessons_apart)."""
        plan = build.lessons_apart(lessons, also, jobs)
        return None if plan is None else cls(build, lessons, plan, say, timeout)

    def _write_record(self) -> None:
        with self._lock:
            write_text_atomic(self.build.state_dir / PROGRAMS_RECORD, self.made.as_json())

    def prepare(self) -> None:
        """Checks the build system and makes what the lessons share (raises CourseError when
        that does not build: then no lesson does). The lessons' makes wait for release() (a
        failure here releases them at once, each to say it did not build)."""
        proc = self.build.run_apart(self.plan.first, self.timeout)
        if proc.returncode != 0:
            self._prepare_error = first_error(proc.stdout or "") if proc.returncode \
                is not None else f"it took longer than {self.timeout:.0f} s"
            self.release()
            raise CourseError(f"what the lessons share does not build: {self._prepare_error}")

    def release(self) -> None:
        """Lets the lessons' makes start (the grader releases them once the machine is
        checked)."""
        self._prepared.set()

    def start(self, lesson: Lesson) -> None:
        """Starts the lesson's make, once prepare() has made what the lessons share and
        release() has let it."""
        thread = threading.Thread(target=self._build, args=(lesson,), name=lesson.label,
                                  daemon=True)
        with self._lock:
            self._threads.append(thread)
        thread.start()

    def _build(self, lesson: Lesson) -> None:
        try:
            self._prepared.wait()
            if self._prepare_error:
                result = LessonBuild(DID_NOT_BUILD, f"what the lessons share does not build: "
                                                    f"{self._prepare_error}")
            elif self._stopped:
                result = LessonBuild(DID_NOT_BUILD, "not built: the grading stopped")
            else:
                self.build.remove_lesson_files([lesson])
                with self._lock:
                    self.began = self.began or time.monotonic()
                proc = self.build.run_apart([self.plan.lesson[lesson.label]], self.timeout,
                                            nice=self.NICE, started=self._running)
                with self._lock:
                    self.ended = time.monotonic()
                result = self.build.lesson_outcome(lesson, proc, self.timeout, fresh=True)
            files = Made.files(self.build, lesson)
            with self._lock:
                self.made.lessons[lesson.label] = files
                self.status[lesson.label] = result
            self._write_record()
            self.say(f"{lesson.label}: {result.status}" +
                     (f": {result.error}" if result.failed else "") +
                     f" ({time.monotonic() - self._start:.0f} s in)", flush=True)
        except (CourseError, OSError) as e:
            with self._lock:
                self.status[lesson.label] = LessonBuild(DID_NOT_BUILD, str(e))
        except Exception as e:  # a fault of the grader's: said, never taken for a build
            with self._lock:
                self.status[lesson.label] = LessonBuild(DID_NOT_BUILD,
                                                        f"the grader's build failed: {e!r}")
            raise
        finally:
            self._done[lesson.label].set()

    def wait(self, label: str, block: bool = True) -> bool:
        """Whether the lesson's build is done (built or not); with `block`, returns once it is.
        True at once for a lesson this build does not make."""
        if label in self._done:
            return self._done[label].wait(None if block else 0)
        return True

    def all_placed(self) -> None:
        """Says every lesson that will be placed was: one never started did not build (its
        status says so), and nothing waits for it."""
        with self._lock:
            started = {t.name for t in self._threads}
        for label, done in self._done.items():
            if label not in started:
                with self._lock:
                    self.status.setdefault(label, LessonBuild(DID_NOT_BUILD, self.NOT_PLACED))
                done.set()

    def stop(self) -> None:
        """Stops every make still running, and any not started yet from starting (a grading
        that ends early: an error, Ctrl-C); finish() then waits for no build."""
        self._stopped = True
        self.release()
        stop_processes(list(self._running))

    def finish(self, status_path: Optional[Path] = None) -> Dict[str, LessonBuild]:
        """Waits for every lesson started, writes the build status (and the record once more),
        and returns the status of each lesson, in order; a lesson never started did not build."""
        for thread in self._threads:
            thread.join()
        status = {label: self.status.get(label, LessonBuild(DID_NOT_BUILD, self.NOT_PLACED))
                  for label in self.lessons}
        write_text_atomic(status_path or self.build.status_path, build_status_json(status))
        self._write_record()
        return status


def build_lessons(args) -> int:
    build = Build(args.build_dir)
    build.require_configured("cmake --preset grade")
    lessons = build.lessons()
    numbers = split_list(args.lessons)
    if numbers:
        lessons = [lesson_by_number(lessons, n) for n in numbers]
    if not lessons:
        raise CourseError(f"{build.source_dir} has no lessons to build")
    status_path = args.status or build.status_path
    status = grading_build(build, lessons, args.jobs, timeout=args.timeout,
                           status_path=status_path)
    built = sum(not s.failed for s in status.values())
    print(f"{built} of {len(lessons)} lessons built; status in {status_path}")
    return 0 if built == len(lessons) else 1


def main(argv: List[str]) -> int:
    ap = Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path, help="a configured build folder")
    ap.add_argument("--lessons", help="only these lessons, e.g. 01,03 (default: all)")
    jobs_option(ap)
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds a lesson's build may take before it is stopped (default: none)")
    ap.add_argument("--status", type=Path,
                    help="where to write the status JSON (default: <build>/course/build-status.json)")
    args = ap.parse_args(argv)
    return run_main(PROG, lambda: build_lessons(args), error_status=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
