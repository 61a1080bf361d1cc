"""The starter files as shipped, from the course's git history: which commit holds them (the
newest starters-vN tag, else the repository's first commit), and putting a lesson's back
(`./course reset NN`), with a copy of the student's version kept in <course>/.course/backup/."""

from __future__ import annotations

import datetime
import fnmatch
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course.model.course_model import CourseError, Lesson, STUDENT_FILE_PATTERN, state_dir

#: The tag of the starters a student repository is made with; later ones are starters-v2, ...
FIRST_TAG = "starters-v1"
TAG_PATTERN = "starters-v*"


def git(repo: Path, *argv: str, check: bool = False,
        binary: bool = False) -> subprocess.CompletedProcess:
    """Runs git in `repo`. check: a failure raises CourseError with git's last line."""
    proc = subprocess.run(["git", "-C", str(repo), *argv], capture_output=True, text=not binary)
    if check and proc.returncode != 0:
        err = proc.stderr if not binary else proc.stderr.decode(errors="replace")
        last = err.strip().splitlines()[-1] if err.strip() else proc.returncode
        raise CourseError(f"git {' '.join(argv[:2])} failed: {last}")
    return proc


def starters_ref(repo: Path, explicit: Optional[str]) -> Tuple[str, str]:
    """(commit, how it was chosen): --from, else the newest starters-vN tag, else the
    repository's first commit (a repository made from a template starts with the starters)."""
    if explicit:
        proc = git(repo, "rev-parse", "--verify", "--quiet", f"{explicit}^{{commit}}")
        if proc.returncode != 0:
            raise CourseError(f"--from {explicit}: no such tag or commit in {repo}")
        return proc.stdout.strip(), explicit
    tags = git(repo, "tag", "--list", TAG_PATTERN, "--sort=-v:refname")
    for tag in tags.stdout.split():
        proc = git(repo, "rev-parse", "--verify", "--quiet", f"{tag}^{{commit}}")
        if proc.returncode == 0:
            return proc.stdout.strip(), f"tag {tag}"
    roots = git(repo, "rev-list", "--max-parents=0", "HEAD")
    if roots.returncode == 0 and roots.stdout.split():
        return roots.stdout.split()[-1], f"the repository's first commit (no {FIRST_TAG} tag)"
    raise CourseError(f"no starters to restore from: {repo} has no {FIRST_TAG} tag and no commits")


def course_starters(course: Path, lesson: Lesson) -> Dict[str, bytes]:
    """The lesson's starter files at the course's pinned commit (its git HEAD), whatever an
    earlier grading or an edit in place left on disk; the files on disk where the course is not
    a git checkout."""
    listing = git(course, "ls-tree", "--name-only", "HEAD", f"{lesson.rel_dir}/")
    if listing.returncode != 0:
        return {p.name: p.read_bytes() for p in lesson.student_files()}
    files = {}
    for path in listing.stdout.splitlines():
        name = path.rsplit("/", 1)[-1]
        if fnmatch.fnmatch(name, STUDENT_FILE_PATTERN):
            blob = git(course, "show", f"HEAD:{path}", binary=True)
            if blob.returncode != 0:
                raise CourseError(f"cannot read {path} at the course's HEAD")
            files[name] = blob.stdout
    return files


class Starters:
    """A lesson's starter files at the starters' commit, beside the files on disk."""

    def __init__(self, source_dir: Path, lesson: Lesson, from_ref: Optional[str]):
        if shutil.which("git") is None:
            raise CourseError("reset needs git, and git is not installed")
        top = git(source_dir, "rev-parse", "--show-toplevel")
        if top.returncode != 0:
            raise CourseError(f"reset needs the course's git history, and {source_dir} is not "
                              f"a git repository")
        repo = Path(top.stdout.strip())
        prefix = git(source_dir, "rev-parse", "--show-prefix").stdout.strip()
        self.lesson = lesson
        self.source_dir = source_dir
        self.commit, self.how = starters_ref(repo, from_ref)
        self.files = self._read(repo, f"{prefix}{lesson.rel_dir}")

    def _read(self, repo: Path, rel_dir: str) -> Dict[Path, bytes]:
        listing = git(repo, "ls-tree", "--name-only", self.commit, f"{rel_dir}/")
        paths = [p for p in listing.stdout.splitlines()
                 if fnmatch.fnmatch(p.rsplit("/", 1)[-1], STUDENT_FILE_PATTERN)]
        if not paths:
            raise CourseError(f"{self.lesson.rel_dir} has no starter files ({STUDENT_FILE_PATTERN})"
                              f" at {self.commit[:10]} ({self.how})")
        files = {}
        for p in paths:
            blob = git(repo, "show", f"{self.commit}:{p}", binary=True)
            if blob.returncode != 0:
                raise CourseError(f"cannot read {p} at {self.commit[:10]}")
            files[repo / p] = blob.stdout
        return files

    @property
    def source(self) -> str:
        return f"{self.how} ({self.commit[:10]})"

    def changed(self) -> List[Path]:
        """The student files that differ from the starters (or are missing)."""
        return sorted(p for p, data in self.files.items()
                      if not p.is_file() or p.read_bytes() != data)

    def backup_dir(self) -> Path:
        stamp = f"{datetime.datetime.now():%Y%m%d-%H%M%S}"
        return state_dir(self.source_dir) / "backup" / f"{self.lesson.folder}-{stamp}"

    def restore(self, changed: List[Path], backup: Path) -> None:
        """Keeps a copy of the changed files in `backup`, then writes the starters over them."""
        try:
            backup.mkdir(parents=True, exist_ok=True)
            for p in changed:
                if p.is_file():
                    shutil.copy2(str(p), str(backup / p.name))
        except OSError as e:
            raise CourseError(f"cannot keep a copy of your files in {backup} ({e.strerror or e}); "
                              f"nothing changed") from None
        for p in changed:
            try:
                p.write_bytes(self.files[p])
            except OSError as e:
                raise CourseError(f"cannot write {p}: {e.strerror or e}") from None
