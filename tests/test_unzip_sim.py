# SPDX-License-Identifier: MIT
"""What is left after a release unzipped by hand: the first start rewrites boot_out.txt once.

CircuitPython writes boot_out.txt at a start whose text (its own version line, the board's
name and the chip's UID, then "boot.py output:" and what boot.py prints) differs from what
the file holds (main.c, run_boot_py). A drive that never ran the game's boot.py holds the
firmware's lines alone, so the first start after the zip is unzipped rewrites it: FatFs
frees and allocates its cluster and rewrites its entry, and the block layer erases the 4 KB
sectors holding the boot sector and the FAT, and the root folder. No zip can hold the text
the board will write (the UID is the chip's own); the copy tool writes it from the
computer, so a board it copied to rewrites nothing (tests/test_boot_out.py).

Through code.py on the simulator: every flash step of that rewrite is cut, and every byte of
the drive the rewrite itself does not change is compared; the figures are docs/saves.md's.
"""

import pytest

from host_sim import circuitpy, flash, script, sim
from freecell_mc.saves import savelog
from tools import cptools, release

from test_cptools import CP10, fake_compiler

pytestmark = pytest.mark.usefixtures("no_cut_left_armed", "no_pixels")


@pytest.fixture(scope="module")
def zip_10x(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("release")
    exe = fake_compiler(tmp / "mpy-cross-10.x", CP10, cptools.MPY_HEADER["10.x"])
    return release.mpy_zip(tmp / "dist", "t1", exe, "10.x", log=open("/dev/null", "w"))


def _start(zip_path, folder, cut=None, image=None):
    """Start a board whose drive had the zip unzipped onto it (image: that drive's bytes,
    made once; None unzips afresh), cut at step `cut` of its start; return (the drive's
    bytes before the start, [flash steps of boot's phase], the Simulator)."""
    drive = folder / "drive"
    drive.mkdir(parents=True)
    if image is not None:
        (drive / circuitpy.IMAGE).write_bytes(image)
    path = folder / "s.txt"
    path.write_text("wait 100\n")
    s = sim.Simulator(headless=True, drive=str(drive), nvm_path=str(folder / "nvm.bin"),
                      release=str(zip_path), date="2026-12-02", script=script.load(str(path)))
    before = bytes(s.volume().flash.data)  # the unzip, before the board starts
    n0 = flash.step_count()
    steps = [None]
    real = s._run_boot

    def run_boot():
        real()
        steps[0] = flash.step_count() - n0

    s._run_boot = run_boot
    if cut is not None:
        flash.arm_cut(cut)
    return before, steps, s


def _changed(a, b):
    """Return the offsets of the bytes that differ between two drive images."""
    out = set()
    for at in range(0, len(a), 4096):
        if a[at : at + 4096] != b[at : at + 4096]:
            out.update(i for i in range(at, at + 4096) if a[i] != b[i])
    return out


def _mounts(data):
    from host_sim.fat import Volume

    fl = flash.Flash()
    fl.data[:] = data
    try:
        vol = Volume(fl)
        return vol.exists(savelog.LOG_PATH), vol
    except OSError:
        return False, None


@pytest.mark.slow
def test_every_cut_of_the_first_starts_rewrite_of_boot_out_txt(zip_10x, tmp_path):
    before, steps, s = _start(zip_10x, tmp_path / "whole")
    try:
        assert s.run() == 0, s.failure
        after = bytes(s.volume().flash.data)
    finally:
        s.close()
    assert s.boot_out_writes == 1 and steps[0] > 0
    erases = steps[0]
    changed = _changed(before, after)
    damaged = unmountable = lost_saves = 0
    for cut in range(1, steps[0] + 1):
        _, _, s = _start(zip_10x, tmp_path / ("c%d" % cut), cut, before)
        try:
            with pytest.raises(flash.PowerCut):
                s.run()
        finally:
            flash.disarm()
            s.close()
        data = (tmp_path / ("c%d" % cut) / "drive" / circuitpy.IMAGE).read_bytes()
        damaged += bool(_changed(before, data) - changed)
        has_saves, vol = _mounts(data)
        unmountable += vol is None
        lost_saves += vol is not None and not has_saves
    print("the first start after a hand unzip: boot_out.txt rewritten once, %d flash steps; "
          "cut at each, %d damage bytes the rewrite does not write, %d leave the drive "
          "unmountable, %d lose the save file's folder entry" % (erases, damaged, unmountable,
                                                                 lost_saves))
    assert damaged > 0  # the residue docs/saves.md states: the zip cannot prevent it
    assert erases == steps[0]


def test_the_copy_tools_drive_starts_without_a_rewrite(tmp_path):
    # The same first start on the drive the copy tool leaves (host_sim.circuitpy.install
    # writes boot_out.txt as the board will): nothing rewritten, no flash step at boot.
    path = tmp_path / "s.txt"
    path.write_text("wait 100\n")
    drive = tmp_path / "drive"
    drive.mkdir()
    s = sim.Simulator(headless=True, drive=str(drive), date="2026-12-02",
                      script=script.load(str(path)))
    s.volume()
    n0 = flash.step_count()
    real = s._run_boot
    steps = []

    def run_boot():
        real()
        steps.append(flash.step_count() - n0)

    s._run_boot = run_boot
    try:
        assert s.run() == 0, s.failure
    finally:
        s.close()
    assert s.boot_out_writes == 0 and steps == [0]
