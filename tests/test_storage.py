# SPDX-License-Identifier: MIT
"""Saves: the record format, the write policy, the ring, and unreadable storage."""

import binascii
import os
import struct

import pytest
from hypothesis import given, settings, strategies as st

from host_sim import flash, hardware, savefile
from freecell_mc.rules import deals
from freecell_mc.saves import notices, policy, record, savelog
from freecell_mc.rules.engine import Game


def _game(seed=1, moves=0):
    """Return a Game on seeded deal `seed` after `moves` legal moves (first targets found)."""
    g = Game()
    g.deal(deals.seeded_deck(seed))
    made = 0
    while made < moves:
        for src in range(12):
            if g.top(src) and g.targets(src, 1):
                mask = g.targets(src, 1)
                g.move(src, (mask & -mask).bit_length() - 1, 1)
                made += 1
                break
        else:
            break
    return g


def _fresh(ring=4, nvm=True, **kw):
    blocks = hardware.sim_blocks(ring=ring, **kw)
    if not nvm:
        blocks[0] = None
    s = policy.Saves(blocks)
    assert s.load() is None
    return blocks, s


def _reload(blocks):
    s = policy.Saves(blocks)
    msg = s.load()
    return s, msg


def test_empty_storage_is_a_quiet_clean_start():
    blocks, s = _fresh()
    assert s.slot(0) is None and s.slot(1) is None
    assert s.settings.cells == 4 and not s.settings.takeback and not s.settings.four_colour
    assert s.settings.calibration == record.DEFAULT_CALIBRATION
    assert s.stats.played == 0 and s.stats.win_rate() is None
    assert all(b.erase_count == 0 for b in blocks)  # a clean start writes nothing


def test_round_trip_of_everything():
    blocks, s = _fresh()
    free = _game(5, 7)
    daily = _game(20261130, 3)
    s.put_slot(record.SLOT_FREE, deals.KIND_SEED, 5, 4, free, 125)
    s.put_slot(record.SLOT_DAILY, deals.KIND_DAILY, 20261130, 4, daily, 61)
    s.settings.cells = 2
    s.settings.takeback = True
    s.settings.four_colour = True
    s.settings.calibration = ((5000, 60000), (6000, 56000))
    s.stats.record_start()
    s.stats.record_win(200, 95)
    s.stats.mark_day_won(2026, 11, 30)
    s.note_date(2026, 11, 30)
    assert s.commit(0, force=True)
    r, msg = _reload(blocks)
    assert msg is None
    a = r.slot(record.SLOT_FREE)
    assert (a.kind, a.number, a.cells, a.moves, a.elapsed) == (deals.KIND_SEED, 5, 4, 7, 125)
    assert a.pos == free.pos
    b = r.slot(record.SLOT_DAILY)
    assert (b.kind, b.number, b.moves, b.elapsed) == (deals.KIND_DAILY, 20261130, 3, 61)
    assert b.pos == daily.pos
    assert r.active == record.SLOT_DAILY  # the slot written last
    assert (r.settings.cells, r.settings.takeback, r.settings.four_colour) == (2, True, True)
    assert r.settings.calibration == ((5000, 60000), (6000, 56000))
    assert ((r.stats.played, r.stats.won, r.stats.best_seconds, r.stats.best_moves)
            == (1, 1, 200, 95))
    assert r.stats.day_won(2026, 11, 30) and r.stats.days_won == 1
    assert r.last_date == (2026, 11, 30)
    # The restored position plays on in the engine.
    g = Game()
    g.load(a.pos, a.moves)
    assert bytes(g.pos) == bytes(free.pos)


def test_record_layout_is_what_the_docs_say():
    blocks, s = _fresh(ring=2)
    s.put_slot(0, 1, 0x01020304, 3, _game(1, 2), 0x0A0B0C0D)
    assert s.commit(0, force=True)
    rec = blocks[1][0 : record.REC]
    assert rec[0:4] == b"FCMC" and rec[4] == record.VERSION
    assert struct.unpack_from("<H", rec, 6)[0] == record.REC
    assert struct.unpack_from("<I", rec, 8)[0] == 1  # the first sequence number
    assert struct.unpack_from("<I", rec, 252)[0] == binascii.crc32(bytes(rec[:252]))
    assert rec[72:76] == bytes((1, 1, 3, 0)) and struct.unpack_from("<I", rec, 76)[0] == 0x01020304
    assert struct.unpack_from("<I", rec, 84)[0] == 0x0A0B0C0D
    assert rec[250] == 0x22  # the default backlight times: index 1 + 1 in both nibbles
    assert len(rec) == 256


def test_writes_go_round_the_ring_and_the_newest_wins():
    blocks, s = _fresh(ring=3)
    for i in range(7):
        s.put_slot(0, 1, 9, 4, _game(9, i), i)
        assert s.commit(i * 10000, force=True)
    assert [b.write_count for b in blocks[1:]] == [3, 2, 2]
    r, _ = _reload(blocks)
    assert r.slot(0).moves == 6
    # The ring continues after the newest record, not at the start.
    r.put_slot(0, 1, 9, 4, _game(9, 7), 7)
    assert r.commit(0, force=True)
    assert [b.write_count for b in blocks[1:]] == [3, 3, 2]


def test_commit_policy_checkpoint_and_soft_changes():
    blocks, s = _fresh(ring=2)
    g = _game(3, 1)
    s.put_slot(0, 1, 3, 4, g, 10)
    t = 1000
    assert not s.commit(t)  # first sight of the change
    assert not s.commit(t + policy.CHECKPOINT_MS - 300)
    assert s.commit(t + policy.CHECKPOINT_MS + 50)  # on flash within the checkpoint
    assert s.writes == 1
    # Only the date moves: it rides along with the next write, however long that takes.
    s.note_date(2026, 12, 1)
    for k in range(1, 60):
        assert not s.commit(t + policy.CHECKPOINT_MS + 1000 * k)
    assert s.writes == 1 and s.pending()
    # A forced commit (leaving the game) takes the soft change along.
    assert s.commit(t + 100000, force=True)
    assert s.writes == 2 and not s.pending()
    # Forced with nothing changed writes nothing.
    assert not s.commit(t + 100500, force=True)
    assert s.writes == 2


def test_thinking_time_is_saved_like_a_move_and_a_board_left_on_rarely():
    blocks, s = _fresh(ring=2)
    g = _game(3, 1)
    s.put_slot(0, 1, 3, 4, g, 10)
    t = 0
    s.commit(t)
    t += policy.CHECKPOINT_MS + 250
    assert s.commit(t) and s.writes == 1
    # The player thinks: the clock alone brings the time to flash within the checkpoint.
    for sec in range(11, 80):
        s.set_elapsed(0, sec)
        t += 1000
        s.commit(t)
        s.commit(t + 500)
        assert s._last[record._SLOT0 + record._S_ELAPSED] >= sec - 2, sec
    # Past THINK_MS without a move the board is left standing: one write a minute at most.
    before = s.writes
    t0 = t
    sec = 80
    while t - t0 < 2 * 3600 * 1000:
        sec += 1
        t += 1000
        s.set_elapsed(0, sec)
        s.commit(t)
    idle = s.writes - before
    thinking = (policy.THINK_MS - 70000) // 1500  # writes left in the thinking window
    assert idle <= thinking + 2 * 3600 * 1000 // policy.IDLE_WRITE_MS + 2
    # A slot that is empty keeps no time.
    s.clear_slot(1)
    s.set_elapsed(1, 99)
    assert s.slot(1) is None


def test_settings_and_stats_changes_are_seen_without_telling_saves():
    blocks, s = _fresh(ring=2)
    s.settings.four_colour = True
    assert not s.commit(0)
    assert s.commit(policy.CHECKPOINT_MS + 500)
    s.stats.record_start()
    assert s.commit(10**6, force=True)
    r, _ = _reload(blocks)
    assert r.settings.four_colour and r.stats.played == 1


def test_ticks_wrap_does_not_stall_the_checkpoint():
    blocks, s = _fresh(ring=2)
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    near = (1 << 29) - 3000
    assert not s.commit(near)
    assert s.commit((near + policy.CHECKPOINT_MS + 600) & ((1 << 29) - 1))


def test_clear_slot():
    blocks, s = _fresh(ring=2)
    s.put_slot(1, 2, 20261130, 4, _game(1, 1), 5)
    s.commit(0, force=True)
    s.clear_slot(1)
    s.commit(1, force=True)
    r, _ = _reload(blocks)
    assert r.slot(1) is None


def test_slot_refills_one_slot_object_per_slot_read_at_once():
    # Record.slot() allocates nothing: each slot has one Slot, refilled by every call, so
    # a holder sees the record as it was at its call until the next slot() of that slot.
    r = record.Record()
    r._fresh()
    r.put_slot(0, deals.KIND_SEED, 7, 4, _game(7, 1), 5)
    r.put_slot(1, deals.KIND_DAILY, 20261130, 4, _game(1, 2), 9)
    a = r.slot(0)
    assert r.slot(1) is not a and a.moves == 1  # the other slot's look leaves it alone
    r.put_slot(0, deals.KIND_SEED, 7, 4, _game(7, 3), 6)
    assert a.moves == 1 and a.elapsed == 5  # a reading, not the record
    assert r.slot(0) is a and a.moves == 3 and a.elapsed == 6  # the next look refills it
    held = bytes(a.pos)
    r.clear_slot(0)
    assert r.slot(0) is None and bytes(a.pos) == held


def _put_raw(block, data):
    """Put raw bytes into a simulated block's storage, bypassing the erase model."""
    block.data[: len(data)] = data
    if hasattr(block, "present"):
        block.present = True


def test_garbage_everywhere_is_reported_once():
    blocks = hardware.sim_blocks(ring=3)
    for i, b in enumerate(blocks):
        _put_raw(b, bytes((i * 37 + k * 11) & 255 for k in range(600)))
    s, msg = _reload(blocks)
    assert msg == policy.MSG_UNREADABLE
    assert s.slot(0) is None and s.stats.played == 0 and s.settings.cells == 4
    # Reported once: the clean start is on flash now, the next start is quiet.
    s2, msg2 = _reload(blocks)
    assert msg2 is None and s2.slot(0) is None


def test_a_torn_first_save_is_a_quiet_fresh_start_and_two_torn_records_are_told():
    blocks, s = _fresh(ring=2, nvm=False)
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)
    rec = bytes(blocks[1][0 : record.REC])
    blocks[1].data[:] = b"\xff" * len(blocks[1].data)
    _put_raw(blocks[1], rec[:100])  # the rest erased: as if cut mid-program
    r, msg = _reload(blocks)
    assert msg is None and r.slot(0) is None  # the very first save, cut: 2 s of play
    _put_raw(blocks[2], rec[:150])  # a second torn record: saves were there, and are lost
    assert _reload(blocks)[1] == policy.MSG_UNREADABLE


def test_a_save_file_left_unreadable_goes_on_from_nvm_and_says_so():
    blocks, s = _fresh(ring=2)
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)  # the first save: nvm takes it too (it held nothing)
    for b in blocks[1:]:
        _put_raw(b, b"\x00\x13" * 200)
    r, msg = _reload(blocks)
    assert msg == notices.from_backup(False, None)
    assert r.slot(0).moves == 1
    _, again = _reload(blocks)
    assert again is None  # told once: the record went back to the file


def test_foreign_contents_in_nvm_are_reported_and_replaced():
    blocks = hardware.sim_blocks(ring=2)
    _put_raw(blocks[0], b'{"high_score": 12, "name": "another program"}')
    s, msg = _reload(blocks)
    assert msg == policy.MSG_UNREADABLE
    s.put_slot(0, 1, 3, 4, _game(3, 2), 1)
    assert s.commit(0, force=True)


def test_a_newer_version_is_set_aside_with_its_own_message():
    blocks, s = _fresh(ring=2, nvm=False)
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)
    rec = bytearray(blocks[1][0 : record.REC])
    rec[4] = record.VERSION + 1
    rec[6:8] = struct.pack("<H", 512)  # a later, longer layout: its CRC is elsewhere
    rec[8:] = bytes((i * 7) & 255 for i in range(8, record.REC))
    _put_raw(blocks[1], rec)
    r, msg = _reload(blocks)
    assert msg == policy.MSG_NEWER
    assert r.slot(0) is None


def test_one_damaged_place_beside_a_good_one_is_not_an_error():
    blocks, s = _fresh(ring=3)
    for i in range(3):
        s.put_slot(0, 1, 3, 4, _game(3, i), i)
        s.commit(i, force=True)
    _put_raw(blocks[3], b"\x00\x13" * 200)  # the newest one is damaged
    r, msg = _reload(blocks)
    assert msg is None
    assert r.slot(0).moves == 1  # the one before it


def test_out_of_range_fields_refuse_the_record_not_clamp_it():
    blocks, s = _fresh(ring=3)
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)
    s.put_slot(0, 1, 3, 4, _game(3, 2), 2)
    s.commit(1, force=True)
    rec = bytearray(blocks[2][0 : record.REC])
    rec[12] = 9  # cells
    rec[16:24] = struct.pack("<HHHH", 9, 1, 9, 1)  # calibration upside down
    rec[72 + 2] = 0  # slot 0 with zero cells
    struct.pack_into("<I", rec, 252, binascii.crc32(bytes(rec[:252])))
    _put_raw(blocks[2], rec)
    assert record.check(rec) == record.OK and record.refusal(rec) is not None
    r, msg = _reload(blocks)
    assert msg == policy.MSG_OLDER  # the newest save was lost, and the player hears of it
    assert r.slot(0).moves == 1  # the record before it, whole
    assert r.settings.cells == 4 and r.settings.calibration == record.DEFAULT_CALIBRATION


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.binary(min_size=0, max_size=700), min_size=3, max_size=3),
    st.booleans(),
)
def test_any_bytes_load_without_an_exception(contents, keep_magic):
    blocks = hardware.sim_blocks(ring=2)
    for b, data in zip(blocks, contents):
        if keep_magic and len(data) >= 8:
            data = b"FCMC\x01\x00\x00\x01" + data[8:]
        _put_raw(b, data)
    s, msg = _reload(blocks)
    assert msg in (None, policy.MSG_UNREADABLE, policy.MSG_NEWER)
    # Whatever was there, the game can save and load again.
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)
    r, msg2 = _reload(blocks)
    assert msg2 is None and r.slot(0).moves == 1


# --- the device's save file, on a real folder -----------------------------------------


@pytest.fixture
def drive(tmp_path, monkeypatch):
    """Work in a temporary folder as the device works in the drive's root."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(os, "sync", lambda: None)  # the host's own sync flushes every disk
    return tmp_path


_PLACES = 40  # the smallest save file the device accepts (5 erase groups)
_FILE_BYTES = (8 + _PLACES + 8) * savelog.SECTOR  # a guard group at each end, the places


def _make_save_file(places=_PLACES):
    """Make the save file in the current folder as the copy tool makes it on CIRCUITPY."""
    for path, data in savefile.entries(places):
        if data is None:
            os.makedirs(path, exist_ok=True)
        else:
            with open(path, "wb") as f:
                f.write(data)


def test_device_file_is_rewritten_in_place_never_made_or_grown(drive):
    assert savelog.LOG_PATH == "fcsave/ring/saves.bin"
    assert savelog.file_bytes(_PLACES) == _FILE_BYTES
    _make_save_file()
    path = drive / savelog.LOG_PATH
    blocks = savelog.device_blocks(None, _PLACES)
    s = policy.Saves(blocks)
    assert s.load() is None and s.files_ok
    assert path.read_bytes() == b"\xff" * _FILE_BYTES  # nothing written on a clean start
    for i in range(1, 60):  # more than one turn of the ring
        s.put_slot(0, 1, 3, 4, _game(3, i), i)
        assert s.commit(2000 * i, force=True)
    data = path.read_bytes()
    assert len(data) == _FILE_BYTES
    guard = 8 * savelog.SECTOR
    assert data[:guard] == data[-guard:] == b"\xff" * guard  # both guards never written
    r = policy.Saves(savelog.device_blocks(None, _PLACES))
    assert r.load() is None and r.slot(0).elapsed == 59


def test_a_missing_save_file_is_not_made_saves_go_to_nvm(drive):
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(savelog.device_blocks(nvm, _PLACES))
    assert s.load() == notices.limited(savelog.NO_FILE, None)  # told at the start
    assert not s.files_ok and s.limit_reason() == "no save file: copy again"
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    assert s.commit(2000, force=True)
    assert not os.path.exists(savelog.LOG_DIR)  # the board takes no space on the drive
    r = policy.Saves(savelog.device_blocks(nvm, _PLACES))
    assert r.load() is None  # told once
    assert r.slot(0).moves == 1
    # The copy tool puts the file back: the saves go there again, and the next time the
    # file is missing it is told again.
    _make_save_file()
    t = policy.Saves(savelog.device_blocks(nvm, _PLACES))
    assert t.load() is None and t.files_ok and not t.told(record.TOLD_LIMITED)
    t.put_slot(0, 1, 3, 4, _game(3, 2), 2)
    assert t.commit(4000, force=True)
    assert os.path.getsize(savelog.LOG_PATH) == _FILE_BYTES


def test_the_scan_of_the_save_file_reads_each_place_into_one_buffer(drive):
    _make_save_file()
    blocks = savelog.device_blocks(None, _PLACES)
    buf = bytearray(record.REC)
    assert blocks.read_into(0, buf) == 0  # erased
    s = policy.Saves(blocks)
    s.load()
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    assert s.commit(0, force=True)
    written = s._next - 1  # the place the record went to
    log = savelog.device_blocks(None, _PLACES)
    assert log.read_into(written, buf) == record.REC
    assert bytes(buf) == log.read(written, 0, record.REC)  # what read() gives, byte for byte
    assert record.check(buf) == record.OK
    assert log.read_into((written + 1) % _PLACES, buf) == 0  # erased


def test_a_failed_or_short_read_in_the_scan_counts_as_damage_not_as_a_record():
    buf = bytearray(record.REC)

    def fails(k, b):
        raise OSError(5, "EIO")

    def short(k, b):
        b[0:100] = b"\x01" * 100
        return 100

    assert savelog.read_place_into(fails, 3, buf) is None  # unreadable: nothing there
    got = savelog.read_place_into(short, 3, buf)
    assert len(got) == 100 and record.check(got) == record.BAD  # a torn place is damage
    assert savelog.read_place_into(lambda k, b: 0, 3, buf) is None  # erased
    assert savelog.read_place_into(lambda k, b: record.REC, 3, buf) is buf


def test_device_file_garbage_truncated_and_foreign(drive):
    _make_save_file()
    with open(savelog.LOG_PATH, "wb") as f:
        f.write(os.urandom(_FILE_BYTES))
    s = policy.Saves(savelog.device_blocks(None, _PLACES))
    assert s.load() == policy.MSG_UNREADABLE
    # The reported clean start went into the file; the next start is quiet.
    r = policy.Saves(savelog.device_blocks(None, _PLACES))
    assert r.load() is None
    with open(savelog.LOG_PATH, "wb") as f:
        f.write(b"FCMC\x01")  # truncated to nothing usable: not the size the ring needs
    t = policy.Saves(savelog.device_blocks(None, _PLACES))
    assert t.load() is None and not t.files_ok  # no nvm to go on from, or to tell of it
    assert t.files_error == savelog.WRONG_SIZE and t.limit_reason() == "bad save file: copy again"


def test_a_directory_entry_claiming_4_gb_is_read_as_the_ring_and_not_used(drive):
    """The load sizes nothing from the drive: a 4 GB size reads as 2,048 places at most."""

    _make_save_file()
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    blocks = savelog.device_blocks(nvm, _PLACES)
    monkey = pytest.MonkeyPatch()
    monkey.setattr(savelog, "_size", lambda path, fs=None: 0xFFFFFE00)
    try:
        assert len(blocks) == 1 + _PLACES
        s = policy.Saves(blocks)
        assert s.load() == notices.limited(savelog.WRONG_SIZE, blocks)
        assert not s.files_ok and s.files_error == savelog.WRONG_SIZE
    finally:
        monkey.undo()


def test_device_file_on_a_read_only_drive_falls_back_to_nvm(drive, monkeypatch):
    _make_save_file()
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    blocks = savelog.device_blocks(nvm, _PLACES)
    real_open = blocks._open

    def read_only(mode):
        if "+" in mode or "w" in mode:
            raise OSError(30, "Read-only filesystem")
        return real_open(mode)

    monkeypatch.setattr(blocks, "_open", read_only)
    s = policy.Saves(blocks)
    assert s.load() is None  # USB mode was chosen: nothing to tell at the start
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    assert s.commit(0, force=True)
    assert not s.files_ok and nvm.erase_count == 1
    assert s.limit_reason() == "USB for this start only"  # the switch is off: held at reset
    s.settings.usb_writable = True
    assert s.limit_reason() == "USB mode: saves limited"
    r = policy.Saves(savelog.device_blocks(nvm, _PLACES))
    assert r.load() is None and r.slot(0).moves == 1


def test_a_save_file_that_cannot_be_written_says_so(drive):
    os.makedirs(savelog.LOG_PATH)  # a folder where the file should be
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(savelog.device_blocks(nvm, _PLACES))
    assert s.load() == notices.limited(savelog.IS_DIR, None)
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    assert s.commit(2000, force=True)  # went to nvm instead
    assert not s.files_ok and nvm.erase_count == 2  # the notice's record, then this one
    assert s.limit_reason() == "bad save file: copy again"
    r = policy.Saves(savelog.device_blocks(nvm, _PLACES))
    assert r.load() is None and r.slot(0).moves == 1


def test_put_slot_allocates_nothing_on_cpython_either():
    import tracemalloc

    blocks, s = _fresh(ring=2)
    g = _game(3, 4)
    s.put_slot(0, 1, 3, 4, g, 5)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for i in range(200):
            s.put_slot(0, 1, 3, 4, g, 5 + i)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(
        d.size_diff
        for d in after.compare_to(before, "filename")
        if d.traceback[0].filename.endswith(("record.py", "savelog.py", "policy.py"))
    )
    assert grown <= 0


def test_device_blocks_make_places_on_demand(drive):
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    assert len(savelog.device_blocks(nvm)) == 1  # no file: no places, and none made
    _make_save_file(savelog.RING)
    b = savelog.device_blocks(nvm)
    assert len(b) == 1 + savelog.RING and b.error == 0
    assert b[0] is nvm
    assert b[1] is not b[1]  # nothing kept: each access makes a small object
    assert b[-1].k == savelog.RING - 1
    with pytest.raises(IndexError):
        b[savelog.RING + 1]


def test_no_date_is_known_until_one_is_noted():
    blocks, s = _fresh(ring=2)
    assert s.last_date is None
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)
    r, _ = _reload(blocks)
    assert r.last_date is None  # the date picker then starts from its own default
    r.note_date(2026, 12, 24)
    r.commit(0, force=True)
    assert _reload(blocks)[0].last_date == (2026, 12, 24)
