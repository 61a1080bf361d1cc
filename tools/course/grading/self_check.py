#!/usr/bin/env python3
"""The bank model held to this GPU's counters: a few thousand single-instruction shared-memory
patterns measured with the hardware counters beside the model's count, about two minutes.

  ./course-admin self-check --build-dir build/gpu-check
  ./course self-check                                   (a student's own GPU: build/student)
  ./course-admin self-check --build-dir build/grade --seed 123456789 --force   (a replay)

The course's 8- and 16-byte bank rules were read from the counters of an sm_90 GPU; elsewhere
the tests that need them skip ("rule not verified") until this check has passed on the GPU in
front of them. It runs DIR/bin/bank-probe (tools/bank_probe) with --check on
  - --patterns N random draws of a fresh seed (kit/pattern_draws.hpp: every width, loads and
    stores, every mask shape; 6000 by default), in parts of 2000, and
  - a sample of the structured set (lane pairs, triples and runs of 8- and 16-byte accesses):
    every 7th pattern, from the seed modulo 7 on (1864 of its 13,048; bank-probe --structured
    --every 7 --offset J),
at about 70 patterns a second on an H100. The seed is printed, so that a run can be replayed.

What it writes, beside each other (DIR/self-check/ by default):
  rules.json       the record: {"gpu", "arch", "driver", "course", "date", "seed", "patterns",
                   "disagreements", "verified", "csv", "first_disagreements", "seconds", ...};
                   the kit reads "verified", "gpu" and "arch" from the file that KIT_SELF_CHECK
                   names. "patterns" counts every pattern compared (draws and structured);
                   "course" is a hash of the kit's sources (common/) and bank-probe's, the code
                   that decides what is measured and what the model says.
  rules.csv        every pattern measured, as bank-probe writes it (the GPU and date in its
                   header): `bank-probe --patterns rules.csv --check` measures them again.
  rules-differ.csv the patterns that differ from the model, when some do.

A record of the same GPU (its name as nvidia-smi gives it, "nvidia_smi_gpu"), driver and course
is reused, and says so: the check runs once per machine. --force measures again; so does a --seed or --patterns
other than the record's, and a record of a run that could not measure is never reused.

Exit status: 0 when every pattern agrees with the model (rules verified on this GPU), 3 when
some differ (each is printed, with how to send them to the course's maintainers), 1 when the
check cannot run here (no GPU, counters refused, no bank-probe: one sentence, and a record that
says verified false with the reason), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

from course.model import machine
from course.model.cli import Parser, run_main, write_text_atomic
from course.model.course_model import Build, CourseError
from course.model.safe_text import one_line

PROG = "self-check"

#: Random draws by default, and how many one bank-probe run measures (a progress line each).
DEFAULT_DRAWS = 6000
DRAWS_PER_RUN = 2000
#: The structured set's sample: the patterns whose index is (seed mod EVERY) modulo EVERY.
STRUCTURED_EVERY = 7
STRUCTURED_SET = 13048  # patterns in kit::structured_patterns(), for the time announced
#: Patterns a second on an H100 (docs/measurements.md, "Masked and partial wide loads").
RATE = 70.0
#: The longest one bank-probe run may take (2000 patterns take about 30 s on an H100).
RUN_TIMEOUT = 900
#: Seeds bank-probe takes.
MAX_SEED = 999999999999
#: The patterns that differ, kept in the record (all are in the CSV files) and printed.
KEPT = 10
PRINTED = 20

#: The record's place in a build folder.
RECORD = Path("self-check") / "rules.json"
#: The program, in a build folder.
PROBE = Path("bin") / "bank-probe"

#: Environment settings under which the kit measures nothing: a record is never reused then.
NO_MEASURING = ("KIT_FORCE_NO_GPU", "KIT_COUNTERS_REFUSE")

#: Where a disagreement goes (docs/measurements.md, "The self-check on your GPU").
REPORT_TO = ("the course's maintainers (an issue on the repository the course came from; a "
             "class's students: through their instructor)")

#: The CSV columns bank-probe writes.
COLUMNS = ("set,index,op,width,mask,offsets,model_wavefronts,model_ideal,counter_wavefronts,"
           "l1tex_wavefronts,bank_conflicts,name").split(",")

# "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" or "none (model only): <reason>"
_DEVICE = re.compile(r"^(?P<name>.+) \((?P<arch>sm_\d+), \d+ SMs\)$")
_SUMMARY = re.compile(r"bank-probe: (\d+) patterns, (\d+) measured, (\d+) differ from the model"
                      r"(?: \((.*)\))?\s*$")
_EMPTY = "counter columns empty: "


# ------------------------------------------------------------------------------------------
# What the record is about: the GPU, its driver, the course
# ------------------------------------------------------------------------------------------

def record_path(build_dir: Path) -> Path:
    """The record's default place: DIR/self-check/rules.json."""
    return build_dir / RECORD


def csv_path(record: Path, suffix: str = "") -> Path:
    """The CSV kept beside a record: rules.json -> rules.csv (suffix "-differ": rules-differ.csv)."""
    stem = record.stem if record.suffix == ".json" else record.name
    return record.with_name(f"{stem}{suffix}.csv")


def course_version(source_dir: Path) -> str:
    """'kit-<16 hex digits>': a sha256 of the kit's sources (common/) and bank-probe's
    (tools/bank_probe/main.cpp), each file's path and bytes; 'unknown' where none is found. It
    changes only with the code that decides what is measured and what the model says, not with
    a student's commits, so a record stays valid until the model changes."""
    files = sorted(p for p in (source_dir / "common").rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    probe = source_dir / "tools" / "bank_probe" / "main.cpp"
    if probe.is_file():
        files.append(probe)
    if not files:
        return "unknown"
    h = hashlib.sha256()
    for p in files:
        h.update(p.relative_to(source_dir).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return "kit-" + h.hexdigest()[:16]


def course_commit(source_dir: Path) -> str:
    """`git describe --always --tags --dirty` of the course, for a person reading the record
    (never part of the cache key: a student's every commit would change it); '' without git."""
    git = shutil.which("git")
    if not git:
        return ""
    try:
        p = subprocess.run([git, "-C", str(source_dir), "describe", "--always", "--tags",
                            "--dirty"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


def driver_version() -> str:
    """The NVIDIA driver's version (nvidia-smi, else /proc/driver/nvidia/version), or ''."""
    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            p = subprocess.run([smi, "--query-gpu=driver_version", "--format=csv,noheader"],
                               capture_output=True, text=True, timeout=20)
            first = p.stdout.strip().splitlines()[0].strip() if p.stdout.strip() else ""
            if p.returncode == 0 and re.fullmatch(r"[0-9][0-9.]*", first):
                return first
        except (OSError, subprocess.TimeoutExpired):
            pass
    try:
        text = Path("/proc/driver/nvidia/version").read_text()
    except OSError:
        return ""
    m = re.search(r"Kernel Module(?: for [^ ]+)?\s+([0-9][0-9.]+)", text)
    return m.group(1) if m else ""


def gpu_name() -> str:
    """The name of the GPU this process's CUDA programs get, as nvidia-smi names it (the name
    CUDA gives too), or '' where nvidia-smi names none."""
    try:
        name, _ = machine.gpu()
    except (OSError, subprocess.SubprocessError):
        return ""
    return name or ""


# ------------------------------------------------------------------------------------------
# The record
# ------------------------------------------------------------------------------------------

def read_record(path: Path) -> Optional[dict]:
    """The record at `path`, or None where there is none or it is not one."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "verified" in data else None


def verified_on(record: Optional[dict], gpu: str, arch: str) -> bool:
    """Whether a record says the rules were verified on this GPU (its name and sm_XY): what the
    kit decides from the file KIT_SELF_CHECK names."""
    return bool(record and record.get("verified") is True and gpu and
                record.get("gpu") == gpu and record.get("arch") == arch)


def reusable(record: Optional[dict], gpu: str, driver: str, course: str) -> bool:
    """Whether a record answers for this machine: a measured run (verified, or patterns that
    differ) of the same GPU (`gpu`: as nvidia-smi names it), driver and course."""
    return bool(record and gpu and record.get("status") in ("verified", "disagreement") and
                record.get("nvidia_smi_gpu", record.get("gpu")) == gpu and
                record.get("driver") == driver and record.get("course") == course)


def same_plan(record: dict, draws: int, seed: Optional[int], every: int) -> bool:
    """Whether a record measured what was asked: as many draws, of the seed asked (any seed
    where none was), and the same sample of the structured set."""
    structured = record.get("structured")
    return (record.get("random") == draws and (seed is None or record.get("seed") == seed) and
            isinstance(structured, dict) and structured.get("every") == every)


# ------------------------------------------------------------------------------------------
# The runs of bank-probe
# ------------------------------------------------------------------------------------------

@dataclass
class Plan:
    """What one check measures: draws 0..draws-1 of `seed`, then the structured set's patterns
    whose index is `offset` modulo `every` (none where every is 0)."""

    draws: int
    seed: int
    every: int = STRUCTURED_EVERY

    @property
    def offset(self) -> int:
        return self.seed % self.every if self.every else 0

    @property
    def structured(self) -> int:
        """The structured patterns it measures, as the set stands today (bank-probe's count is
        the one recorded)."""
        if not self.every:
            return 0
        return len(range(self.offset, STRUCTURED_SET, self.every))

    @property
    def total(self) -> int:
        return self.draws + self.structured

    def runs(self) -> List[Tuple[str, List[str]]]:
        """(what it measures, bank-probe's arguments) of each run, in order."""
        out = []
        for first in range(0, self.draws, DRAWS_PER_RUN):
            count = min(DRAWS_PER_RUN, self.draws - first)
            out.append((f"draws {first}-{first + count - 1} of seed {self.seed}",
                        ["--random", str(count), "--seed", str(self.seed), "--first", str(first)]))
        if self.every:
            out.append((f"the structured set's patterns {self.offset} modulo {self.every}",
                        ["--structured", "--every", str(self.every), "--offset",
                         str(self.offset)]))
        return out


@dataclass
class Outcome:
    """What a check found: its record and exit status, and whether an earlier record was
    reused."""

    status: int
    record: dict
    reused: bool = False


class CannotRun(Exception):
    """The check cannot measure here; the message is one sentence."""


def run_probe(probe: Path, args: List[str]) -> Tuple[int, int, str]:
    """Runs bank-probe; returns (patterns, measured, the note on why nothing was measured).
    Raises CannotRun when it fails."""
    try:
        p = subprocess.run([str(probe), *args], capture_output=True, text=True,
                           timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise CannotRun(f"{probe} {' '.join(args[:2])} ran for more than {RUN_TIMEOUT} s") from None
    except OSError as e:
        raise CannotRun(f"cannot run {probe}: {e.strerror or e}") from None
    last = one_line(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "", 400)
    if p.returncode == 2:
        raise CannotRun(f"{probe} does not take the self-check's arguments ({last}): rebuild it "
                        f"(cmake --build {probe.parent.parent} --target bank-probe)")
    if p.returncode not in (0, 3):
        raise CannotRun(f"{probe} failed (exit status {p.returncode}): {last or 'no message'}")
    m = _SUMMARY.search(p.stderr)
    if not m:
        raise CannotRun(f"{probe} did not say what it measured: {last or 'no message'}")
    note = (m.group(4) or "").strip()
    return int(m.group(1)), int(m.group(2)), note[len(_EMPTY):] if note.startswith(_EMPTY) else note


@dataclass
class Table:
    """A bank-probe CSV: its `# name: value` lines, its rows (each as a dict and as its line)."""

    comments: List[str]
    rows: List[Dict[str, str]]
    lines: List[str]

    def field(self, name: str) -> str:
        prefix = f"# {name}: "
        return next((c[len(prefix):] for c in self.comments if c.startswith(prefix)), "")


def read_table(path: Path) -> Table:
    try:
        text = path.read_text()
    except OSError as e:
        raise CannotRun(f"cannot read {path}: {e.strerror or e}") from None
    comments, rows, lines = [], [], []
    header = None
    for line in text.splitlines():
        if line.startswith("#"):
            comments.append(line)
        elif line.strip():
            cells = next(csv.reader([line]))
            if header is None:
                header = cells
                if header != COLUMNS:
                    raise CannotRun(f"{path} is not bank-probe's table (its header row)")
            elif len(cells) == len(COLUMNS):
                rows.append(dict(zip(COLUMNS, cells)))
                lines.append(line)
    return Table(comments, rows, lines)


def name_the_gpu(table: Table, data: dict) -> None:
    """The GPU's name and sm_XY from the table's `# device:` line (CUDA's name: the one the kit
    compares), where it names one."""
    m = _DEVICE.match(table.field("device"))
    if m:
        data["gpu"], data["arch"] = m.group("name"), m.group("arch")


def differs(row: Dict[str, str]) -> bool:
    try:
        return float(row["counter_wavefronts"]) != float(row["model_wavefronts"])
    except ValueError:
        return False


def disagreement(row: Dict[str, str]) -> dict:
    """A pattern that differs, as the record keeps it."""
    pattern = {k: row[k] for k in ("set", "index", "name", "op", "width", "mask", "offsets")}
    pattern["index"] = int(pattern["index"])
    pattern["width"] = int(pattern["width"])
    return {"pattern": pattern, "model": int(float(row["model_wavefronts"])),
            "counters": float(row["counter_wavefronts"])}


def add_notes(path: Path, notes: List[str]) -> None:
    """Writes `# note:` lines into a bank-probe CSV, after its other comment lines."""
    lines = path.read_text().splitlines()
    at = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    lines[at:at] = [f"# note: {n}" for n in notes]
    write_text_atomic(path, "\n".join(lines) + "\n")


# ------------------------------------------------------------------------------------------
# The check
# ------------------------------------------------------------------------------------------

def today() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} minutes"


def fresh_seed() -> int:
    return 1 + secrets.randbelow(999999999)


def check(build_dir: Path, record: Optional[Path] = None, draws: int = DEFAULT_DRAWS,
          seed: Optional[int] = None, force: bool = False, every: int = STRUCTURED_EVERY,
          say: Callable[[str], None] = print) -> Outcome:
    """The self-check, as the command runs it (the grader calls it once per machine): reuses
    the record when it answers for this GPU, driver and course (and neither `force` nor a seed
    or a number of draws other than its own asks for a new run), else measures and writes the
    record and the CSV beside it. `say` gets the progress lines. Returns the outcome: status 0
    (verified), 3 (patterns differ) or 1 (cannot run here: the record says why). Raises
    CourseError where bank-probe is not built or the record cannot be written."""
    record = record or record_path(build_dir)
    probe = build_dir / PROBE
    source = Build(build_dir).source_dir
    course = course_version(source)
    gpu, driver = gpu_name(), driver_version()

    earlier = read_record(record)
    if earlier is not None and not force and reusable(earlier, gpu, driver, course) and \
            same_plan(earlier, draws, seed, every) and \
            not any(os.environ.get(k) for k in NO_MEASURING):
        say(f"{PROG}: reusing {record} of {earlier.get('date', '?')}: the same GPU ({gpu}), "
            f"driver ({driver}) and course ({course}); --force measures again")
        return Outcome(0 if earlier["verified"] is True else 3, earlier, reused=True)

    if not probe.is_file():
        raise CourseError(f"no {probe}: build it first (cmake --build {build_dir} --target "
                          f"bank-probe)")
    plan = Plan(draws, seed if seed is not None else fresh_seed(), every)
    table_path = csv_path(record)
    differ_path = csv_path(record, "-differ")
    data = {"gpu": gpu, "arch": "", "nvidia_smi_gpu": gpu, "driver": driver, "course": course,
            "course_commit": course_commit(source), "date": today(), "seed": plan.seed,
            "patterns": 0, "random": plan.draws,
            "structured": {"every": plan.every, "offset": plan.offset, "count": plan.structured},
            "disagreements": 0, "verified": False, "status": "not measured", "reason": "",
            "csv": str(table_path.resolve()), "first_disagreements": [], "seconds": 0.0,
            "bank_probe": str(probe.resolve())}
    say(f"{PROG}: the bank model against the counters of {gpu or 'this machine'}"
        f"{f' (driver {driver})' if driver else ''}: seed {plan.seed}, {plan.draws} random draws"
        f" and {plan.structured} structured patterns, about {duration(plan.total / RATE)} on an "
        f"H100")
    say(f"  (the same patterns again: --seed {plan.seed}"
        f"{f' --patterns {plan.draws}' if plan.draws != DEFAULT_DRAWS else ''}"
        f"{f' --structured-every {every}' if every != STRUCTURED_EVERY else ''} --force)")
    start = time.monotonic()
    try:
        table_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CourseError(f"cannot write {table_path.parent}: {e.strerror or e}") from None
    if differ_path.is_file():
        differ_path.unlink()
    runs = plan.runs()
    commands = []
    counted = 0
    try:
        for i, (what, args) in enumerate(runs):
            args = [*args, "--output", str(table_path), "--check"] + (["--append"] if i else [])
            commands.append(" ".join(["bank-probe", *args]))
            patterns, measured, note = run_probe(probe, args)
            if i == 0:
                name_the_gpu(read_table(table_path), data)
            if measured < patterns:
                raise CannotRun(note or f"bank-probe measured {measured} of {patterns} patterns")
            counted += patterns
            if args[0] == "--structured":
                data["structured"]["count"] = patterns
            say(f"  {i + 1}/{len(runs)}: {what}: {patterns} patterns measured "
                f"({time.monotonic() - start:.0f} s)")
        table = read_table(table_path)
        if not data["arch"]:
            raise CannotRun(f"bank-probe's table names no GPU ('# device: "
                            f"{table.field('device')}')")
        unmeasured = [r for r in table.rows if not r["counter_wavefronts"]]
        if unmeasured or len(table.rows) != counted:
            raise CannotRun(f"{table_path} holds {len(table.rows) - len(unmeasured)} measured "
                            f"patterns, not the {counted} bank-probe measured")
    except CannotRun as e:
        data["reason"] = str(e)
        data["seconds"] = round(time.monotonic() - start, 1)
        data["commands"] = commands
        write_text_atomic(record, json.dumps(data, indent=2) + "\n")
        return Outcome(1, data)

    wrong = [(r, line) for r, line in zip(table.rows, table.lines) if differs(r)]
    data.update(patterns=len(table.rows), disagreements=len(wrong), verified=not wrong,
                status="disagreement" if wrong else "verified",
                first_disagreements=[disagreement(r) for r, _ in wrong[:KEPT]],
                seconds=round(time.monotonic() - start, 1), commands=commands)
    notes = [f"the course's self-check ({PROG}): draws 0-{plan.draws - 1} of seed {plan.seed}"
             f"{f' and the structured patterns {plan.offset} modulo {plan.every}' if plan.every else ''}"
             f", {len(runs)} runs of bank-probe appended (--first, --every, --offset)",
             "measure them again: bank-probe --patterns FILE --check"]
    add_notes(table_path, notes)
    if wrong:
        data["reason"] = f"{len(wrong)} of {len(table.rows)} patterns differ from the model"
        data["differ_csv"] = str(differ_path.resolve())
        head = read_table(table_path).comments
        write_text_atomic(differ_path, "\n".join(
            [*head, ",".join(COLUMNS), *(line for _, line in wrong)]) + "\n")
    write_text_atomic(record, json.dumps(data, indent=2) + "\n")
    return Outcome(3 if wrong else 0, data)


# ------------------------------------------------------------------------------------------
# What the command prints
# ------------------------------------------------------------------------------------------

def report(outcome: Outcome, record: Path, build_dir: Path) -> List[str]:
    """The lines after the check: the verdict, and for patterns that differ each of them and
    what to do."""
    r = outcome.record
    where = f"{r.get('gpu') or 'this GPU'} ({r.get('arch') or '?'})"
    if outcome.status == 0:
        return [f"{PROG}: rules verified on {where}: {r['patterns']} patterns, every one as the "
                f"model counts it ({r.get('seconds', 0):.0f} s; seed {r.get('seed')}). "
                f"Record: {record}"]
    if outcome.status == 1:
        return []
    rows = r.get("first_disagreements", [])
    lines = [f"{PROG}: {r['disagreements']} of {r['patterns']} patterns differ from the model on "
             f"{where}, driver {r.get('driver') or '?'} (seed {r.get('seed')}):"]
    shown = rows
    differ_csv = r.get("differ_csv", "")
    if not outcome.reused:
        try:
            table = read_table(Path(differ_csv))
            shown = [disagreement(row) for row in table.rows[:PRINTED]]
        except (CannotRun, KeyError, ValueError):
            pass
    for d in shown:
        p = d["pattern"]
        lines.append(f"  {p['name']} ({p['set']} #{p['index']}): {p['op']}, {p['width']} B, "
                     f"mask {p['mask']}: model {d['model']} wavefronts, counters "
                     f"{d['counters']:.2f}")
        lines.append(f"      lane offsets: {p['offsets']}")
    if r["disagreements"] > len(shown):
        lines.append(f"  ... and {r['disagreements'] - len(shown)} more in {differ_csv}")
    probe = build_dir / PROBE
    lines += ["", paragraph(
        f"What to do: measure them again first, to rule out a disturbed run: `{probe} "
        f"--patterns {differ_csv} --check` (a few seconds). If they still differ, the bank model "
        f"is wrong on this GPU: please tell {REPORT_TO}, and send them the patterns that "
        f"differ ({differ_csv}), the whole table ({r.get('csv')}), the record ({record}) and "
        f"the GPU's name ({r.get('gpu')}, {r.get('arch')}, driver {r.get('driver') or '?'}). "
        f"Until the model is fixed, the course keeps its 8- and 16-byte rules unverified on "
        f"this GPU: the tests that need them skip, saying so.")]
    return lines


def paragraph(text: str, width: int = 96) -> str:
    return textwrap.fill(text, width, break_on_hyphens=False, break_long_words=False)


def whole_number(low: int, high: int):
    """An argparse type: a whole number in [low, high]."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is out of range ({low}-{high})")
        return value
    return parse


def make_parser(prog: str = PROG) -> Parser:
    ap = Parser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", type=Path, required=True,
                    help="a configured build folder whose bin/bank-probe is built")
    ap.add_argument("--record", type=Path,
                    help="the record to write (default: DIR/self-check/rules.json; the CSV goes "
                         "beside it)")
    ap.add_argument("--patterns", type=whole_number(1, 1000000), default=DEFAULT_DRAWS,
                    metavar="N", help=f"random draws to measure (default {DEFAULT_DRAWS}; with "
                                      f"the structured sample about two minutes on an H100)")
    ap.add_argument("--seed", type=whole_number(0, MAX_SEED),
                    help="the draws' seed (default: a fresh one, printed so that the run can be "
                         "replayed)")
    ap.add_argument("--structured-every", type=whole_number(0, 1000),
                    default=STRUCTURED_EVERY, metavar="K",
                    help=f"measure every Kth pattern of the structured set (default "
                         f"{STRUCTURED_EVERY}; 0: none)")
    ap.add_argument("--force", action="store_true",
                    help="measure again even where the record answers for this GPU, driver and "
                         "course")
    return ap


def main(argv: List[str], prog: str = PROG) -> int:
    ap = make_parser(prog)
    args = ap.parse_args(argv)
    if not args.build_dir.is_dir():
        ap.error(f"--build-dir: no folder {args.build_dir}")
    record = args.record or record_path(args.build_dir)

    def run() -> int:
        outcome = check(args.build_dir, record, args.patterns, args.seed, args.force,
                        args.structured_every, say=lambda line: print(line, flush=True))
        if outcome.status == 1:
            print(f"{prog}: cannot check the bank model here: {outcome.record['reason']} (the "
                  f"record {record} says verified false).", file=sys.stderr)
            return 1
        for line in report(outcome, record, args.build_dir):
            print(line)
        return outcome.status

    return run_main(prog, run)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
