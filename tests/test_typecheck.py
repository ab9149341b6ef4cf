# SPDX-License-Identifier: MIT
"""The device code type-checks with mypy against circuitpython-stubs, as on a PyPortal."""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A file that must fail: proves the configuration still catches the errors we care about.
CANARY = '''\
"""Errors mypy must report with the project's settings."""
import displayio


def build():
    """Misspell an attribute of a stubbed CircuitPython class and a local name."""
    group = displayio.Group()
    group.apend(None)
    return grup
'''
CANARY_ERRORS = {(8, "attr-defined"), (9, "name-defined")}

ERROR = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?:\d+:)? error: .*\[(?P<code>[a-z-]+)\]$")


def _patched(text, old, new, what):
    """Replace old by new in a stub, or fail loudly when the stubs changed under us."""
    assert old in text, "circuitpython-stubs changed (%s); revisit tests/test_typecheck.py" % what
    return text.replace(old, new)


def make_device_stubs(stubs):
    """Write the stub overlay mypy needs to see the code as the device would; return stubs."""
    purelib = Path(sysconfig.get_paths()["purelib"])
    stubs.mkdir(parents=True)
    # The generic board stub has no pins or display: use the PyPortal's definition. Its
    # DISPLAY still says displayio.Display, which CircuitPython 9 moved to busdisplay.
    board = (purelib / "board_definitions" / "pyportal" / "__init__.pyi").read_text()
    board = _patched(board, "DISPLAY: displayio.Display", "DISPLAY: busdisplay.BusDisplay",
                     "board DISPLAY")
    (stubs / "board.pyi").write_text("import busdisplay\n" + board)
    # The stubs drop the color_index keyword that CircuitPython's vectorio shapes accept.
    vectorio = (purelib / "vectorio-stubs" / "__init__.pyi").read_text()
    old = "        y: int,\n    ) -> None:"
    assert vectorio.count(old) == 3, "vectorio stubs changed; revisit tests/test_typecheck.py"
    new = "        y: int,\n        color_index: int = 0,\n    ) -> None:"
    vectorio = vectorio.replace(old, new)
    (stubs / "vectorio").mkdir()
    (stubs / "vectorio" / "__init__.pyi").write_text(vectorio)
    # code.py would shadow the standard library's `code` module; check it under another name.
    for name in ("code.py", "boot.py"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, stubs / ("entry_" + name))
    # The on-board benchmark runs on the board as code.py too.
    for path in sorted((ROOT / "board_bench").glob("*.py")):
        shutil.copy(path, stubs / ("board_bench_" + path.name))
    (stubs / "typecheck_canary.py").write_text(CANARY)
    return stubs


def test_device_code_typechecks_against_circuitpython_stubs(tmp_path):
    """mypy finds no error in the device code and board_bench, and still catches the canary's."""
    # A private directory: several test runs may share this working tree at once.
    stubs = make_device_stubs(tmp_path / "device-stubs")
    targets = ["freecell_mc"] + sorted(str(p) for p in stubs.glob("*.py"))
    env = dict(os.environ, MYPYPATH=str(stubs))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes",
         "--no-color-output", "--hide-error-context", *targets],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    out = proc.stdout + proc.stderr
    canary = set()
    others = []
    for line in out.splitlines():
        m = ERROR.match(line)
        if m and m.group("path").endswith("typecheck_canary.py"):
            canary.add((int(m.group("line")), m.group("code")))
        elif m or "error:" in line:
            others.append(line)
    assert canary == CANARY_ERRORS, "mypy no longer catches the canary's errors:\n" + out
    assert not others, "mypy errors in the device code:\n" + "\n".join(others)
