"""The machine the tools run on: its cores and its NVIDIA GPU, if any (as nvidia-smi sees it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Optional, Tuple


def cores() -> int:
    """The cores this process may run on (taskset limits count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def gpu() -> Tuple[Optional[str], str]:
    """(the first GPU's name, '') or (None, why there is none)."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None, "nvidia-smi not found (no NVIDIA driver)"
    proc = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"],
                          capture_output=True, text=True)
    names = proc.stdout.strip().splitlines() if proc.returncode == 0 else []
    if not names or not names[0].strip():
        return None, (proc.stderr or proc.stdout).strip() or "nvidia-smi lists no GPU"
    return names[0].strip(), ""
