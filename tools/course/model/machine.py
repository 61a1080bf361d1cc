"""The machine the tools run on: its cores and its NVIDIA GPU, if any (as nvidia-smi sees it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import List, Optional, Tuple


def cores() -> int:
    """The cores this process may run on (taskset limits count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def gpu(visible: Optional[str] = None) -> Tuple[Optional[str], str]:
    """(the name of the GPU this process's CUDA programs get, '') or (None, why there is none).
    With CUDA_VISIBLE_DEVICES set (or `visible`, what a child will be given), the GPU it names
    first (by UUID, or by index in nvidia-smi's order, which is CUDA's under
    CUDA_DEVICE_ORDER=PCI_BUS_ID): a class graded on every GPU of a runner names each student's
    own; without it, the first GPU."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None, "nvidia-smi not found (no NVIDIA driver)"
    proc = subprocess.run([smi, "--query-gpu=name,uuid", "--format=csv,noheader"],
                          capture_output=True, text=True)
    rows = [[c.strip() for c in line.split(",")] for line in proc.stdout.strip().splitlines()
            if line.strip()] if proc.returncode == 0 else []
    if not rows or not rows[0][0]:
        return None, (proc.stderr or proc.stdout).strip() or "nvidia-smi lists no GPU"
    if visible is None:
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        return rows[0][0], ""
    first = visible.split(",")[0].strip()
    if not first:
        return None, "CUDA_VISIBLE_DEVICES is empty: CUDA sees no GPU"
    for row in rows:
        if len(row) > 1 and first.upper().startswith("GPU-") and \
                row[1].lower().startswith(first.lower()):
            return row[0], ""
    if first.isdigit() and int(first) < len(rows):
        return rows[int(first)][0], ""
    return None, f"CUDA_VISIBLE_DEVICES={visible} names no GPU nvidia-smi lists"


def gpu_uuids() -> Tuple[List[Tuple[str, str]], str]:
    """([(index, UUID) of every GPU nvidia-smi lists], '') or ([], why there is none). A UUID
    names one GPU to CUDA, nvidia-smi and the sandbox alike, whatever their orders."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return [], "nvidia-smi not found (no NVIDIA driver)"
    proc = subprocess.run([smi, "--query-gpu=index,uuid", "--format=csv,noheader"],
                          capture_output=True, text=True)
    rows = [[c.strip() for c in line.split(",")] for line in proc.stdout.splitlines()]
    found = [(r[0], r[1]) for r in rows if len(r) == 2 and r[0].isdigit() and r[1]]
    if proc.returncode != 0 or not found:
        return [], (proc.stderr or proc.stdout).strip() or "nvidia-smi lists no GPU"
    return found, ""
