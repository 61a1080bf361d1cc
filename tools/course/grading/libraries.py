"""The shared libraries a program loads when it starts, found as the dynamic loader finds them,
read from the files alone: no program is run (ldd may run the program it is given, and a
graded program is written by a student). The grading sandbox binds what this finds.

For each ELF file: its interpreter (PT_INTERP) and its DT_NEEDED libraries, each searched the
way glibc's loader searches (ld.so(8)): a name with a slash as it is; else DT_RPATH (of the
object and of the program, where the object has no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH
($ORIGIN expanded), the loader's cache (`ldconfig -p`), then the default folders; a candidate of
another class or machine (a 32-bit library) is passed over. Then their libraries, and so on.
Libraries a program opens later (dlopen: libcuda, CUPTI's libnvperf) are not in its headers: the
sandbox shows those from where they are installed (gpu_parts.py).
"""

from __future__ import annotations

import functools
import os
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

_ELF_MAGIC = b"\x7fELF"
_PT_LOAD, _PT_DYNAMIC, _PT_INTERP = 1, 2, 3
_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_RPATH, _DT_RUNPATH = 0, 1, 5, 10, 15, 29
#: The folders the loader searches last, before those of the machine's multiarch triplet.
_DEFAULT_DIRS = ("/lib64", "/usr/lib64", "/lib", "/usr/lib")
_TRIPLETS = {62: "x86_64-linux-gnu", 183: "aarch64-linux-gnu", 3: "i386-linux-gnu"}
#: Enough for any program of the course; a longer chain is not followed further.
_MOST_OBJECTS = 1000


@dataclass
class Elf:
    """What the loader reads of one ELF file."""

    path: str
    elf_class: int  # 1: 32-bit, 2: 64-bit
    machine: int  # e_machine (62: x86-64)
    interpreter: str = ""
    needed: List[str] = field(default_factory=list)
    rpath: List[str] = field(default_factory=list)
    runpath: List[str] = field(default_factory=list)


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == _ELF_MAGIC
    except OSError:
        return False


def read_elf(path: str) -> Optional[Elf]:
    """The interpreter, DT_NEEDED, DT_RPATH and DT_RUNPATH of an ELF file, read from its program
    headers (what the loader reads); None for a file that is not ELF or cannot be read."""
    try:
        with open(path, "rb") as f:
            return _read_elf(f, path)
    except (OSError, struct.error, ValueError, IndexError):
        return None


def _read_elf(f, path: str) -> Optional[Elf]:
    ident = f.read(16)
    if len(ident) < 16 or ident[:4] != _ELF_MAGIC or ident[4] not in (1, 2) or ident[5] not in (1, 2):
        return None
    wide = ident[4] == 2
    end = "<" if ident[5] == 1 else ">"
    header = f.read(48 if wide else 36)
    if wide:
        _, machine, _, _, phoff, _, _, _, phentsize, phnum = struct.unpack(end + "HHIQQQIHHH", header[:42])
    else:
        _, machine, _, _, phoff, _, _, _, phentsize, phnum = struct.unpack(end + "HHIIIIIHHH", header[:30])
    elf = Elf(path, ident[4], machine)
    loads: List[Tuple[int, int, int]] = []  # (vaddr, offset, size in the file)
    dynamic: Optional[Tuple[int, int]] = None
    for i in range(min(phnum, 512)):
        f.seek(phoff + i * phentsize)
        raw = f.read(phentsize)
        if wide:
            ptype, _, offset, vaddr, _, filesz = struct.unpack(end + "IIQQQQ", raw[:40])
        else:
            ptype, offset, vaddr, _, filesz = struct.unpack(end + "IIIII", raw[:20])
        if ptype == _PT_LOAD:
            loads.append((vaddr, offset, filesz))
        elif ptype == _PT_DYNAMIC:
            dynamic = (offset, filesz)
        elif ptype == _PT_INTERP:
            f.seek(offset)
            elf.interpreter = f.read(min(filesz, 4096)).split(b"\0", 1)[0].decode("utf-8", "replace")
    if dynamic is None:
        return elf
    entry = 16 if wide else 8
    f.seek(dynamic[0])
    data = f.read(min(dynamic[1], 1 << 20))
    tags: List[Tuple[int, int]] = []
    for at in range(0, len(data) - entry + 1, entry):
        tag, value = struct.unpack(end + ("qQ" if wide else "iI"), data[at:at + entry])
        if tag == _DT_NULL:
            break
        tags.append((tag, value))
    strtab = next((v for t, v in tags if t == _DT_STRTAB), None)
    strsz = next((v for t, v in tags if t == _DT_STRSZ), 0)
    start = next((off + strtab - va for va, off, size in loads
                  if strtab is not None and va <= strtab < va + size), None)
    if start is None:
        return elf
    f.seek(start)
    table = f.read(min(strsz, 1 << 22))

    def text(at: int) -> str:
        return table[at:table.index(b"\0", at)].decode("utf-8", "replace")

    for tag, value in tags:
        if tag == _DT_NEEDED:
            elf.needed.append(text(value))
        elif tag == _DT_RPATH:
            elf.rpath += [p for p in text(value).split(":") if p]
        elif tag == _DT_RUNPATH:
            elf.runpath += [p for p in text(value).split(":") if p]
    return elf


@functools.lru_cache(maxsize=None)
def loader_cache() -> Dict[str, Tuple[str, ...]]:
    """The loader's cache as `ldconfig -p` lists it: library name -> its paths (every class and
    machine; the search passes over those of another)."""
    ldconfig = shutil.which("ldconfig") or next(
        (p for p in ("/sbin/ldconfig", "/usr/sbin/ldconfig") if os.access(p, os.X_OK)), None)
    if ldconfig is None:
        return {}
    try:
        out = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    found: Dict[str, List[str]] = {}
    for line in out.splitlines():
        name, sep, path = line.strip().partition(" => ")
        if sep and path.startswith("/"):
            found.setdefault(name.split(" (", 1)[0], []).append(path)
    return {k: tuple(v) for k, v in found.items()}


def _expand(folder: str, origin: str) -> List[str]:
    """A DT_RPATH or DT_RUNPATH entry with its $ORIGIN (and $LIB, as both of its values)."""
    folder = folder.replace("${ORIGIN}", "$ORIGIN").replace("$ORIGIN", origin)
    if "$LIB" in folder or "${LIB}" in folder:
        folder = folder.replace("${LIB}", "$LIB")
        return [folder.replace("$LIB", lib) for lib in ("lib64", "lib")]
    return [] if "$" in folder else [folder]


def _fits(path: str, like: Elf) -> bool:
    """A file the loader would take for an object of `like`'s class and machine."""
    other = read_elf(path) if os.path.isfile(path) else None
    return other is not None and other.elf_class == like.elf_class and other.machine == like.machine


def find_library(name: str, obj: Elf, program: Elf, ld_library_path: Sequence[str]) -> Optional[str]:
    """Where the loader finds library `name` that `obj` needs (in the program `program`)."""
    if "/" in name:
        return name if _fits(name, obj) else None
    origin = os.path.dirname(obj.path)
    folders: List[str] = []
    if not obj.runpath:
        for source in (obj, program):
            folders += [d for entry in source.rpath for d in _expand(entry, os.path.dirname(source.path))]
    folders += list(ld_library_path)
    folders += [d for entry in obj.runpath for d in _expand(entry, origin)]
    for folder in folders:
        candidate = os.path.join(folder, name)
        if _fits(candidate, obj):
            return candidate
    for candidate in loader_cache().get(name, ()):
        if _fits(candidate, obj):
            return candidate
    triplet = _TRIPLETS.get(obj.machine)
    defaults = ([f"/lib/{triplet}", f"/usr/lib/{triplet}"] if triplet else []) + list(_DEFAULT_DIRS)
    for folder in defaults:
        candidate = os.path.join(folder, name)
        if _fits(candidate, obj):
            return candidate
    return None


def closure(program: str, ld_library_path: Sequence[str] = ()) -> Tuple[List[str], List[str]]:
    """(the files the loader opens to start `program`: its interpreter and every library, as
    paths the loader uses; the libraries it cannot find). An empty answer for a file that is
    not ELF (a script: its interpreter is a program of its own)."""
    main = read_elf(program)
    if main is None:
        return [], []
    files: List[str] = []
    missing: List[str] = []
    if main.interpreter:
        files.append(main.interpreter)
    queue = [main]
    seen = {os.path.realpath(program)}
    while queue and len(seen) < _MOST_OBJECTS:
        obj = queue.pop(0)
        for name in obj.needed:
            path = find_library(name, obj, main, ld_library_path)
            if path is None:
                if name not in missing:
                    missing.append(name)
                continue
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            files.append(path)
            lib = read_elf(path)
            if lib is not None:
                queue.append(lib)
    return files, missing
