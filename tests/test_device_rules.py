# SPDX-License-Identifier: MIT
"""The house rules for device code, checked on the source (freecell_mc/, code.py, boot.py).

CircuitPython has no typing, dataclasses, enum or CPython's random, raises ImportError where
CPython raises ModuleNotFoundError, and runs code.py by importing: so device modules import
only what the board has (optional imports guarded by ``except ImportError``), take const from
the compat shim, do nothing but define things when imported, and carry an SPDX header and a
module docstring. The engine imports no hardware and no clock.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p.relative_to(ROOT) for p in (ROOT / "freecell_mc").rglob("*.py")
               if "__pycache__" not in p.parts)
FILES += [Path(n) for n in ("code.py", "boot.py") if (ROOT / n).exists()]

# Not on the board at all (or, for random, not CPython's).
NOT_ON_BOARD = {"typing", "dataclasses", "enum", "random", "__future__", "abc", "functools",
                "itertools", "pathlib", "inspect", "typing_extensions"}
# The engine is pure: the hardware and the clock are passed in (STYLE.md 7). The rules
# package (cards, engine, deals, notation) and the shim under it.
ENGINE = [Path("freecell_mc/compat.py")] + [f for f in FILES
                                             if f.parent == Path("freecell_mc/rules")]
HARDWARE = {"board", "displayio", "time", "adafruit_touchscreen", "busio", "digitalio",
            "analogio", "microcontroller", "rtc", "storage", "supervisor", "terminalio",
            "vectorio", "busdisplay", "fourwire", "alarm"}


def parse(rel):
    """Return the AST of a device file."""
    return ast.parse((ROOT / rel).read_text(), str(rel))


def guarded_lines(tree):
    """Return the line numbers of imports inside a try whose handler catches ImportError."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            names = set()
            for h in node.handlers:
                t = h.type
                for e in (t.elts if isinstance(t, ast.Tuple) else [t]):
                    if isinstance(e, ast.Name):
                        names.add(e.id)
            if "ImportError" in names:
                for inner in node.body:
                    for sub in ast.walk(inner):
                        if isinstance(sub, (ast.Import, ast.ImportFrom)):
                            lines.add(sub.lineno)
    return lines


def imports(tree):
    """Yield (top-level module name, line) for every import in the tree."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno


def import_problems(tree, is_compat=False):
    """Return the imports the board lacks (unguarded) and const not taken from compat."""
    guarded = guarded_lines(tree)
    bad = ["line %d: import %s" % (line, name) for name, line in imports(tree)
           if name in NOT_ON_BOARD and line not in guarded]
    if not is_compat:
        bad += ["line %d: const must come from freecell_mc.compat" % node.lineno
                for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module == "micropython"
                and any(a.name == "const" for a in node.names)]
    return bad


def module_not_found_problems(tree):
    """Return where ModuleNotFoundError is named."""
    return ["line %d: ModuleNotFoundError" % node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Name) and node.id == "ModuleNotFoundError"]


def side_effect_problems(tree):
    """Return module-level statements that do something when the module is imported."""
    bad = []
    for i, node in enumerate(tree.body):
        if isinstance(node, ast.Expr):
            value = node.value
            if i == 0 and isinstance(value, ast.Constant) and isinstance(value.value, str):
                continue  # the docstring
            bad.append("line %d: a call or expression runs at import" % node.lineno)
        elif isinstance(node, (ast.For, ast.While, ast.With)):
            bad.append("line %d: a loop or with-block runs at import" % node.lineno)
        elif isinstance(node, ast.If):
            test = node.test
            main_guard = (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name)
                          and test.left.id == "__name__")
            if not main_guard:
                for sub in node.body + node.orelse:
                    if isinstance(sub, ast.Expr):
                        bad.append("line %d: a call runs at import" % sub.lineno)
    return bad


def hardware_problems(tree):
    """Return imports of hardware or clock modules."""
    return ["line %d: import %s" % (line, name) for name, line in imports(tree)
            if name in HARDWARE]


BAD_MODULE = """\
import typing
from micropython import const
import time
try:
    import enum
except ImportError:
    enum = None
try:
    import board
except ModuleNotFoundError:
    board = None
print("hello")
for i in range(3):
    pass
if __name__ == "__main__":
    main()
"""


def test_the_checks_see_violations():
    """Each rule flags a module that breaks it, and only the right lines."""
    tree = ast.parse(BAD_MODULE)
    assert import_problems(tree) == ["line 1: import typing",
                                     "line 2: const must come from freecell_mc.compat"]
    assert module_not_found_problems(tree) == ["line 10: ModuleNotFoundError"]
    assert side_effect_problems(tree) == ["line 12: a call or expression runs at import",
                                          "line 13: a loop or with-block runs at import"]
    assert hardware_problems(tree) == ["line 3: import time", "line 9: import board"]


def test_there_are_device_files():
    """The rules below have files to look at."""
    assert Path("freecell_mc/rules/engine.py") in FILES and Path("freecell_mc/compat.py") in FILES


@pytest.mark.parametrize("rel", FILES, ids=str)
def test_header_and_docstring(rel):
    """SPDX header on the first line, then a module docstring."""
    text = (ROOT / rel).read_text()
    assert text.startswith("# SPDX-License-Identifier: MIT\n"), "first line: the SPDX header"
    assert ast.get_docstring(parse(rel)), "a module docstring"


@pytest.mark.parametrize("rel", FILES, ids=str)
def test_imports_only_what_the_board_has(rel):
    """No typing/dataclasses/enum/random unless guarded; const from the compat shim."""
    bad = import_problems(parse(rel), rel == Path("freecell_mc/compat.py"))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", FILES, ids=str)
def test_the_game_names_nothing_the_board_lacks_even_guarded(rel):
    """The guard is for libraries; the game's own files need none of those modules at all.

    A guarded `typing` import still costs the board its names in the interned-string pools,
    which are full to one name (docs/memory.md).
    """
    bad = ["line %d: import %s" % (line, name) for name, line in imports(parse(rel))
           if name in NOT_ON_BOARD]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", FILES, ids=str)
def test_never_catches_module_not_found_error(rel):
    """MicroPython and CircuitPython raise ImportError; ModuleNotFoundError is never caught."""
    bad = module_not_found_problems(parse(rel))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", FILES, ids=str)
def test_importing_has_no_side_effects(rel):
    """At module level only imports, definitions, assignments and guarded blocks."""
    bad = side_effect_problems(parse(rel))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("rel", ENGINE, ids=str)
def test_engine_imports_no_hardware_or_clock(rel):
    """The engine modules import no board, displayio, time or touch driver."""
    bad = hardware_problems(parse(rel))
    assert not bad, "\n".join(bad)
