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


@pytest.fixture(scope="session")
def cp_mpy_cross():
    """CircuitPython's mpy-cross, found and version-checked once; missing fails the test."""
    from tools import bundle

    try:
        exe = bundle.find_mpy_cross()
        bundle.mpy_cross_version(exe)
    except bundle.BundleError as e:
        pytest.fail(str(e))
    return exe


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
