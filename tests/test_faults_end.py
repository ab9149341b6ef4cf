# SPDX-License-Identifier: MIT
"""code.py's end never loses the save file: the board resets instead of ending code.py.

When code.py ends (a reload, an error, Ctrl-C), CircuitPython's finalisers close every open
file (main.c stop_mp, gc_deinit, gc_sweep_all; extmod/vfs_fat_file.c __del__ is f_close).
Every f_write sets FA_MODIFIED (lib/oofatfs/ff.c, unconditionally, even for 0 bytes), and
f_sync of a modified file rewrites its directory entry with a new time and syncs: the block
layer erases the entry's 4 KB sector (external_flash.c compares nothing). So a save file
written through is rewritten at every end of code.py, and a cut in that rewrite loses its
entry: the first test cuts every flash step of it and finds the file lost.

The game therefore never lets code.py end: a fault, Ctrl-C or a reload reaching app.main()
goes to hardware/source.py `fault`, which resets the board (microcontroller.reset(): the
block layer's cache flushed, no finaliser, nothing closed; ports/atmel-samd/reset.c). The
simulator models both ends (host_sim/fat.py `finalise` and `reset`). Through the real
code.py: Ctrl-C in play, and a fault mid-erase, cut at every flash step from the fault to
the restart; every byte of the drive outside the save file, the FAT and every other file
included, is what it was, the directory entry too, and the save loads.
"""

import pytest

from host_sim import circuitpy, fakes, fat, flash, savefile, script, sim
from freecell_mc.saves import policy, savelog

from test_faults import state
from test_faults_drive import Board, _save
from test_sim_game import DATE

pytestmark = pytest.mark.usefixtures("no_cut_left_armed")


def _entry_block(vol):
    """Return the flash block holding the save file's directory entry."""
    return vol._resolve(savelog.LOG_PATH)[3][0]


def test_closing_a_written_save_file_at_code_py_s_end_can_lose_it():
    # What the reset avoids: the finalisers' f_close of the handle the saves wrote through.
    board = Board()
    s = board.saves()
    for i in range(3):
        _save(i)(s)
    start = board.snapshot()

    def play(saves):
        _save(3)(saves)  # the handle writes: FA_MODIFIED
        return state(saves)

    def end(saves):
        saves._blocks.fs.finalise()  # code.py ends: every open file is closed

    s = board.saves()
    kept = play(s)
    n0 = flash.step_count()
    end(s)
    steps = flash.step_count() - n0
    assert steps == 17  # one 4 KB erase and its 16 page programs: the entry's sector
    lost = 0
    for step in range(1, steps + 1):
        board.restore(start)
        s = board.saves()
        assert play(s) == kept
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            end(s)
        flash.disarm()
        board.fl.lose_power()
        r = policy.Saves(savelog.SaveLog(board.nvm, savelog.LOG_PATH, board.places,
                                         _volume(board)))
        r.load()
        if r.files_error == savelog.NO_FILE or state(r) != kept:
            lost += 1
    print("code.py's end: %d flash steps, %d cuts lose the save" % (steps, lost))
    assert lost >= 2  # the erase and the entry's own page at least: the file is gone


def _volume(board):
    return fat.Volume(board.fl)


def test_a_reset_closes_nothing_and_every_cut_of_its_flush_keeps_the_file():
    board = Board()
    s = board.saves()
    for i in range(board.places + 8):
        _save(i)(s)  # a whole turn, then a group: the erase ahead is over old records
    assert s.erase_due()
    vol = s._blocks.fs
    start = board.snapshot()
    kept = state(s)
    entry = bytes(board.fl.data[_entry_block(vol) * 512 : (_entry_block(vol) + 1) * 512])

    def fault_mid_erase(saves):
        # Ctrl-C (or a fault) between two sectors of the erase ahead: the block layer's
        # cache holds the group's first erase sector, half written; then the reset.
        log = saves._blocks
        put = log._put
        calls = []

        def put_then_fault(k, buf):
            put(k, buf)
            calls.append(k)
            if len(calls) == 3:
                raise KeyboardInterrupt()

        log._put = put_then_fault
        with pytest.raises(KeyboardInterrupt):
            saves.erase_ahead()
        log.fs.reset()  # microcontroller.reset(): filesystem_flush(), then NVIC_SystemReset()

    n0 = flash.step_count()
    outside = board.outside()
    fault_mid_erase(s)
    steps = flash.step_count() - n0
    # The group straddles two erase sectors: the first written back when the third sector
    # moved the cache on, the second by the reset's flush. All inside the file.
    assert steps == 34
    assert board.outside() == outside
    for step in range(1, steps + 1):
        board.restore(start)
        s = board.saves()
        flash.arm_cut(step)
        with pytest.raises(flash.PowerCut):
            fault_mid_erase(s)
        flash.disarm()
        assert board.outside() == outside, step  # the FAT, the folders, every other file
        r = board.saves()
        assert r.files_ok and state(r) == kept, step
    b = _entry_block(_volume(board))
    assert bytes(board.fl.data[b * 512 : (b + 1) * 512]) == entry  # never rewritten


def _argv(drive, nvm, script_path):
    return ["--headless", "--quiet", "--date", DATE, "--nvm", str(nvm), "--drive", str(drive),
            "--script", str(script_path)]


@pytest.mark.usefixtures("no_pixels")
def test_ctrl_c_in_play_ends_in_a_reset_that_writes_nothing(tmp_path, monkeypatch):
    # Through code.py: a few moves, their saves, then Ctrl-C at the serial console.
    drive, nvm = tmp_path / "drive", tmp_path / "nvm.bin"
    drive.mkdir()
    play = tmp_path / "play.txt"
    play.write_text("expect screen table\nmove 1a\nmove 2b\nwait 4000\nwait 2000\n")
    marks = {}
    real = sim.Simulator.touch_read

    def touch_read(self):
        reading = real(self)
        if self.clock.ms() >= 5000 and "at" not in marks and fakes.sim.phase == "code":
            marks["at"] = flash.step_count()
            marks["image"] = bytes(self.volume().flash.data)
            raise KeyboardInterrupt()  # Ctrl-C: MicroPython raises it at the next bytecode
        return reading

    monkeypatch.setattr(sim.Simulator, "touch_read", touch_read)
    s = sim.Simulator(headless=True, nvm_path=str(nvm), drive=str(drive), date=DATE,
                      script=script.load(str(play)))
    try:
        assert s.run() == 0, s.failure
        assert s.safe_mode and s.resets == 1  # the REPL in safe mode: no code.py ran again
        assert flash.step_count() == marks["at"]  # nothing written, nothing closed
        assert bytes(s.volume().flash.data) == marks["image"]
    finally:
        s.close()
    saves = policy.Saves(savelog.SaveLog(None, savelog.LOG_PATH,
                                         fs=circuitpy.open_drive(str(drive))))
    assert saves.load() is None and saves.files_ok
    assert saves.slot(saves.active).moves == 2


def test_the_simulator_closes_open_files_when_code_py_ends_and_not_at_a_reset():
    vol = fat.Volume.mkfs(flash.Flash())
    savefile.install(vol, 40)
    f = vol.open(savelog.LOG_PATH, "r+b")
    f.seek(8 * 512)
    f.write(b"\0" * 512)
    n0 = flash.step_count()
    vol.reset()
    assert flash.step_count() == n0 and not f.closed  # a reset closes nothing
    g = vol.open(savelog.LOG_PATH, "r+b")
    g.write(b"\0" * 512)
    vol.finalise()
    assert g.closed and vol.open_files == []
    assert flash.step_count() == n0 + 17 + 2  # the entry's sector rewritten (and the write)
