# SPDX-License-Identifier: MIT
"""Settings says when saves are limited: CIRCUITPY left to the computer for USB updates."""

from host_sim import flash
from freecell_mc.screens import screen_class
from freecell_mc.storage import Saves

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
    assert _settings_note(flash.sim_blocks(ring=2, writable=False)) == "saves limited: USB mode"


def test_settings_shows_the_usual_note_when_the_game_writes():
    assert _settings_note(flash.sim_blocks(ring=2)) == "takes effect after a reset"
