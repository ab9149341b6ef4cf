# SPDX-License-Identifier: MIT
"""Starts from saves that need care, through the real code.py on the simulator.

Storage that cannot be read, or whose newest record holds impossible values, makes the
next start show a notice with the saves' message and an OK; OK goes on to the table (or to
the date picker first, when the clock is unset); the start after that is quiet. An emptied
active slot does not cost the other slot its game.
"""

import binascii
import shutil
import struct

import pytest

from host_sim import hardware
from freecell_mc.saves import policy, record
from test_screens_sim import at, centre, run, step_to


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
    lines += step_to(2026, 11, 30)
    lines += [at("datepicker", "Set the date"), "expect screen table"]
    app = run(lines, tmp_path)
    assert app.saves.last_date == (2026, 11, 30)
    # Quiet next time: the clock is unset again, so the picker comes first.
    run(["expect screen datepicker"], tmp_path)


def _newest_saves(drive):
    """Return [(place, record)] of the valid records in the drive's save file, newest first."""
    blocks = hardware.drive_blocks(drive)  # the simulator's CIRCUITPY: the board's save file
    found = []
    for place in range(1, len(blocks)):
        rec = bytearray(blocks[place][0 : record.REC])
        if record.check(rec) == record.OK:
            found.append((struct.unpack_from("<I", rec, 8)[0], place, rec))
    found.sort(reverse=True)
    return [(place, rec) for _, place, rec in found]


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
        app.first_screen = lambda went=went: went.append(True)
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


# --- the save file gone, zeroed or never there --------------------------------------------


def _won_a_game(tmp_path):
    """Win a free deal on the simulator (the first start of a fresh drive); return its App."""
    from test_sim_game import shortest

    deal, moves = shortest(4)
    lines = ["expect screen table"] + ["move " + m for m in moves] + ["expect won", "wait 500"]
    app = run(lines, tmp_path, date="2026-11-30", start_deal=(deals_kind_ms(), deal, 4))
    assert app.saves.stats.won == 1 and app.saves.nvm_writes >= 2  # the win reached nvm too
    return app


def deals_kind_ms():
    from freecell_mc.rules import deals

    return deals.KIND_MS


def _drive(tmp_path):
    from host_sim import circuitpy

    return circuitpy.open_drive(str(tmp_path / "drive"))


@pytest.mark.parametrize("how", ["deleted", "zeroed"])
def test_the_save_file_gone_after_a_win_keeps_the_win_and_says_so_once(tmp_path, how):
    from freecell_mc.saves import notices, savelog

    _won_a_game(tmp_path)
    vol = _drive(tmp_path)
    if how == "deleted":
        vol.remove(savelog.LOG_PATH)  # as in USB mode, by the player
    else:
        size = vol.stat_size(savelog.LOG_PATH)
        with vol.open(savelog.LOG_PATH, "r+b") as f:
            f.write(bytes(size))
    vol._sync_fs()
    twin = tmp_path / "twin"
    shutil.copytree(tmp_path / "drive", twin / "drive")
    shutil.copy(tmp_path / "nvm.bin", twin / "nvm.bin")
    shot = tmp_path / ("notice-%s.png" % how)
    app = run(["expect screen notice", "shot " + str(shot)], tmp_path, date="2026-11-30")
    assert app.saves.stats.won == 1 and app.saves.stats.played == 1  # the win is counted
    told = one_line(app.screen.body.text)
    # The same start on a twin of the board: an OK a part, then the won game's result.
    parts = 2 if how == "deleted" else 1
    run(["expect screen notice"] + [ok()] * parts + ["expect screen result"], twin,
        date="2026-11-30")
    assert told == one_line(notices.from_backup(how == "deleted", (2026, 11, 30)))
    assert "up to an hour of play" in told
    # Deleted: a second part says saves are limited, and what to do; OK goes on to the
    # start's first screen (the won game's result).
    assert (app.screen.rest != "") == (how == "deleted")
    if how == "deleted":
        assert app.screen.rest == notices.limited(savelog.NO_FILE, app.saves._blocks)
    # Told once: the next start is quiet.
    app = run(["expect screen result"], tmp_path, date="2026-11-30")
    assert app.message is None and app.saves.stats.won == 1
    assert app.saves.files_ok == (how == "zeroed")  # a zeroed file takes the saves again


def test_no_save_file_is_told_at_the_start_once_and_always_in_settings(tmp_path):
    from freecell_mc.saves import notices, savelog
    from test_screens import FakeApp, button, make

    (tmp_path / "drive").mkdir()
    _drive(tmp_path).remove(savelog.LOG_PATH)  # the game copied by hand: no save file
    twin = tmp_path / "twin"
    shutil.copytree(tmp_path / "drive", twin / "drive")
    app = run(["expect screen notice"], twin, date="2026-11-30")
    # Room enough on the drive: what is at risk, and to copy the game again.
    assert one_line(app.screen.body.text) == notices.limited(savelog.NO_FILE, None)
    _, menu = make("menu", FakeApp(320, 240))
    b = button(menu, "Settings")
    settings = ["key esc", "expect screen menu", centre(b), "expect screen settings"]
    app = run(["expect screen notice", ok(), "expect screen table", "move 1a", "wait 3000"]
              + settings, tmp_path, date="2026-11-30")
    assert app.screen.usb_note.text == "no save file: copy again"
    again = run(["expect screen table", "expect moves 1"] + settings, tmp_path,
                date="2026-11-30")
    assert again.message is None and again.screen.usb_note.text == "no save file: copy again"
    assert not _drive(tmp_path).exists(savelog.LOG_PATH)  # the board made none


def test_a_directory_entry_claiming_4_gb_is_no_hang_and_no_save_file(tmp_path):
    """The load reads 2,048 places at most whatever the size says; the file is not used."""
    import struct

    from freecell_mc.saves import notices, savelog

    run(["move 1a", "wait 3000"], tmp_path, date="2026-11-30", start_deal=(3, 1, 4))
    vol = _drive(tmp_path)
    s, off = vol._resolve(savelog.LOG_PATH)[3]
    vol._move_window(s)
    struct.pack_into("<I", vol.win, off + 28, 0xFFFFFFFF)
    vol.wflag = True
    vol._sync_fs()
    assert vol.stat_size(savelog.LOG_PATH) == 0xFFFFFFFF
    app = run(["expect screen notice", ok(), "expect screen table", "expect moves 1"],
              tmp_path, date="2026-11-30")
    assert len(app.saves._blocks) == 1 + savelog.RING
    assert not app.saves.files_ok and app.saves.files_error == savelog.WRONG_SIZE
    assert app.saves.limit_reason() == "bad save file: copy again"
    assert notices.limited(savelog.WRONG_SIZE, None).startswith("The save file on CIRCUITPY")


@pytest.mark.parametrize("size", [(320, 240), (480, 320)])
def test_every_notice_of_the_save_file_fits_above_ok(size):
    """Five lines at most on the PyPortal: the notice's text never runs under its OK."""
    from test_screens import FakeApp, make

    from freecell_mc.saves import notices, savelog

    class Free:
        def free_bytes(self):
            return 0

    texts = [notices.from_backup(True, (2026, 11, 30)), notices.from_backup(False, None),
             notices.limited(savelog.NO_FILE, Free()), notices.limited(savelog.NO_FILE, None),
             notices.limited(savelog.WRONG_SIZE, None), notices.limited(5, None)]
    for text in texts:
        app = FakeApp(*size)
        _, s = make("notice", app, text=text)
        lines = s.body.text.split("\n")
        top = s.body.group.y
        bottom = top + len(lines) * 12 * s.body.group.scale + (len(lines) - 1) * 3
        assert bottom <= s.ok.y, (size, text)
        assert max(len(line) for line in lines) * 12 <= size[0] - 2 * s.body.group.x


def test_a_notice_longer_than_the_room_above_ok_goes_on_a_page_of_whole_sentences():
    """The Pynt's larger OK leaves four lines: the rest of the notice follows its first OK."""
    from screen_states import STATES, PanelBoard

    board = PanelBoard("pynt")
    try:
        STATES["notice:no-room"](board)
        s = board.app.screen
        assert s.body.text.count("\n") < s.fit == 4
        assert one_line(s.body.text) == ("No room for the save file: free 738 KB on "
                                         "CIRCUITPY, copy the game again.")
        assert s.ok.text == "More"  # the first page says there is more
        s.key("enter")
        assert board.app.screen is s
        assert one_line(s.body.text) == "Until then a power cut loses up to 30 min."
        assert s.ok.text == "OK"
        s.key("enter")
        assert board.app.screen.name != "notice"
    finally:
        board.close()
