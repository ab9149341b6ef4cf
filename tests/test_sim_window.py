# SPDX-License-Identifier: MIT
"""The simulator's window under SDL's dummy video driver: scaled drawing, keys, closing.

Mouse buttons cannot be pressed on the dummy driver: clicks were tried on a virtual X
server with xdotool (README, "The simulator").
"""

import pygame
import pytest

from host_sim import display
from host_sim.hardware import Keyboard
from host_sim.window import MouseInput, WindowClosed, WindowDisplay


@pytest.fixture
def window():
    """A 320x240 board in a window scaled by 2; released afterwards."""
    display.release()
    w = WindowDisplay(320, 240, scale=2)
    yield w
    display.release()


def test_the_window_shows_the_framebuffer_scaled(window):
    import displayio

    bmp = displayio.Bitmap(320, 240, 2)
    pal = displayio.Palette(2)
    pal[0] = 0x000000
    pal[1] = 0xFF0000
    bmp[10, 20] = 1
    g = displayio.Group()
    g.append(displayio.TileGrid(bmp, pixel_shader=pal))
    window.root_group = g
    window.refresh()
    surf = pygame.display.get_surface()
    assert surf.get_size() == (640, 480)
    for dx in (0, 1):
        for dy in (0, 1):
            assert tuple(surf.get_at((20 + dx, 40 + dy)))[:3] == (255, 0, 0)
    assert tuple(surf.get_at((22, 40)))[:3] == (0, 0, 0)


def test_keys_go_to_the_keyboard_and_closing_ends_the_run(window):
    keys = Keyboard()
    mouse = MouseInput(window, keys, idle_s=0)
    for k in (pygame.K_u, pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_7, pygame.K_q):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    assert mouse.read() is None  # no button held
    assert [keys.read() for _ in range(4)] == ["u", "esc", "enter", "7"]
    assert keys.read() is None  # q is not a key of the game
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    with pytest.raises(WindowClosed):
        mouse.read()


def test_a_script_plays_the_game_in_a_window_on_the_wall_clock(tmp_path):
    from host_sim import script, sim

    s = sim.Simulator(
        headless=False,
        date="2026-11-30",
        start_deal=(3, 1, 4),
        nvm_path=str(tmp_path / "nvm.bin"),
        drive=str(tmp_path / "drive"),
        script=script.parse("move 2a\nexpect moves 1\nkey u\nexpect moves 0\nmove 2a\n"),
    )
    try:
        assert s.run() == 0, s.failure
        assert s.clock.realtime
        surf = pygame.display.get_surface()
        assert surf.get_size() == (640, 480)
    finally:
        s.close()


def test_sigterm_ends_a_window_cleanly_and_writes_the_shot(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root, SDL_VIDEODRIVER="dummy")
    shot = tmp_path / "last.png"
    p = subprocess.Popen(
        [sys.executable, "-m", "host_sim", "--ms", "1", "--date", "2026-11-30", "--nvm",
         str(tmp_path / "n.bin"), "--drive", str(tmp_path / "d"), "--shot", str(shot)],
        cwd=str(tmp_path), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        # the game is running once boot.py has printed who owns CIRCUITPY
        deadline = time.monotonic() + 60
        line = p.stdout.readline()
        while "FreeCell MC" not in line and time.monotonic() < deadline:
            line = p.stdout.readline()
        time.sleep(1.0)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    from PIL import Image

    assert Image.open(shot).size == (320, 240)
