"""A class graded on a real Slurm: a cluster of one node started by the test (Debian's slurm-wlm
and munge), in a temporary folder of its own, with settings that work in a container (no
cgroups, no accounting, no systemd; its own munge key and socket, its own ports; root runs
every daemon). submit.sh --no-gpu submits the job array (one student a task) and the merge after
it, for a roster of three graded at lesson 01 only: a solved repository at a tag, the starter,
and a repository that does not exist. Slurm runs grade-class.sbatch for each; the test waits
for every job to end, then holds the gradebook, the students' folders and the summary to each
student's own grade, as the task-by-task test does (test_grade_class_engines.py).

Without --no-gpu submit.sh asks for one GPU a task (`--gres=gpu:1`, checked against a stand-in
`sbatch`), which this node has not: its sbatch refuses the array and nothing is queued.

Every daemon the test starts is stopped when it ends, whatever its end. A daemon that does not
start fails the test, with the end of its log. Without Slurm and munge, root (slurmd starts
each job as its owner), or what a real grading needs (test_grade_again.py), it skips and says
why."""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
from pathlib import Path
from typing import Dict, List, Optional

from course_testing import ROOT, ToolTest
from test_grade_again import WHY_NOT
from test_grade_class import solved_at_a_tag
from test_grade_class_engines import FAKE_SBATCH, SLURM, book_of

from course.grading.hostile.run_hostile import commit_all, pinned_course, student_repo

#: Where Debian puts the daemons, for a PATH without the sbin folders.
SEARCH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "sinfo", "scancel")
#: The states of a job that has ended (squeue's %T).
ENDED = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
         "BOOT_FAIL", "DEADLINE", "PREEMPTED"}
#: Bounds on the waits: the node to be idle, every job of the class to end.
NODE_UP_S = 60
CLASS_S = 220
PR_SET_CHILD_SUBREAPER = 36


def program(name: str) -> Optional[str]:
    return shutil.which(name, path=SEARCH)


def why_no_slurm() -> str:
    """'' where a Slurm of the test's own can be started here; else what is missing."""
    missing = [p for p in DAEMONS + CLIENTS if not program(p)]
    if missing:
        return (f"Slurm and munge (Debian: apt-get install slurm-wlm munge; missing here: "
                f"{', '.join(missing)})")
    if os.geteuid() != 0:
        return "root to start Slurm's daemons (slurmd starts each job as its owner)"
    return ""


WHY_NO_SLURM = why_no_slurm()


def free_ports(count: int) -> List[int]:
    """`count` TCP ports nothing listens on now (the cluster's own, not Slurm's usual 6817-8)."""
    held = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("", 0))
            held.append(s)
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


def tail(path: Path, lines: int = 30) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError as e:
        return f"({path}: {e})"
    return "\n".join(text.splitlines()[-lines:]) or f"({path} is empty)"


def be_subreaper(on: bool) -> None:
    """With `on`, what the daemons leave behind (slurmstepd detaches from slurmd) comes back to
    this process, which reaps it, rather than to the machine's first process, which in a
    container may reap nothing."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    except (OSError, AttributeError):
        pass


def orphans(keep: List[int]) -> List[int]:
    """The children of this process but `keep` (exited or not)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in keep:
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == os.getpid():
            found.append(int(entry.name))
    return found


class DaemonFailed(Exception):
    pass


class OneNodeSlurm:
    """munged, slurmctld and slurmd in `folder`, in the foreground as children of the test:
    munge/ (key, socket), slurm.conf and cgroup.conf, state/, spool/, log/<daemon>.log. One
    node named after this host, with the CPUs `nproc` gives, in one partition; the jobs run as
    root, untracked by cgroups (proctrack/linuxproc, task/none), unaccounted."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.node = socket.gethostname().split(".")[0]
        self.conf = folder / "slurm.conf"
        self.logs = folder / "log"
        self.socket = folder / "munge" / "munge.socket"
        self.children: Dict[str, subprocess.Popen] = {}
        self.env = dict(os.environ, SLURM_CONF=str(self.conf))

    def log(self, daemon: str) -> Path:
        return self.logs / f"{daemon}.log"

    def failed(self, daemon: str, what: str) -> DaemonFailed:
        return DaemonFailed(f"{daemon} {what}; the end of {self.log(daemon)}:\n"
                            f"{tail(self.log(daemon))}")

    def spawn(self, daemon: str, *args: str) -> None:
        with open(self.log(daemon), "wb") as log:
            self.children[daemon] = subprocess.Popen(
                [program(daemon), *args], stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, env=self.env, cwd=str(self.folder),
                start_new_session=True)

    def start(self) -> None:
        for sub in ("munge", "state", "spool", "log"):
            (self.folder / sub).mkdir()
        # munged wants its socket's folders searchable by everyone (users reach it there):
        # the test's temporary folder is not, hence --force, which makes that a warning.
        (self.folder / "munge").chmod(0o755)
        key = self.folder / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        self.spawn("munged", "--foreground", "--force", f"--socket={self.socket}",
                   f"--key-file={key}", f"--pid-file={self.folder / 'munge' / 'munged.pid'}",
                   f"--seed-file={self.folder / 'munge' / 'munged.seed'}")
        self.wait("munged", "made no socket", 15, lambda: self.socket.exists())
        self.conf.write_text(self.settings())
        (self.folder / "cgroup.conf").write_text(self.cgroup_settings())
        be_subreaper(True)
        self.spawn("slurmctld", "-D")
        self.spawn("slurmd", "-D", "-N", self.node)
        self.wait("slurmd", f"did not bring node {self.node} up (sinfo: {{state}})", NODE_UP_S,
                  lambda: self.node_state() == "idle")

    def settings(self) -> str:
        ctld_port, slurmd_port = free_ports(2)
        cpus = len(os.sched_getaffinity(0))
        f = self.folder
        return "\n".join([
            "ClusterName=course-test",
            f"SlurmctldHost={self.node}(127.0.0.1)",
            f"SlurmctldPort={ctld_port}",
            f"SlurmdPort={slurmd_port}",
            "SlurmUser=root",
            "SlurmdUser=root",
            f"AuthInfo=socket={self.socket}",  # munge, the default, through this munged
            f"StateSaveLocation={f / 'state'}",
            f"SlurmdSpoolDir={f / 'spool'}",
            f"SlurmctldPidFile={f / 'slurmctld.pid'}",
            f"SlurmdPidFile={f / 'slurmd.pid'}",
            # No cgroups (a container may have none of its own). Accounting, job completion
            # records and MPI are left to their defaults: off, in every version of Slurm.
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            # A container may not raise a limit to the submitter's: the node's own apply.
            "PropagateResourceLimits=NONE",
            # Tasks share the node by CPUs, several at once.
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_CPU",
            "SchedulerType=sched/builtin",
            "ReturnToService=2",
            # A slurmd that stops answering is noticed in a minute (a busy machine's pause is
            # not one), a cancelled job is killed within seconds, and an ended job stays listed
            # (squeue -t all) for ten minutes, for the test to read how it ended.
            "SlurmctldTimeout=10",
            "SlurmdTimeout=60",
            "MessageTimeout=10",
            "InactiveLimit=0",
            "KillWait=5",
            "MinJobAge=600",
            f"NodeName={self.node} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=100 State=UNKNOWN",
            f"PartitionName=course Nodes={self.node} Default=YES MaxTime=INFINITE State=UP",
            ""])

    def cgroup_settings(self) -> str:
        """cgroup.conf, beside slurm.conf. slurmd sets its cgroup plugin up whatever its other
        plugins use, and the one it finds by itself wants a cgroup hierarchy (and, for cgroup
        v2, systemd) that a container does not give it: "disabled" from Slurm 24.05, before it
        the cgroup v1 plugin, which touches no cgroup until a cgroup plugin asks (none here)."""
        version = subprocess.run([program("slurmd"), "-V"], capture_output=True, text=True,
                                 env=self.env, timeout=30).stdout
        found = re.search(r"(\d+)\.(\d+)", version)
        newer = found is not None and (int(found[1]), int(found[2])) >= (24, 5)
        return f"CgroupPlugin={'disabled' if newer else 'cgroup/v1'}\n"

    def wait(self, daemon: str, what: str, seconds: float, ready) -> None:
        """Until ready(), a daemon's exit or `seconds`: DaemonFailed with its log's end."""
        end = time.monotonic() + seconds
        while True:
            for name, child in self.children.items():
                if child.poll() is not None:
                    raise self.failed(name, f"exited with status {child.returncode}")
            if ready():
                return
            if time.monotonic() > end:
                raise self.failed(daemon, what.format(state=self.node_state() or "nothing") +
                                  f" in {seconds:g} s")
            time.sleep(0.5)

    def client(self, *argv: str, timeout: float = 30) -> subprocess.CompletedProcess:
        return subprocess.run([program(argv[0]), *argv[1:]], capture_output=True, text=True,
                              env=self.env, timeout=timeout)

    def node_state(self) -> str:
        try:
            proc = self.client("sinfo", "-h", "-n", self.node, "-o", "%T", timeout=10)
            return proc.stdout.strip()
        except subprocess.TimeoutExpired:
            return ""

    def jobs(self, ids: List[str]) -> Dict[str, str]:
        """Each job (an array's task as ID_N) of `ids` and its state, whatever the state."""
        proc = self.client("squeue", "-h", "-t", "all", "-j", ",".join(ids), "-o", "%i %T")
        return dict(line.split() for line in proc.stdout.splitlines() if line.strip())

    def stop(self) -> None:
        """Cancels what is queued or running, then stops every daemon and anything left of a
        job (by its pid); never raises."""
        ctld = self.children.get("slurmctld")
        if ctld is not None and ctld.poll() is None:
            try:
                queued = self.client("squeue", "-h", "-o", "%A").stdout.split()
                if queued:
                    self.client("scancel", *queued)
                    end = time.monotonic() + 20
                    while self.client("squeue", "-h", "-o", "%A").stdout.split():
                        if time.monotonic() > end:
                            break
                        time.sleep(0.5)
            except (OSError, subprocess.SubprocessError):
                pass
        for name in ("slurmd", "slurmctld", "munged"):
            child = self.children.get(name)
            if child is None or child.poll() is not None:
                continue
            child.terminate()
            try:
                child.wait(timeout=15)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait(timeout=15)
        # slurmstepd and the jobs it started carry this cluster's SLURM_CONF.
        mark = f"SLURM_CONF={self.conf}".encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                if mark in (entry / "environ").read_bytes().split(b"\0"):
                    os.kill(int(entry.name), signal.SIGKILL)
            except OSError:
                pass
        end = time.monotonic() + 10
        while True:
            left = orphans([c.pid for c in self.children.values()])
            for pid in left:
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            if not left or time.monotonic() > end:
                break
            time.sleep(0.2)
        be_subreaper(False)


class TheGpuRequest(ToolTest):
    """What submit.sh asks sbatch for, against a stand-in that records it."""

    def test_one_gpu_a_task_unless_no_gpu(self):
        sbatch = self.bin / "sbatch"
        sbatch.write_text(FAKE_SBATCH)
        sbatch.chmod(0o755)
        calls = self.tmp / "sbatch.log"
        self.env["SBATCH_LOG"] = str(calls)
        roster = self.tmp / "roster.csv"
        roster.write_text("student,repository,ref\nada,/r/ada,\nbob,/r/bob,\n")
        for flags, gres in (((), True), (("--no-gpu",), False)):
            with self.subTest(flags=flags):
                calls.write_text("")
                proc = subprocess.run(["bash", str(SLURM / "submit.sh"), "--roster", str(roster),
                                       "--course", str(ROOT), "--out", str(self.tmp / "class"),
                                       *flags], capture_output=True, text=True, env=self.env,
                                      cwd=str(self.tmp), timeout=120)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                array, merge = calls.read_text().splitlines()
                self.assertEqual("--gres=gpu:1" in array.split(), gres, array)
                self.assertNotIn("--gres", merge)


@unittest.skipIf(WHY_NO_SLURM, f"needs {WHY_NO_SLURM}")
@unittest.skipIf(WHY_NOT, f"needs {WHY_NOT}")
class AClassOnSlurm(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory(prefix="course-slurm-")
        self.addCleanup(tmp.cleanup)
        self.work = Path(tmp.name)
        self.cluster = OneNodeSlurm(self.work / "slurm")
        (self.work / "slurm").mkdir()
        self.addCleanup(self.cluster.stop)  # before the folder goes, whatever happened
        try:
            self.cluster.start()
            return
        except DaemonFailed as e:
            failure = str(e)
        self.fail(failure)

    def submit(self, roster: Path, course: Path, out: Path, *flags: str):
        env = dict(self.cluster.env, TMPDIR=str(self.work))
        for key in ("PYTHONPATH", "COURSE_HIDDEN_TESTS", "GRADE_JOBS"):
            env.pop(key, None)
        # One CPU a task (grade-class.sbatch asks for 8): the node's CPUs grade side by side.
        return subprocess.run(["bash", str(SLURM / "submit.sh"), "--roster", str(roster),
                               "--course", str(course), "--out", str(out), "--lessons", "01",
                               *flags, "--", "--cpus-per-task=1"],
                              capture_output=True, text=True, env=env, cwd=str(self.work),
                              timeout=120)

    def class_logs(self, out: Path) -> str:
        return "\n".join(f"== {p.name}\n{tail(p, 40)}"
                         for p in sorted((out / "slurm").glob("*.log")))

    def test_the_array_grades_the_roster_and_the_merge_writes_the_gradebook(self):
        work = self.work
        course = pinned_course(work)
        solved = solved_at_a_tag(course, work, "ada")
        starter = student_repo(course, work, "bob", {})
        commit_all(starter, "Student", "starter")
        roster = work / "roster.csv"
        roster.write_text(f"student,repository,ref\nada,{solved},week1\nbob,{starter},\n"
                          f"dee,{work / 'nowhere'},\n")

        # A GPU a task: this node has none, so sbatch refuses the array and nothing is queued.
        refused = self.submit(roster, course, work / "gpu-class")
        self.assertEqual(refused.returncode, 1, refused.stdout + refused.stderr)
        self.assertIn("sbatch refused the grading array", refused.stderr)
        self.assertIn("gres", refused.stderr)
        self.assertEqual(self.cluster.client("squeue", "-h").stdout.strip(), "")

        out = work / "class"
        proc = self.submit(roster, course, out, "--no-gpu")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        found = re.search(r"3 students in job array (\d+); the gradebook after it, job (\d+):",
                          proc.stdout)
        self.assertIsNotNone(found, proc.stdout)
        array, merge = found.groups()
        end = time.monotonic() + CLASS_S
        while True:
            states = self.cluster.jobs([array, merge])
            if len(states) == 4 and set(states.values()) <= ENDED:
                break
            if time.monotonic() > end:
                self.fail(f"the class did not end in {CLASS_S} s: {states}\n"
                          f"{self.class_logs(out)}")
            time.sleep(1)
        # The task of the student who could not be fetched fails, and so does the merge, which
        # says that not everyone was graded; the others end well.
        self.assertEqual(states, {f"{array}_0": "COMPLETED", f"{array}_1": "COMPLETED",
                                  f"{array}_2": "FAILED", merge: "FAILED"},
                         self.class_logs(out))
        self.assertIn("task 0: ada, against", (out / "slurm" / f"grade-{array}-0.log").read_text())
        self.assertIn("gradebook:", (out / "slurm" / f"merge-{merge}.log").read_text())
        self.assertFalse(any(p.name.startswith("course-grade-") for p in work.iterdir()),
                         "each task's course copy is removed")

        book = book_of(out / "gradebook.csv")
        self.assertEqual(sorted(book), ["ada", "bob", "dee"])
        tag = subprocess.run(["git", "-C", str(solved), "rev-parse", "week1"],
                             capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(book["ada"]["commit"], tag)
        for name in ("ada", "bob"):
            folder = out / "students" / name
            own = json.loads((folder / "score.json").read_text())
            self.assertEqual(float(book[name]["total"]), own["total"]["score"], name)
            self.assertEqual(book[name]["lesson01"], f"{own['lessons']['lesson01']['score']:g}")
            self.assertEqual(book[name]["complete"], "yes" if own["complete"] else "no")
            self.assertEqual(json.loads((folder / "graded.json").read_text())["key"]["commit"],
                             book[name]["commit"])
            self.assertEqual((out / "feedback" / f"{name}.md").read_text(),
                             (folder / "grade.md").read_text())
        self.assertGreater(float(book["ada"]["total"]), 0)
        self.assertEqual(float(book["bob"]["total"]), 0)
        self.assertEqual(book["dee"]["total"], "")
        self.assertIn("cannot clone", (out / "students" / "dee" / "error.txt").read_text())
        self.assertFalse((out / "feedback" / "dee.md").exists())
        text = (out / "summary.md").read_text()
        self.assertIn("2 of 3 students graded", text)
        self.assertIn("- dee: cannot clone", text)


if __name__ == "__main__":
    unittest.main()
