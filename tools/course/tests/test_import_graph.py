"""The package's rooms hold (tools/course/__init__.py): every module sits in a room, imports run
only down (a room imports its own modules and those of lower rooms, never a room of its level
or above), no module imports itself back through others, one `Finding`; and nothing under tools/
edits sys.path (the package is found through PYTHONPATH or the bootstrap, never by a script
rewriting the import path)."""

from __future__ import annotations

import ast
import unittest
from pathlib import Path
from typing import Dict, List, Set, Tuple

import course
from course_testing import TOOLS

PACKAGE = TOOLS  # tools/course: the package `course`


def modules() -> Dict[str, Path]:
    """Every module of the package (its tests aside): dotted name -> file."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "tests":
            continue
        parts = ["course", *rel.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(path: Path, known: Set[str]) -> List[Tuple[str, int]]:
    """The package's modules a file imports (at its top or inside functions), with the line."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "course"]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.split(".")[0] == "course":
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.append((sub if sub in known else node.module, node.lineno))
    return out


def room_of(module: str) -> str:
    """'course.grading.grade_tests' -> 'grading'; '' for a module at the package's top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in course.ROOMS) else ""


class ImportGraph(unittest.TestCase):
    def setUp(self) -> None:
        self.modules = modules()
        self.graph = {m: imports(p, set(self.modules)) for m, p in self.modules.items()}

    def test_every_module_sits_in_a_room(self):
        top = {m for m in self.modules if room_of(m) == ""} - {"course"}
        # the entry points: the student's and the maintainers' commands, the shims kept for
        # the paths workflow files name, and the bootstrap they share
        self.assertEqual(top, {"course.__main__", "course.admin", "course.bootstrap",
                               "course.course", "course.grade"})
        for m in self.modules:
            room = room_of(m)
            self.assertTrue(room == "" or room in course.ROOMS, f"{m}: not in a room of {course.ROOMS}")

    def test_imports_run_only_down(self):
        wrong = []
        for m, targets in self.graph.items():
            room = room_of(m)
            if room == "":
                continue
            for target, line in targets:
                other = room_of(target)
                if other == room:
                    continue
                if other == "" or course.ROOMS[other] >= course.ROOMS[room]:
                    wrong.append(f"{self.modules[m].relative_to(PACKAGE)}:{line}: {room} imports "
                                 f"{target} ({other or 'the top'})")
        self.assertEqual(wrong, [], "imports that do not run down:\n" + "\n".join(wrong))

    def test_no_cycle(self):
        edges = {m: sorted({t for t, _ in targets if t in self.modules and t != m})
                 for m, targets in self.graph.items()}
        state: Dict[str, int] = {}
        path: List[str] = []

        def visit(m: str) -> List[str]:
            state[m] = 1
            path.append(m)
            for t in edges[m]:
                if state.get(t) == 1:
                    return path[path.index(t):] + [t]
                if t not in state:
                    found = visit(t)
                    if found:
                        return found
            path.pop()
            state[m] = 2
            return []

        for m in sorted(edges):
            if m not in state:
                cycle = visit(m)
                self.assertEqual(cycle, [], "a module imports itself back: " + " -> ".join(cycle))

    def test_one_finding(self):
        defined = [(m, node.lineno) for m, p in self.modules.items()
                   for node in ast.walk(ast.parse(p.read_text()))
                   if isinstance(node, ast.ClassDef) and node.name == "Finding"]
        self.assertEqual([m for m, _ in defined], ["course.policy.findings"], defined)

    def test_nothing_under_tools_edits_the_import_path(self):
        edits = []
        for path in sorted(TOOLS.parent.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                target = None
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    target = node.func.value  # sys.path.insert(...), sys.path.append(...)
                elif isinstance(node, (ast.Assign, ast.AugAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    target = next((t.value if isinstance(t, ast.Subscript) else t
                                   for t in targets), None)
                if isinstance(target, ast.Attribute) and target.attr == "path" and \
                        isinstance(target.value, ast.Name) and target.value.id == "sys":
                    edits.append(f"{path.relative_to(TOOLS.parent.parent)}:{node.lineno}")
        self.assertEqual(edits, [], "sys.path edited at:\n" + "\n".join(edits))


if __name__ == "__main__":
    unittest.main()
