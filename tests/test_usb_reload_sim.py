# SPDX-License-Identifier: MIT
"""USB-update mode: the computer copies files onto CIRCUITPY while the game runs.

Each block the computer writes triggers CircuitPython's auto-reload, which raises
ReloadException in code.py (supervisor/shared/usb/usb_msc_flash.c, reload.c). The game lets
it end code.py there, since it holds no file open for writing in this mode and the close of
its read-only handle changes nothing; CircuitPython runs code.py again once the computer
has written nothing for 750 ms. Before, the game took the reload for a fault and reset the
board three seconds later: USB went down with it, and the computer's folder entries and FAT,
written back after the data, never reached the drive.

Through the real code.py on the simulator (host_sim/usbhost.py is the computer): the copy
lands whole and the game goes on from its saves; the old reset loses the copy; and a power
cut at every flash step from the computer's first write to the game's restart changes no
byte that the computer's own writes, cut at the same point, would not have changed, and
the saves load whole after each.
"""

import pytest

from host_sim import circuitpy, flash, hardware, sim, usbhost
from freecell_mc.rules import deals, notation
from freecell_mc.rules.engine import Game
from freecell_mc.saves import policy, record, savelog

from test_sim_game import DATE

pytestmark = pytest.mark.usefixtures("no_cut_left_armed", "no_pixels")

# An update as a maker copies one: a compiled module and a text file (8.3 names: the
# simulated drive knows no long names).
FILES = {
    "lib/fcupdate.mpy": bytes(range(256)) * 9,
    "notes.txt": b"FreeCell MC update\n" * 60,
}
COPY_AT_MS = 3000  # the computer starts copying this long into the game


class _Pos:
    def __init__(self, game):
        self.pos = bytes(game.pos)
        self.moves = game.moves


def _usb_mode_drive(tmp_path, name="board"):
    """Return (drive, nvm) of a board in USB-update mode with a daily game of 3 moves."""
    drive = tmp_path / name / "drive"
    nvm = tmp_path / name / "nvm.bin"
    drive.mkdir(parents=True)
    s = policy.Saves(hardware.drive_blocks(drive, str(nvm)))
    assert s.load() is None
    s.settings.usb_writable = True
    g = Game()
    g.deal(deals.seeded_deck(deals.daily_seed(2026, 11, 30)))
    for m in ("1a", "2b", "3c"):
        g.move(*notation.resolve_move(g, m))
    s.put_slot(record.SLOT_DAILY, deals.KIND_DAILY, 20261130, 4, _Pos(g), 77)
    s.set_told(record.TOLD_LIMITED, True)
    assert s.commit(0, force=True)
    return drive, nvm


def _script(tmp_path):
    path = tmp_path / "play.txt"
    # The daily game taken up in USB mode, the board left alone while the computer copies;
    # then the game is there again as it was saved (nvm's record: in this mode saves go
    # to nvm alone, within its budget).
    path.write_text("expect screen table\nexpect moves 3\nwait 12000\n"
                    "expect screen table\nexpect moves 3\n")
    return path


def _run(drive, nvm, script_path, files=FILES, at_ms=COPY_AT_MS, rate=None):
    """Run code.py with the computer copying files at at_ms; return the Simulator."""
    from host_sim import script as script_mod

    s = sim.Simulator(headless=True, nvm_path=str(nvm), drive=str(drive), date=DATE,
                      script=script_mod.load(str(script_path)))
    real = s.touch_read

    def touch_read():
        if s.computer is None and s.phase == "code" and s.clock.ms() >= at_ms:
            kw = {} if rate is None else {"blocks_per_ms": rate}
            s.computer = usbhost.Computer(s, files, **kw)
        return real()

    s.touch_read = touch_read
    return s


def _files_on(drive):
    vol = circuitpy.open_drive(str(drive))
    out = {}
    for path in FILES:
        try:
            with vol.open(path, "rb") as f:
                out[path] = f.read()
        except OSError:
            out[path] = None
    return out


def test_a_reload_in_usb_mode_ends_code_py_and_the_copy_lands_whole(tmp_path):
    drive, nvm = _usb_mode_drive(tmp_path)
    s = _run(drive, nvm, _script(tmp_path))
    try:
        assert s.run() == 0, s.failure
        assert s.drive_readonly  # USB mode: boot.py left the drive to the computer
        assert s.resets == 0  # no reset under the computer's copy
        assert s.reloads >= 1  # code.py stopped by the auto-reload, and ran again
        c = s.computer
        assert c.idle() and c.lost == 0 and c.sent == c.total
    finally:
        s.close()
    assert _files_on(drive) == FILES
    saves = policy.Saves(hardware.drive_blocks(drive, str(nvm)))
    assert saves.load() is None
    assert saves.settings.usb_writable


def test_the_old_reset_under_the_copy_lost_the_computer_s_folder_entries(tmp_path,
                                                                         monkeypatch):
    # The game's old answer to the reload, kept today where the save file was written
    # through (its close would rewrite the file's entry): a calm screen, then a reset.
    monkeypatch.setattr(savelog.SaveLog, "writing", property(lambda self: True,
                                                             lambda self, v: None),
                        raising=False)
    drive, nvm = _usb_mode_drive(tmp_path)
    s = _run(drive, nvm, _script(tmp_path))
    try:
        assert s.run() == 0, s.failure
        assert s.resets == 1 and s.reloads == 0
        assert s.computer.lost > 0  # the FAT and the folder entries were still to come
    finally:
        s.close()
    assert _files_on(drive) == {path: None for path in FILES}  # the copy is not on the drive


def test_the_reload_s_end_of_code_py_closes_nothing_that_writes(tmp_path):
    # In USB mode the game never holds the save file open for writing: its end closes a
    # handle opened for reading, and the drive's chip takes no step but the computer's.
    drive, nvm = _usb_mode_drive(tmp_path)
    s = _run(drive, nvm, _script(tmp_path))
    ends = []
    real_end = s._end_vm

    def end_vm():
        vol = s.volume()
        entry = vol._resolve(savelog.LOG_PATH)[3][0]  # the block of the file's entry
        before = vol.flash.read_block(entry)
        ends.append(([f.writable for f in vol.open_files], len(vol.open_files)))
        real_end()
        assert vol.flash.read_block(entry) == before  # the entry is not rewritten

    s._end_vm = end_vm
    try:
        assert s.run() == 0, s.failure
    finally:
        s.close()
    assert len(ends) == s.reloads >= 1  # each reload (the script's end is a power cut)
    for writable, _ in ends:
        assert not any(writable)  # at most the save file, opened to read it


def _snapshot(drive, nvm):
    return (drive / circuitpy.IMAGE).read_bytes(), nvm.read_bytes()


def _restore(drive, nvm, snap):
    (drive / circuitpy.IMAGE).write_bytes(snap[0])
    nvm.write_bytes(snap[1])


SECTOR_4K = 4096


@pytest.mark.slow
def test_every_cut_from_the_computer_s_first_write_to_the_restart(tmp_path):
    small = {"notes.txt": b"FreeCell MC update\n" * 40}
    drive, nvm = _usb_mode_drive(tmp_path)
    snap = _snapshot(drive, nvm)
    path = _script(tmp_path)
    seen = {}

    def run(cut=None):
        _restore(drive, nvm, snap)
        s = _run(drive, nvm, path, files=small, rate=1.0)
        real = s.touch_read

        def touch_read():
            if s.computer is None and s.phase == "code" and s.clock.ms() >= COPY_AT_MS:
                seen["image"] = usbhost.drive_bytes(s.volume().flash)
                seen["start"] = flash.step_count()
                if cut is not None:
                    flash.arm_cut(cut)
            return real()

        s.touch_read = touch_read
        return s

    s = run()
    try:
        assert s.run() == 0, s.failure
        blocks = dict(s.computer.data + s.computer.meta)
        steps = flash.step_count() - seen["start"]
    finally:
        s.close()
    assert s.reloads >= 1 and steps > 0
    before = seen["image"]
    touched = {b * 512 // SECTOR_4K for b in blocks}  # the erase sectors the copy writes
    unmountable = []
    told = []
    for cut in range(1, steps + 1):
        s = run(cut)
        try:
            with pytest.raises(flash.PowerCut):
                s.run()
        finally:
            flash.disarm()
            s.close()
        after = (drive / circuitpy.IMAGE).read_bytes()
        for b in range(len(after) // 512):
            got = after[b * 512 : (b + 1) * 512]
            old = before[b * 512 : (b + 1) * 512]
            if b * 512 // SECTOR_4K in touched:
                # The computer's own writes: the old bytes, its bytes, or (where the cut
                # fell in its erase or program) what that half-done step left.
                continue
            assert got == old, "cut %d changed block %d, which the copy never writes" % (cut, b)
        try:
            blocks = hardware.drive_blocks(drive, str(nvm))
        except OSError:
            # The cut fell in the computer's write of the sector holding the boot sector
            # and the FAT: the board would format the drive (CircuitPython's
            # filesystem_init), whoever else runs on it. nvm keeps the game.
            unmountable.append(cut)
            blocks = [flash.FlashBlock(str(nvm), savelog.NVM_SIZE)]
        saves = policy.Saves(blocks)
        if saves.load() is not None:
            # Told: the computer's cut write took the save file's folder entry with it (its
            # root folder shares that 4 KB erase sector), and the start goes on from nvm.
            told.append(cut)
        slot = saves.slot(record.SLOT_DAILY)
        assert slot is not None and slot.moves == 3, cut
        assert saves.settings.usb_writable, cut
    print("cuts from the computer's first write to the restart: %d; the computer's own "
          "writes left the drive unmountable at %d and took the save file at %d of them; "
          "the game was whole after every one" % (steps, len(unmountable), len(told)))
