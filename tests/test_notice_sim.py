# SPDX-License-Identifier: MIT
"""Starts from saves that need care, through the real code.py on the simulator.

Storage that cannot be read, or whose newest record holds impossible values, makes the
next start show a notice with the saves' message and an OK; OK goes on to the table (or to
the date picker first, when the clock is unset); the start after that is quiet. An emptied
active slot does not cost the other slot its game.
"""

import binascii
import struct

import pytest

from host_sim import hardware
from freecell_mc.saves import policy, record
from test_screens_sim import at, centre, run

def ok(board="pyportal"):
    """Return 'tap X Y' on the notice's OK button."""
    from test_screens import FakeApp, button, make

    size = (480, 320) if board == "titano" else (320, 240)
    _, s = make("notice", FakeApp(*size), text=policy.MSG_UNREADABLE)
    return centre(button(s, "OK"))


def garbage_nvm(tmp_path):
    """Leave nvm holding something that is no save at all (another program's data)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "nvm.bin").write_bytes(bytes((i * 37 + 11) & 255 for i in range(8192)))


def one_line(text):
    return " ".join(text.split())


@pytest.mark.parametrize("board", ["pyportal", "titano"])
def test_unreadable_saves_are_told_once_then_the_table(tmp_path, board):
    garbage_nvm(tmp_path)
    shot = tmp_path / "notice.png"
    app = run(["expect screen notice", "shot " + str(shot)], tmp_path, date="2026-11-30",
              board=board)
    assert one_line(app.screen.body.text) == policy.MSG_UNREADABLE
    assert shot.exists()
    # OK goes on to the table, which the taps then play on.
    garbage_nvm(tmp_path / "b")
    app = run(["expect screen notice", ok(board), "expect screen table", "move 1a",
               "expect moves 1", "wait 9000"], tmp_path / "b", date="2026-11-30", board=board)
    assert app.message is None
    # The next start is quiet.
    run(["expect screen table", "expect moves 1"], tmp_path / "b", date="2026-11-30",
        board=board)


def test_after_the_notice_an_unset_clock_still_asks_for_the_date(tmp_path):
    garbage_nvm(tmp_path)
    lines = ["expect screen notice", ok(), "expect screen datepicker"]
    lines += [at("datepicker", "+", nth=1)] * 10 + [at("datepicker", "+", nth=2)] * 29
    lines += [at("datepicker", "Set the date"), "expect screen table"]
    app = run(lines, tmp_path)
    assert app.saves.last_date == (2026, 11, 30)
    # Quiet next time: the clock is unset again, so the picker comes first.
    run(["expect screen datepicker"], tmp_path)


def _newest_saves(drive):
    """Return [(place, record)] of the valid records in the drive's save file, newest first."""
    blocks = hardware.drive_blocks(drive)  # the simulator's CIRCUITPY: the board's save file
    found = []
    for at in range(1, len(blocks)):
        rec = bytearray(blocks[at][0 : record.REC])
        if record.check(rec) == record.OK:
            found.append((struct.unpack_from("<I", rec, 8)[0], at, rec))
    found.sort(reverse=True)
    return [(at, rec) for _, at, rec in found]


def test_a_newest_save_with_an_impossible_value_goes_back_one_save_and_says_so(tmp_path):
    run(["move 1a", "wait 9000", "move 2b", "wait 9000", "expect moves 2"], tmp_path,
        date="2026-11-30", start_deal=(3, 1, 4))
    (at, rec), (_, before) = _newest_saves(tmp_path / "drive")[:2]
    assert rec[72 + 8] == 2  # the free slot at 2 moves
    rec[24] = 7  # an active slot that does not exist: it stopped every start before
    struct.pack_into("<I", rec, 252, binascii.crc32(bytes(rec[:252])) & 0xFFFFFFFF)
    hardware.drive_blocks(tmp_path / "drive")[at][0 : record.REC] = bytes(rec)
    back = "expect moves %d" % before[72 + 8]  # the save before it (saves come every 1.5 s)
    app = run(["expect screen notice", ok(), "expect screen table", back], tmp_path,
              date="2026-11-30")
    assert app.current_deal()[:2] == (3, 1)
    run(["expect screen table", back], tmp_path, date="2026-11-30")


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
@pytest.mark.parametrize("msg", [policy.MSG_UNREADABLE, policy.MSG_NEWER, policy.MSG_OLDER])
def test_the_notice_fits_every_message_and_every_key_means_ok(size, msg):
    from test_screens import FakeApp, make

    for k in ("enter", "esc", "back", "u"):
        app = FakeApp(*size)
        went = []
        app.first_screen = lambda: went.append(True)
        _, s = make("notice", app, text=msg)
        lines = s.body.text.split("\n")
        assert one_line(s.body.text) == msg and len(lines) <= 3
        assert max(len(line) for line in lines) * 12 <= size[0] - 2 * s.body.group.x
        s.key(k)
        assert went == ([] if k == "u" else [True])


def test_an_emptied_active_slot_leaves_the_other_game_to_continue(tmp_path):
    from freecell_mc.rules import deals
    from freecell_mc.rules.engine import Game
    from host_sim.flash import FlashBlock

    saves = policy.Saves([FlashBlock(str(tmp_path / "nvm.bin"), 8192)])
    saves.load()
    free = Game()
    free.deal(deals.ms_deck(1))
    assert free.move(0, 8, 1) and free.move(1, 9, 1)
    saves.put_slot(record.SLOT_FREE, deals.KIND_MS, 1, 4, free, 30, record.SLOT_PLAYED)
    daily = Game()
    daily.deal(deals.seeded_deck(20261130))
    saves.put_slot(record.SLOT_DAILY, deals.KIND_DAILY, 20261130, 4, daily, 0)
    saves.clear_slot(record.SLOT_DAILY)  # the daily slot was in play, and is emptied
    assert saves.active == record.SLOT_DAILY and saves.commit(0, force=True)
    app = run(["expect screen table", "expect moves 2"], tmp_path, date="2026-11-30")
    assert app.current_deal()[:2] == (deals.KIND_MS, 1)
    assert bytes(app.game.pos) == bytes(free.pos)
