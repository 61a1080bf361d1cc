#!/usr/bin/env python3
"""Is the GPU code of some lessons' kernels unchanged between two versions of the course? Compiles
each lesson's demo.cu and exercise.cu, both trees, to an sm_XY cubin with nvcc (no GPU needed) in
each version, and compares every kernel's machine code (.text), static shared memory
(.nv.shared) and resource record (.nv.info: registers, barriers, parameters), byte for byte. The
anonymous namespace's hash (it depends on the file's path) is left out of the kernels' names.

  python3 tools/reliability/kernel_code_diff.py --before main              # a git revision
  python3 tools/reliability/kernel_code_diff.py --before /path/to/course --lessons 05 06

`--after` is this working tree unless given. Exit status: 0 identical, 1 some kernel differs
(each named), 2 bad usage or a compile error. On a machine with cuobjdump, `cuobjdump -sass` of
the lesson libraries shows the same instructions as text.
"""

from __future__ import annotations

import argparse
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
SECTION = re.compile(r"^\.(text|nv\.shared|nv\.info)\.")
ANONYMOUS = re.compile(r"_GLOBAL__N__[0-9a-f]+_")


class Refused(Exception):
    """A reason to stop with status 2, in one line."""


def nvcc() -> str:
    found = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not Path(found).exists():
        raise Refused("nvcc not found (PATH, /usr/local/cuda/bin)")
    return found


def lesson_folder(root: Path, number: str) -> str:
    found = sorted(p.name for p in (root / "lessons").glob(f"{number}_*") if p.is_dir())
    if not found:
        raise Refused(f"{root} has no lesson {number}")
    return found[0]


def cubins(root: Path, out: Path, lessons: List[str], arch: str) -> List[str]:
    """Compiles the lessons' sources of both trees under `root` into `out`; returns the names."""
    jobs: List[Tuple[List[str], str]] = []
    for number in lessons:
        folder = lesson_folder(root, number)
        for tree in ("student", "solution"):
            if tree == "student":
                dirs = [root / "lessons" / folder]
            else:
                dirs = [root / "solutions" / folder, root / "lessons" / folder]
            for name in ("demo.cu", "exercise.cu"):
                source = next((d / name for d in dirs if (d / name).exists()), None)
                if source is None:
                    continue
                target = f"{tree}_{folder}_{Path(name).stem}.cubin"
                cmd = [nvcc(), *[f"-I{d}" for d in dirs], f"-I{root / 'common' / 'include'}",
                       f"-I{root / 'families'}", "-O3", "-DNDEBUG", "-std=c++17",
                       f"-arch=sm_{arch}", "-cubin", "-x", "cu", str(source), "-o",
                       str(out / target)]
                jobs.append((cmd, target))
    with ThreadPoolExecutor() as pool:
        results = list(pool.map(lambda j: subprocess.run(j[0], capture_output=True, text=True),
                                jobs))
    for (cmd, target), r in zip(jobs, results):
        if r.returncode != 0:
            first = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip())
            raise Refused(f"{target} did not compile: {first}")
    return [t for _, t in jobs]


def sections(path: Path) -> Dict[str, Tuple[int, bytes]]:
    """The kernel sections of an ELF cubin: name -> (size, bytes)."""
    d = path.read_bytes()
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    strings = headers[shstrndx][4]
    out = {}
    for name_off, kind, _flags, _addr, offset, size, *_ in headers:
        end = d.index(b"\0", strings + name_off)
        name = d[strings + name_off:end].decode()
        if SECTION.match(name):
            body = b"" if kind == 8 else d[offset:offset + size]  # NOBITS: its size only
            out[ANONYMOUS.sub("_GLOBAL__N__", name)] = (size, body)
    return out


def main(argv: List[str]) -> int:
    try:
        return compare(argv)
    except Refused as e:
        print(f"kernel-code-diff: {e}", file=sys.stderr)
        return 2


def compare(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="a git revision of this repository, or a folder")
    ap.add_argument("--after", default=str(ROOT), help="a folder (default: this working tree)")
    ap.add_argument("--lessons", nargs="+", default=["05", "06"])
    ap.add_argument("--arch", default="90", help="the SM architecture (default 90)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="kernel-code-diff-") as tmp:
        work = Path(tmp)
        before = Path(args.before)
        if not before.is_dir():
            before = work / "before-src"
            before.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before],
                                     capture_output=True)
            if archive.returncode != 0:
                raise Refused(f"{args.before} is neither a folder nor a revision of this "
                              f"repository")
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        (work / "before").mkdir()
        (work / "after").mkdir()
        names = cubins(before, work / "before", args.lessons, args.arch)
        cubins(Path(args.after), work / "after", args.lessons, args.arch)
        same = True
        for name in names:
            a, b = sections(work / "before" / name), sections(work / "after" / name)
            kernels = [n for n in a if n.startswith(".text.")]
            verdict = "identical" if a == b else "DIFFERENT"
            print(f"{name}: {verdict} ({len(kernels)} kernel(s), "
                  f"{sum(a[n][0] for n in kernels)} bytes of machine code)")
            for n in sorted(set(a) | set(b)):
                if a.get(n) != b.get(n):
                    same = False
                    print(f"    differs: {n}")
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
