# SPDX-License-Identifier: MIT
"""requirements.txt lists exactly the libraries the board needs in lib/, pinned for the bundle.

The board finds a module among the firmware's built-in modules (those the circuitpython-stubs
board definitions of the PyPortal, Pynt and Titano all list), among its frozen libraries
(SPEC section 6: on all three that includes adafruit_display_text, and a frozen module wins
over /lib), or in CIRCUITPY/lib. Every import the device code makes, and every import of the
libraries it imports in turn (frozen ones included: a frozen library may need one no firmware
freezes), must be found; what only lib/ can give must be listed, and nothing else: a stale or
frozen line costs the maker flash. Today that is adafruit_touchscreen alone: text is drawn
from the firmware font's glyph sheet, so nothing imports adafruit_display_text or the
adafruit_ticks its bitmap_label needed. Each listed library is pinned with == in
requirements-dev.txt, as `./dev bundle` needs.
"""

import importlib
import os

import device_imports
from tools import bundle


def needed_in_lib(board, roots):
    """Return (unresolved imports, libraries only lib/ gives) of everything roots reach."""
    missing, used = device_imports.walk(board, roots)
    in_lib = {name for name, provider in used.items() if provider == "lib"}
    return missing, in_lib - {"freecell_mc"}


def test_requirements_list_exactly_what_the_board_needs_in_lib():
    """Every library the game reaches, directly or through a library, is listed; nothing else."""
    listed = set(bundle.required())
    board = device_imports.Board(listed, None)
    missing, in_lib = needed_in_lib(board, device_imports.device_roots())
    assert not missing, "add to requirements.txt: " + ", ".join(missing)
    unused = sorted(listed - in_lib)
    assert not unused, "requirements.txt lists libraries nothing imports: " + ", ".join(unused)
    assert in_lib == {"adafruit_touchscreen"}


def test_the_game_uses_no_frozen_library():
    """The simulator runs no copy of a frozen library, so none can differ from the board's."""
    board = device_imports.Board(set(bundle.required()), None)
    _, used = device_imports.walk(board, device_imports.device_roots())
    frozen = sorted(name for name, provider in used.items() if provider == "frozen")
    assert not frozen, "imported from the firmware's frozen modules: %s (docs/architecture.md " \
        "'Frozen library versions' must say so)" % frozen


def test_a_library_only_a_frozen_one_imports_must_be_listed(tmp_path):
    """The rule once broken: a frozen library's own import of an unfrozen one needs lib/."""
    root, frozen = tmp_path / "drive", tmp_path / "frozen"
    (root / "lib").mkdir(parents=True)
    (frozen / "adafruit_frozen_ui").mkdir(parents=True)
    (frozen / "adafruit_frozen_ui" / "__init__.py").write_text("import adafruit_helper\n")
    (root / "code.py").write_text("import adafruit_frozen_ui\n")
    (root / "lib" / "adafruit_helper.py").write_text("import time\n")
    roots = [root / "code.py"]

    def board(listed):
        return device_imports.Board(listed, root / "lib", root=root,
                                    frozen={"adafruit_frozen_ui"}, frozen_dir=frozen)

    assert needed_in_lib(board(set()), roots) == (
        ["adafruit_helper (imported by adafruit_frozen_ui/__init__.py)"], set())
    assert needed_in_lib(board({"adafruit_helper"}), roots) == ([], {"adafruit_helper"})


def test_no_frozen_library_is_listed():
    """A frozen module wins over /lib: listing it would only fill the maker's flash."""
    frozen = sorted(set(bundle.required()) & bundle.FROZEN)
    assert not frozen, "frozen into the firmware, remove from requirements.txt: %s" % frozen


def test_listed_libraries_are_pinned_and_installed_at_the_pin():
    """The bundle compiles each from its package at the == pin of requirements-dev.txt."""
    libs = bundle.libraries()  # raises BundleError naming the library otherwise
    assert sorted(name for name, *_ in libs) == sorted(bundle.required())
    pins = bundle.pins()
    for _name, dist, version, _, _ in libs:
        assert pins[bundle._norm(dist)] == version


def test_listed_libraries_are_in_the_dev_environment():
    """The simulator runs the same libraries: each listed one imports on the desktop."""
    os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
    for name in sorted(bundle.required()):
        importlib.import_module(name)
