"""The sandbox every process that runs student code runs in while grading. It shows a test only
what the test needs.

Built with bubblewrap (`bwrap`, Debian's and Ubuntu's `bubblewrap` package). Inside it, read-only
and each at its own path:
  - the system's runtime: /usr, and /bin, /sbin and /lib* (links into /usr on a merged-/usr
    system, and the same links inside); of /etc only the loader's cache (ld.so.cache) and a
    passwd and a group file that name root and the grader's user alone;
  - the test's own files (`Sandbox.files`): the programs of its command and the libraries they
    load (libraries.py: read from their ELF headers, as the loader finds them), the installation
    of a Python interpreter it starts and the modules beside the script, the folders on its
    PYTHONPATH, and the files the grader says it reads (the build's list, grade_tests.py);
  - a GPU test's: the GPU's device nodes, /sys (the driver reads the GPU's PCI and NUMA facts
    there: cuInit fails without it), the CUDA toolkit's folder and the driver's libraries
    (gpu_parts.py; a folder or file already under /usr is shown as part of it).
A file is reached the way the program reaches it: a link on its way that leaves what is shown
(a library reached through /etc/alternatives) brings the place it leads to. Nothing else of the
machine is there: no home folder, no other checkout, no /run, no other file of /etc, nothing of
the course or its build that the test does not read (its solutions/, the grader's records and
policy cache, the hidden tests' sources and the other tests' programs).
  - /tmp is empty and private; the only writable folder is the process's own scratch folder,
    and HOME and TMPDIR are empty folders in it; the folders bubblewrap makes to hold what is
    shown are read-only;
  - there is no network and no System V IPC, the host's name is not the runner's, and the
    process sees only its own processes: when the command ends, everything it started ends with
    it (its own PID namespace; the sandbox also dies with the grader);
  - the environment is cleared, but for what the tests need (PATH, the CUDA libraries);
  - devices: /dev/null, /dev/zero, /dev/random and the like; a GPU test's GPU nodes besides.

Where no sandbox can be made (bubblewrap missing, or user namespaces forbidden on the machine),
`Sandbox.probe()` says why; the grader then runs without it only when told to, and stamps the
report as not isolated.
"""

from __future__ import annotations

import atexit
import functools
import glob
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from course.grading import gpu_parts, libraries

#: Variables passed into the sandbox from the grader's environment (when set).
PASSED_VARIABLES = ("PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES",
                    "CUDA_DEVICE_ORDER", "LANG", "LC_ALL")
#: The system's runtime: its programs and libraries.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The files of /etc a program reads: the loader's cache (libraries outside the default
#: folders, the driver's among them). passwd and group are the sandbox's own (`_etc`).
ETC = ("/etc/ld.so.cache",)
#: The sandbox's host name (the runner's is not shown: no test needs it).
HOST_NAME = "course-sandbox"
#: Where Ubuntu (23.10 and later) says whether AppArmor keeps unprivileged programs from making
#: user namespaces, which bubblewrap needs.
APPARMOR_USERNS = Path("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
_PYTHON = re.compile(r"^python[0-9.]*$")


@dataclass(frozen=True)
class Bind:
    """One thing the sandbox shows: `ro` a file or folder read-only, `dev` a device node, `link`
    a symbolic link (source: its target)."""

    kind: str
    source: str
    dest: str

    def args(self) -> List[str]:
        option = {"ro": "--ro-bind", "dev": "--dev-bind", "link": "--symlink"}[self.kind]
        return [option, self.source, self.dest]

    def __str__(self) -> str:
        if self.kind == "link":
            return f"{self.dest} -> {self.source}"
        shown = self.dest if self.source == self.dest else f"{self.dest} (from {self.source})"
        return f"{shown} (device)" if self.kind == "dev" else shown


def system_binds() -> List[Bind]:
    """The system's runtime as it is on this machine: each of SYSTEM that is a folder, or a
    link (made again inside: merged /usr)."""
    binds = []
    for path in SYSTEM:
        if os.path.islink(path):
            binds.append(Bind("link", os.readlink(path), path))
        elif os.path.isdir(path):
            binds.append(Bind("ro", path, path))
    return binds + [Bind("ro", p, p) for p in ETC if os.path.isfile(p)]


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def reach(path: str, shown: Sequence[str]) -> List[str]:
    """What to bind, besides the folders `shown`, so that `path` opened in the sandbox reaches
    what it reaches outside: nothing where the path and every link on its way stay in them;
    else the first place on the way that leaves them, bound whole (bubblewrap follows its
    links)."""
    todo = [p for p in path.split("/") if p]
    cur = "/"
    hops = 0
    while todo:
        name = todo.pop(0)
        if name == ".":
            continue
        if name == "..":
            cur = os.path.dirname(cur)
            continue
        nxt = os.path.join(cur, name)
        if not any(_inside(nxt, s) for s in shown):
            rest = os.path.join(nxt, *todo)
            holder = max((s for s in shown if _inside(rest, s)), key=len, default=None)
            if holder is None:
                return [rest]
            cur, todo = holder, [p for p in rest[len(holder):].split("/") if p]
            continue
        if os.path.islink(nxt) and hops < 40:
            hops += 1
            target = os.readlink(nxt)
            todo = [p for p in target.split("/") if p] + todo
            cur = "/" if target.startswith("/") else cur
            continue
        cur = nxt
    return []


@functools.lru_cache(maxsize=None)
def python_installation(program: str, cwd: str) -> Tuple[str, Tuple[str, ...]]:
    """(the interpreter a Python program runs: itself, or the one a launcher such as a pyenv
    shim starts; the folders of its installation: sys.prefix and sys.base_prefix), asked of
    the interpreter itself (the course's, not a student's program)."""
    try:
        proc = subprocess.run([program, "-c", "import sys; print(sys.executable); "
                               "print(sys.prefix); print(sys.base_prefix)"],
                              capture_output=True, text=True, timeout=60, cwd=cwd)
        executable, prefix, base = proc.stdout.split("\n")[:3]
    except (OSError, subprocess.TimeoutExpired, ValueError):
        return program, ()
    return executable or program, tuple(sorted({prefix, base} - {""}))



def userns_advice() -> str:
    """Why bubblewrap may not make a sandbox here, and what a runner's administrator does."""
    try:
        restricted = APPARMOR_USERNS.read_text().strip() == "1"
    except OSError:
        restricted = False
    if not restricted:
        return "user namespaces may be forbidden on this machine"
    return ("AppArmor keeps unprivileged programs from making user namespaces here "
            "(kernel.apparmor_restrict_unprivileged_userns = 1, as Ubuntu 23.10 and later set it): "
            "give bwrap its profile - on Ubuntu 24.04 `sudo apt-get install apparmor-profiles`, "
            "`sudo install -m 0644 /usr/share/apparmor/extra-profiles/bwrap-userns-restrict "
            "/etc/apparmor.d/` and `sudo apparmor_parser -r /etc/apparmor.d/bwrap-userns-restrict` "
            "(Ubuntu 25.04 loads it already) - or, on a machine that only grades, "
            "`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` (docs/instructors.md, "
            "section 2)")

@dataclass
class Sandbox:
    """How commands are run while grading: in bubblewrap (`bwrap` set) or, not isolated,
    directly (`bwrap` None, `reason` says why)."""

    bwrap: Optional[str]
    reason: str = ""  # why there is no sandbox; or what the sandbox is ("bubblewrap 0.8.0")
    hidden: List[Path] = field(default_factory=list)  # folders never shown, even inside a shown one
    uid: Optional[int] = None  # run as this user inside (e.g. 65534), else as the grader
    dev_dir: Path = Path("/dev")  # where the GPU's device nodes are (tests: a stand-in)
    gpus_dir: Path = Path("/proc/driver/nvidia/gpus")  # the driver's list of the GPUs
    _gpu_parts: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)
    _etc_files: Optional[tuple] = field(default=None, init=False, repr=False, compare=False)

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
    def probe(cls, hidden: Sequence[Path] = (), uid: Optional[int] = None) -> "Sandbox":
        """A sandbox that works on this machine, or one that says why there is none."""
        bwrap = cls.find_bwrap()
        if bwrap is None:
            return cls(None, "bubblewrap (bwrap) is not installed: install the bubblewrap "
                             "package, or set COURSE_BWRAP to its path")
        box = cls(bwrap, "", [Path(p) for p in hidden], uid)
        scratch = Path(tempfile.mkdtemp(prefix="course-sandbox-probe-"))
        try:
            proc = subprocess.run(box.command(["true"], scratch, {}, scratch), capture_output=True,
                                  text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            return cls(None, f"{bwrap} does not run here: {e}")
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if proc.returncode != 0:
            why = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            return cls(None, f"{bwrap} cannot make a sandbox here ({why}); {userns_advice()}")
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True).stdout.strip()
        box.reason = version or "bubblewrap"
        return box

    # --------------------------------------------------------------------------------------
    # What a test is shown
    # --------------------------------------------------------------------------------------

    def files(self, argv: Sequence[str], env: Dict[str, str], cwd: Path,
              reads: Sequence[Path] = ()) -> Tuple[List[str], List[str]]:
        """(the command as the sandbox runs it, the files and folders it needs besides the
        system's): its programs and the libraries they load, a Python interpreter's
        installation (an interpreter reached through a launcher, such as a pyenv shim, is run
        as the interpreter it starts), the Python modules beside a script it is given, the
        folders of its PYTHONPATH, and `reads` (with their libraries, for a program)."""
        argv = list(argv)
        needed: List[str] = []
        if argv and _PYTHON.match(os.path.basename(argv[0])):
            executable, installation = python_installation(argv[0], str(cwd))
            needed += installation
            if self.isolated and not libraries.is_elf(argv[0]) and libraries.is_elf(executable):
                argv[0] = executable
        programs = [a for a in argv if os.path.isabs(a) and os.path.isfile(a)]
        for script in programs[1:]:
            if script.endswith(".py"):
                needed += sorted(glob.glob(os.path.join(glob.escape(os.path.dirname(script)), "*.py")))
        needed += [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                   if os.path.isabs(p) and os.path.isdir(p)]
        ld_path = [p for p in env.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
        for path in programs + [str(r) for r in reads if os.path.exists(r)]:
            needed.append(path)
            needed += libraries.closure(path, ld_path)[0]
        return argv, list(dict.fromkeys(needed))

    def _gpu(self) -> Tuple[Tuple[Bind, ...], Optional[str], str]:
        """(what a GPU test is shown of the machine, CUDA_VISIBLE_DEVICES in the sandbox, what
        it is in words), found once."""
        if self._gpu_parts is None:
            self._gpu_parts = self._find_gpu_parts()
        return self._gpu_parts

    def _find_gpu_parts(self) -> Tuple[Tuple[Bind, ...], Optional[str], str]:
        nodes = gpu_parts.device_nodes(self.dev_dir, self.gpus_dir,
                                       os.environ.get("CUDA_VISIBLE_DEVICES"),
                                       os.environ.get("CUDA_DEVICE_ORDER"))
        binds = [Bind("dev", n, "/dev/" + os.path.relpath(n, self.dev_dir)) for n in nodes.nodes]
        if not binds:
            return (), None, nodes.what
        binds.append(Bind("ro", "/sys", "/sys"))
        shown = [b.dest for b in system_binds()]
        toolkit = gpu_parts.cuda_toolkit()
        extra = gpu_parts.toolkit_folders(toolkit, os.environ.get("PATH", ""))
        for path in extra + gpu_parts.driver_libraries():
            for place in reach(path, shown):
                binds.append(Bind("ro", place, place))
                shown.append(place)
        where = f"the CUDA toolkit ({toolkit})" if toolkit else "no CUDA toolkit found"
        return tuple(binds), nodes.visible, f"{nodes.what}, /sys, {where} and the driver's libraries"

    def gpu_what(self) -> str:
        """What a GPU test is shown of the machine, in words."""
        return self._gpu()[2]

    def machine_binds(self, gpu: bool) -> List[Bind]:
        """What every test is shown of the machine, and a GPU test's besides."""
        binds = system_binds() + [Bind("ro", str(p), f"/etc/{p.name}") for p in self._etc()]
        return binds + (list(self._gpu()[0]) if gpu else [])

    def _etc(self) -> Tuple[Path, ...]:
        """The sandbox's passwd and group files: root and the user the tests run as, with no
        home folder of the runner's (for programs that look their user up); written once."""
        if self._etc_files is not None:
            return self._etc_files
        folder = Path(tempfile.mkdtemp(prefix="course-sandbox-etc-"))
        atexit.register(shutil.rmtree, str(folder), True)
        uid = self.uid if self.uid is not None else os.getuid()
        gid = self.uid if self.uid is not None else os.getgid()
        users = {0: ("root", 0)}
        users.setdefault(uid, ("grader", gid))
        (folder / "passwd").write_text("".join(
            f"{name}:x:{u}:{g}::/nonexistent:/usr/sbin/nologin\n" for u, (name, g) in users.items()))
        groups = {0: "root"}
        groups.setdefault(gid, "grader")
        (folder / "group").write_text("".join(f"{name}:x:{g}:\n" for g, name in groups.items()))
        self._etc_files = (folder / "passwd", folder / "group")
        return self._etc_files

    def command(self, argv: Sequence[str], scratch: Path, env: Dict[str, str], cwd: Path,
                shown: Sequence[str] = (), gpu: bool = False) -> List[str]:
        """The command line that runs argv in the sandbox, with the system's runtime and
        `shown` (Sandbox.files) read-only, for a GPU test (`gpu`) the GPU's parts besides,
        `scratch` writable, `env` as its whole environment and `cwd` as its working folder."""
        if self.bwrap is None:
            return list(argv)
        args = [self.bwrap, "--die-with-parent", "--new-session", "--unshare-all",
                "--hostname", HOST_NAME, "--dev", "/dev", "--proc", "/proc"]
        binds = self.machine_binds(gpu)
        for b in binds:
            args += b.args()
        args += ["--tmpfs", "/tmp"]
        places = self.places(shown, gpu)
        for place in places:
            args += ["--ro-bind", place, place]
        for path in self.hidden:
            if path.is_dir() and any(_inside(str(path), p) for p in places + [b.dest for b in binds]):
                args += ["--tmpfs", str(path)]
        args += ["--bind", str(scratch), str(scratch), "--dir", str(cwd), "--remount-ro", "/"]
        if self.uid is not None:
            args += ["--unshare-user", "--uid", str(self.uid), "--gid", str(self.uid)]
        env = dict(env)
        visible = self._gpu()[1] if gpu else None
        if visible and env.get("CUDA_VISIBLE_DEVICES"):
            env["CUDA_VISIBLE_DEVICES"] = visible
        args += ["--clearenv"]
        for key, value in sorted(env.items()):
            args += ["--setenv", key, value]
        args += ["--chdir", str(cwd), "--"]
        return args + list(argv)

    def places(self, shown: Sequence[str], gpu: bool = False) -> List[str]:
        """What the sandbox binds, besides what it shows every test (and a GPU test), so that
        the files and folders `shown` are there: the outermost of each, and the places a link
        on their way leads to."""
        bound = [b.dest for b in self.machine_binds(gpu)]  # a link made inside is the host's own
        places: List[str] = []
        for path in sorted(shown, key=lambda p: (p.count("/"), p)):
            for place in reach(path, bound + places):
                places.append(place)
        return places

    def environment(self, scratch: Path, extra: Dict[str, str]) -> Dict[str, str]:
        """The environment of a command in the sandbox: a few of the grader's variables, an
        empty HOME and TMPDIR in the scratch folder, and `extra`."""
        env = {k: os.environ[k] for k in PASSED_VARIABLES if os.environ.get(k)}
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env["HOME"] = str(scratch / "home")
        env["TMPDIR"] = str(scratch / "tmp")
        env.update(extra)
        return env

    def record(self) -> dict:
        """What the evidence record says of the sandbox: what it is, and what it shows every
        test and a GPU test besides."""
        data: dict = {"isolated": self.isolated, "what": self.describe()}
        if self.isolated:
            data["shown"] = [str(b) for b in self.machine_binds(False)]
            data["shown_to_gpu_tests"] = [str(b) for b in self._gpu()[0]]
            if self._gpu()[1]:
                data["cuda_visible_devices"] = self._gpu()[1]
        return data

    def describe(self) -> str:
        if not self.isolated:
            return f"NOT ISOLATED: {self.reason}"
        who = f", as uid {self.uid}" if self.uid is not None else ""
        binds, _, what = self._gpu()
        gpu = f"; a GPU test also {what}" if binds else f"; no GPU device ({what})"
        return (f"{self.reason}: each test sees only the system's runtime and its own files, "
                f"read-only (its programs and their libraries, the files the build lists for "
                f"it){gpu}; it writes only its scratch folder (HOME, TMPDIR); an empty /tmp, no "
                f"network, own process namespace{who}")
