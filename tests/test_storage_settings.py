# SPDX-License-Identifier: MIT
"""Settings says when saves are limited, why, and what to do: USB mode, no or a bad save file."""

from host_sim import circuitpy, hardware
from freecell_mc.saves import savelog
from freecell_mc.ui.screens import screen_class
from freecell_mc.saves.policy import Saves

from test_screens import FakeApp


def _settings_note(blocks, usb=False):
    app = FakeApp()
    app.saves = Saves(blocks)
    app.saves.load()
    app.saves.settings.usb_writable = usb
    app.saves.put_slot(0, 1, 3, 4, _Pos(), 1)
    app.saves.commit(0, force=True)  # the first write finds out whether files work
    screen = screen_class("settings")(app)
    screen.show()
    return screen.usb_note.text


class _Pos:
    pos = bytes(68)
    moves = 1


def test_settings_shows_limited_saves_on_a_read_only_drive():
    blocks = hardware.fat_blocks(places=40, writable=False)
    assert _settings_note(blocks) == "USB for this start only"  # the switch is off: held
    blocks = hardware.fat_blocks(places=40, writable=False)
    assert _settings_note(blocks, usb=True) == "USB mode: saves limited"


def test_settings_shows_the_usual_note_when_the_game_writes():
    assert _settings_note(hardware.sim_blocks(ring=2)) == "takes effect after a reset"


def test_settings_tells_a_missing_save_file_and_what_to_do():
    blocks = hardware.fat_blocks(places=40)
    blocks.fs.remove(savelog.LOG_PATH)
    assert _settings_note(blocks) == "no save file: copy again"


def test_settings_tells_a_broken_save_file():
    blocks = hardware.fat_blocks(places=40)
    blocks.fs.remove(savelog.LOG_PATH)
    blocks.fs.mkdir(savelog.LOG_PATH)  # a folder where the file should be
    assert _settings_note(blocks) == "bad save file: copy again"


def test_a_full_drive_no_longer_matters_once_the_save_file_is_there():
    """The board never takes space: a drive filled to the last byte still saves every 1.75 s."""
    blocks = hardware.fat_blocks(places=40)
    circuitpy.fill(blocks.fs, 0)
    assert blocks.fs.free_bytes() < 2048
    assert _settings_note(blocks) == "takes effect after a reset"
    from freecell_mc.rules import deals
    from freecell_mc.rules.engine import Game

    g = Game()
    g.deal(deals.seeded_deck(3))
    s = Saves(blocks)
    s.load()
    assert s.files_ok
    s.put_slot(0, deals.KIND_SEED, 3, 4, g, 7)
    s.commit(0)
    assert s.commit(1750)  # within the checkpoint, like on a drive with room
