"""What a GPU test opens at run time beyond the libraries its program names: the GPU's device
nodes, the CUDA toolkit's folder and the driver's libraries. The grading sandbox shows these to
GPU tests only (sandbox.py); each is found from the machine, never from a list of versions.

  device nodes   /dev/nvidia*: the control nodes (nvidiactl, nvidia-uvm, nvidia-uvm-tools,
                 nvidia-modeset, the nvidia-caps folder) and the GPUs' (/dev/nvidiaN, N the
                 GPU's minor number). Where CUDA_VISIBLE_DEVICES names exactly one GPU (its UUID,
                 or its index where CUDA's order is the PCI order: CUDA_DEVICE_ORDER=PCI_BUS_ID,
                 or a single GPU), that GPU's node alone, and the sandbox names the GPU to CUDA by
                 its UUID (an index would count the GPUs the sandbox hides). The GPUs, their
                 minor numbers and UUIDs: /proc/driver/nvidia/gpus/<PCI bus>/information.
  the toolkit    found as gpu-env.sh finds it ($CUDA_HOME, $CUDA_PATH, the nvcc on PATH,
                 $GPU_ENV_CUDA_DIRS or /usr/local/cuda and /opt/cuda): its folder holds the
                 runtime, CUPTI and libnvperf (the counters; CUPTI opens libnvperf at run time),
                 compute-sanitizer's folder and ncu; a program of bin/ that leads out of it
                 (ncu in its own Nsight Compute folder) brings its own folder.
  the driver     libcuda, libcudadebugger (compute-sanitizer) and libnvidia-* (NVML, the PTX
                 JIT, ...), as the loader's cache lists them (`ldconfig -p`): the CUDA runtime
                 and CUPTI open them by name at run time.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from course.grading import libraries

#: The driver's libraries a CUDA program, CUPTI or compute-sanitizer opens by name.
DRIVER_LIBRARY = re.compile(r"^lib(cuda|cudadebugger|nvidia-[A-Za-z0-9_-]+)\.so")
#: The toolkit's programs a test starts: sanitizer runs start compute-sanitizer, lesson 10's
#: guard starts ncu.
TOOLKIT_PROGRAMS = ("compute-sanitizer", "ncu")
_GPU_NODE = re.compile(r"^nvidia(\d+)$")


@dataclass
class Gpu:
    """One GPU as the driver lists it."""

    bus: str  # the PCI bus id, e.g. 0000:18:00.0
    minor: int
    uuid: str = ""
    model: str = ""


def driver_gpus(gpus_dir: Path = Path("/proc/driver/nvidia/gpus")) -> List[Gpu]:
    """The GPUs the driver lists, in PCI bus order (nvidia-smi's order)."""
    found = []
    try:
        folders = sorted(gpus_dir.iterdir())
    except OSError:
        return []
    for folder in folders:
        fields: Dict[str, str] = {}
        try:
            text = (folder / "information").read_text(errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            key, sep, value = line.partition(":")
            if sep:
                fields[key.strip()] = value.strip()
        try:
            minor = int(fields.get("Device Minor", ""))
        except ValueError:
            continue
        found.append(Gpu(fields.get("Bus Location") or folder.name, minor,
                         fields.get("GPU UUID", ""), fields.get("Model", "")))
    return sorted(found, key=lambda g: g.bus.lower())


@dataclass
class DeviceNodes:
    """The device nodes a GPU test gets, and what to tell CUDA."""

    nodes: List[str] = field(default_factory=list)
    visible: Optional[str] = None  # CUDA_VISIBLE_DEVICES in the sandbox (None: as given)
    what: str = ""  # for the sandbox's description


def device_nodes(dev_dir: Path = Path("/dev"), gpus_dir: Path = Path("/proc/driver/nvidia/gpus"),
                 visible: Optional[str] = None, order: Optional[str] = None) -> DeviceNodes:
    """The /dev/nvidia* nodes a GPU test gets: the control nodes, and the node of the one GPU
    CUDA_VISIBLE_DEVICES (`visible`) names, or of every GPU where it names none for certain."""
    try:
        names = sorted(p.name for p in dev_dir.iterdir() if p.name.startswith("nvidia"))
    except OSError:
        names = []
    if "nvidiactl" not in names:
        return DeviceNodes(what="no NVIDIA GPU on this machine")
    gpu_names = [n for n in names if _GPU_NODE.match(n)]
    control = [str(dev_dir / n) for n in names if n not in gpu_names]
    every = DeviceNodes(control + [str(dev_dir / n) for n in gpu_names])
    chosen, why = _chosen_gpu(driver_gpus(gpus_dir), visible, order)
    if chosen is None:
        every.what = f"every GPU's device node{' (' + why + ')' if why else ''}"
        return every
    node = f"nvidia{chosen.minor}"
    if node not in gpu_names:
        every.what = f"every GPU's device node ({dev_dir / node}, the node of " \
                     f"CUDA_VISIBLE_DEVICES={visible}, is missing)"
        return every
    if not chosen.uuid:
        every.what = f"every GPU's device node (the driver gives no UUID of GPU {chosen.bus} " \
                     f"to name it to CUDA by)"
        return every
    return DeviceNodes(control + [str(dev_dir / node)], chosen.uuid,
                       f"the device node of the GPU CUDA_VISIBLE_DEVICES names "
                       f"({chosen.uuid}, {dev_dir / node})")


def _chosen_gpu(gpus: List[Gpu], visible: Optional[str], order: Optional[str]):
    """(the GPU CUDA_VISIBLE_DEVICES names for certain, or None; why none)."""
    if visible is None or not visible.strip():
        return None, ""
    token = visible.strip()
    if "," in token:
        return None, f"CUDA_VISIBLE_DEVICES={visible} names more than one"
    if token.upper().startswith("GPU-"):
        matches = [g for g in gpus if g.uuid and g.uuid.lower().startswith(token.lower())]
        if len(matches) == 1:
            return matches[0], ""
        return None, f"no single GPU has the UUID {token}"
    if re.fullmatch(r"\d+", token):
        index = int(token)
        if len(gpus) > 1 and (order or "").strip() != "PCI_BUS_ID":
            return None, (f"CUDA_VISIBLE_DEVICES={token} is an index in CUDA's own order: name "
                          f"the GPU by its UUID, or set CUDA_DEVICE_ORDER=PCI_BUS_ID")
        if index < len(gpus):
            return gpus[index], ""
        return None, f"there is no GPU {token}"
    return None, f"CUDA_VISIBLE_DEVICES={visible} is not a GPU's index or UUID"


def cuda_toolkit(env: Optional[Dict[str, str]] = None) -> Optional[Path]:
    """The CUDA toolkit's folder, found as gpu-env.sh finds it: the first of $CUDA_HOME,
    $CUDA_PATH, the folder of the nvcc on PATH, then $GPU_ENV_CUDA_DIRS (default:
    /usr/local/cuda /opt/cuda) that holds an executable bin/nvcc."""
    env = os.environ if env is None else env
    nvcc = shutil.which("nvcc", path=env.get("PATH", ""))
    candidates = [env.get("CUDA_HOME", ""), env.get("CUDA_PATH", ""),
                  os.path.dirname(os.path.dirname(nvcc)) if nvcc else ""]
    candidates += (env.get("GPU_ENV_CUDA_DIRS") or "/usr/local/cuda /opt/cuda").split()
    for folder in candidates:
        if folder and os.access(os.path.join(folder, "bin", "nvcc"), os.X_OK):
            return Path(folder)
    return None


#: Where the toolkit's `ncu` launcher looks for Nsight Compute when the toolkit's folder holds
#: no `nsight-compute-*` of its own (a separate installation of it).
NSIGHT_COMPUTE_HOMES = ("/opt/nvidia/nsight-compute",)


def toolkit_folders(toolkit: Optional[Path], path: str = "",
                    nsight_homes: Sequence[str] = NSIGHT_COMPUTE_HOMES) -> List[str]:
    """The toolkit's folder and what its programs a test starts (compute-sanitizer, ncu) need
    outside it: for each, in its bin/ or on `path`, the folder that holds the program where it
    leads out of the toolkit; the folders an `nsight-compute-*` link of the toolkit's leads to;
    and the Nsight Compute installation `ncu`'s launcher looks for besides (`nsight_homes`)."""
    if toolkit is None:
        return []
    folders = [str(toolkit)]
    real_toolkit = os.path.realpath(toolkit)

    def outside(place: str) -> None:
        real = os.path.realpath(place)
        if not (real + "/").startswith(real_toolkit + "/") and real not in folders:
            folders.append(real)

    for program in TOOLKIT_PROGRAMS:
        for found in (str(toolkit / "bin" / program), shutil.which(program, path=path) or ""):
            if found and os.path.exists(found):
                outside(os.path.dirname(os.path.realpath(found)))
    for entry in sorted(glob.glob(os.path.join(glob.escape(str(toolkit)), "nsight-compute*"))):
        if os.path.isdir(entry):
            outside(entry)
    for home in nsight_homes:
        if os.path.isdir(home):
            outside(home)
    return folders


def driver_libraries() -> List[str]:
    """The driver's libraries the loader's cache lists (every class: the sandbox binds only
    those outside the system's folders)."""
    return sorted({path for name, paths in libraries.loader_cache().items()
                   if DRIVER_LIBRARY.match(name) for path in paths})
