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


_tools = {}


def circuitpython_tools(need=("mpy_cross", "vm")):
    """Return {"mpy_cross": path, "vm": path}; skip the test if one in need is missing.

    Both are looked for at once (tools/cptools.py: an option's variable, then the tools
    folder) and the reason names every one missing, so a clone without them skips each
    test that needs either with the same reason: `-ra` prints one line. A tool that is
    there but wrong (MicroPython's compiler, a VM not built like the board) fails, here
    and in CI alike.
    """
    if not _tools:
        from tools import cptools

        missing = []
        for key, find in (("mpy_cross", lambda: cptools.find_mpy_cross(cptools.VM_TARGET)[0]),
                          ("vm", cptools.find_vm)):
            try:
                _tools[key] = find()
            except cptools.ToolMissing:
                missing.append(key)
                _tools[key] = None
            except cptools.ToolError as e:
                _tools[key] = e  # there, or given on purpose, and wrong: always a failure
        if _tools["vm"] is not None and not isinstance(_tools["vm"], Exception):
            try:
                cptools.check_vm(_tools["vm"])
            except cptools.VMError as e:
                _tools["vm"] = e
        _tools["missing"] = missing
        it = "them" if len(missing) > 1 else "it"
        _tools["why"] = _SKIP_WHY + (
            "%s, not found at %s: put %s there or point %s at %s (README, \"CircuitPython's "
            "own tools\", says where to get %s)" % (
                " and ".join(_NAMES[k] for k in missing), " and ".join(_FILES[k] for k in missing),
                it, " and ".join("$" + _VARS[k] for k in missing), it, it))
    for key in need:
        if isinstance(_tools[key], Exception):
            pytest.fail(str(_tools[key]))
    if any(_tools[key] is None for key in need):
        pytest.skip(_tools["why"])
    return _tools


def _tool_names():
    from tools import cptools

    folder = cptools.tools_dir()
    names = {"mpy_cross": "mpy-cross", "vm": "VM"}
    files = {"mpy_cross": str(folder / ("mpy-cross-" + cptools.VM_TARGET)),
             "vm": str(folder / "circuitpython")}
    return names, files, {"mpy_cross": cptools.MPY_CROSS_VAR, "vm": cptools.VM_VAR}


_NAMES, _FILES, _VARS = _tool_names()


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
