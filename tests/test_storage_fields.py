# SPDX-License-Identifier: MIT
"""Records with a correct CRC around impossible values: refused on load, told once, never a crash.

Bit rot and power cuts break the CRC; a foreign or broken writer can seal anything. Every
field of a record is held to what the game itself writes (record.refusal); a record that
fails counts as damaged, the newest good one wins, and the player is told once.
"""

import binascii
import struct

import pytest

from host_sim import hardware
from freecell_mc.hardware import boot
from freecell_mc.rules import deals
from freecell_mc.saves import policy, record, settings, stats
from freecell_mc.rules.engine import Game
from freecell_mc.saves.stats import Stats

from test_storage import _game, _put_raw, _reload

_SET, _ACTIVE, _DATE, _STATS, _SLOT0, _SLOT1, _LIGHT = 12, 24, 28, 32, 72, 160, 250


def seal(rec):
    """Give rec a correct CRC, as a writer that means it would."""
    struct.pack_into("<I", rec, 252, binascii.crc32(bytes(rec[:252])) & 0xFFFFFFFF)
    return rec


def rich(blocks=None):
    """Return (blocks, Saves) holding two committed records with everything in use."""
    blocks = blocks or hardware.sim_blocks(ring=3)
    s = policy.Saves(blocks)
    assert s.load() is None
    s.put_slot(record.SLOT_DAILY, deals.KIND_DAILY, 20261130, 3, _game(20261130, 4), 95,
               record.SLOT_PLAYED)
    s.settings.takeback = True
    s.settings.calibration = ((5000, 60000), (6000, 56000))
    for _ in range(4):
        s.stats.record_start()
    s.stats.record_win(300, 120)
    s.stats.mark_day_won(2026, 11, 29)
    s.note_date(2026, 11, 30)
    assert s.commit(0, force=True)
    s.put_slot(record.SLOT_FREE, deals.KIND_MS, 11982, 4, _game(1, 6), 40, record.SLOT_PLAYED)
    assert s.commit(1, force=True)
    return blocks, s


def newest(blocks):
    """Return a copy of the newest record (the second one, in ring file 2)."""
    return bytearray(blocks[2][0 : record.REC])


def u32(off, v):
    return lambda r: struct.pack_into("<I", r, off, v)


def u16(off, v):
    return lambda r: struct.pack_into("<H", r, off, v)


def byte(off, v):
    def put(r):
        r[off] = v
    return put


def stats_of(**kw):
    """Return a mutation writing a Stats with these attributes into the record."""
    def put(r):
        st = Stats()
        st.unpack_from(r, _STATS)
        for k, v in kw.items():
            setattr(st, k, v)
        st.pack_into(r, _STATS)
    return put


# (what is broken, how, a word of the reason)
BROKEN = [
    ("active slot 7", byte(_ACTIVE, 7), "active"),
    ("active slot 255", byte(_ACTIVE, 255), "active"),
    ("settings cells 0", byte(_SET, 0), "free cells"),
    ("settings cells 5", byte(_SET, 5), "free cells"),
    ("takeback 2", byte(_SET + 1, 2), "switch"),
    ("four colours 255", byte(_SET + 2, 255), "switch"),
    ("usb flag 7", byte(_SET + 3, 7), "switch"),
    ("calibration x 0..1", lambda r: struct.pack_into("<HH", r, _SET + 4, 0, 1), "calibration"),
    ("calibration 65534..65535", lambda r: struct.pack_into("<HHHH", r, _SET + 4,
                                                            65534, 65535, 65534, 65535),
     "calibration"),
    ("calibration reversed", lambda r: struct.pack_into("<HH", r, _SET + 8, 56000, 6000),
     "calibration"),
    ("calibration span too small", lambda r: struct.pack_into("<HH", r, _SET + 4, 30000, 37999),
     "calibration"),
    ("dim after a sixth time", byte(_LIGHT, 0x26), "dims"),
    ("dark after a fifth time", byte(_LIGHT, 0x52), "goes dark"),
    ("backlight byte 255", byte(_LIGHT, 255), "dims"),
    ("date 2026-02-30", lambda r: struct.pack_into("<HBB", r, _DATE, 2026, 2, 30), "date"),
    ("date 2000-01-01 (a reset clock)", lambda r: struct.pack_into("<HBB", r, _DATE, 2000, 1, 1),
     "date"),
    ("date month 13", byte(_DATE + 2, 13), "date"),
    ("won > played", stats_of(played=1, won=5), "won than played"),
    ("times without a win", stats_of(played=3, won=0, best_seconds=0, best_moves=0,
                                     won_moves=0, won_seconds=7), "none won"),
    ("a win without a best time", stats_of(best_seconds=0), "best time"),
    ("best above the sum", stats_of(best_moves=500), "best game"),
    ("days without a latest day", stats_of(last_day=stats._NONE_DAY), "latest day"),
    ("latest day not a date", stats_of(last_day=0x7FFFFFF0), "no date"),
    ("latest day unmarked", byte(_STATS + 28, 0b10), "not marked"),
    ("more days marked than counted", byte(_STATS + 28, 0xFF), "than counted"),
    ("slot present 2", byte(_SLOT0, 2), "neither"),
    ("daily deal in the free slot",
     lambda r: (byte(_SLOT0 + 1, 2)(r), u32(_SLOT0 + 4, 20261130)(r)), "other slot"),
    ("free deal in the daily slot", byte(_SLOT1 + 1, deals.KIND_SEED), "other slot"),
    ("kind 9", byte(_SLOT0 + 1, 9), "no such deal"),
    ("Microsoft deal 0", u32(_SLOT0 + 4, 0), "no such deal"),
    ("Microsoft deal 1000001", u32(_SLOT0 + 4, 1000001), "no such deal"),
    ("daily of 2026-13-01", u32(_SLOT1 + 4, 20261301), "no such deal"),
    ("slot cells 0", byte(_SLOT0 + 2, 0), "no such deal"),
    ("slot cells 5", byte(_SLOT1 + 2, 5), "no such deal"),
    ("unknown slot flag", byte(_SLOT0 + 3, 4), "flags"),
    ("elapsed 2**30", u32(_SLOT0 + 12, 1 << 30), "elapsed"),
    ("a card twice", lambda r: r.__setitem__(_SLOT0 + 16 + 52, r[_SLOT0 + 16 + 53]), "52 cards"),
    ("a foundation above king", byte(_SLOT0 + 16 + 64, 14), "52 cards"),
    ("all zero position", lambda r: r.__setitem__(slice(_SLOT0 + 16, _SLOT0 + 84), bytes(68)),
     "52 cards"),
    ("a card in a switched-off cell", byte(_SLOT1 + 2, 1), "52 cards"),
]


def test_the_rich_record_itself_passes():
    blocks, s = rich()
    rec = newest(blocks)
    assert record.check(rec) == record.OK
    assert record.refusal(rec, Game()) is None
    # The daily slot really holds a card in its third cell, so cells=1 is a real break.
    assert s.slot(record.SLOT_DAILY).pos[60:64] != bytes(4)


@pytest.mark.parametrize("name,mutate,word", BROKEN, ids=[b[0] for b in BROKEN])
def test_an_impossible_field_refuses_the_record_and_is_told_once(name, mutate, word):
    blocks, s = rich()
    rec = newest(blocks)
    mutate(rec)
    seal(rec)
    assert record.check(rec) == record.OK
    why = record.refusal(rec, Game())
    assert why is not None and word in why, why
    _put_raw(blocks[2], rec)
    r, msg = _reload(blocks)
    # The record before it wins: the daily game, the statistics and the settings of then.
    assert msg == policy.MSG_OLDER
    assert r.slot(record.SLOT_FREE) is None
    d = r.slot(record.SLOT_DAILY)
    assert (d.kind, d.number, d.cells, d.moves, d.elapsed) == (deals.KIND_DAILY, 20261130, 3, 4, 95)
    assert (r.stats.played, r.stats.won, r.stats.day_won(2026, 11, 29)) == (4, 1, True)
    assert r.settings.takeback and r.settings.calibration == ((5000, 60000), (6000, 56000))
    assert r.last_date == (2026, 11, 30) and r.active == record.SLOT_DAILY
    # Told once: the refused record is overwritten, the next start is quiet.
    assert record.refusal(bytes(blocks[2][0 : record.REC])) is None
    r2, msg2 = _reload(blocks)
    assert msg2 is None and r2.slot(record.SLOT_DAILY).moves == 4
    # And saving goes on: a new game in the free slot round-trips.
    r2.put_slot(record.SLOT_FREE, deals.KIND_SEED, 77, 4, _game(77, 2), 5)
    r2.stats.record_start()
    assert r2.commit(0, force=True)
    r3, msg3 = _reload(blocks)
    assert msg3 is None and r3.slot(record.SLOT_FREE).moves == 2 and r3.stats.played == 5


@pytest.mark.parametrize("seq", [0, 1 << 30, 0xFFFFFFFF])
def test_a_sequence_number_the_game_never_writes_is_damage_not_an_age(seq):
    """Only a foreign writer seals such a number: its record is passed over like a torn one."""
    blocks, s = rich()
    rec = newest(blocks)
    struct.pack_into("<I", rec, 8, seq)
    seal(rec)
    assert record.check(rec) == record.OK and "sequence" in record.refusal(rec, Game())
    _put_raw(blocks[2], rec)
    r, msg = _reload(blocks)
    assert msg is None and r.slot(record.SLOT_FREE) is None  # the record before it
    assert r.slot(record.SLOT_DAILY).moves == 4
    r.put_slot(record.SLOT_FREE, deals.KIND_SEED, 77, 4, _game(77, 2), 5)
    assert r.commit(0, force=True)
    assert _reload(blocks)[0].slot(record.SLOT_FREE).moves == 2


def test_the_only_record_refused_is_a_fresh_start_told_once():
    blocks = hardware.sim_blocks(ring=2)
    blocks[0] = None  # no backup to go on from
    s = policy.Saves(blocks)
    s.load()
    s.put_slot(0, 1, 3, 4, _game(3, 1), 1)
    s.commit(0, force=True)
    rec = bytearray(blocks[1][0 : record.REC])
    rec[_ACTIVE] = 7
    _put_raw(blocks[1], seal(rec))
    r, msg = _reload(blocks)
    assert msg == policy.MSG_UNREADABLE and r.slot(0) is None and r.active == 0
    assert _reload(blocks)[1] is None


def test_an_older_refused_record_beside_a_newer_good_one_is_silent():
    blocks, s = rich()
    rec = bytearray(blocks[1][0 : record.REC])  # the first, older record
    rec[_ACTIVE] = 9
    _put_raw(blocks[1], seal(rec))
    r, msg = _reload(blocks)
    assert msg is None  # nothing newer was lost
    assert r.slot(record.SLOT_FREE).number == 11982
    assert blocks[1].write_count == 1  # and nothing was written for it


def test_a_refused_nvm_record_is_replaced_and_boot_py_ignores_it():
    blocks, s = rich(hardware.sim_blocks(ring=3))
    rec = newest(blocks)
    struct.pack_into("<I", rec, 8, 0xFFFFFFFF)
    rec[_SET + 3] = 1  # it would open the drive to the computer
    _put_raw(blocks[0], seal(rec))
    assert boot.read_usb_flag(blocks) is False
    r, msg = _reload(blocks)
    assert msg is None and r.slot(record.SLOT_FREE).number == 11982
    # nvm holds nothing the game could have written: the next save replaces it.
    r.put_slot(record.SLOT_FREE, deals.KIND_SEED, 77, 4, _game(77, 2), 5)
    assert r.commit(0, force=True)
    assert record.refusal(bytes(blocks[0][0 : record.REC])) is None
    assert _reload(blocks)[1] is None


def test_a_sequence_number_of_0xffffffff_no_longer_crashes_the_next_save():
    blocks, s = rich()
    rec = newest(blocks)
    struct.pack_into("<I", rec, 8, 0xFFFFFFFF)
    _put_raw(blocks[2], seal(rec))
    r, _ = _reload(blocks)
    r.put_slot(0, 1, 3, 4, _game(3, 3), 9)
    assert r.commit(0, force=True)
    assert _reload(blocks)[0].slot(0).moves == 3


def test_statistics_at_their_maximum_saturate_and_save():
    # An earlier version's counts stopped at 0xFFFFFFFF; such a record loads, its counts at
    # the largest small int, where they stop from then on.
    top = stats._MAX
    blocks, s = rich()
    st = s.stats
    st.played = st.won = st.won_seconds = st.won_moves = 0xFFFFFFFF
    st.days_won = 0xFFFF
    assert s.commit(2, force=True)
    r, msg = _reload(blocks)
    assert msg is None and r.stats.played == top
    r.stats.record_start()
    r.stats.record_win(100000, 70000)
    r.stats.mark_day_won(2026, 11, 30)
    assert r.commit(3, force=True)  # no struct.error
    t = _reload(blocks)[0].stats
    assert (t.played, t.won, t.won_seconds, t.won_moves, t.days_won) == (
        top, top, top, top, 0xFFFF)
    assert t.best_moves == 120  # the real best; 70000 moves would not even fit the field


def test_every_settings_screen_calibration_is_one_a_start_accepts():
    from freecell_mc.ui.screens import models

    cal = models.solve_calibration(((20, 20), (299, 219)), ((8000, 9000), (56000, 55000)), 320, 240)
    assert record.valid_calibration(cal) and models.valid_calibration is record.valid_calibration
    assert record.valid_calibration(record.DEFAULT_CALIBRATION)
    for bad in (((0, 1), (0, 1)), ((65534, 65535), (5800, 57000)), ((9, 1), (5800, 57000)),
                ((5200, 59000), (5800, 5800 + record.CAL_MIN_SPAN - 1)), None, ((1, 2),)):
        assert not record.valid_calibration(bad), bad


def test_told_once_even_where_the_refused_file_cannot_be_overwritten():
    blocks, s = rich()
    rec = newest(blocks)
    struct.pack_into("<I", rec, 8, 40)  # claims to be far newer than the good record (2)
    rec[_ACTIVE] = 7
    _put_raw(blocks[2], seal(rec))
    for b in blocks[1:]:
        b.writable = False  # the drive is left to the computer: only nvm takes the report
    r, msg = _reload(blocks)
    assert msg == policy.MSG_OLDER and blocks[2][0:record.REC] == rec  # still there
    r2, msg2 = _reload(blocks)
    assert msg2 is None and r2.slot(record.SLOT_DAILY).moves == 4 and r2.slot(0) is None


def test_the_backlight_times_round_trip_and_an_older_record_takes_the_defaults():
    blocks, s = rich()
    never = len(settings.DARK_AFTER_S) - 1
    s.settings.dim = 0
    s.settings.dark = never
    # A change of the backlight times alone is a change worth a write, for nvm too.
    assert not s.commit(1000)
    assert s.commit(1000 + policy.CHECKPOINT_MS + 500)
    rec = bytearray(blocks[3][0 : record.REC])  # the third record, in ring file 3
    # Two nibbles, 1 + each index (30 s, never); 251 stays reserved.
    assert record.seq_of(rec) == 3 and rec[_LIGHT] == 0x41 and rec[_LIGHT + 1] == 0
    r, msg = _reload(blocks)
    assert msg is None and (r.settings.dim, r.settings.dark) == (0, never)
    assert settings.DIM_AFTER_S[r.settings.dim] == 30
    assert settings.DARK_AFTER_S[r.settings.dark] == 0  # never goes dark
    # A record written before the backlight had settings holds 0 there: the defaults,
    # a minute and five.
    rec[_LIGHT] = 0
    assert record.refusal(seal(rec), Game()) is None
    st = settings.Settings()
    st.take_light(rec[_LIGHT])
    assert (settings.DIM_AFTER_S[st.dim], settings.DARK_AFTER_S[st.dark]) == (60, 300)
