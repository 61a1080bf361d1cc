"""The measurement CSVs in docs/measurements/. Every file opens with comment lines saying where
and how it was taken, then has one header row. Stride sweeps, as the bank-conflicts command
writes them:

    # device: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)     or  none (model only): <why>
    # date: 2026-11-22
    # command: bank-conflicts --type float --sweep 0:64 --csv
    # access: load                                        (optional; load or store)
    # note: ...                                           (optional, any number)
    type,stride,model_wavefronts,counter_wavefronts,slowdown,model_slowdown
    float,2,2,2.00,1.93,2.000

counter_wavefronts and slowdown are empty where nothing was measured; slowdowns are against
stride 1 of the same type. The lessons' measurements (docs/measurements/lessons.csv, written by
`measurements.py lessons` from the GPU fail-first check's JUnit report; see
lesson_measurements.py) have the columns

    lesson,tree,kind,what,model_load_wavefronts,counter_load_wavefronts,
    model_store_wavefronts,counter_store_wavefronts,model_slowdown,slowdown,fidelity

Any other CSV with the same comment header (the transpose table, for one:
kernel,rows,cols,gb_per_s,vs_memcpy,...) is shown as it is, every row and column. A block may
show only some rows of a CSV that is not a stride sweep: those whose columns have the given
values (`lesson=03`).

    measurements.py lessons --junit build/gpu-check/failfirst-gpu.xml
                            [-o docs/measurements/lessons.csv] [--device "..."]
        writes the lessons' measurements from a GPU fail-first report"""

import argparse
import csv
import io
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from docs_common import DocsError, repo_root
import lesson_measurements

COLUMNS = ["type", "stride", "model_wavefronts", "counter_wavefronts", "slowdown",
           "model_slowdown"]
LESSON_COLUMNS = lesson_measurements.COLUMNS
REQUIRED_HEADER = ("device", "date", "command")


@dataclass
class Row:
    type: str
    stride: str
    model_wavefronts: int
    counter_wavefronts: Optional[float]
    slowdown: Optional[float]
    model_slowdown: float


@dataclass
class Sweep:
    path: str  # from the repository root
    header: Dict[str, str]
    notes: List[str] = field(default_factory=list)
    rows: List[Row] = field(default_factory=list)

    @property
    def type(self) -> str:
        return self.rows[0].type

    @property
    def measured(self) -> bool:
        """False for a model-only file (no GPU measurement in it)."""
        return not self.header["device"].startswith("none")

    @property
    def device(self) -> str:
        return self.header["device"]

    def row(self, stride: str) -> Row:
        for r in self.rows:
            if r.stride == stride:
                return r
        raise DocsError(f"{self.path}: no row for stride {stride}")


def _number(text: str, where: str, kind=float, optional=True):
    if text == "" and optional:
        return None
    try:
        return kind(text)
    except ValueError:
        raise DocsError(f"{where}: '{text}' is not a number")


@dataclass
class Measurement:
    """Any measurement CSV: its comment header and its rows, as text."""
    path: str
    header: Dict[str, str]
    notes: List[str]
    columns: List[str]
    rows: List[Dict[str, str]]

    @property
    def is_sweep(self) -> bool:
        return self.columns == COLUMNS

    @property
    def is_lessons(self) -> bool:
        return self.columns == LESSON_COLUMNS

    def where(self, filters: Dict[str, str]) -> "Measurement":
        """The rows whose columns have the given values (all of them); raises DocsError for
        a column the file does not have or a filter no row meets."""
        for column in filters:
            if column not in self.columns:
                raise DocsError(f"{self.path}: no column '{column}' (columns: "
                                f"{','.join(self.columns)})")
        rows = [r for r in self.rows if all(r[c] == v for c, v in filters.items())]
        if not rows:
            wanted = " ".join(f"{c}={v}" for c, v in filters.items())
            raise DocsError(f"{self.path}: no row has {wanted}")
        return Measurement(self.path, self.header, self.notes, self.columns, rows)


def read_measurement(root: str, path: str) -> Measurement:
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        raise DocsError(f"{path}: no such measurement file")
    with open(full, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header, notes, body = {}, [], []
    for line in lines:
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(":")
            if key == "note":
                notes.append(value.strip())
            else:
                header[key.strip()] = value.strip()
        elif line.strip():
            body.append(line)
    for key in REQUIRED_HEADER:
        if key not in header:
            raise DocsError(f"{path}: the header has no '# {key}:' line")
    reader = csv.DictReader(io.StringIO("\n".join(body)))
    columns = list(reader.fieldnames or [])
    rows = list(reader)
    if not columns or not rows:
        raise DocsError(f"{path}: no rows")
    return Measurement(path, header, notes, columns, rows)


def read_sweep(root: str, path: str) -> Sweep:
    m = read_measurement(root, path)
    if not m.is_sweep:
        raise DocsError(f"{path}: columns are {m.columns}, want {','.join(COLUMNS)}")
    sweep = Sweep(path, m.header, m.notes)
    for n, r in enumerate(m.rows, 1):
        where = f"{path}: row {n} (stride {r['stride']})"
        sweep.rows.append(Row(r["type"], r["stride"],
                              _number(r["model_wavefronts"], where, int, optional=False),
                              _number(r["counter_wavefronts"], where),
                              _number(r["slowdown"], where),
                              _number(r["model_slowdown"], where, optional=False)))
    if len({r.type for r in sweep.rows}) != 1:
        raise DocsError(f"{path}: one type per file, found {sorted({r.type for r in sweep.rows})}")
    return sweep


#: Words of a command that only the course's own checkout can run: the preset and build folder
#: that hold both trees, the reference solutions' programs and tests.
COURSE_ONLY = re.compile(r"gpu-check|\bsolutions?\b|_solution_")


def source_lines(files) -> List[str]:
    """Where a table's numbers come from (Sweeps or Measurements): one Markdown line per
    measured file, one for all the model-only ones. A command that a student repository cannot
    run (it names the gpu-check preset or the solutions) is named by what it is; the file
    keeps it."""
    out, model_only = [], []
    for m in files:
        if m.header["device"].startswith("none"):
            model_only.append(f"`{m.path}`")
        elif COURSE_ONLY.search(m.header["command"]):
            out.append(f"Measured on {m.header['device']}, {m.header['date']}, by the course's "
                       f"own GPU checks (the command, in `{m.path}`, needs the course's "
                       f"reference solutions).")
        else:
            out.append(f"Measured on {m.header['device']}, {m.header['date']}: "
                       f"`{m.header['command']}` (`{m.path}`).")
    if model_only:
        out.append(f"Model only: no GPU measurement is committed yet ({', '.join(model_only)}).")
    return out


def plain_table(m: Measurement, hide=()) -> List[str]:
    """Every row of a CSV and every column but `hide`, empty cells shown as a dash."""
    columns = [c for c in m.columns if c not in hide]
    out = ["| " + " | ".join(c.replace("_", " ") for c in columns) + " |",
           "|" + "|".join("---" for _ in columns) + "|"]
    for r in m.rows:
        out.append("| " + " | ".join((r[c] or "—").replace("|", "\\|") for c in columns) + " |")
    return out + [""] + source_lines([m])


def _pair(model: str, measured: str, suffix: str = "") -> str:
    """'32.00 / 31.33' (model / measured), a dash for a missing one; empty when both are."""
    if not model and not measured:
        return ""
    return " / ".join(f"{v}{suffix}" if v else "—" for v in (model, measured))


LESSONS_LEGEND = (
    "Loads and stores: wavefronts per request, the model's / the counters'; a demo shows only "
    "the side its pattern issues. Slowdown: A's time over B's in one saturating launch, the "
    "model's / measured; fidelity: measured / model. A demo is the same code in both trees: "
    "its row is the starter's run.")


def lessons_table(m: Measurement) -> List[str]:
    """The rows of lessons.csv: per measured thing, the wavefronts per request of its loads
    and stores (model / counters) and its slowdown (model / measured). The lesson column shows
    only where the rows span several lessons."""
    several = len({r["lesson"] for r in m.rows}) > 1
    out = [("| lesson " if several else "") +
           "| kind | what | loads (model / counters) | stores (model / counters) | "
           "slowdown (model / measured) | fidelity |",
           ("|--:" if several else "") + "|---|---|--:|--:|--:|--:|"]
    for r in m.rows:
        kind = "demo" if r["kind"] == "demo" else f"{r['kind']}, {r['tree']}"
        cells = ([r["lesson"]] if several else []) + [
            kind, " over ".join(f"`{part}`" for part in r["what"].split(" over ", 1)),
            _pair(r["model_load_wavefronts"], r["counter_load_wavefronts"]),
            _pair(r["model_store_wavefronts"], r["counter_store_wavefronts"]),
            _pair(r["model_slowdown"], r["slowdown"], "x"), r["fidelity"]]
        out.append("| " + " | ".join(c or "—" for c in cells) + " |")
    return out + ["", LESSONS_LEGEND, ""] + source_lines([m])


def _fmt(value: Optional[float], digits: int, suffix: str = "") -> str:
    return "—" if value is None else f"{value:.{digits}f}{suffix}"


def table(selections: List[tuple]) -> List[str]:
    """A Markdown table of (sweep, strides) selections, then one source line per file."""
    out = ["| access | stride | wavefronts (model) | wavefronts (counters) | "
           "slowdown vs stride 1 (model) | slowdown vs stride 1 (measured) |",
           "|---|--:|--:|--:|--:|--:|"]
    for sweep, strides in selections:
        op = sweep.header.get("access", "load")
        for stride in strides:
            r = sweep.row(stride)
            out.append(f"| {r.type} {op} | {r.stride} | {r.model_wavefronts} | "
                       f"{_fmt(r.counter_wavefronts, 2)} | {_fmt(r.model_slowdown, 2, 'x')} | "
                       f"{_fmt(r.slowdown, 2, 'x')} |")
    for line in source_lines(list({id(s): s for s, _ in selections}.values())):
        out += ["", line]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Measurement files of docs/measurements/.")
    sub = ap.add_subparsers(dest="action", required=True)
    lp = sub.add_parser("lessons", help="write the lessons' measurements (demos, exercise "
                        "against twin) from the JUnit report of the GPU fail-first check")
    lp.add_argument("--junit", required=True,
                    help="the report, e.g. build/gpu-check/failfirst-gpu.xml")
    lp.add_argument("-o", "--output",
                    default=os.path.join(repo_root(), "docs", "measurements", "lessons.csv"),
                    help="the CSV to write ('-' for standard output; default "
                    "docs/measurements/lessons.csv)")
    lp.add_argument("--device", help="the GPU, as measurement headers name it, for a report "
                    "without [kit-device] lines: \"NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)\"")
    args = ap.parse_args(argv)
    try:
        report = lesson_measurements.read_report(args.junit)
        device = lesson_measurements.choose_device(report, args.device, args.junit)
        text = lesson_measurements.lessons_csv(report, device, os.path.basename(args.junit))
    except DocsError as e:
        print(f"measurements: {e}", file=sys.stderr)
        return 1
    if report.unreadable:
        print(f"measurements: warning: {len(report.unreadable)} measurement lines are not whole "
              f"and were left out (first: {report.unreadable[0]})", file=sys.stderr)
    if report.cut_tests:
        print(f"measurements: warning: ctest cut the output of {len(report.cut_tests)} GPU "
              f"tests (first: {report.cut_tests[0]}): their later lines are missing. The "
              "fail-first check keeps whole outputs (tools/course/ci/fail_first.py); an older "
              "report does not", file=sys.stderr)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        rows = text.count("\n") - sum(1 for line in text.split("\n") if line.startswith("#")) - 1
        print(f"measurements: {args.output}: {rows} rows, {device}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
