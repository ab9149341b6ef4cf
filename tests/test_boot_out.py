# SPDX-License-Identifier: MIT
"""boot_out.txt is never rewritten: boot.py prints the same bytes in every mode and start.

CircuitPython collects its own lines, "boot.py output:" and what boot.py prints, and
rewrites boot_out.txt at a start whose text differs from the file's (main.c run_boot_py).
That file shares its 4 KB erase sectors with the boot sector, the FAT, the root folder and
fcsave/, so a cut of the rewrite can cost the drive. boot.py used to print which way the
start went (game, USB mode, held screen, source copy, a failed remount), so each change
of mode rewrote it. Here every branch of hardware/boot.py's main() prints one line, the
same; the simulator, which rewrites boot_out.txt as the firmware does, starts the board
again and again in every mode and never rewrites it; and the copy tool writes it as the
board's first start will find it.
"""

import io

import pytest

from host_sim import circuitpy, hardware, sim
from host_sim.script import parse
from freecell_mc.hardware import boot, source
from freecell_mc.saves import policy, savelog

from test_storage_boot import FS, Touch

HELD = [(100, 100, 30000)] * 8
LINE = boot.HOW + "\n"


def _flag_blocks(flag):
    blocks = hardware.sim_blocks(ring=3)
    s = policy.Saves(blocks)
    s.load()
    s.settings.usb_writable = flag
    s.settings.cells = 2
    assert s.commit(0, force=True)
    return blocks


class Broken:
    """Save blocks whose every read fails, as a flash that cannot be read."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        raise OSError(5, "EIO")


class BadTouch:
    @property
    def touch_point(self):
        raise RuntimeError("touch panel gone")


def _modes():
    """Yield (name, main's keyword arguments, whether the game should get the drive)."""
    yield "first boot", dict(blocks=hardware.sim_blocks(ring=3)), True
    yield "USB mode on", dict(blocks=_flag_blocks(True)), False
    off = _flag_blocks(True)
    s = policy.Saves(off)
    s.load()
    s.settings.usb_writable = False
    assert s.commit(0, force=True)
    yield "USB mode off again", dict(blocks=off), True
    yield "held screen at reset", dict(blocks=_flag_blocks(False), touch=Touch(HELD)), False
    nvm_only = _flag_blocks(True)
    nvm_only[1:] = []
    yield "nvm only", dict(blocks=nvm_only), False
    cut = _flag_blocks(True)
    cut[0].data[0:100] = b"\xff" * 100
    yield "nvm cut, flag from the ring", dict(blocks=cut), False
    garbage = hardware.sim_blocks(ring=3)
    garbage[0].data[0:300] = bytes(range(256)) + bytes(44)
    yield "unreadable saves", dict(blocks=garbage), True
    yield "saves that raise", dict(blocks=Broken()), True
    yield "remount refused", dict(blocks=_flag_blocks(False),
                                  fs=FS(fail=RuntimeError("Cannot remount"))), False
    yield "remount OSError", dict(blocks=_flag_blocks(False), fs=FS(fail=OSError(30))), False
    yield "touch panel raises", dict(blocks=_flag_blocks(False), touch=BadTouch()), False


@pytest.mark.parametrize("mode", [m[0] for m in _modes()])
def test_boot_prints_byte_identical_output_in_every_mode(mode, capsys):
    name, kw, writes = [m for m in _modes() if m[0] == mode][0]
    kw.setdefault("fs", FS())
    kw.setdefault("touch", Touch([]))
    got = boot.main(**kw)  # out: print, as on the board
    assert got is writes, name
    assert capsys.readouterr().out == LINE, name
    assert kw["fs"].remounts == ([("/", False)] if writes else [])


def test_a_source_copy_prints_the_same_line(monkeypatch, capsys):
    monkeypatch.setattr(source, "installed", lambda *a: True)
    assert boot.main(fs=FS(), blocks=[], touch=None) is False
    assert capsys.readouterr().out == LINE


def test_no_storage_module_prints_the_same_line(capsys):
    # fs=None imports CircuitPython's storage: on the desktop there is none (ImportError).
    assert boot.main(blocks=hardware.sim_blocks(ring=3), touch=Touch([])) is False
    assert capsys.readouterr().out == LINE


# --- the simulator: boot_out.txt as the firmware writes it -----------------------------


def _start(tmp_path, **kw):
    """Start the simulated board once on the drive and nvm in tmp_path; return it."""
    s = sim.Simulator(drive=str(tmp_path / "drive"), nvm_path=str(tmp_path / "nvm.bin"),
                      date="2026-11-30", script=parse("wait 200\n"), **kw)
    try:
        assert s.run() == 0, s.failure
    finally:
        s.close()
    return s


def _boot_out(tmp_path):
    vol = circuitpy.open_drive(str(tmp_path / "drive"))
    with vol.open(circuitpy.BOOT_OUT, "rb") as fh:
        return fh.read()


def _set_flag(tmp_path, flag):
    s = policy.Saves(hardware.drive_blocks(tmp_path / "drive", str(tmp_path / "nvm.bin")))
    s.load()
    s.settings.usb_writable = flag
    assert s.commit(0, force=True)


def test_the_board_never_rewrites_boot_out_txt_across_starts_in_every_mode(
    tmp_path, monkeypatch, capsys
):
    from host_sim.fakes import storage

    want = circuitpy.boot_out_text(circuitpy.FIRMWARE_TEXT.encode())
    assert want.endswith(b"boot.py output:\r\n" + boot.HOW.encode() + b"\r\n")
    starts = []

    def start(name, **kw):
        s = _start(tmp_path, **kw)
        starts.append((name, s.boot_out_writes, s.remounts, _boot_out(tmp_path)))

    start("first start after the copy")
    start("again")
    _set_flag(tmp_path, True)
    start("USB mode on")
    _set_flag(tmp_path, False)
    start("USB mode off")
    start("held screen at reset", hold_at_boot=True)
    start("after the held start")
    with monkeypatch.context() as m:
        from host_sim import fakes

        # boot.py finds a source copy; code.py would then show its screen for good, so
        # it runs the game here (what is looked at is the start's boot_out.txt).
        m.setattr(source, "installed", lambda *a: fakes.current().phase == "boot")
        start("copied as source")
    with monkeypatch.context() as m:

        def refuse(*a, **k):
            raise RuntimeError("Cannot remount '/' when visible via USB.")

        m.setattr(storage, "remount", refuse)
        start("remount refused")
    nvm = tmp_path / "nvm.bin"
    data = bytearray(nvm.read_bytes())
    data[0:300] = bytes(range(256)) + bytes(44)  # nvm unreadable: the flag from the ring
    nvm.write_bytes(bytes(data))
    start("nvm damaged")
    vol = circuitpy.open_drive(str(tmp_path / "drive"))
    vol.remove(savelog.LOG_PATH)
    start("no save file: nvm only")
    start("nvm only again")
    for name, writes, _, text in starts:
        assert writes == 0, name
        assert text == want, name
    # The modes were what they say: the game took the drive only where it should.
    took = {name: bool(remounts) for name, _, remounts, _ in starts}
    assert took["again"] and took["USB mode off"] and not took["USB mode on"]
    assert not took["held screen at reset"] and not took["copied as source"]
    assert not took["remount refused"]


def test_the_simulator_rewrites_boot_out_txt_when_its_text_changes(tmp_path, monkeypatch):
    # What a start finds differing is rewritten, once: the model can see a rewrite.
    assert _start(tmp_path).boot_out_writes == 0
    monkeypatch.setattr(boot, "HOW", boot.HOW + " (a different line)")
    assert _start(tmp_path).boot_out_writes == 1
    assert _start(tmp_path).boot_out_writes == 0
    assert _boot_out(tmp_path).endswith(b"(a different line)\r\n")


def test_a_release_unzipped_by_hand_is_rewritten_at_its_first_start_only(tmp_path, capsys):
    # Unzipped by a file manager (no copy tool), boot_out.txt holds the firmware's lines
    # alone: the first start adds boot.py's line, and no start after it changes it.
    import zipfile

    zpath = tmp_path / "release.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        zf.writestr("boot.py", open(circuitpy.os.path.join(sim.ROOT, "boot.py")).read())
        zf.writestr("code.py", "print('code')\n")
    writes = [_start(tmp_path, release=str(zpath)).boot_out_writes for _ in range(3)]
    assert writes == [1, 0, 0]


def test_the_copy_tool_writes_boot_out_txt_as_the_board_will(tmp_path):
    from tools import copy_to_board

    path = tmp_path / "boot_out.txt"
    firmware = b"Adafruit CircuitPython 10.0.3 on 2025-10-17; PyPortal\r\nBoard ID:pyportal\r\n"
    # An earlier game's boot.py said which mode the start was in: its lines go.
    path.write_bytes(firmware + b"boot.py output:\r\nFreeCell MC: USB mode\r\nback\r\n")
    out = io.StringIO()
    copy_to_board.boot_out(tmp_path, out=out)
    assert path.read_bytes() == firmware + b"boot.py output:\r\n" + boot.HOW.encode() + b"\r\n"
    assert "wrote boot_out.txt" in out.getvalue()
    before = path.stat().st_mtime_ns
    out = io.StringIO()
    copy_to_board.boot_out(tmp_path, out=out)  # already right: not written again
    assert out.getvalue() == "" and path.stat().st_mtime_ns == before
    path.write_bytes(firmware)
    copy_to_board.boot_out(tmp_path, dry_run=True, out=io.StringIO())
    assert path.read_bytes() == firmware
