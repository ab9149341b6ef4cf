# SPDX-License-Identifier: MIT
"""Shared test set-up: headless SDL, Blinka on a plain PC, and a display fixture."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pytest  # noqa: E402

from host_sim import headless_env  # noqa: E402

headless_env()  # before anything imports board, displayio or pygame

from host_sim import font  # noqa: E402

font.install()  # terminalio.FONT as the board has it: a sheet of glyph tiles

from hypothesis import settings  # noqa: E402

# Speed is never asserted (the machines are shared and noisy), so no example has a deadline.
# In CI the examples are derandomized: a red run is reproducible from its log, and a green
# one is not a roll of the dice. Locally each run explores new examples.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


# .ci/run sets it: there a missing tool of CircuitPython's fails its tests instead of
# skipping them (so does CI=true). On a clone without ../shared they are skipped.
REQUIRE_VAR = "FREECELL_REQUIRE_CIRCUITPYTHON"


def _required():
    return os.environ.get(REQUIRE_VAR) or os.environ.get("CI") in ("true", "1")


_tools = {}


def circuitpython_tools(need=("mpy_cross", "vm")):
    """Return {"mpy_cross": path, "vm": path}; skip (fail where required) if one in need is missing.

    Both are looked for at once and the reason names every one missing, so a clone without
    them skips each test that needs either with the same reason: `-ra` prints one line.
    """
    if not _tools:
        from bench import board
        from tools import bundle

        missing = []
        for key, tool in (("mpy_cross", bundle.MPY_CROSS), ("vm", bundle.CIRCUITPYTHON)):
            try:
                _tools[key] = bundle.find_tool(tool)
            except bundle.ToolMissing:
                missing.append(tool)
                _tools[key] = None
            except bundle.BundleError as e:
                _tools[key] = e  # given on purpose and wrong: always a failure
        if _tools["mpy_cross"] is not None and not isinstance(_tools["mpy_cross"], Exception):
            try:
                bundle.mpy_cross_version(_tools["mpy_cross"])
            except bundle.BundleError as e:
                _tools["mpy_cross"] = e
        if _tools["vm"] is not None and not isinstance(_tools["vm"], Exception):
            try:
                board.check_vm(_tools["vm"])
            except board.VMError as e:
                _tools["vm"] = e
        _tools["missing"] = missing
    for key in need:
        if isinstance(_tools[key], Exception):
            pytest.fail(str(_tools[key]))
    missing = _tools["missing"]
    if any(_tools[key] is None for key in need):
        why = (_SKIP_WHY + "%s, not found: point %s at them (README, "
               "\"CircuitPython's own tools\", says where to get them)"
               % (" and ".join(t[3].split("'s ")[1] for t in missing),
                  " and ".join("$" + t[1] for t in missing)))
        if _required():
            pytest.fail(why + " (required here: $%s or CI is set)" % REQUIRE_VAR)
        pytest.skip(why)
    return _tools


_SKIP_LINE = circuitpython_tools.__code__.co_firstlineno


_SKIP_WHY = "needs CircuitPython's "


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Report every skip for missing tools at one place, so that -ra folds them into one line.

    A skip raised in a fixture is reported at each test's own line, one summary line a test.
    """
    outcome = yield
    rep = outcome.get_result()
    if rep.skipped and isinstance(rep.longrepr, tuple) and rep.longrepr[2].startswith(
            "Skipped: " + _SKIP_WHY):
        rep.longrepr = (__file__, _SKIP_LINE, rep.longrepr[2])


@pytest.fixture(scope="session")
def cp_mpy_cross():
    """CircuitPython's mpy-cross, found and version-checked once (see circuitpython_tools)."""
    return circuitpython_tools(("mpy_cross",))["mpy_cross"]


@pytest.fixture(scope="session")
def cp_vm():
    """CircuitPython's VM, found and checked once (see circuitpython_tools)."""
    return circuitpython_tools(("vm",))["vm"]


@pytest.fixture(scope="session")
def cp_image(tmp_path_factory):
    """The board image and the VM's stand-ins, built once per test process (bench/board.py)."""
    from bench import board

    tools = circuitpython_tools()
    return board.Image(tmp_path_factory.mktemp("cpvm"), tools["vm"], tools["mpy_cross"])


@pytest.fixture
def no_pixels(monkeypatch):
    """Let the simulator's display mark dirty areas but fill no pixel (tests of state only).

    Every screen is still built and shown; displayio's filling of the framebuffer, most of
    the time a simulated start takes, is skipped where nothing looks at the pixels.
    """
    from host_sim import display

    monkeypatch.setattr(display.FramebufferDisplay, "_refresh_area", lambda self, area: True)


@pytest.fixture
def fb_display():
    """A headless displayio display (320x240) that logs dirty areas; released afterwards."""
    from host_sim import display

    display.release()
    d = display.FramebufferDisplay(320, 240)
    yield d
    display.release()


@pytest.fixture
def no_cut_left_armed():
    """A failing test must not leave a flash power cut armed for the next one."""
    yield
    from host_sim import flash

    flash.disarm()
