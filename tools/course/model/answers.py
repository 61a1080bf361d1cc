"""Where a lesson's answers live, and how a student gets them once the lesson's CPU part passes.

The reasoning behind a lesson's answers — its predictions worked out, its exercise's layout
drawn — is one file per lesson beside the reference solution, out of the student's path:

    solutions/NN_topic/answers.md           the answers, `# Lesson NN: answers` first
    solutions/NN_topic/images/*.svg         the pictures it shows (drawn from docs/pictures.txt)

The student-facing repository has no solutions/ folder, and no answers unless it is made for
learning on one's own (`student-repo --with-answers`: a pack is not locked, so never for a
repository that is graded). `make_student_repo.py` then packs every lesson's answers into one
file, `tools/course/answers.pack` (JSON: per lesson, per file, the
text compressed with zlib and written in base64), which nobody reads by accident; `./course`
unpacks a lesson's answers into `.course/answers/NN_topic/` (git-ignored, like the rest of the
student's state) only once every CPU test of the lesson passes, and says where they are. This
is rustlings' way: it keeps each exercise's solution inside its program and writes it to disk
only once the exercise is done. Where the course's solutions are on disk (the course's own
checkout), `./course` points at `solutions/NN_topic/answers.md` itself.

Standard library only; Python 3.8 or newer.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path
from typing import Dict, List, Optional

from course.model.course_model import CourseError, Lesson, STATE_FOLDER

#: A lesson's answers file, in its solutions/ folder.
ANSWERS_FILE = "answers.md"
#: The pack of every lesson's answers in a student repository, from the course's root.
PACK_PATH = Path("tools") / "course" / "answers.pack"
#: Where ./course unpacks a lesson's answers, from the course's root.
UNPACKED = Path(STATE_FOLDER) / "answers"
PACK_VERSION = 1

_IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def solution_dir(source_dir: Path, lesson: Lesson) -> Path:
    return source_dir / "solutions" / lesson.folder


def answers_path(source_dir: Path, lesson: Lesson) -> Path:
    """solutions/NN_topic/answers.md (it may not exist)."""
    return solution_dir(source_dir, lesson) / ANSWERS_FILE


def images_of(markdown: str) -> List[str]:
    """The local pictures a Markdown text shows, as written (`images/x.svg`)."""
    return [t for t in _IMAGE.findall(markdown) if "://" not in t]


def answer_files(source_dir: Path, lesson: Lesson) -> Dict[str, str]:
    """The lesson's answers as {relative path: text}: answers.md and the pictures it shows.
    {} when the lesson has no answers file. Raises CourseError for a picture it lacks."""
    path = answers_path(source_dir, lesson)
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    files = {ANSWERS_FILE: text}
    for image in images_of(text):
        picture = (path.parent / image).resolve()
        if not picture.is_file() or path.parent.resolve() not in picture.parents:
            raise CourseError(f"{path.relative_to(source_dir)} shows {image}, which is not a "
                              f"file of {path.parent.relative_to(source_dir)}")
        files[image] = picture.read_text(encoding="utf-8")
    return files


def pack(answers: Dict[str, Dict[str, str]]) -> str:
    """The pack's text: {"version": 1, "lessons": {folder: {path: base64(zlib(text))}}}."""
    lessons = {folder: {name: base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode()
                        for name, text in sorted(files.items())}
               for folder, files in sorted(answers.items())}
    return json.dumps({"version": PACK_VERSION, "lessons": lessons}, indent=1) + "\n"


def unpack(text: str, where: str = str(PACK_PATH)) -> Dict[str, Dict[str, str]]:
    """A pack's lessons: {folder: {path: text}}. Raises CourseError for anything else."""
    try:
        data = json.loads(text)
        if data.get("version") != PACK_VERSION:
            raise ValueError(f"version {data.get('version')!r}, not {PACK_VERSION}")
        return {folder: {name: zlib.decompress(base64.b64decode(blob)).decode("utf-8")
                         for name, blob in files.items()}
                for folder, files in data["lessons"].items()}
    except (ValueError, KeyError, TypeError, AttributeError, zlib.error) as e:
        raise CourseError(f"{where} is not a pack of answers ({e})") from None


def _safe(name: str) -> bool:
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


def reveal(source_dir: Path, lesson: Lesson) -> Optional[Path]:
    """The lesson's answers file for the student, once its CPU part passes: the course's own
    solutions/NN_topic/answers.md where it exists, else the pack's copy unpacked into
    .course/answers/NN_topic/. None when the course has no answers for the lesson. Raises
    CourseError when the pack cannot be read or the copy cannot be written."""
    own = answers_path(source_dir, lesson)
    if own.is_file():
        return own
    pack_file = source_dir / PACK_PATH
    if not pack_file.is_file():
        return None
    try:
        lessons = unpack(pack_file.read_text(encoding="utf-8"))
    except OSError as e:
        raise CourseError(f"cannot read {PACK_PATH}: {e.strerror or e}") from None
    files = lessons.get(lesson.folder)
    if not files or ANSWERS_FILE not in files:
        return None
    out = source_dir / UNPACKED / lesson.folder
    try:
        for name, text in files.items():
            if not _safe(name):
                raise CourseError(f"{PACK_PATH}: '{name}' is not a path inside a lesson's answers")
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    except OSError as e:
        raise CourseError(f"cannot write {out}: {e.strerror or e}") from None
    return out / ANSWERS_FILE
