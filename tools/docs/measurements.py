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
stride 1 of the same type. Any other CSV with the same comment header (the transpose table, for
one: kernel,rows,cols,gb_per_s,vs_memcpy,...) is shown as it is, every row and column."""

import csv
import io
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from docs_common import DocsError

COLUMNS = ["type", "stride", "model_wavefronts", "counter_wavefronts", "slowdown",
           "model_slowdown"]
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


def source_lines(files) -> List[str]:
    """Where a table's numbers come from (Sweeps or Measurements): one Markdown line per
    measured file, one for all the model-only ones."""
    out, model_only = [], []
    for m in files:
        if m.header["device"].startswith("none"):
            model_only.append(f"`{m.path}`")
        else:
            out.append(f"Measured on {m.header['device']}, {m.header['date']}: "
                       f"`{m.header['command']}` (`{m.path}`).")
    if model_only:
        out.append(f"Model only: no GPU measurement is committed yet ({', '.join(model_only)}).")
    return out


def plain_table(m: Measurement) -> List[str]:
    """Every row and column of a CSV, empty cells shown as a dash."""
    out = ["| " + " | ".join(c.replace("_", " ") for c in m.columns) + " |",
           "|" + "|".join("---" for _ in m.columns) + "|"]
    for r in m.rows:
        out.append("| " + " | ".join((r[c] or "—").replace("|", "\\|") for c in m.columns) + " |")
    return out + [""] + source_lines([m])


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
