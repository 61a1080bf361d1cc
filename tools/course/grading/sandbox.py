"""The sandbox every process that runs student code runs in while grading.

Built with bubblewrap (`bwrap`, Debian's and Ubuntu's `bubblewrap` package). Inside it:
  - the whole file system is read-only, the grader's home folder and the instructor's hidden
    tests are invisible, /tmp is empty and private;
  - the only writable folder is the process's own scratch folder, and HOME is an empty folder
    in it;
  - there is no network, and the process sees only its own processes: when the command ends,
    everything it started ends with it (its own PID namespace; the sandbox also dies with the
    grader);
  - the environment is cleared, but for what the tests need (PATH, the CUDA libraries);
  - the GPU's device nodes are the only devices besides /dev/null, /dev/zero and the like.

Where no sandbox can be made (bubblewrap missing, or user namespaces forbidden on the machine),
`Sandbox.probe()` says why; the grader then runs without it only when told to, and stamps the
report as not isolated.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from course.model.course_model import is_inside

#: Variables passed into the sandbox from the grader's environment (when set).
PASSED_VARIABLES = ("PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES",
                    "CUDA_DEVICE_ORDER", "LANG", "LC_ALL")


@dataclass
class Sandbox:
    """How commands are run while grading: in bubblewrap (`bwrap` set) or, not isolated,
    directly (`bwrap` None, `reason` says why)."""

    bwrap: Optional[str]
    reason: str = ""  # why there is no sandbox; or what the sandbox is ("bubblewrap 0.8.0")
    readable: List[Path] = field(default_factory=list)  # folders under /tmp or HOME to show
    hidden: List[Path] = field(default_factory=list)  # folders to make invisible
    uid: Optional[int] = None  # run as this user inside (e.g. 65534), else as the grader
    programs: List[Path] = field(default_factory=list)  # the programs the tests start

    @property
    def isolated(self) -> bool:
        return self.bwrap is not None

    @staticmethod
    def find_bwrap() -> Optional[str]:
        """$COURSE_BWRAP, else bwrap on PATH."""
        explicit = os.environ.get("COURSE_BWRAP")
        if explicit:
            return explicit if os.access(explicit, os.X_OK) else None
        return shutil.which("bwrap")

    @classmethod
    def probe(cls, readable: Sequence[Path] = (), hidden: Sequence[Path] = (),
              uid: Optional[int] = None) -> "Sandbox":
        """A sandbox that works on this machine, or one that says why there is none."""
        bwrap = cls.find_bwrap()
        if bwrap is None:
            return cls(None, "bubblewrap (bwrap) is not installed: install the bubblewrap "
                             "package, or set COURSE_BWRAP to its path")
        box = cls(bwrap, "", [Path(p) for p in readable], [Path(p) for p in hidden], uid)
        scratch = Path(os.environ.get("TMPDIR", "/tmp"))
        try:
            proc = subprocess.run(box.command(["true"], scratch, {}, scratch), capture_output=True,
                                  text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            return cls(None, f"{bwrap} does not run here: {e}")
        if proc.returncode != 0:
            why = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            return cls(None, f"{bwrap} cannot make a sandbox here ({why}); user namespaces may be "
                             f"forbidden on this machine")
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True).stdout.strip()
        box.reason = version or "bubblewrap"
        return box

    def command(self, argv: Sequence[str], scratch: Path, env: Dict[str, str],
                cwd: Path) -> List[str]:
        """The command line that runs argv in the sandbox, with `scratch` writable, `env` as
        its whole environment and `cwd` as its working folder."""
        if self.bwrap is None:
            return list(argv)
        args = [self.bwrap, "--die-with-parent", "--new-session", "--unshare-all",
                "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        for node in sorted(glob.glob("/dev/nvidia*")):
            args += ["--dev-bind", node, node]
        args += ["--tmpfs", "/tmp"]
        home = os.environ.get("HOME", "")
        if home and home != "/" and os.path.isdir(home):
            args += ["--tmpfs", home]
        for path in self._shown():
            args += ["--ro-bind", str(path), str(path)]
        for path in self.hidden:
            if path.is_dir():
                args += ["--tmpfs", str(path)]
        args += ["--bind", str(scratch), str(scratch)]
        if self.uid is not None:
            args += ["--unshare-user", "--uid", str(self.uid), "--gid", str(self.uid)]
        args += ["--clearenv"]
        for key, value in sorted(env.items()):
            args += ["--setenv", key, value]
        args += ["--chdir", str(cwd), "--"]
        return args + list(argv)

    def _shown(self) -> List[Path]:
        """Folders that the empty /tmp and HOME would hide but the tests need: the course and
        its build (exactly), and the installations of the programs they run (Python, CUDA:
        the whole folder under HOME that holds them, e.g. ~/.pyenv)."""
        home = Path(os.environ["HOME"]).resolve() if os.environ.get("HOME", "/") != "/" else None
        tmp = Path("/tmp")
        installs = [Path(sys.base_prefix), Path(sys.prefix), Path(sys.executable).parent]
        installs += [Path(p) for p in self.programs]
        cuda = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
        if cuda:
            installs.append(Path(cuda))
        shown: List[Path] = []
        for path, exact in [(p, True) for p in self.readable] + [(p, False) for p in installs]:
            resolved = path.resolve() if path.exists() else path
            if home is not None and is_inside(resolved, home) and resolved != home:
                if not exact:
                    resolved = home / resolved.relative_to(home).parts[0]
            elif not is_inside(resolved, tmp):
                continue
            if resolved.exists() and resolved not in shown:
                shown.append(resolved)
            # A program reached through a link (a pyenv shim) needs its target's folder too.
            if not exact and path.exists() and path.resolve() != path.absolute():
                shown.extend(x for x in self._shown_for(path.resolve(), home, tmp) if x not in shown)
        return sorted(shown, key=lambda p: len(p.parts))

    @staticmethod
    def _shown_for(path: Path, home: Optional[Path], tmp: Path) -> List[Path]:
        if home is not None and is_inside(path, home) and path != home:
            return [home / path.relative_to(home).parts[0]]
        return [path] if is_inside(path, tmp) else []

    def environment(self, scratch: Path, extra: Dict[str, str]) -> Dict[str, str]:
        """The environment of a command in the sandbox: a few of the grader's variables, an
        empty HOME and TMPDIR in the scratch folder, and `extra`."""
        env = {k: os.environ[k] for k in PASSED_VARIABLES if os.environ.get(k)}
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env["HOME"] = str(scratch / "home")
        env["TMPDIR"] = str(scratch / "tmp")
        env.update(extra)
        return env

    def describe(self) -> str:
        if not self.isolated:
            return f"NOT ISOLATED: {self.reason}"
        who = f", as uid {self.uid}" if self.uid is not None else ""
        return (f"{self.reason}: read-only file system, empty HOME and /tmp, no network, own "
                f"process namespace{who}")

