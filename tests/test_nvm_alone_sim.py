# SPDX-License-Identifier: MIT
"""nvm as the only place: a power cut at every flash step of every nvm write, through code.py.

A game copied by hand (no save file), a drive whose save file the copy tool refused, and
USB-update mode leave nvm the one place the saves go. nvm is one 8 KB erase block: each
write erases it and programs its 16 pages in order. Alone, a record goes to both of nvm's
places in that one write (policy.Saves._write_nvm), so a cut anywhere in it leaves the
record before it or the new one whole: the statistics, the settings and both games. Before,
a cut in the erase left no record at all (the start then said only that there was no save
file). The drive is never written by the game here: every byte of it is checked.
"""

import pytest

from host_sim import circuitpy, flash, script, sim
from freecell_mc.rules import deals
from freecell_mc.saves import policy, savelog

from test_handcopy_sim import _hand_copied
from test_sim_game import DATE, shortest

pytestmark = pytest.mark.usefixtures("no_cut_left_armed", "no_pixels")


def _kept(saves):
    se, t = saves.settings, saves.stats
    slots = []
    for i in (0, 1):
        s = saves.slot(i)
        slots.append(None if s is None else (s.kind, s.number, s.moves, bytes(s.pos)))
    return ((se.cells, se.four_colour), (t.played, t.won, t.best_moves), slots)


def _load(tmp_path, name):
    """Load the saves a restart finds (on a copy of nvm: a notice's write changes nothing)."""
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    nvm.data[:] = (tmp_path / name / "nvm.bin").read_bytes()
    vol = circuitpy.open_drive(str(tmp_path / name / "drive"))
    s = policy.Saves(savelog.SaveLog(nvm, savelog.LOG_PATH, fs=vol))
    msg = s.load()
    return s, msg


@pytest.mark.slow
def test_every_cut_of_every_nvm_write_of_a_hand_copied_game_keeps_a_whole_record(
        tmp_path, monkeypatch):
    # nvm takes a record at every chance (its wear budget set aside for the test), so a
    # short game makes many nvm writes: the notice told, moves, a win, the statistics.
    monkeypatch.setattr(policy, "_COST_MS", 1000)
    deal, moves = shortest(4)
    path = tmp_path / "play.txt"
    lines = ["expect screen notice", "key enter", "expect screen table"]
    for i, m in enumerate(moves):
        lines.append("move " + m)
        if i % 8 == 7:
            lines.append("wait 3000")
    lines += ["expect won", "wait 3000"]
    path.write_text("\n".join(lines) + "\n")
    records = []  # the record of every completed nvm write, in order
    real = policy.Saves._write_nvm

    def spy(self, alone):
        records.append(None)
        real(self, alone)
        records[-1] = _kept(self)  # completed

    monkeypatch.setattr(policy.Saves, "_write_nvm", spy)

    def run(name, cut=None):
        _hand_copied(tmp_path / name)
        drive = tmp_path / name / "drive"
        image = (drive / circuitpy.IMAGE).read_bytes()
        s = sim.Simulator(headless=True, nvm_path=str(tmp_path / name / "nvm.bin"),
                          drive=str(drive), date=DATE, start_deal=(deals.KIND_MS, deal, 4),
                          script=script.load(str(path)))
        try:
            if cut is None:
                n0 = flash.step_count()
                assert s.run() == 0, s.failure
                return flash.step_count() - n0, image
            flash.arm_cut(cut)
            with pytest.raises(flash.PowerCut):
                s.run()
            return None, image
        finally:
            flash.disarm()
            s.close()

    steps, _ = run("whole")
    whole = list(records)
    assert len(whole) >= 6 and all(r is not None for r in whole)
    assert steps == len(whole) * (1 + savelog.NVM_SIZE // flash.PAGE)  # nvm's steps alone
    per = 1 + savelog.NVM_SIZE // flash.PAGE  # an erase and 16 page programs
    # Every step of the first two writes (the notice told, the first play) and of the last
    # (the win's statistics); the writes between are the same write with other moves.
    chosen = [k for k in range(1, len(whole) + 1) if k <= 2 or k == len(whole)]
    cuts = [(k - 1) * per + i for k in chosen for i in range(1, per + 1)]
    kept_before = 0
    for cut in cuts:
        records.clear()
        name = "c%d" % cut
        _, image = run(name, cut)
        # The game wrote nothing to CIRCUITPY: every byte of the drive is as it was.
        assert (tmp_path / name / "drive" / circuitpy.IMAGE).read_bytes() == image, cut
        done = [r for r in records if r is not None]
        cut_write = len(records)  # the write the cut fell in (1-based)
        saves, _ = _load(tmp_path, name)
        got = _kept(saves)
        allowed = [whole[cut_write - 1]]  # the new record, whole
        if cut_write > 1:
            allowed.append(whole[cut_write - 2])  # or the one before it
        assert got in allowed, "cut %d (nvm write %d) lost the saves" % (cut, cut_write)
        assert done == whole[: len(done)]
        kept_before += got != whole[cut_write - 1]
    print("cuts of %d of the game's %d nvm writes: %d, the record before kept at %d of "
          "them, none lost" % (len(chosen), len(whole), len(cuts), kept_before))
    # Each later write's erase: the record before, whole. (Before the first there is none:
    # the fresh start, which holds what the first record holds of what is counted here.)
    assert kept_before == len(chosen) - 1
