# SPDX-License-Identifier: MIT
"""A game copied by hand (no fcsave/ on CIRCUITPY): nvm alone, through code.py on the simulator.

A file manager, circup or a zip without fcsave/ leaves the game no save file, and the
board never makes one (docs/saves.md, "A hand-copied game"): its saves go to nvm alone,
within nvm's wear budget. The first start tells the player so, and what a power cut then
costs. Its notice and the first deal spend nvm's two writes; a win that follows must still
reach nvm at once (the debt's last write is kept for a win's statistics), so a power cut
right after it keeps the win and the statistics. Before, the win waited for half an hour
of play and a cut lost it.
"""

import os

import pytest

from host_sim import circuitpy, fat, flash
from freecell_mc.rules import deals
from freecell_mc.saves import notices, policy, savelog
from test_notice_sim import ok
from test_screens_sim import run
from test_sim_game import shortest

pytestmark = pytest.mark.usefixtures("no_cut_left_armed")


def _hand_copied(tmp_path):
    """Make the drive a hand copy leaves: the board's files, no save file."""
    folder = tmp_path / "drive"
    folder.mkdir(parents=True)
    vol = fat.Volume.mkfs(flash.Flash(os.path.join(str(folder), circuitpy.IMAGE)))
    circuitpy.install(vol, saves=False)
    vol._sync_fs()
    assert not vol.exists(savelog.LOG_PATH)


def _saves(tmp_path):
    vol = circuitpy.open_drive(str(tmp_path / "drive"))
    nvm = flash.FlashBlock(str(tmp_path / "nvm.bin"), savelog.NVM_SIZE)
    s = policy.Saves(savelog.SaveLog(nvm, savelog.LOG_PATH, fs=vol))
    assert s.load() is None
    return s


@pytest.mark.usefixtures("no_pixels")
def test_a_hand_copied_game_keeps_a_win_and_the_statistics_over_a_cut(tmp_path):
    deal, moves = shortest(4)
    start = (deals.KIND_MS, deal, 4)
    look = tmp_path / "look"
    _hand_copied(look)
    app = run(["expect screen notice"], look, date="2026-11-30", start_deal=start)
    # Told up front: no save file, and what a power cut costs until there is one.
    told = " ".join(app.screen.body.text.split())
    assert told == notices.limited(savelog.NO_FILE, app.saves._blocks)
    assert "a power cut loses up to 30 min" in told
    # The first start played: OK, the win, then the power goes a few seconds later (the
    # script's end: nothing more reaches flash).
    _hand_copied(tmp_path)
    lines = ["expect screen notice", ok(), "expect screen table"]
    lines += ["move " + m for m in moves] + ["expect won", "wait 3000"]
    run(lines, tmp_path, date="2026-11-30", start_deal=start)
    s = _saves(tmp_path)
    assert not s.files_ok and s.files_error == savelog.NO_FILE
    assert s.stats.won == 1 and s.stats.played == 1
    assert s.stats.best_moves == len(moves)
    # The board made no file: CIRCUITPY holds what the hand copy left.
    assert not circuitpy.open_drive(str(tmp_path / "drive")).exists(savelog.LOG_DIR)
    # The restart is quiet (told once) and shows the won game's result.
    app = run(["expect screen result"], tmp_path, date="2026-11-30")
    assert app.saves.stats.won == 1


def test_making_the_save_file_on_the_board_would_harm_what_lies_outside_it():
    """Why the board never makes its save file itself: exact cuts of the making.

    Making the folders and the file allocates clusters: FatFs writes the FAT and the
    folders, and the block layer rewrites each 4 KB erase sector they share with the boot
    sector, the root folder and other files. Cut at every erase of it (a small file of 40
    places: the full one writes the same sectors and more), bytes outside everything the
    making itself changes are lost: the boot sector (the drive no longer mounts), the root
    folder's entries, other files' data. docs/saves.md, "A hand-copied game", says it.
    """
    from host_sim import savefile

    vol = fat.Volume.mkfs(flash.Flash())
    circuitpy.install(vol, saves=False)
    vol._sync_fs()
    fl = vol.flash
    before = bytes(fl.data)
    erases = []
    real = fl.erase_sector

    def logged(addr):
        erases.append((flash.step_count() + 1 - n0, addr // flash.ERASE))
        real(addr)

    fl.erase_sector = logged
    n0 = flash.step_count()
    savefile.install(fat.Volume(fl), 40)
    fl.erase_sector = real
    made = bytes(fl.data)
    changed = {i for i in range(len(before)) if before[i] != made[i]}
    assert erases and 0 in [sector for _, sector in erases]  # the boot sector's own
    harmed = {}
    for step, sector in erases:  # step: counted from the making's first
        fl.data[:] = before
        fl.lose_power()
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            savefile.install(fat.Volume(fl), 40)
        flash.disarm()
        lost = [i for i in range(sector * flash.ERASE, (sector + 1) * flash.ERASE)
                if fl.data[i] != before[i] and i not in changed]
        if lost:
            harmed[sector] = lost[0] // flash.SECTOR
    print("erases of the making: %d; cut, %d harm bytes outside it: sectors %s"
          % (len(erases), len(harmed), sorted(harmed)))
    assert harmed.get(0) == 0  # the boot sector itself: the drive would not mount
    assert len(harmed) >= 2
