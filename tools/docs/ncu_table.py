#!/usr/bin/env python3
"""A measurement CSV (docs/measurements/) from Nsight Compute's raw page: one row per kernel
picked by a regular expression on its name, one column per metric.

    ncu --import report.ncu-rep --csv --page raw > raw.csv
    ncu_table.py --raw raw.csv --device "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" \\
        --command "..." --kernel gemm_twin='StridedByFour' --kernel cublasSgemm='^(?!.*gemm_tiled)' \\
        --metric fma_pipe_pct=sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active \\
        -o docs/measurements/gemm_ncu.csv

A kernel takes the first row whose name matches and that no earlier kernel took; a metric the
report lacks is an error (the table would be silently short). Numbers lose ncu's thousands
separators; fractions keep two decimals."""

import argparse
import csv
import datetime
import re
import sys
from typing import Dict, List, Tuple


def pair(text: str) -> Tuple[str, str]:
    label, sep, value = text.partition("=")
    if not sep or not label or not value:
        raise argparse.ArgumentTypeError(f"expected LABEL=VALUE, got {text!r}")
    return label, value


def read_raw(path: str) -> Tuple[List[str], List[Dict[str, str]]]:
    """The metric names and the kernel rows of an ncu raw CSV (its second row holds units)."""
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own messages are unquoted
    rows = list(csv.reader(lines))
    if len(rows) < 2:
        raise SystemExit(f"{path}: no kernel rows")
    header = rows[0]
    data = [dict(zip(header, r)) for r in rows[1:] if r and r[0].strip().isdigit()]
    return header, data


def number(text: str, digits: int = 2) -> str:
    """ncu's number without thousands separators; a fraction rounded to `digits` places."""
    plain = text.replace(",", "").strip()
    if "." not in plain:
        return plain
    try:
        return f"{float(plain):.{digits}f}"
    except ValueError:
        return plain


def build(header: List[str], data: List[Dict[str, str]], kernels: List[Tuple[str, str]],
          metrics: List[Tuple[str, str]]) -> List[List[str]]:
    for label, metric in metrics:
        if metric not in header:
            raise SystemExit(f"metric {metric} ({label}) is not in the report")
    taken = set()
    out = []
    for label, pattern in kernels:
        regex = re.compile(pattern)
        for i, row in enumerate(data):
            if i not in taken and regex.search(row.get("Kernel Name", "")):
                taken.add(i)
                out.append([label] + [number(row[m]) for _, m in metrics])
                break
        else:
            raise SystemExit(f"no kernel matches {pattern!r} ({label})")
    return out


def main(argv: List[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--raw", required=True, help="ncu --csv --page raw output")
    p.add_argument("--device", required=True, help="the measurement header's device line")
    p.add_argument("--command", required=True, help="the measurement header's command line")
    p.add_argument("--date", default=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"))
    p.add_argument("--kernel", type=pair, action="append", required=True, help="LABEL=REGEX")
    p.add_argument("--metric", type=pair, action="append", required=True, help="COLUMN=METRIC")
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args(argv)
    header, data = read_raw(a.raw)
    rows = build(header, data, a.kernel, a.metric)
    with open(a.output, "w", newline="") as f:
        f.write(f"# device: {a.device}\n# date: {a.date}\n# command: {a.command}\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel"] + [label for label, _ in a.metric])
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
