# SPDX-License-Identifier: MIT
"""A cut at any flash step of any save harms nothing but the save being written.

Over the FAT model of CIRCUITPY (host_sim/fat.py: the 8 MB flash as CircuitPython formats it,
its 4 KB sector cache, FatFs), with the save file made as the copy tool makes it (right after
the firmware's boot_out.txt, the game's files after it), the power is cut at every erase and
every page program of: the first save on a fresh drive, the saves at the ring's wrap, the
erases done ahead in a quiet moment, and saves to nvm while the drive is left to USB. After
every cut, every byte of the drive outside the save file's own sectors (the boot sector, the
FAT, every folder, every other file, the free space) is what it was, and a restart loads the
last completed save or the new one, whole.
"""

import copy

import pytest

from host_sim import circuitpy, fat, flash, hardware, savefile
from freecell_mc.saves import policy, savelog

from test_faults import DAILY, FREE, state

pytestmark = pytest.mark.usefixtures("no_cut_left_armed")

PLACES = 40  # 5 erase groups: the ring turns over within a test; a save's steps are the same


class Board:
    """A board's CIRCUITPY and nvm, and the bytes a save may never change."""

    def __init__(self, places=PLACES):
        vol = fat.Volume.mkfs(flash.Flash())
        circuitpy.install(vol, places)
        self.fl = vol.flash
        self.nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
        self.places = places
        assert savefile.layout_problems(vol, places) == []
        blocks = savefile._blocks_of(vol, savelog.LOG_PATH)
        # The file lies in one run (layout_problems): everything else is outside it.
        self.span = (blocks[0] * flash.SECTOR, (blocks[-1] + 1) * flash.SECTOR)
        self.after = blocks[-1] + 1  # the first block after the file

    def outside(self):
        """Return every byte of the flash outside the save file's own sectors."""
        a, z = self.span
        return bytes(self.fl.data[:a]) + bytes(self.fl.data[z:])

    def snapshot(self):
        return bytes(self.fl.data), bytes(self.nvm.data)

    def restore(self, snap):
        self.fl.data[:], self.nvm.data[:] = snap[0], snap[1]
        self.fl.lose_power()

    def saves(self, writable=True, like=None):
        """Start the board: Saves over the drive (left to USB unless writable) and nvm.

        like: a running Saves to go on from exactly as it stood (where it writes next,
        what it erases ahead, its budgets), as if no restart had come between.
        """
        self.fl.lose_power()
        vol = fat.Volume(self.fl)
        fs = vol if writable else hardware.ReadOnly(vol)
        s = policy.Saves(savelog.SaveLog(self.nvm, savelog.LOG_PATH, self.places, fs))
        assert s.load() is None
        if like is not None:
            keep = {k: v for k, v in like.__dict__.items()
                    if k not in ("_blocks", "nvm", "_body")}
            s.__dict__.update(copy.deepcopy(keep))
            s._body = memoryview(s._rec)[0 : len(s._body)]  # a view of the copied record
        return s


def _cut_every_step(board, start, step_fn, writable=True, like=None, also=()):
    """Cut the power at every flash step of step_fn(saves) on a board started from `start`
    (or going on as `like` stood).

    Return (cuts, the state before, the state after the uncut run, the states loaded
    after the cuts). After each cut the bytes outside the save file are unchanged and a
    restart loads one of the two states (or one of `also`).
    """
    board.restore(start)
    outside = board.outside()
    s = board.saves(writable, like)
    before = state(s)
    n0 = flash.step_count()
    step_fn(s)
    after = state(s)
    steps = flash.step_count() - n0
    assert board.outside() == outside
    loaded = []
    for step in range(1, steps + 1):
        board.restore(start)
        s = board.saves(writable, like)
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            step_fn(s)
        flash.disarm()
        assert board.outside() == outside, step  # no other file, folder, FAT or boot sector
        r = board.saves(writable)
        loaded.append(state(r))
        assert loaded[-1] in (before, after) + tuple(also), step
    return steps, before, after, loaded


def _save(i, slot=0):
    """Return a step: put game position i in a slot and force a save (2 s apart)."""
    def fn(s):
        if slot == 0:
            s.put_slot(0, 1, 7, 4, FREE[i % 15], i)
        else:
            s.put_slot(1, 2, 20261130, 4, DAILY[i % 7], 100 + i)
        assert s.commit(2000 * (i + 1), force=True)
    return fn


def test_the_save_file_sits_between_the_firmwares_file_and_the_games():
    board = Board()
    vol = fat.Volume(board.fl)
    first = savefile._blocks_of(vol, savelog.LOG_PATH)[0]
    assert first % 8 != 0  # the data area starts at an odd sector: nothing is aligned
    lib = savefile._blocks_of(vol, "lib")
    assert lib[0] == board.after  # a folder of the game's starts right after the file
    # Its erase sector is shared with the file's last sectors: the tail guard.
    assert (board.after - 1) // 8 == board.after // 8 or board.after % 8 == 0


def test_every_cut_of_the_first_save_on_a_fresh_drive():
    board = Board()
    start = board.snapshot()
    erased_before = list(board.fl.erases)
    steps, before, after, _ = _cut_every_step(board, start, _save(1))
    assert before != after and steps >= 2 * 8 * 2 + 2  # two groups readied, the record
    # The copy tool wrote the file erased: the first save programs, it erases nothing.
    board.restore(start)
    s = board.saves()
    _save(1)(s)
    assert board.fl.erases == erased_before
    print("cuts of the first save: %d" % steps)


def test_every_cut_of_the_saves_at_the_rings_wrap(monkeypatch):
    """The saves that erase the ring's last group (beside the tail guard and the next
    file), its first group (beside the head guard), and the ones either side of the wrap."""
    monkeypatch.setattr(policy, "_COST_MS", 9000)  # nvm's writes cheap: among the cuts
    board = Board()
    s = board.saves()
    i = 0
    while i < PLACES:  # once round: every erase from now on meets old records
        _save(i)(s)
        i += 1
    total = 0
    last, first = PLACES - 16, PLACES - 8  # entering them erases the last, the first group
    for place in (last, first, PLACES - 1, 0, 1):
        while s._next != place:
            _save(i)(s)
            i += 1
        start = board.snapshot()
        steps, before, after, _ = _cut_every_step(board, start, _save(i, slot=i % 2), like=s)
        assert before != after
        if place in (last, first, 0):
            assert steps >= 2 * 17 + 2, place  # two 4 KB erases ahead, then the record
        total += steps
        board.restore(start)
        s = board.saves(like=s)
        _save(i, slot=i % 2)(s)
        i += 1
    assert s._next == 2
    print("cuts at the ring's wrap: %d" % total)


@pytest.mark.slow
def test_every_cut_of_the_first_save_after_a_restart_at_every_offset():
    """A restart erases two groups on from the newest record: cut, wherever that lies."""
    board = Board()
    s = board.saves()
    i = 0
    while i < PLACES + 3:  # the ring turned over: the erases after a restart are real
        _save(i)(s)
        i += 1
    total = 0
    for offset in range(8):
        while (s._next - 1) % 8 != offset:  # the newest record at this offset in its group
            _save(i)(s)
            i += 1
        start = board.snapshot()
        steps, before, after, _ = _cut_every_step(board, start, _save(i, slot=1))
        assert before != after and steps >= 2 * 17 + 2, offset
        total += steps
        board.restore(start)
        s = board.saves()  # restarted: the saves go on two groups further
        _save(i, slot=1)(s)
        i += 1
    print("cuts of the first save after a restart: %d" % total)


def test_every_cut_of_an_erase_done_ahead_in_a_quiet_moment():
    board = Board()
    s = board.saves()
    i = 0
    while i < PLACES + 9 or s._next % 8:  # the ring turned: erasing ahead meets old records
        _save(i)(s)
        i += 1
    assert s.erase_due()
    start = board.snapshot()

    def quiet(saves):
        assert saves.erase_ahead() and not saves.erase_due()

    steps, before, after, _ = _cut_every_step(board, start, quiet, like=s)
    assert before == after and steps >= 2 * 16 + 2  # two 4 KB erases and their programs
    print("cuts of an erase done ahead: %d" % steps)


def test_every_cut_of_a_save_to_nvm_while_the_drive_is_left_to_usb(monkeypatch):
    """Only nvm takes saves: a cut while it is written keeps the save before it.

    nvm alone takes each record at both its places in one write (policy.Saves._write_nvm):
    a cut in the erase leaves the record before in the second half (the flash model's
    erase, first half first), a cut in the programming the new one in the first page.
    Before, the erase took nvm's last save along and the start went back to the save
    file's, from before the drive was left to USB."""
    monkeypatch.setattr(policy, "_COST_MS", 9000)  # nvm's budget allows a save each time
    board = Board()
    s = board.saves()
    for i in range(5):
        _save(i)(s)
    on_file = state(s)  # the newest save on the read-only file, from before USB mode
    u = board.saves(writable=False)
    _save(6)(u)
    assert not u.files_ok and u.nvm_writes == 1
    in_nvm = state(u)
    mid = board.snapshot()
    steps, before, after, loaded = _cut_every_step(board, mid, _save(7, slot=1),
                                                   writable=False, like=u)
    assert before == in_nvm and steps == 1 + savelog.NVM_SIZE // flash.PAGE
    assert on_file not in loaded and in_nvm in loaded  # the erase kept nvm's last save
    print("cuts of a save to nvm in USB mode: %d" % steps)
