"""What a GPU test needs of its GPU, and whether a GPU meets it: the lessons' declared needs
(lesson.json's `gpu`, with its `tests` that need more) against a GPU's capabilities (the
grader's machine check, or a row of common/gpu_profiles.json).

The kit (kit/needs.hpp) decides the same, with the same sentences, inside the test programs;
the grader decides here, from its own machine check, before any student code runs: a test whose
need the machine does not meet is listed as not gradable, never run.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Dict, List, Optional

from course.model.errors import CourseError
from course.model.manifest import GpuNeeds

#: The GPU architectures the course describes, from the course's root.
PROFILES = Path("common") / "gpu_profiles.json"
#: The same rows for the kit (kit/needs.hpp's kit::gpu_profiles()), generated from PROFILES by
#: `./course-admin regenerate`: a header in the source tree, so that everything that reads the
#: kit's headers without a build (the exercise-file policy's parser among them) finds it.
PROFILES_CPP = Path("common") / "include" / "kit" / "gpu_profiles.inc"


def _cc(text: str) -> int:
    """"8.6" -> 86; "" -> 0 (no need)."""
    if not text:
        return 0
    major, _, minor = text.partition(".")
    return int(major) * 10 + int(minor)


def arch_name(cc: int) -> str:
    return f"sm_{cc}"


def _kb(n: int) -> str:
    return f"{n / 1024:g} KB"


@dataclass(frozen=True)
class Needs:
    """What one test needs (0 and False: nothing)."""

    compute_capability: int = 0  # major * 10 + minor
    tma: bool = False
    ldmatrix: bool = False
    stmatrix: bool = False
    shared_memory_per_block: int = 0
    wide_rules: bool = False
    ldmatrix_rule: bool = False
    counters: bool = False
    timing: bool = False  # a timing test (`perf` label): the GPU must show a slowdown at all


@dataclass(frozen=True)
class Capabilities:
    """What a GPU offers the course's tests."""

    arch: str  # "sm_90"
    compute_capability: int
    shared_memory_per_block: int
    tma: bool
    ldmatrix: bool
    stmatrix: bool
    wide_rules: bool = False  # the 8- and 16-byte bank rules verified on it
    ldmatrix_rule: bool = False  # the ldmatrix rule measured on its architecture
    counters: bool = True
    counters_reason: str = ""
    #: Whether it shows a slowdown at all (the machine check's timing probe; a profile row
    #: assumes it does), and why not.
    timing: bool = True
    timing_reason: str = ""
    gpus: str = ""  # the GPUs of a profile, for tables


@dataclass(frozen=True)
class Profiles:
    rows: List[Capabilities]
    #: The lowest architecture with each feature (for the sentences: "sm_90 and later").
    first: Dict[str, str]


def read_profiles(course: Path) -> Profiles:
    path = course / PROFILES
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        rows = [Capabilities(p["arch"], _cc(p["compute_capability"]),
                             int(p["shared_memory_per_block"]), bool(p["tma"]),
                             bool(p["ldmatrix"]), bool(p["stmatrix"]), bool(p["wide_rules"]),
                             bool(p["ldmatrix_rule"]), gpus=p["gpus"])
                for p in data["profiles"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CourseError(f"{PROFILES}: cannot read the GPU profiles ({e})") from None
    rows.sort(key=lambda r: r.compute_capability)
    first = {}
    for feature in ("tma", "ldmatrix", "stmatrix"):
        first[feature] = next((r.arch for r in rows if getattr(r, feature)), "none")
    first["ldmatrix_rule"] = ", ".join(r.arch for r in rows if r.ldmatrix_rule) or "none"
    return Profiles(rows, first)


def profiles_cpp(course: Path) -> str:
    """kit/gpu_profiles.inc: one kit::GpuProfile initializer per row of PROFILES."""
    try:
        data = json.loads((course / PROFILES).read_text(encoding="utf-8"))
        lines = [f"// Generated from {PROFILES.as_posix()} by ./course-admin regenerate."]
        for p in data["profiles"]:
            flags = ", ".join("true" if p[k] else "false"
                              for k in ("tma", "ldmatrix", "stmatrix", "wide_rules",
                                        "ldmatrix_rule"))
            lines.append(f'{{"{p["arch"]}", "{p["gpus"]}", {_cc(p["compute_capability"])}, '
                         f'{int(p["shared_memory_per_block"])}u, '
                         f'{int(p["shared_memory_per_sm"])}u, {flags}}},')
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CourseError(f"{PROFILES}: cannot read the GPU profiles ({e})") from None
    return "\n".join(lines) + "\n"


def capabilities_of(profiles: Profiles, cc: int, shared_memory_per_block: int,
                    arch: str = "") -> Capabilities:
    """A GPU of compute capability `cc`: the features of the highest profile at or below it
    (an architecture the table does not list), its own shared memory; the bank model's rules
    only where they were measured on `cc` itself (kit/needs.hpp's capabilities_of)."""
    below = [r for r in profiles.rows if r.compute_capability <= cc]
    base = below[-1] if below else Capabilities(arch_name(cc), cc, 0, False, False, False)
    same = base.compute_capability == cc
    return replace(base, arch=arch or arch_name(cc), compute_capability=cc,
                   shared_memory_per_block=shared_memory_per_block, gpus="",
                   wide_rules=same and base.wide_rules, ldmatrix_rule=same and base.ldmatrix_rule)


def merged(a: Needs, b: Needs) -> Needs:
    """What a test needs that needs both: the larger of each amount, either of each feature."""
    return Needs(*(max(getattr(a, f.name), getattr(b, f.name)) for f in fields(Needs)))


def needs_of(gpu: GpuNeeds, test: str, counters: bool, timing: bool = False) -> Needs:
    """What the test `test` ("Suite.Name", GoogleTest's name) of a lesson with these declared
    needs needs: its lesson's, and more where a `tests` entry names it; `counters` where it
    reads the counters, `timing` where it times (its file's name says so: its label)."""
    n = Needs(_cc(gpu.compute_capability), gpu.tma, gpu.ldmatrix, gpu.stmatrix,
              gpu.shared_memory_per_block, counters=counters, timing=timing)
    for entry in gpu.tests:
        if any(fnmatch.fnmatchcase(test, pattern) for pattern in entry.tests):
            n = merged(n, Needs(_cc(entry.compute_capability), entry.tma, entry.ldmatrix,
                                entry.stmatrix, entry.shared_memory_per_block, entry.wide_rules,
                                entry.ldmatrix_rule))
    return n


def from_cpu_recording(gpu: GpuNeeds, test: str) -> bool:
    """Whether the counter test `test` of a lesson with these declared needs may take its
    counts from the CPU run of the same launches where the counters are refused (its
    gpu.cpu_recording names it)."""
    return any(fnmatch.fnmatchcase(test, pattern) for pattern in gpu.cpu_recording)


def unmet(needs: Needs, caps: Capabilities, profiles: Profiles) -> Optional[str]:
    """The first need of `needs` that `caps` does not meet, as the sentence the kit skips with
    (kit/needs.hpp), or None."""
    here = f"this GPU is {caps.arch}"
    if needs.compute_capability > caps.compute_capability:
        cc = needs.compute_capability
        return (f"needs compute capability {cc // 10}.{cc % 10} ({arch_name(cc)}) or later; "
                f"{here}")
    for feature, name in (("tma", "the TMA"), ("ldmatrix", "ldmatrix"), ("stmatrix", "stmatrix")):
        if getattr(needs, feature) and not getattr(caps, feature):
            return f"needs {name} ({profiles.first[feature]} and later); {here}"
    if needs.shared_memory_per_block > caps.shared_memory_per_block:
        return (f"needs {_kb(needs.shared_memory_per_block)} of shared memory per block; "
                f"{here}, which gives a block at most {_kb(caps.shared_memory_per_block)}")
    if needs.wide_rules and not caps.wide_rules:
        return (f"needs the bank model's 8- and 16-byte rules verified on this GPU; {caps.arch} "
                f"is not verified (course-admin self-check verifies them)")
    if needs.ldmatrix_rule and not caps.ldmatrix_rule:
        return (f"needs the bank model's ldmatrix rule, measured on "
                f"{profiles.first['ldmatrix_rule']} only; {here}")
    if needs.counters and not caps.counters:
        return f"needs the hardware counters, refused on this machine: {caps.counters_reason}"
    if needs.timing and not caps.timing:
        return (f"needs a GPU that shows a slowdown as the timing tests measure one; the "
                f"machine check's probe did not: {caps.timing_reason}")
    return None
