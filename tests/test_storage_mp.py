# SPDX-License-Identifier: MIT
"""Saves, statistics and dates on CircuitPython's own VM, compared with CPython.

The script below runs on both interpreters, on the VM from the board image's .mpy files
(bench/board.py): a save and reload of both slots, power cuts at every write step of an
nvm-like block pair, date arithmetic, CRC and the statistics layout, the save ring through
the interpreter's own files. On the VM it also measures what put_slot and commit() allocate
per call (nothing, with CircuitPython's struct and 31-bit small ints), both between its looks
for changes and when it looks and finds nothing due.
"""

import json
import os
import subprocess
import sys

from bench.board import json_results
from freecell_mc.saves import savelog
from test_micropython import ROOT, TIMEOUT_S

SCRIPT = r'''
import gc
import json
import sys

from freecell_mc import dates
from freecell_mc.rules import deals
from freecell_mc.rules.engine import Game
from freecell_mc.saves import policy, savelog
from freecell_mc.saves.stats import Stats, SIZE

try:
    from gc import mem_alloc
except ImportError:
    mem_alloc = None


def emit(name, value):
    print("RESULT " + json.dumps([name, value]))


class Cut(Exception):
    pass


class Steps:
    left = 0  # 0 = no cut armed


class Block:
    """nvm-like: a write erases everything, then programs 64-byte chunks; cuts injectable."""

    def __init__(self, size):
        self.data = bytearray(b"\xff" * size)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, s):
        return bytes(self.data[s])

    def _tick(self):
        if Steps.left:
            Steps.left -= 1
            if Steps.left == 0:
                raise Cut()

    def __setitem__(self, s, value):
        new = bytearray(self.data)
        new[s] = value
        self._tick()
        for i in range(len(self.data)):
            self.data[i] = 0xFF
        for a in range(0, len(new), 64):
            self._tick()
            self.data[a:a + 64] = new[a:a + 64]


def blocks():
    return [Block(1024), Block(512), Block(512), Block(512)]


def state(s):
    out = []
    for i in (0, 1):
        v = s.slot(i)
        out.append(None if v is None
                   else [v.kind, v.number, v.cells, list(v.pos), v.moves, v.elapsed])
    st = s.stats
    out.append([s.settings.cells, s.settings.four_colour, st.played, st.won, st.best_seconds,
                st.days_won, st.day_won(2026, 11, 30)])
    return out


g = Game()
g.deal(deals.seeded_deck(7))
for src in range(8):
    m = g.targets(src, 1)
    if m:
        dst = 0
        while not (m >> dst) & 1:
            dst += 1
        g.move(src, dst, 1)
        break
d = Game()
d.deal(deals.seeded_deck(deals.daily_seed(2026, 11, 30)))
h = Game()  # deal 7 undone to its start: the save the cuts below interrupt
h.deal(deals.seeded_deck(7))

bl = blocks()
s = policy.Saves(bl)
emit("fresh", s.load())
s.put_slot(0, 1, 7, 4, g, 42)
s.put_slot(1, 2, 20261130, 4, d, 9)
s.stats.record_start()
s.stats.record_win(321, 99)
s.stats.mark_day_won(2026, 11, 30)
s.settings.cells = 3
emit("commit", s.commit(0, force=True))
r = policy.Saves(bl)
emit("reload_msg", r.load())
want = state(r)
emit("state", want)
emit("same", want == state(s))

# Cut the power at every step of the next write: the reload is the old or the new save.
s.put_slot(0, 1, 7, 4, h, 50)
new = state(s)
outcomes = []
step = 1
while True:
    snap = [bytes(b.data) for b in bl]
    t = policy.Saves(bl)
    t.load()
    t.put_slot(0, 1, 7, 4, h, 50)
    Steps.left = step
    try:
        t.commit(1000, force=True)
        Steps.left = 0
        break
    except Cut:
        pass
    u = policy.Saves(bl)
    msg = u.load()
    st = state(u)
    outcomes.append([step, msg, "old" if st == want else ("new" if st == new else "BAD")])
    for b, data in zip(bl, snap):
        b.data[:] = data
    step += 1
emit("cuts", outcomes)

emit("dates", [dates.day_number(2026, 11, 30), dates.from_day_number(9830),
               dates.weekday(2026, 11, 30), dates.add_days(2028, 2, 28, 1),
               dates.add_days(2026, 1, 1, -1), dates.days_in_month(2100, 2),
               dates.ticks_diff(5, (1 << 29) - 5)])

st = Stats()
st.record_win(100, 80)
st.mark_day_won(2026, 11, 30)
st.mark_day_won(2026, 12, 2)
buf = bytearray(SIZE)
st.pack_into(buf, 0)
emit("stats_bytes", list(buf))
import binascii
emit("crc", binascii.crc32(bytes(buf)) & 0xFFFFFFFF)

# The device's save file through the interpreter's own filesystem (open r+b).
import os


def make_save_file(places):
    """Make the save file as the copy tool makes it on CIRCUITPY: the game never does."""
    for d in ("fcsave", "fcsave/ring"):
        try:
            os.mkdir(d)
        except OSError:
            pass
    sector = b"\xff" * savelog.SECTOR
    with open(savelog.LOG_PATH, "wb") as f:
        for _ in range(savelog.file_bytes(places) // savelog.SECTOR):
            f.write(sector)


base = sys.argv[1] if len(sys.argv) > 1 else "/drive"
try:
    os.mkdir(base)
except OSError:
    pass
os.chdir(base)
make_save_file(40)
dev = savelog.device_blocks(Block(1024), 40)
s = policy.Saves(dev)
emit("dev_fresh", s.load())
files = []
for i in range(45):  # more than one turn of the ring
    s.put_slot(0, 1, 7, 4, g, i)
    files.append(s.commit(2000 * i, force=True))
r = policy.Saves(savelog.device_blocks(Block(1024), 40))
emit("dev_reload", [all(files), r.load(), r.slot(0).elapsed, len(dev),
                    os.stat(savelog.LOG_PATH)[6]])
# The 40-place saves go before the whole ring's: a start of 2,049 places lists their
# numbers in one 8 KB block, which a heap left in pieces by live objects may not hold.
dev = s = r = files = None
gc.collect()
if mem_alloc is not None:
    # A start reads every place of the ring: into one buffer, so what it allocates is a
    # list slot a place and a few KB besides, not a bytes object a place (no GC runs within
    # this call, so the difference is everything the load made, garbage included). The
    # whole ring.
    os.mkdir("ring")
    os.chdir("ring")
    make_save_file(savelog.RING)
    first = policy.Saves(savelog.device_blocks(Block(1024)))
    first.load()
    first.put_slot(0, 1, 7, 4, g, 1)
    first.commit(0, force=True)
    again = policy.Saves(savelog.device_blocks(Block(1024)))
    a = mem_alloc()
    msg = again.load()
    emit("alloc_load_full_ring", [mem_alloc() - a, msg, len(again._blocks)])

# The heap a Saves holds once it has loaded the full ring (in the folder made above).
gc.collect()
heap_a = mem_alloc() if mem_alloc is not None else 0
held = policy.Saves(savelog.device_blocks(Block(1024)))
held.load()
os.chdir("/")
gc.collect()
def measure():
    """Return bytes allocated by put_slot, by commits between looks, and by looks."""
    s = policy.Saves(blocks())
    s.load()
    s.put_slot(0, 1, 7, 4, g, 1)
    s.commit(0, True)  # on flash: nothing is pending while measuring
    gc.collect()
    gc.disable()
    a = mem_alloc()
    for i in range(50):
        s.put_slot(0, 1, 7, 4, g, 1)  # what is on flash already: nothing becomes due
        s.set_elapsed(0, 1)  # the per-poll clock update
    b = mem_alloc()
    for i in range(50):
        s.commit(10 + i)  # within the 250 ms between looks: returns at once
    c = mem_alloc()
    for i in range(1, 21):
        s.commit(i * 300)  # a look each time: pack and compare, nothing due
    d = mem_alloc()
    gc.enable()
    return b - a, c - b, d - c


if mem_alloc is not None:
    emit("heap_saves_full_ring", mem_alloc() - heap_a)
    put, idle, look = measure()
    emit("alloc_put_slot", put)
    emit("alloc_idle_commit", idle)
    emit("alloc_look_commit", look)
'''


def test_saves_stats_and_dates_on_circuitpython(cp_image, tmp_path):
    path = tmp_path / "saves.py"
    path.write_text(SCRIPT)
    vm = tmp_path / "vm"
    vm.mkdir()
    rc, out, err = cp_image.run(vm, path, [vm / "drive"], heap=200000)
    assert rc == 0, out + err
    mp = json_results(out)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(path), str(tmp_path / "drive")], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    cp = json_results(proc.stdout)
    assert mp["fresh"] is None and mp["reload_msg"] is None and mp["commit"] is True
    assert mp["same"] is True
    outcomes = mp["cuts"]
    assert len(outcomes) > 5
    assert all(o[1] is None and o[2] in ("old", "new") for o in outcomes), outcomes
    assert "old" in [o[2] for o in outcomes]
    assert mp["dev_fresh"] is None
    assert mp["dev_reload"] == [True, None, 44, 41, (8 + 40 + 8) * savelog.SECTOR]
    # A loaded Saves over the device's save file holds little heap (figure printed).
    print("heap held by a loaded Saves, ring of %d places: %d bytes"
          % (savelog.RING, mp["heap_saves_full_ring"]))
    assert mp["heap_saves_full_ring"] < 4096
    for key in ("state", "cuts", "dates", "stats_bytes", "crc", "dev_reload"):
        assert json.dumps(mp[key]) == json.dumps(cp[key]), key
    # Reading the 2,048 places of the ring at a start: one buffer, not a bytes object each
    # (that was 2,048 x 272 bytes, about half a megabyte of garbage a start).
    load_bytes, msg, places = mp["alloc_load_full_ring"]
    print("allocated by a load of the full ring: %d bytes" % load_bytes)
    assert msg is None and places == 1 + savelog.RING
    assert load_bytes <= 8 * (1 + savelog.RING) + 8192
    assert mp["alloc_put_slot"] == 0
    assert mp["alloc_idle_commit"] == 0
    assert mp["alloc_look_commit"] == 0  # the 250 ms look for changes allocates nothing
