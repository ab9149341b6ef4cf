# SPDX-License-Identifier: MIT
"""Settings says when saves are limited, and why: USB mode, a full drive, a broken file."""

from host_sim import circuitpy, hardware
from freecell_mc.ui.screens import screen_class
from freecell_mc.saves.policy import Saves

from test_screens import FakeApp


def _settings_note(blocks):
    app = FakeApp()
    app.saves = Saves(blocks)
    app.saves.load()
    app.saves.put_slot(0, 1, 3, 4, _Pos(), 1)
    app.saves.commit(0, force=True)  # the first write finds out whether files work
    screen = screen_class("settings")(app)
    screen.show()
    return screen.usb_note.text


class _Pos:
    pos = bytes(68)
    moves = 1


def test_settings_shows_limited_saves_on_a_read_only_drive():
    assert _settings_note(hardware.sim_blocks(ring=2, writable=False)) == "saves limited: USB mode"


def test_settings_shows_the_usual_note_when_the_game_writes():
    assert _settings_note(hardware.sim_blocks(ring=2)) == "takes effect after a reset"


def test_settings_tells_a_full_drive_from_usb_mode():
    blocks = hardware.fat_blocks()
    circuitpy.fill(blocks.fs, 8 * 1024)  # less than the smallest save file
    assert _settings_note(blocks) == "saves limited: drive full"


def test_settings_tells_a_broken_save_file():
    blocks = hardware.fat_blocks()
    blocks.fs.mkdir("fcsave")
    blocks.fs.mkdir("fcsave/saves.bin")  # a folder where the file should be
    assert _settings_note(blocks) == "saves limited: drive error"


def test_a_nearly_full_drive_still_saves_power_safe():
    """With 60 KB left the save file is shorter, but saves stay on CIRCUITPY, every 1.5 s."""
    blocks = hardware.fat_blocks()
    circuitpy.fill(blocks.fs, 60 * 1024)
    assert _settings_note(blocks) == "takes effect after a reset"
    from freecell_mc.rules import deals
    from freecell_mc.rules.engine import Game

    g = Game()
    g.deal(deals.seeded_deck(3))
    s = Saves(blocks)
    s.load()
    assert 40 <= s._files < 120 and "nearly full" in s.mode_text()
    s.put_slot(0, deals.KIND_SEED, 3, 4, g, 7)
    s.commit(0)
    assert s.commit(1750)  # within the checkpoint, like on a drive with room
