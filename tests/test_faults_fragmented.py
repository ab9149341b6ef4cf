# SPDX-License-Identifier: MIT
"""A drive whose free space is in pieces: no save may damage another file.

120 small files are copied onto CIRCUITPY and every other one deleted; the copy tool then
writes the save file in its order (tools/copy_to_board.py, host_sim/savefile.py), and the
drive's FAT drivers fill the holes first: the file lands in pieces, its record places
sharing 4 KB erase sectors with other files. A save erases those sectors, and a cut during
that erase destroys the neighbours' data: the first test cuts the erases a start makes on
such a file, through code.py, and finds other files damaged.

So the copy tool reads the FAT where it can and refuses such a file (removes what it made,
and says so): the game then saves to nvm alone and tells the player. Through code.py on
that drive, the power is cut at every flash step of a short game's saves: after each cut
every byte of CIRCUITPY (the FAT, every folder, every other file) is what it was.
"""

import pytest

from host_sim import circuitpy, fat, flash, savefile, sim
from freecell_mc.saves import savelog
from test_notice_sim import ok

pytestmark = pytest.mark.usefixtures("no_cut_left_armed", "no_pixels")

DATE = "2026-11-30"


def _fragmented(folder):
    """Make the drive: the board's files, 120 small files with every other deleted, then
    the save file as the copy tool writes it; return the Volume."""
    folder.mkdir(parents=True)
    vol = circuitpy.open_drive(str(folder), populate=False)
    circuitpy.install(vol, saves=False)
    for i in range(120):
        with vol.open("n%03d.txt" % i, "wb") as f:
            f.write(bytes((i,)) * 1500)
    for i in range(0, 120, 2):
        vol.remove("n%03d.txt" % i)
    vol = fat.Volume(vol.flash)  # mounted again: FatFs looks for free clusters from the start
    savefile.install(vol)
    vol._sync_fs()
    return vol


def _run(drive, nvm, script):
    return sim.main(["--headless", "--quiet", "--date", DATE, "--nvm", str(nvm), "--drive",
                     str(drive), "--script", str(script)])


def _image(drive):
    return (drive / circuitpy.IMAGE).read_bytes()


def _others(vol):
    """Return {path: bytes} of the small files left (the neighbours a save could harm)."""
    out = {}
    for i in range(1, 120, 2):
        with vol.open("n%03d.txt" % i, "rb") as f:
            out["n%03d.txt" % i] = f.read()
    return out


def test_saves_into_a_file_in_pieces_damage_the_files_beside_it(tmp_path):
    drive, nvm = tmp_path / "drive", tmp_path / "nvm.bin"
    vol = _fragmented(drive)
    problems = savefile.layout_problems(vol)
    assert problems and "not in one run" in problems[0]
    # A ring that turned: every place has been written (here with what is no record).
    with vol.open(savelog.LOG_PATH, "r+b") as f:
        f.seek(savelog.GUARD * savelog.SECTOR)
        f.write(bytes(savelog.RING * savelog.SECTOR))
    vol._sync_fs()
    others = _others(vol)
    start = _image(drive)
    script = tmp_path / "start.txt"
    script.write_text("wait 3000\n")
    # The start erases the two groups ahead of the writer: cut at every step of it.
    erases = []
    real = flash.Flash.erase_sector

    def logged(self, addr):
        erases.append(flash.step_count() + 1)
        real(self, addr)

    flash.Flash.erase_sector = logged
    try:
        n0 = flash.step_count()
        assert _run(drive, nvm, script) == 0
    finally:
        flash.Flash.erase_sector = real
    assert erases
    damaged = 0
    cuts = [e + i for e in erases for i in range(17)]  # each erase and its 16 page programs
    for step in cuts:
        (drive / circuitpy.IMAGE).write_bytes(start)
        if nvm.exists():
            nvm.unlink()
        flash.arm_cut(step - n0)  # counted from the start of the run, as above
        with pytest.raises(flash.PowerCut):
            _run(drive, nvm, script)
        flash.disarm()
        if _others(circuitpy.open_drive(str(drive))) != others:
            damaged += 1
    print("erases at the start: %d; of %d cuts, %d damaged other files"
          % (len(erases), len(cuts), damaged))
    assert damaged > 0


def test_every_cut_on_a_fragmented_drive_whose_save_file_was_refused(tmp_path):
    drive, nvm = tmp_path / "drive", tmp_path / "nvm.bin"
    vol = _fragmented(drive)
    assert savefile.layout_problems(vol)
    # The copy tool's refusal (tools/copy_to_board.py refuse_saves): what it made goes.
    vol.remove(savelog.LOG_PATH)
    vol.remove(savelog.SPACER_PATH)
    vol._sync_fs()
    start = _image(drive)
    script = tmp_path / "play.txt"
    script.write_text("\n".join(["expect screen notice", ok(), "expect screen table",
                                 "move 1a", "move 2b", "wait 3000", "move 3c", "wait 3000"])
                      + "\n")
    n0 = flash.step_count()
    assert _run(drive, nvm, script) == 0
    steps = flash.step_count() - n0
    assert _image(drive) == start  # the game wrote nothing on CIRCUITPY
    assert steps >= 17  # nvm's writes: the notice's record, then the game's
    for step in range(1, steps + 1):
        (drive / circuitpy.IMAGE).write_bytes(start)
        if nvm.exists():
            nvm.unlink()
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            _run(drive, nvm, script)
        flash.disarm()
        # The FAT, every folder, every other file: byte for byte what they were.
        assert _image(drive) == start, step
