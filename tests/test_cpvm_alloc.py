# SPDX-License-Identifier: MIT
"""Nothing allocates while the player thinks or taps, on CircuitPython's own VM.

tests/cpvm/scripts/ui_alloc.py builds the App as code.py does, over the board image's .mpy
files, CircuitPython's real displayio objects and the stand-ins of tests/cpvm/, and plays
whole solutions by taps: a pick tap and a drop tap allocate 0 bytes, and a poll allocates
exactly what adafruit_touchscreen's reading allocates (its pin objects, 64 bytes on the
board), however often the saves look for changes in it, except the polls that write a save;
so do the polls of a quiet spell, dimmed, dark and woken (but the one whose tick builds
Finish, once a table).

CircuitPython's small ints have 31 bits, and its struct checks a long int's range by
building more long ints: whatever the saves pack on a look or a move stays a small int.
"""

from pathlib import Path

import pytest

from bench import board
from solutions import fcs_solution

SCRIPTS = Path(__file__).resolve().parent / "cpvm" / "scripts"
KIND_SEED = 1
KIND_MS = 3


def _ui_alloc(cp_image, folder, data):
    folder.mkdir()
    # The finger waits for the whole run: every poll reads "no touch".
    board.write_session(folder, "pyportal", [["w", 10**8]], seed=-1)
    return cp_image.run_script(SCRIPTS / "ui_alloc.py", folder, data, heap=200000)


@pytest.mark.slow
@pytest.mark.parametrize("deal", [1, 2])
def test_taps_and_idle_polls_allocate_nothing_beyond_the_touch_reading(cp_image, tmp_path,
                                                                        deal):
    moves = fcs_solution(deal)
    got = _ui_alloc(cp_image, tmp_path / "d", {"kind": KIND_MS, "deal": deal, "moves": moves})
    print(got)
    assert got["played"] == [len(moves), True, True]
    assert got["pins"] == 64
    assert got["taps"] == [0, 0]
    # The poll after the move that first brings Finish builds its button (the table's tick,
    # tableview.Strip.build), once a table: a Button with its caption, under a kilobyte
    # (and the poll's touch reading).
    assert 0 < got["finish_poll"] - got["pins"] < 1024
    polls, looks, beyond = got["idle"]
    assert polls > 1000 and looks > 100
    assert beyond == 0
    assert got["writes"][0] > 0
    assert got["erases"][0] > 0  # erased ahead in quiet polls, told apart from idle ones
    # A quiet spell mid-game: lit, dimmed after a minute, dark after five (saving), and
    # a press that woke it, through its release: no poll allocated beyond its reading,
    # and the press moved nothing.
    levels, most, at_table, moves = got["quiet"]
    assert levels == [1.0, 0.2, 0.2, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    assert most == 0 and at_table and moves == 10


def test_a_free_deal_with_a_32_bit_number_allocates_nothing_per_move(cp_image, tmp_path):
    # 3,000,000,000 is a long int on the board: the game keeps it, the saves pack it on
    # every move as two halves worked out once. Twelve moves, each taken back by Undo.
    seed = 3000000000
    got = _ui_alloc(cp_image, tmp_path / "s", {"kind": KIND_SEED, "deal": seed, "moves": None,
                                               "count": 12})
    print(got)
    assert got["played"][0] == 0 and got["played"][2] is True  # each move was taken back
    assert got["taps"] == [0, 0]
    assert got["idle"][2] == 0


_STRUCT_SCRIPT = """
import binascii, gc, struct
from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.saves import policy, record
from freecell_mc.saves.stats import SIZE, Stats

def alloc_once(f, *args):
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    f(*args)
    n = gc.mem_alloc() - a
    gc.enable()
    return n

def alloc(f, *args):
    f(*args)  # anything made once on first use is not the call's
    return alloc_once(f, *args)

b = bytearray(8)
print("RESULT long_i", alloc(struct.pack_into, "<i", b, 0, -0x7FFFFFFF))
print("RESULT long_I", alloc(struct.pack_into, "<I", b, 0, 2**31))
b[0:4] = b"\\xff\\xff\\xff\\xff"
print("RESULT unpack_I", alloc(struct.unpack_from, "<I", b, 0))
buf = bytearray(SIZE)
st = Stats()
print("RESULT stats_none", alloc(st.pack_into, buf, 0))
st.record_start()
st.record_win(400, 90)
st.mark_day_won(2026, 11, 30)
print("RESULT stats_day", alloc(st.pack_into, buf, 0))
back = Stats()
back.unpack_from(buf, 0)
print("RESULT stats_back", int(back.day_won(2026, 11, 30)), int(back.day_won(2026, 11, 29)))
g = Game()
g.deal(deals.seeded_deck(3000000000))
s = policy.Saves([bytearray(b"\\xff" * 256)])
s.load()
seed = 3000000000
print("RESULT put_slot_long", alloc(s.put_slot, 0, deals.KIND_SEED, seed, 4, g, 5))
print("RESULT slot_number", s.slot(0).number == seed)
# The same number from another object (as a deal read back from its slot is): the halves
# worked out for it still serve, so turns of the two objects allocate nothing either.
same = int("3000000000")
def turns():
    s.put_slot(0, deals.KIND_SEED, seed, 4, g, 5)
    s.put_slot(0, deals.KIND_SEED, same, 4, g, 5)
print("RESULT put_slot_equal", alloc(turns), same is not seed)
# A look at a slot: nothing, the number put last shared; a small deal number likewise. A
# long number not put last (a record read in) is made at each look, and nothing else.
print("RESULT slot_look_long", alloc(s.slot, 0), s.slot(0).number is seed)
s.put_slot(1, deals.KIND_MS, 5, 3, g, 7)
print("RESULT slot_look_small", alloc(s.slot, 1), s.slot(1).number)
t = policy.Saves([bytearray(b"\\xff" * 256)])
t.load()
t._unpack(bytes(s._rec))
print("RESULT slot_look_read", alloc_once(t.slot, 0), alloc(t.slot, 0), t.slot(0).number == seed,
      bytes(t.slot(0).pos) == bytes(g.pos), t.slot(0).elapsed)
s.commit(0, True)
rec = bytes(s._last)
print("RESULT check_ok", alloc(record.check, rec), record.check(rec) == record.OK)
bad = bytearray(rec)
bad[100] ^= 1
print("RESULT check_bad", record.check(bytes(bad)) == record.BAD)
"""


def test_what_the_saves_pack_stays_a_small_int(cp_image, tmp_path):
    script = tmp_path / "structs.py"
    script.write_text(_STRUCT_SCRIPT)
    rc, out, err = cp_image.run(tmp_path, script, heap=200000)
    assert rc == 0, out + err
    got = board.results(out)
    # What the board's struct allocates for long ints: the harness sees it.
    assert got["long_i"] == [96] and got["long_I"] == [64] and got["unpack_I"] == [48]
    # The statistics with no daily won yet (-0x7FFFFFFF on flash) and with one: nothing.
    assert got["stats_none"] == [0] and got["stats_day"] == [0]
    assert got["stats_back"] == [1, 0]
    # A move of a free deal numbered past 2**30 into its slot: nothing; the number reads back.
    assert got["put_slot_long"] == [0] and got["slot_number"] == ["True"]
    assert got["put_slot_equal"] == [0, "True"]
    # A look at a slot (Record.slot, the menu's and the calendar's): nothing, however often;
    # a deal number from 2**30 on that is not the one put last is made at each look (its
    # long int, and the one its halves make on the way), and nothing else.
    assert got["slot_look_long"] == [0, "True"] and got["slot_look_small"] == [0, 5]
    first, again, same_number, same_pos, elapsed = got["slot_look_read"]
    assert first == again == 96
    assert [same_number, same_pos, elapsed] == ["True", "True", 5]
    # Checking an intact record (as the load does for every place): nothing.
    assert got["check_ok"] == [0, "True"] and got["check_bad"] == ["True"]
