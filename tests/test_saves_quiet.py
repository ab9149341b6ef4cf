# SPDX-License-Identifier: MIT
"""The save file's erase ahead waits for a quiet moment, and a tap begun during it is read.

The App (app.py) erases ahead only at a poll where nobody touches the screen, a second
after the last touch, and nothing was drawn: a resistive panel keeps no taps, so a board
busy erasing (about 100 ms a group) reads no touch in that time. Here the board's clock
moves on while its flash is busy, as on the board, and the panel's readings follow the
clock: a press that begins during an erase and goes on after it is read as a tap; while the
player taps on, no erase is done between polls, and the save that needs one does it.
"""

from host_sim import hardware
from freecell_mc.saves import savelog
from test_ui_harness import Board, FakeTouch

from freecell_mc.rules import deals

PLACES = 40


class TimedTouch(FakeTouch):
    """A finger on the panel during given spans of board time: (start, end, x, y)."""

    def __init__(self, clock):
        super().__init__()
        self.clock = clock
        self.spans = []

    @property
    def touch_point(self):
        """Return the reading at the board's time now."""
        t = self.clock.ms
        for start, end, x, y in self.spans:
            if start <= t < end:
                return (x, y, 30000)
        return None


def _board():
    """Return a Board over the FAT model whose save file needs real erases (all zeros)."""
    blocks = hardware.fat_blocks(places=PLACES)
    vol = blocks.fs
    with vol.open(savelog.LOG_PATH, "r+b") as f:
        f.write(bytes(savelog.file_bytes(PLACES)))
    vol.flash.flush()
    b = Board(320, 240, start=(deals.KIND_SEED, 5, 4), blocks=blocks)
    clock = b.hw.clock
    touch = TimedTouch(clock)
    b.hw.touch = b.app.touch = touch
    erases = []

    def busy(us):
        clock.ms += us // 1000 or 1  # the board does nothing else while its flash is busy

    vol.flash.on_busy = busy
    orig = b.app.saves.erase_ahead

    def erase_ahead():
        start, reading = clock.ms, touch.touch_point
        did = orig()
        if did:
            erases.append((start, clock.ms, reading, start - b.app.backlight.since))
        return did

    b.app.saves.erase_ahead = erase_ahead
    return b, touch, erases


def test_the_erase_ahead_waits_a_quiet_second_and_a_tap_begun_in_it_is_read():
    b, touch, erases = _board()
    try:
        app = b.app
        assert app.saves.erase_due()  # a start: two groups to erase before the next save
        x, y = b.table.tap_point(0, -1)
        t0 = b.hw.clock.ms
        # The player presses 30 ms after the second of quiet is up, for 120 ms.
        touch.spans.append((t0 + 1000 + 30, t0 + 1000 + 150, x, y))
        while b.hw.clock.ms < t0 + 1400:
            b.poll()
        assert erases, "no erase in a quiet moment"
        start, end, reading, quiet = erases[0]
        assert reading is None and quiet >= 1000  # begun with nobody touching
        assert end - start >= 90  # a real 4 KB erase or two: about 100 ms of flash time
        assert start < t0 + 1030 < end  # the finger came down while it erased
        assert b.table.sel_src == 0  # and the tap was read: the card is held
    finally:
        b.close()


def test_no_erase_between_polls_while_the_player_taps_on():
    b, touch, erases = _board()
    try:
        t0 = b.hw.clock.ms
        x, y = b.table.tap_point(4, -1)
        for k in range(40):  # a tap every 400 ms for 16 s: never a quiet second
            touch.spans.append((t0 + 400 * k, t0 + 400 * k + 100, x, y))
        while b.hw.clock.ms < t0 + 16000:
            b.poll()
        assert erases == []
        # The saves the taps made went on: the erase they needed was done with the first.
        assert b.app.saves.writes >= 1 and not b.app.saves.erase_due()
    finally:
        b.close()


def test_a_quick_tap_wholly_inside_an_erase_is_not_read():
    """What the quiet second is for: the panel keeps no taps while the board erases."""
    b, touch, erases = _board()
    try:
        x, y = b.table.tap_point(0, -1)
        t0 = b.hw.clock.ms
        touch.spans.append((t0 + 1000 + 10, t0 + 1000 + 60, x, y))  # 50 ms, inside the erase
        while b.hw.clock.ms < t0 + 1400:
            b.poll()
        start, end, _, _ = erases[0]
        assert start <= t0 + 1010 and t0 + 1060 <= end
        assert b.table.sel_src == -1  # nothing held: the tap was never seen
    finally:
        b.close()
