# SPDX-License-Identifier: MIT
"""Saves over CIRCUITPY's real FAT layout: the layout itself, what a save erases, every cut.

The drive is host_sim/fat.py: the PyPortal's 8 MB flash as CircuitPython's f_mkfs formats
it, CircuitPython's 4 KB sector cache and FatFs, holding what a board holds before the
game's first save. The save file is the board's, made smaller (40 places, 5 erase groups)
so the ring turns over many times in a test: the steps of a save are the same. Cuts are
made at every erase and every page program of every save, both in a session that runs on
(steady state: each group entered erases the next) and in one restarted before every save
(the restart path erases two groups on), with the ring already turned over so that the
erases are real ones.
"""

import pytest

from host_sim import circuitpy, fat, fatformat, flash, savefile
from freecell_mc.saves import policy, record, savelog

from test_faults import DAILY, FREE, state

pytestmark = pytest.mark.usefixtures("no_cut_left_armed")

PLACES = 40


def test_the_layout_is_what_circuitpython_formats():
    """f_mkfs's arithmetic for the 8 MB flash (figures in docs/saves.md)."""
    lay = fatformat.layout()
    assert lay["sectors"] == 16376  # (8 MiB - the 4 KB scratch sector) / 512
    assert lay["fat_type"] == 16 and lay["cluster_sectors"] == 2  # 1 KB clusters
    assert (lay["fat_start"], lay["fat_sectors"]) == (1, 32)
    assert (lay["root_start"], lay["root_sectors"]) == (33, 32)
    assert lay["data_start"] == 65 and lay["clusters"] == 8155
    vol = fat.Volume.mkfs(flash.Flash())
    assert (vol.fatbase, vol.dirbase, vol.database, vol.csize) == (1, 33, 65, 2)
    # The data area begins one sector into a 4 KB erase sector: nothing is aligned.
    assert vol.database * flash.SECTOR % flash.ERASE == flash.SECTOR


def test_the_flash_cache_erases_as_circuitpython_does():
    fl = flash.Flash()
    fl.write_block(100, b"A" * 512)  # erased: programmed straight away, no erase
    assert sum(fl.erases) == 0 and fl.programs == 2
    fl.write_block(101, b"B" * 512)  # erased too
    fl.write_block(100, b"C" * 512)  # not erased: into the RAM copy of its 4 KB sector
    fl.write_block(102, b"D" * 512)  # same sector: the copy
    assert sum(fl.erases) == 0 and fl.read_block(100) == b"C" * 512
    fl.flush()  # one erase for the sector, its 16 pages programmed
    assert fl.erases[100 * 512 // 4096] == 1 and sum(fl.erases) == 1
    assert fl.read_block(101) == b"B" * 512 and fl.read_block(102) == b"D" * 512


def test_the_drive_holds_the_board_image_under_fatfs_short_names():
    """What a board holds before the first save: the image's files, long names as 8.3 ones."""
    vol = fat.Volume.mkfs(flash.Flash())
    circuitpy.install(vol)
    sizes = dict(circuitpy.INSTALLED)
    assert vol.stat_size("code.py") == sizes["code.py"]
    assert vol.stat_size("lib/FREECE~1/app.mpy") == sizes["lib/freecell_mc/app.mpy"]
    assert vol.stat_size("lib/ADAFRU~1.MPY") == sizes["lib/adafruit_touchscreen.mpy"]
    assert (vol.stat_size("lib/FREECE~1/UI/SCREENS/DATEPI~1.MPY")
            == sizes["lib/freecell_mc/ui/screens/datepicker.mpy"])
    assert vol.is_dir("lib/freece~1/ui/screens")
    # FatFs numbers short names that would clash.
    assert fatformat.short_name("calibration.mpy", ["CALIBR~1.MPY"]) == "CALIBR~2.MPY"
    assert fatformat.short_name("boot_out.txt") == "boot_out.txt"


def _board(places=PLACES):
    """Return (flash, image after installing) of a board before its first save."""
    vol = fat.Volume.mkfs(flash.Flash())
    circuitpy.install(vol, places)
    return vol.flash, bytes(vol.flash.data)


def _blocks(fl, nvm, places=PLACES):
    """The saves as a freshly started board sees them (the RAM cache is gone)."""
    fl.lose_power()
    return savelog.SaveLog(nvm, savelog.LOG_PATH, places, fat.Volume(fl))


def _file_sectors(fl):
    """Return the 4 KB sectors holding the save file's data."""
    vol = fat.Volume(fl)
    f = vol.open(savelog.LOG_PATH, "rb")
    out = set()
    for pos in range(0, vol.stat_size(savelog.LOG_PATH), flash.SECTOR):
        c = f._cluster_of(pos)
        sect = vol._clst2sect(c) + (pos // flash.SECTOR) % vol.csize
        out.add(sect * flash.SECTOR // flash.ERASE)
    return out


def test_a_save_writes_neither_the_fat_nor_a_folder_and_erases_little():
    fl, _ = _board()
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(_blocks(fl, nvm))
    assert s.load() is None
    s.put_slot(0, 1, 7, 4, FREE[0], 0)
    assert s.commit(0, force=True)  # makes the file
    before = list(fl.erases)
    laps = 6
    for i in range(1, laps * PLACES + 1):
        s.put_slot(0, 1, 7, 4, FREE[i % 8], i)
        assert s.commit(i * 2000, force=True)
    grown = [fl.erases[i] - before[i] for i in range(len(before))]
    touched = {i for i, n in enumerate(grown) if n}
    assert touched <= _file_sectors(fl)  # no FAT sector, no folder sector, nothing else
    # Each 4 KB sector of the file: erased at most twice a turn of the ring (a group
    # erase touches the two sectors it straddles), never once per save.
    assert max(grown) <= 2 * laps
    assert sum(grown) <= 2 * laps * PLACES // savelog.GROUP + 2


def _file_span(fl):
    """Return the byte span of the save file on the flash (it lies in one run)."""
    vol = fat.Volume(fl)
    assert savefile.layout_problems(vol, PLACES) == []
    blocks = savefile._blocks_of(vol, savelog.LOG_PATH)
    return blocks[0] * flash.SECTOR, (blocks[-1] + 1) * flash.SECTOR


def _session():
    """Return [(name, fn(saves))] of saves that turn the 40-place ring over twice."""
    steps = []
    for i in range(30):
        steps.append(("free %d" % i, lambda s, i=i: s.put_slot(0, 1, 7, 4, FREE[i % 15], i)))
    steps.append(("start", lambda s: s.stats.record_start()))
    for i in range(20):
        steps.append(("daily %d" % i, lambda s, i=i: s.put_slot(1, 2, 20261130, 4, DAILY[i % 7],
                                                                 100 + i)))
    steps.append(("cells", lambda s: setattr(s.settings, "cells", 3)))
    steps.append(("usb on", lambda s: setattr(s.settings, "usb_writable", True)))
    steps.append(("usb off", lambda s: setattr(s.settings, "usb_writable", False)))
    for i in range(30, 62):
        steps.append(("free %d" % i, lambda s, i=i: s.put_slot(0, 1, 7, 4, FREE[i % 15], i)))
    return steps


def _steady_run(fl, nvm, image, nvm_image, session, upto, cut_at=None):
    """Restore the board, start it, then save session[0..upto] on one running Saves."""
    fl.data[:] = image
    nvm.data[:] = nvm_image
    s = policy.Saves(_blocks(fl, nvm))
    assert s.load() is None
    spans = []
    for j, (_, fn) in enumerate(session[: upto + 1]):
        fn(s)
        if j == upto and cut_at is not None:
            flash.arm_cut(cut_at)
        before = flash.step_count()
        assert s.commit(2000 * (j + 1), force=True)
        spans.append(flash.step_count() - before)
    return s, spans


@pytest.mark.slow
def test_every_cut_of_every_save_of_a_running_game(monkeypatch):
    """One Saves saving on and on: each group entered erases the next; cut every step."""
    monkeypatch.setattr(policy, "_COST_MS", 9000)  # nvm's writes made cheap: among the cuts
    fl, image = _board()
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(_blocks(fl, nvm))
    assert s.load() is None
    s.put_slot(0, 1, 7, 4, FREE[0], 999)
    assert s.commit(0, force=True)  # the save file exists before the session
    states = [state(s)]
    image, nvm_image = bytes(fl.data), bytes(nvm.data)
    session = _session()
    _, spans = _steady_run(fl, nvm, image, nvm_image, session, len(session) - 1)
    for j in range(len(session)):
        t, _ = _steady_run(fl, nvm, image, nvm_image, session, j)
        states.append(state(t))
    big = cuts = 0
    a, z = _file_span(fl)
    outside = image[:a] + image[z:]
    for j, n in enumerate(spans):
        for step in range(1, n + 1):
            with pytest.raises(flash.PowerCut):
                _steady_run(fl, nvm, image, nvm_image, session, j, cut_at=step)
            flash.disarm()
            assert bytes(fl.data[:a]) + bytes(fl.data[z:]) == outside, (session[j][0], step)
            r = policy.Saves(_blocks(fl, nvm))
            msg = r.load()
            assert msg is None, (session[j][0], step, msg)
            assert state(r) in (states[j], states[j + 1]), (session[j][0], step)
            cuts += 1
        big += n > 20
    assert big >= 4  # saves that erased a group ahead (real erases: the ring turned) were cut
    print("cuts of a running game over the FAT model: %d" % cuts)


@pytest.mark.slow
def test_every_cut_of_every_save_after_a_restart():
    """A board restarted before every save: the first save erases two groups on; cut every step."""
    fl, image = _board()
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(_blocks(fl, nvm))
    assert s.load() is None
    for i in range(2 * PLACES + 3):  # the ring turned over: what is erased ahead is real
        s.put_slot(0, 1, 7, 4, FREE[i % 15], i)
        assert s.commit(2000 * i, force=True)
    want = state(s)
    cuts = 0
    a, z = _file_span(fl)
    for j in range(12):  # restarts land at every offset within a group
        snap, nvm_snap = bytes(fl.data), bytes(nvm.data)
        outside = snap[:a] + snap[z:]
        step = 1
        while True:
            fl.data[:] = snap
            nvm.data[:] = nvm_snap
            t = policy.Saves(_blocks(fl, nvm))
            assert t.load() is None
            t.put_slot(1, 2, 20261130, 4, DAILY[j % 7], 1000 + j)
            new = state(t)
            flash.arm_cut(step)
            try:
                t.commit(5, force=True)
            except flash.PowerCut:
                pass
            else:
                flash.disarm()
                break  # every step of this save has been cut
            flash.disarm()
            assert bytes(fl.data[:a]) + bytes(fl.data[z:]) == outside, (j, step)
            r = policy.Saves(_blocks(fl, nvm))
            assert r.load() is None, (j, step)
            assert state(r) in (want, new), (j, step)
            cuts += 1
            step += 1
        want = new  # the uncut save completed: the next restart starts from it
    assert cuts > 12 * 30
    print("cuts of saves after a restart over the FAT model: %d" % cuts)


def _refused_copy(data, seq):
    """Return data with an impossible active slot, numbered seq, its CRC made good."""
    import binascii
    import struct

    rec = bytearray(data)
    rec[24] = 7  # no such slot: a record the game never writes
    struct.pack_into("<I", rec, 8, seq)
    struct.pack_into("<I", rec, 252, binascii.crc32(rec[0:252]) & 0xFFFFFFFF)
    return bytes(rec)


def test_a_refused_record_claiming_to_be_newest_is_told_once_and_every_cut_is_survived():
    """A foreign record claiming to be newest: told once; the clean record written at that
    start is numbered above it, so it stays behind at every start after, unwritten."""
    fl, _ = _board()
    nvm = flash.FlashBlock(None, savelog.NVM_SIZE)
    s = policy.Saves(_blocks(fl, nvm))
    assert s.load() is None
    for i in range(PLACES + 13):  # the ring turned over, the newest record mid-group
        s.put_slot(0, 1, 7, 4, FREE[i % 15], i)
        assert s.commit(2000 * i, force=True)
    want = state(s)
    newest = (s._next - 1) % PLACES
    blocks = _blocks(fl, nvm)
    bad_at = (newest + 9) % PLACES  # an older record's place, in another group
    blocks[1 + bad_at][0 : record.REC] = _refused_copy(blocks[1 + newest][0 : record.REC],
                                                        s._seq + 5)
    snap, nvm_snap = bytes(fl.data), bytes(nvm.data)
    r = policy.Saves(_blocks(fl, nvm))
    assert r.load() == policy.MSG_OLDER and state(r) == want
    again = policy.Saves(_blocks(fl, nvm))
    assert again.load() is None and state(again) == want  # told once
    assert blocks[1 + bad_at][0 : record.REC][24] == 7  # still there, and passed over
    step = 1
    while True:  # every step of the start that tells it and writes the clean record
        fl.data[:] = snap
        nvm.data[:] = nvm_snap
        t = policy.Saves(_blocks(fl, nvm))
        flash.arm_cut(step)
        try:
            t.load()
        except flash.PowerCut:
            flash.disarm()
            u = policy.Saves(_blocks(fl, nvm))
            assert u.load() in (None, policy.MSG_OLDER), step
            assert state(u) == want, step
            step += 1
            continue
        flash.disarm()
        break
    assert step > 2
