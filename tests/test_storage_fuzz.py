# SPDX-License-Identifier: MIT
"""Fuzz: save records with a correct CRC and arbitrary field values, through the real game.

The drive holds a good record and, newer, the same saves with fields set to anything a
writer could seal. code.py starts on the simulator: a record the game could have written
is continued as it is; any other is passed over for the good one, the player is told once
on the notice, and the game goes on with everything the good record held. Nothing raises,
and what the game saves next loads back the same. The decoder also runs on CircuitPython's
VM from the board image over a set of such records, with the same results as CPython.
"""

import binascii
import os
import random
import struct
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from host_sim import hardware
from freecell_mc.rules import deals
from freecell_mc.saves import policy, record
from freecell_mc.rules.engine import Game
from test_micropython import MP, run_cpython
from test_screens_sim import run

# Every field of a record but the header: (offset, struct format).
FIELDS = [
    (8, "I"),  # sequence number
    (12, "B"), (13, "B"), (14, "B"), (15, "B"),  # cells, take-back, four colours, USB
    (16, "H"), (18, "H"), (20, "H"), (22, "H"),  # calibration
    (24, "B"),  # active slot
    (28, "H"), (30, "B"), (31, "B"),  # last date
    (32, "I"), (36, "I"), (40, "I"), (44, "I"), (48, "I"),  # played, won, sums, best time
    (52, "H"), (54, "H"), (56, "i"), (60, "Q"),  # best moves, days won, latest day, bitmap
]
for _base in (72, 160):
    FIELDS += [(_base, "B"), (_base + 1, "B"), (_base + 2, "B"), (_base + 3, "B"),
               (_base + 4, "I"), (_base + 8, "H"), (_base + 12, "I")]
_POS = (72 + 16, 160 + 16)  # the two slots' positions, 68 bytes each


def _played(kind, number, moves, cells=4):
    """Return a Game on that deal after `moves` legal moves (the first targets found)."""
    g = Game(cells)
    g.deal(deals.deck_for(kind, number))
    while g.moves < moves:
        for src in range(8 + cells):
            mask = g.targets(src, 1) if g.top(src) else 0
            if mask:
                g.move(src, (mask & -mask).bit_length() - 1, 1)
                break
        else:
            break
    return g


def _records():
    """Return (older, newer): two good records, the second a little further on."""
    blocks = hardware.sim_blocks(ring=2)
    s = policy.Saves(blocks)
    s.load()
    s.settings.cells = 3
    s.settings.takeback = True
    s.settings.calibration = ((5100, 59200), (5900, 56800))
    for _ in range(5):
        s.stats.record_start()
    s.stats.record_win(412, 97)
    s.stats.record_win(388, 120)
    s.stats.mark_day_won(2026, 11, 28)
    s.note_date(2026, 11, 29)
    s.put_slot(1, deals.KIND_DAILY, 20261129, 3, _played(deals.KIND_DAILY, 20261129, 3, 3), 70,
               record.SLOT_PLAYED)
    s.put_slot(0, deals.KIND_MS, 11982, 4, _played(deals.KIND_MS, 11982, 5), 150,
               record.SLOT_PLAYED)
    assert s.commit(0, force=True)
    older = bytes(blocks[1][0 : record.REC])
    s.stats.record_start()
    s.settings.four_colour = True
    s.note_date(2026, 11, 30)
    s.put_slot(0, deals.KIND_MS, 11982, 4, _played(deals.KIND_MS, 11982, 8), 190,
               record.SLOT_PLAYED)
    assert s.commit(1, force=True)
    newer = bytes(blocks[2][0 : record.REC])
    return older, newer


OLDER, NEWER = _records()
_OLDER_SEQ = struct.unpack_from("<I", OLDER, 8)[0]


def outcome(rec):
    """Return (the record a start keeps, whether the player is told) with OLDER beside rec.

    rec wins when the game could have written it and it is newer; refused, it is told when
    it claims to be newer. A sequence number the game never writes (0, 2**30 and up) gives
    no age: such a record is damage, passed over like a torn one. Beside OLDER's (a small
    number in the first of the circle's 64 arcs of 2**24), loading.newest_of joins an arc,
    the one after it and an occupied one after that into one run: a number up to two arcs
    on is newer (two arcs before, older); one further off is in a run of its own, which
    loses the tie of one record each to the lower start.
    """
    seq = struct.unpack_from("<I", rec, 8)[0]
    if seq == 0 or seq >= record.SEQ_LIMIT:
        return OLDER, False
    newer = _OLDER_SEQ < seq < 3 << 24
    if record.refusal(rec, Game()) is None:
        return (rec if newer else OLDER), False
    return OLDER, newer


def mutate(changes):
    """Return NEWER with these (field or position byte, value) changes and a correct CRC."""
    rec = bytearray(NEWER)
    for where, value in changes:
        if where >= 0:
            off, fmt = FIELDS[where]
            bits = 8 * struct.calcsize(fmt)
            if fmt == "i":
                value = (value & (1 << bits) - 1) - (1 << bits - 1)
            else:
                value &= (1 << bits) - 1
            struct.pack_into("<" + fmt, rec, off, value)
        else:
            k = -where - 1  # -1 - (slot * 68 + byte)
            rec[_POS[k // 68] + k % 68] = value & 255
    struct.pack_into("<I", rec, 252, binascii.crc32(bytes(rec[:252])) & 0xFFFFFFFF)
    return bytes(rec)


_change = st.one_of(
    st.tuples(st.integers(0, len(FIELDS) - 1), st.integers(0, (1 << 64) - 1)),
    st.tuples(st.integers(0, len(FIELDS) - 1), st.integers(0, 300)),
    st.tuples(st.integers(-136, -1), st.integers(0, 255)),
)


def alone(rec):
    """Return a Saves that loaded only this record."""
    blocks = hardware.sim_blocks(ring=1)
    blocks[1].data[0 : record.REC] = rec
    blocks[1].present = True
    s = policy.Saves(blocks)
    assert s.load() is None
    return s


def kept(saves):
    """Return what a start keeps of the saves: settings, statistics and both slots."""
    se = saves.settings
    t = saves.stats
    slots = []
    for i in (0, 1):
        s = saves.slot(i)
        slots.append(None if s is None else (s.kind, s.number, s.cells, s.moves, s.elapsed,
                                             s.flags, bytes(s.pos)))
    return ((se.cells, se.takeback, se.four_colour, se.usb_writable, se.calibration),
            (t.played, t.won, t.won_seconds, t.won_moves, t.best_seconds, t.best_moves,
             t.days_won, t.last_day, bytes(t.days_bits)), slots)


def _start(tmp, rec, lines):
    """Put OLDER and rec on the simulated drive, run code.py with lines, return the App."""
    drive = os.path.join(tmp, "drive")
    os.makedirs(drive, exist_ok=True)
    blocks = hardware.drive_blocks(drive)  # the simulator's CIRCUITPY: the board's save file
    for i, data in enumerate((OLDER, rec)):
        blocks[1 + i][0 : record.REC] = data
    return run(lines, Path(tmp), date="2026-11-30")


@settings(max_examples=200, deadline=None)
@given(st.lists(_change, min_size=1, max_size=4))
def test_fuzzed_fields_in_the_saves(changes):
    rec = mutate(changes)
    keep, told = outcome(rec)
    blocks = hardware.sim_blocks(ring=2)
    for b, data in zip(blocks[1:], (OLDER, rec)):
        b.data[0 : record.REC] = data
        b.present = True
    s = policy.Saves(blocks)
    msg = s.load()
    assert msg == (policy.MSG_OLDER if told else None), record.refusal(rec)
    assert kept(s) == kept(alone(keep))
    # Told once, and what is saved next loads back the same.
    s.stats.record_start()
    s.put_slot(0, deals.KIND_SEED, 5, 2, _played(deals.KIND_SEED, 5, 2, 2), 9)
    assert s.commit(0, force=True)
    r = policy.Saves(blocks)
    assert r.load() is None and kept(r) == kept(s)


# Each example starts the simulated board twice, drawing every screen: a few dozen suffice
# beside the many the saves alone take above and the MicroPython sample below.
# What is asserted is the saves, never a pixel: the screens are not rendered.
@pytest.mark.usefixtures("no_pixels")
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@pytest.mark.slow
@given(st.lists(_change, min_size=1, max_size=4))
def test_fuzzed_fields_through_the_game(changes):
    rec = mutate(changes)
    assert record.check(rec) == record.OK
    keep, told = outcome(rec)
    why = record.refusal(rec, Game())
    want = kept(alone(keep))
    active = keep[24]
    with tempfile.TemporaryDirectory() as tmp:
        # Refused: the notice, told once; OK goes on. Either way the menu then saves.
        lines = ["wait 50"] + (["expect screen notice", "key enter"] if told else [])
        lines += ["wait 50", "key esc", "expect screen menu"]
        app = _start(tmp, rec, lines)
        got = kept(app.saves)
        assert got[0] == want[0] and got[1] == want[1], why
        for i in (0, 1):
            if i == app.slot and want[2][i] is None:
                continue  # no game there: a fresh deal took its place
            g, w = got[2][i], want[2][i]
            if w is None:
                # An emptied slot that is not in play (the other one's game is) stays empty.
                assert g is None, (why, i)
                continue
            assert g[:5] == w[:5] and g[6] == w[6], (why, i)
            assert g[5] & w[5] == w[5]  # flags only gain what the game then knows
        if want[2][active] is not None:
            assert app.slot == active  # the game in play is the one left in play
        first = kept(app.saves)
        # The next start is quiet and finds what this one saved.
        app = run(["wait 50"], Path(tmp), date="2026-11-30")
        assert app.screen.name != "notice" and app.message is None
        assert kept(app.saves) == first


def _sample(n=80, seed=20261130):
    """Return n fuzzed records: every field at its edges, then random multi-field changes."""
    rnd = random.Random(seed)
    out = []
    for where, (_off, fmt) in enumerate(FIELDS):
        top = (1 << 8 * struct.calcsize(fmt)) - 1
        for v in (0, 1, top, top - 1):
            out.append(mutate([(where, v)]))
    while len(out) < len(FIELDS) * 4 + n:
        changes = []
        for _ in range(rnd.randint(1, 3)):
            if rnd.random() < 0.3:
                changes.append((-rnd.randint(1, 136), rnd.randint(0, 255)))
            else:
                changes.append((rnd.randrange(len(FIELDS)), rnd.choice((rnd.randint(0, 4),
                                                                        rnd.getrandbits(32)))))
        out.append(mutate(changes))
    return out


def test_the_record_decoder_on_circuitpython_matches_cpython(cp_image, tmp_path):
    # On CircuitPython's VM from the board image: its struct and its 31-bit small ints.
    records = _sample()
    data = {"older": OLDER.hex(), "records": [r.hex() for r in records]}
    # A big heap: the report of 224 records is printed as one JSON text.
    mp = cp_image.run_script(MP / "mp_records.py", tmp_path, data, heap=16000000)["records"]
    cp = run_cpython("mp_records.py", data, tmp_path)["records"]
    assert mp == cp
    refused = 0
    for rec, (status, why, msg, _, msg2, round_trip) in zip(records, mp):
        assert status == record.OK
        assert (why is None) == (record.refusal(rec, Game()) is None)
        assert msg == (policy.MSG_OLDER if outcome(rec)[1] else None), why
        assert msg2 is None and round_trip
        refused += why is not None
    # Both outcomes are exercised: records kept as they are, and records passed over.
    assert 20 < refused < len(records) - 20, refused
