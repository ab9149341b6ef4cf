# SPDX-License-Identifier: MIT
"""Power cuts at every step of every save write: a restart always finds the last completed save.

A scripted session (a free game played move by move, a daily game beside it, statistics,
settings, a won game, the USB-update flag) commits after every step. For each commit and
each low-level flash step of its write (every erase, every page program, every directory
update), the test restores the flash as it was before that commit, replays the step on a
freshly loaded Saves, cuts the power at that flash step, and loads again. The loaded state
must be exactly the last completed save or, when the cut came after the new record was
complete, exactly the new one; both slots, the statistics and the settings included.
"""

import pytest

from host_sim import flash, hardware
from freecell_mc.hardware import boot
from freecell_mc.rules import deals
from freecell_mc.saves import policy
from freecell_mc.rules.engine import Game

pytestmark = pytest.mark.usefixtures("no_cut_left_armed")


class _Pos:
    """A game as put_slot sees it: a position and a move count."""

    def __init__(self, pos, moves):
        self.pos = bytearray(pos)
        self.moves = moves


def _play(seed, n):
    """Return n+1 positions of a deterministic game from deal seed (every legal first target)."""
    g = Game()
    g.deal(deals.seeded_deck(seed))
    out = [_Pos(g.pos, 0)]
    x = seed or 1
    while len(out) <= n:
        moved = False
        for _ in range(16):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            src = (x >> 8) % 12
            if not g.top(src):
                continue
            mask = g.targets(src, 1)
            if mask:
                dst = (mask & -mask).bit_length() - 1
                moved = g.move(src, dst, 1)
                if moved:
                    break
        if not moved:
            g.undo()
        out.append(_Pos(g.pos, g.moves))
    return out


FREE = _play(7, 14)
DAILY = _play(20261130, 6)


def _script():
    """Return the session: a list of (name, fn(saves)) steps, each followed by a commit."""
    steps = []
    for i in range(8):
        steps.append(("free move %d" % i, lambda s, i=i: s.put_slot(0, 1, 7, 4, FREE[i], 3 * i)))
    steps.append(("start counted", lambda s: s.stats.record_start()))
    for i in range(5):
        steps.append(
            ("daily move %d" % i, lambda s, i=i: s.put_slot(1, 2, 20261130, 4, DAILY[i], 2 * i))
        )
    steps.append(("cells 3", lambda s: setattr(s.settings, "cells", 3)))
    for i in range(8, 12):
        steps.append(("free move %d" % i, lambda s, i=i: s.put_slot(0, 1, 7, 4, FREE[i], 3 * i)))

    def win(s):
        s.stats.record_win(300, 90)
        s.stats.mark_day_won(2026, 11, 30)
        s.clear_slot(1)

    steps.append(("daily won", win))
    steps.append(("four colours", lambda s: setattr(s.settings, "four_colour", True)))
    steps.append(("usb updates on", lambda s: setattr(s.settings, "usb_writable", True)))
    steps.append(("usb updates off", lambda s: setattr(s.settings, "usb_writable", False)))
    for i in range(12, 15):
        steps.append(("free move %d" % i, lambda s, i=i: s.put_slot(0, 1, 7, 4, FREE[i], 3 * i)))
    return steps


def state(s):
    """Return everything a restart must restore, as comparable values."""
    st = s.stats
    slots = []
    for i in (0, 1):
        v = s.slot(i)
        slots.append(
            None
            if v is None
            else (v.kind, v.number, v.cells, bytes(v.pos), v.moves, v.elapsed)
        )
    return (
        (s.settings.cells, s.settings.takeback, s.settings.four_colour, s.settings.usb_writable),
        (st.played, st.won, st.won_seconds, st.won_moves, st.best_seconds, st.best_moves),
        (st.days_won, st.day_won(2026, 11, 30)),
        tuple(slots),
    )


def _snapshot(blocks):
    """Return a copy of every block's physical contents."""
    return [(bytes(b.data), getattr(b, "present", True)) for b in blocks]


def _restore(blocks, snap):
    """Put the physical contents back as they were at the snapshot."""
    for b, (data, present) in zip(blocks, snap):
        b.data[:] = data
        if hasattr(b, "present"):
            b.present = present


def _steps_of_commit(blocks, snap, fn, now):
    """Return how many low-level flash steps the commit after fn takes from snap."""
    _restore(blocks, snap)
    s = policy.Saves(blocks)
    assert s.load() is None
    fn(s)
    before = flash.step_count()
    assert s.commit(now, force=True)
    return flash.step_count() - before


def _run_all_cuts(blocks, nvm_cost_ms=None, monkeypatch=None):
    """Cut the power at every step of every commit of the script; return cuts made."""
    if nvm_cost_ms is not None:
        monkeypatch.setattr(policy, "_COST_MS", nvm_cost_ms)
    s = policy.Saves(blocks)
    assert s.load() is None
    expected = state(s)
    cuts = 0
    now = 0
    kinds = set()
    for name, fn in _script():
        now += 9000
        snap = _snapshot(blocks)
        n = _steps_of_commit(blocks, snap, fn, now)
        assert n > 0, name
        new_state = None
        for step in range(1, n + 1):
            _restore(blocks, snap)
            s = policy.Saves(blocks)
            assert s.load() is None
            fn(s)
            if new_state is None:
                new_state = state(s)
            flash.arm_cut(step)
            with pytest.raises(flash.PowerCut):
                s.commit(now, force=True)
            flash.disarm()
            cuts += 1
            r = policy.Saves(blocks)
            msg = r.load()
            got = state(r)
            assert got in (expected, new_state), (name, step)
            # A cut that leaves the new record whole (the erased tail of nvm, say) may
            # load it; anything else must be the last completed save, untouched.
            kinds.add(got == new_state)
            assert msg is None, (name, step, msg)
        # Now let the commit complete, and move on.
        _restore(blocks, snap)
        s = policy.Saves(blocks)
        assert s.load() is None
        fn(s)
        assert s.commit(now, force=True)
        expected = state(s)
        r = policy.Saves(blocks)
        assert r.load() is None
        assert state(r) == expected, name
    assert False in kinds  # some cuts did roll back to the previous save
    return cuts


def test_every_cut_of_every_write_keeps_the_last_save_ring_of_four(monkeypatch):
    """Files on CIRCUITPY plus nvm (its writes made cheap: it takes most): every cut is survived."""
    blocks = hardware.sim_blocks(ring=4)
    cuts = _run_all_cuts(blocks, nvm_cost_ms=1000, monkeypatch=monkeypatch)
    assert blocks[0].erase_count > 0  # nvm took part (backups and the USB flag)
    assert cuts > 300


@pytest.mark.slow
def test_every_cut_with_the_device_ring(monkeypatch):
    """The same with the device's full ring and backup schedule."""
    blocks = hardware.sim_blocks()
    cuts = _run_all_cuts(blocks, monkeypatch=monkeypatch)
    assert cuts > 300


def test_cuts_on_disk_persist_the_damage(tmp_path, monkeypatch):
    """Blocks backed by files: the partial state is on disk and a fresh process recovers."""
    drive = tmp_path / "CIRCUITPY"
    nvm = tmp_path / "nvm.bin"
    blocks = hardware.sim_blocks(str(drive), str(nvm), ring=3)
    s = policy.Saves(blocks)
    s.load()
    s.put_slot(0, 1, 7, 4, FREE[1], 10)
    s.put_slot(1, 2, 20261130, 4, DAILY[2], 20)
    s.stats.record_start()
    assert s.commit(0, force=True)
    want = state(s)
    for step in range(1, 12):
        blocks = hardware.sim_blocks(str(drive), str(nvm), ring=3)
        s = policy.Saves(blocks)
        assert s.load() is None
        s.put_slot(0, 1, 7, 4, FREE[step + 2], 99 + step)
        new = state(s)
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            s.commit(1000, force=True)
        flash.disarm()
        # A new "process": everything comes back from the files on disk.
        again = policy.Saves(hardware.sim_blocks(str(drive), str(nvm), ring=3))
        assert again.load() is None
        got = state(again)
        assert got in (want, new), step
        want = got


def test_read_only_drive_falls_back_to_nvm():
    """CIRCUITPY left to the computer: saves go to nvm within its budget, and Settings says so."""
    blocks = hardware.sim_blocks(ring=4, writable=False)
    s = policy.Saves(blocks)
    assert s.load() is None
    s.settings.usb_writable = True
    s.put_slot(0, 1, 7, 4, FREE[3], 30)
    assert s.commit(0, force=True)
    assert not s.files_ok and s.limit_reason() == "USB mode: saves limited"
    assert blocks[0].erase_count == 1
    # A fresh start's credit holds one more write: the next change takes it.
    s.put_slot(0, 1, 7, 4, FREE[4], 40)
    assert s.commit(2000, force=True) and blocks[0].erase_count == 2
    # Then nothing reaches nvm (wear) until half an hour of play has paid for a write.
    s.put_slot(0, 1, 7, 4, FREE[5], 50)
    t = 4000
    assert not s.commit(t, force=True) and s.pending()
    while blocks[0].erase_count == 2:
        t += 1000
        s.put_slot(0, 1, 7, 4, FREE[5 + t // 1000 % 2], t // 1000)  # a move every second
        s.commit(t)
    assert policy.NVM_COST_S * 1000 <= t <= policy.NVM_COST_S * 1000 + 10000
    r = policy.Saves(blocks)
    assert r.load() is None
    assert r.slot(0).pos == s.slot(0).pos


def test_usb_flag_reaches_nvm_at_once_even_read_only():
    """Switching back to game writes must reach boot.py even when only nvm is writable."""
    blocks = hardware.sim_blocks(ring=2, writable=False)
    s = policy.Saves(blocks)
    s.load()
    s.settings.usb_writable = True
    assert s.commit(0, force=True)
    assert boot.read_usb_flag(blocks) is True
    s.settings.usb_writable = False
    assert s.commit(1000, force=True)  # within NVM_MIN_MS, still written: boot needs it
    assert boot.read_usb_flag(blocks) is False


def test_read_only_cuts_never_crash_and_fall_back_to_older():
    """With nvm alone a cut can lose the newest save (documented); it never crashes."""
    blocks = hardware.sim_blocks(ring=2, writable=False)
    s = policy.Saves(blocks)
    s.load()
    s.put_slot(0, 1, 7, 4, FREE[1], 1)
    assert s.commit(0, force=True)
    snap = _snapshot(blocks)
    for step in range(1, 18):
        _restore(blocks, snap)
        s = policy.Saves(blocks)
        s.load()
        s.put_slot(0, 1, 7, 4, FREE[2], 2)
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            s.commit(3600000, force=True)
        flash.disarm()
        r = policy.Saves(blocks)
        msg = r.load()
        assert msg in (None, policy.MSG_UNREADABLE)


def test_a_file_lost_in_a_cut_is_recreated_and_every_cut_of_that_is_survived():
    """A cut in the directory update loses a file; the next save recreates it, safely."""
    blocks = hardware.sim_blocks(ring=3)
    s = policy.Saves(blocks)
    s.load()
    for i in range(2):
        s.put_slot(0, 1, 7, 4, FREE[i + 1], i)
        assert s.commit(i, force=True)
    before = state(s)
    s.put_slot(0, 1, 7, 4, FREE[3], 9)
    flash.arm_cut(10)  # erase, 8 pages, then the directory sector's erase
    with pytest.raises(flash.PowerCut):
        s.commit(5, force=True)
    flash.disarm()
    assert not blocks[3].present  # the third file is gone
    r = policy.Saves(blocks)
    assert r.load() is None and state(r) == before
    snap = _snapshot(blocks)
    for step in range(1, 12):
        _restore(blocks, snap)
        t = policy.Saves(blocks)
        assert t.load() is None
        t.put_slot(0, 1, 7, 4, FREE[4], 11)
        new = state(t)
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            t.commit(9, force=True)
        flash.disarm()
        u = policy.Saves(blocks)
        assert u.load() is None
        assert state(u) in (before, new), step
    _restore(blocks, snap)
    t = policy.Saves(blocks)
    t.load()
    t.put_slot(0, 1, 7, 4, FREE[4], 11)
    assert t.commit(9, force=True)
    assert blocks[3].present  # recreated in its place in the ring
