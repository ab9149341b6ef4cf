# SPDX-License-Identifier: MIT
"""requirements.txt lists exactly the libraries the device code imports that the board lacks.

A module is built into CircuitPython when circuitpython-stubs has a stub package for it, or
when it is one of MicroPython's standard modules; every other import outside freecell_mc must
be a library circup installs, named in requirements.txt, and every library listed there must
be imported somewhere (a stale line costs the maker flash space).
"""

import ast
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# MicroPython's own standard modules, which CircuitPython builds in (no stub package).
STANDARD = {"array", "binascii", "builtins", "collections", "errno", "gc", "io", "json", "math",
            "os", "random", "re", "select", "struct", "sys", "time", "asyncio"}


def builtin_modules():
    """Return the modules CircuitPython has without a library."""
    purelib = Path(sysconfig.get_paths()["purelib"])
    stubs = {p.name[:-len("-stubs")] for p in purelib.glob("*-stubs")}
    assert "displayio" in stubs and "board" in stubs, "circuitpython-stubs is not installed"
    # adafruit_bus_device has stubs but is a library on most boards, not firmware.
    return (stubs - {"adafruit_bus_device"}) | STANDARD


def device_imports():
    """Return {top-level module: first file importing it} for the code that goes on a board."""
    files = sorted((ROOT / "freecell_mc").rglob("*.py"))
    files += [ROOT / n for n in ("code.py", "boot.py") if (ROOT / n).exists()]
    found = {}
    for path in files:
        if "__pycache__" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


def listed():
    """Return the circup names in requirements.txt."""
    out = set()
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            out.add(line)
    return out


def test_requirements_match_the_device_imports():
    """Every library the device code imports is listed, and nothing else is."""
    builtin = builtin_modules()
    needed = {name: where for name, where in device_imports().items()
              if name != "freecell_mc" and name not in builtin}
    missing = sorted("%s (imported by %s)" % (n, w) for n, w in needed.items()
                     if n not in listed())
    assert not missing, "add to requirements.txt: " + ", ".join(missing)
    unused = sorted(listed() - set(needed))
    assert not unused, "requirements.txt lists libraries nothing imports: " + ", ".join(unused)


def test_listed_libraries_are_in_the_dev_environment():
    """The simulator runs the same libraries: each listed one imports on the desktop."""
    import importlib
    import os

    os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
    for name in sorted(listed()):
        importlib.import_module(name)
