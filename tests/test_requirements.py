# SPDX-License-Identifier: MIT
"""requirements.txt lists exactly the libraries the board needs in lib/, pinned for the bundle.

The board finds a module among the firmware's built-in modules (those the circuitpython-stubs
board definitions of the PyPortal, Pynt and Titano all list), among its frozen libraries
(SPEC section 6: on all three that includes adafruit_display_text, and a frozen module wins
over /lib), or in CIRCUITPY/lib. Every import the device code makes, and every import of the libraries it
imports in turn (the frozen bitmap_label imports adafruit_ticks), must be found; what only
lib/ can give must be listed, and nothing else: a stale or frozen line costs the maker flash.
Each listed library is pinned with == in requirements-dev.txt, as `./dev bundle` needs.
"""

import importlib
import os

import device_imports
from tools import bundle


def test_requirements_list_exactly_what_the_board_needs_in_lib():
    """Every library the game reaches, directly or through a library, is listed; nothing else."""
    listed = set(bundle.required())
    board = device_imports.Board(listed, None)
    missing, used = device_imports.walk(board, device_imports.device_roots())
    assert not missing, "add to requirements.txt: " + ", ".join(missing)
    in_lib = {name for name, provider in used.items() if provider == "lib"} - {"freecell_mc"}
    unused = sorted(listed - in_lib)
    assert not unused, "requirements.txt lists libraries nothing imports: " + ", ".join(unused)
    # The rule that was broken: bitmap_label (frozen) needs adafruit_ticks, which is not.
    assert used.get("adafruit_display_text") == "frozen" and "adafruit_ticks" in in_lib


def test_no_frozen_library_is_listed():
    """A frozen module wins over /lib: listing it would only fill the maker's flash."""
    frozen = sorted(set(bundle.required()) & bundle.FROZEN)
    assert not frozen, "frozen into the firmware, remove from requirements.txt: %s" % frozen


def test_listed_libraries_are_pinned_and_installed_at_the_pin():
    """The bundle compiles each from its package at the == pin of requirements-dev.txt."""
    libs = bundle.libraries()  # raises BundleError naming the library otherwise
    assert sorted(name for name, *_ in libs) == sorted(bundle.required())
    pins = bundle.pins()
    for name, dist, version, _, _ in libs:
        assert pins[bundle._norm(dist)] == version


def test_listed_libraries_are_in_the_dev_environment():
    """The simulator runs the same libraries: each listed one imports on the desktop."""
    os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
    for name in sorted(bundle.required()):
        importlib.import_module(name)
