# SPDX-License-Identifier: MIT
"""The earlier layout's saves after a hand copy of the game, through code.py on the simulator.

The board of the earlier layout made fcsave/saves.bin itself (8 guard sectors, then the
record places) and backed its records up to nvm once an hour of play, records that do not
say they went to the file too. The copy tool carries that file's newest record into the new
save file (tests/test_copy_to_board.py); a game copied by hand (a file manager, circup, a
zip) did not, and the first start went on from nvm's older backup without a word. Here a
drive holds the earlier file with play newer than nvm's, the game is copied by hand (with
no save file, or with the bundle's fresh one), and the first start continues the newest
play: the start reads the earlier file (never writes it), and puts its newest record into
the current save file, or nvm, at once, so the file may then be deleted.
"""

import binascii
import struct

import pytest

from freecell_mc.rules import deals
from freecell_mc.saves import record, savelog
from test_notice_sim import ok
from test_screens_sim import run

OLD_PATH = "fcsave/saves.bin"
_MOVES = 72 + 8  # slot 0's moves (u16)


def _drive(tmp_path):
    from host_sim import circuitpy

    return circuitpy.open_drive(str(tmp_path / "drive"))


def _first_layout(rec):
    """Return rec as the earlier layout wrote it: byte 5 (where) 0, its CRC made again."""
    rec = bytearray(rec)
    rec[5] = 0
    struct.pack_into("<I", rec, 252, binascii.crc32(bytes(rec[:252])) & 0xFFFFFFFF)
    assert record.check(rec) == record.OK
    return bytes(rec)


def _moves(rec):
    return struct.unpack_from("<H", rec, _MOVES)[0]


def _old_layout(tmp_path):
    """Play on the simulator, then turn its drive into the earlier layout's: return that file.

    nvm keeps the backup of the first move; the save file holds the third. Its places move
    to fcsave/saves.bin (the earlier layout's head guard, then 2,048 places, no tail guard),
    and the current layout's files go: the drive as the earlier game left it.
    """
    start = (deals.KIND_MS, 1, 4)
    run(["expect screen table", "move 1a", "wait 3000"], tmp_path, date="2026-11-30",
        start_deal=start)
    run(["expect screen table", "expect moves 1", "move 2b", "move 3c", "wait 3000"], tmp_path,
        date="2026-11-30")
    nvm = bytearray((tmp_path / "nvm.bin").read_bytes())
    assert record.check(nvm[: record.REC]) == record.OK and _moves(nvm) == 1  # the older one
    nvm[: record.REC] = _first_layout(nvm[: record.REC])
    (tmp_path / "nvm.bin").write_bytes(bytes(nvm))
    vol = _drive(tmp_path)
    with vol.open(savelog.LOG_PATH, "rb") as f:
        ring = bytearray(f.read())
    sector = savelog.SECTOR
    newest = 0
    for at in range(savelog.GUARD * sector, len(ring), sector):
        rec = ring[at : at + record.REC]
        if record.check(rec) == record.OK:
            ring[at : at + record.REC] = _first_layout(rec)
            newest = max(newest, _moves(rec))
    assert newest == 3  # the newest play is in the file, not in nvm
    old = bytes(ring[: (savelog.GUARD + savelog.RING) * sector])
    vol.remove(savelog.LOG_PATH)
    vol.remove(savelog.SPACER_PATH)
    with vol.open(OLD_PATH, "wb") as f:
        f.write(old)
    vol._sync_fs()
    return old


@pytest.mark.parametrize("copied", ["without a save file", "with a fresh save file"])
def test_a_hand_copy_over_the_earlier_layout_continues_its_newest_play(tmp_path, copied):
    old = _old_layout(tmp_path)
    vol = _drive(tmp_path)
    if copied == "with a fresh save file":
        _fresh_save_file(tmp_path)  # the bundle dragged over by hand, beside the earlier file
        lines = ["expect screen table"]
    else:
        lines = ["expect screen notice", ok(), "expect screen table"]  # no save file: told
    app = run(lines + ["expect moves 3"], tmp_path, date="2026-11-30")
    assert app.saves.slot(record.SLOT_FREE).moves == 3
    assert app.saves.stats.played == 1
    vol = _drive(tmp_path)
    with vol.open(OLD_PATH, "rb") as f:
        assert f.read() == old  # read, never written
    if copied == "with a fresh save file":
        assert app.saves.files_ok and app.message is None  # carried over without a word
        with vol.open(savelog.LOG_PATH, "rb") as f:
            data = f.read()
        first = data[savelog.GUARD * savelog.SECTOR :][: record.REC]
        assert record.check(first) == record.OK and _moves(first) == 3  # in the new file
    else:
        nvm = (tmp_path / "nvm.bin").read_bytes()
        assert _moves(nvm) == 3  # nvm, the only place, took it at once
    # The earlier file deleted by the player: the next start goes on from the copy, quietly.
    vol.remove(OLD_PATH)
    vol._sync_fs()
    app = run(["expect screen table", "expect moves 3", "move 4d", "wait 3000"], tmp_path,
              date="2026-11-30")
    assert app.message is None
    if copied == "with a fresh save file":
        run(["expect screen table", "expect moves 4"], tmp_path, date="2026-11-30")


def _fresh_save_file(tmp_path):
    """Copy the bundle's save folder by hand: the spacer and the erased save file."""
    vol = _drive(tmp_path)
    with vol.open(savelog.SPACER_PATH, "wb") as f:
        f.write(b"x" * savelog.SPACER_BYTES)
    with vol.open(savelog.LOG_PATH, "wb") as f:
        f.write(b"\xff" * savelog.file_bytes())
    vol._sync_fs()


def test_play_after_the_carry_over_is_not_pulled_back_by_the_earlier_file(tmp_path):
    """The earlier file's play goes over once: later starts take the newer saves."""
    _old_layout(tmp_path)
    _fresh_save_file(tmp_path)
    run(["expect screen table", "expect moves 3", "move 4d", "wait 3000"], tmp_path,
        date="2026-11-30")
    # A move played and saved, and a restart: the earlier file, still there, is not read
    # again (the save file holds records) and its third move does not come back.
    app = run(["expect screen table", "expect moves 4"], tmp_path, date="2026-11-30")
    assert app.saves.slot(record.SLOT_FREE).moves == 4 and app.message is None


def test_an_earlier_file_older_than_nvm_is_passed_over(tmp_path):
    """nvm newer than the earlier file: nvm's play continues, nothing is carried."""
    _old_layout(tmp_path)
    vol = _drive(tmp_path)
    with vol.open(OLD_PATH, "rb") as f:
        old = bytearray(f.read())
    newest = None
    for at in range(savelog.GUARD * savelog.SECTOR, len(old), savelog.SECTOR):
        rec = old[at : at + record.REC]
        if record.check(rec) == record.OK and _moves(rec) > 1:
            newest = bytes(rec)
            old[at : at + savelog.SECTOR] = b"\xff" * savelog.SECTOR  # the file stops at move 1
    with vol.open(OLD_PATH, "r+b") as f:
        f.write(bytes(old))
    vol._sync_fs()
    nvm = bytearray((tmp_path / "nvm.bin").read_bytes())
    nvm[: record.REC] = newest  # nvm holds the third move
    (tmp_path / "nvm.bin").write_bytes(bytes(nvm))
    _fresh_save_file(tmp_path)
    app = run(["expect screen table", "expect moves 3"], tmp_path, date="2026-11-30")
    assert app.message is None
