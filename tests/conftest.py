# SPDX-License-Identifier: MIT
"""Shared test set-up: headless SDL, Blinka on a plain PC, and a display fixture."""

import os
import sys

# Before anything imports board, displayio or pygame (TOOLCHAIN.md).
os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import pytest  # noqa: E402


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
