"""Runs a module of the course package from a script's path.

A script run by its path (`python3 tools/course/grade.py`, the `course` and `course-admin`
launchers at the course's root) has its own folder on the import path, not tools/, so
`import course` would not find this package (or would find tools/course/course.py). `run()`
loads the package from this folder by its file, runs one of its modules as `python3 -m` would,
and puts tools/ on PYTHONPATH for the Python programs the module starts. Standard library only;
nothing of the package is imported before the package is loaded.
"""

import importlib.util
import os
import runpy
import sys
from pathlib import Path

#: This folder: the package `course`. Its parent, tools/, is what PYTHONPATH needs.
PACKAGE_DIR = Path(__file__).resolve().parent


def load_package() -> None:
    """Makes `import course` this folder's package, here and in the programs started from here."""
    loaded = sys.modules.get("course")
    if loaded is None or list(getattr(loaded, "__path__", [])) != [str(PACKAGE_DIR)]:
        spec = importlib.util.spec_from_file_location(
            "course", str(PACKAGE_DIR / "__init__.py"),
            submodule_search_locations=[str(PACKAGE_DIR)])
        package = importlib.util.module_from_spec(spec)
        sys.modules["course"] = package
        spec.loader.exec_module(package)
    tools = str(PACKAGE_DIR.parent)
    paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if tools not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join([tools] + paths)


def run(module: str) -> None:
    """Runs `module` (e.g. "course.grading.grade") as the program, with this process's
    arguments; its exit status is the program's."""
    load_package()
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    # `python3 tools/course/bootstrap.py course.grading.grade_run ARGS...`: what the shell
    # entry points (grade_run.sh) run.
    if len(sys.argv) < 2 or not sys.argv[1].startswith("course."):
        sys.exit("bootstrap.py: give the module to run, e.g. course.grading.grade_run")
    module = sys.argv.pop(1)
    run(module)
