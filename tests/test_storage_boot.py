# SPDX-License-Identifier: MIT
"""boot.py's job: the game writes CIRCUITPY unless the saved flag or a held screen says USB."""

from host_sim import circuitpy, hardware
from freecell_mc.hardware import boot
from freecell_mc.saves import policy, savelog


class FS:
    """CircuitPython's storage module as boot.py uses it."""

    def __init__(self, fail=None):
        self.remounts = []
        self.fail = fail

    def remount(self, path, readonly=False):
        if self.fail:
            raise self.fail
        self.remounts.append((path, readonly))


class Touch:
    """A touch panel returning the given readings in turn."""

    def __init__(self, readings):
        self.readings = list(readings)

    @property
    def touch_point(self):
        return self.readings.pop(0) if self.readings else None


def _run(blocks, touch=None, fs=None):
    fs = fs or FS()
    lines = []
    touch = touch or Touch([])
    game = boot.main(fs=fs, blocks=blocks, touch=touch, out=lines.append)
    return game, fs.remounts, lines


def _blocks_with_flag(flag, writable=True, ring=3):
    blocks = hardware.sim_blocks(ring=ring, writable=writable)
    s = policy.Saves(blocks)
    s.load()
    s.settings.usb_writable = flag
    s.settings.cells = 2  # something else saved too, so a record exists either way
    assert s.commit(0, force=True)
    return blocks


def test_default_gives_the_drive_to_the_game():
    game, remounts, lines = _run(hardware.sim_blocks(ring=2))
    assert game and remounts == [("/", False)]
    assert lines == [boot.HOW]


def test_saved_usb_flag_leaves_the_drive_to_the_computer():
    game, remounts, lines = _run(_blocks_with_flag(True))
    assert not game and remounts == []
    assert lines == [boot.HOW]


def test_flag_off_again_gives_it_back():
    blocks = _blocks_with_flag(True)
    s = policy.Saves(blocks)
    s.load()
    s.settings.usb_writable = False
    assert s.commit(0, force=True)
    game, remounts, _ = _run(blocks)
    assert game and remounts == [("/", False)]


def test_flag_is_read_from_nvm_alone_when_nvm_is_good():
    blocks = _blocks_with_flag(True)
    assert blocks[0].erase_count == 1  # the flag change went to nvm at once
    for b in blocks[1:]:
        b.present = False  # even with every save file gone
    assert boot.read_usb_flag(blocks) is True


def test_flag_comes_from_the_files_when_nvm_was_cut():
    blocks = _blocks_with_flag(True)
    blocks[0].data[0:100] = b"\xff" * 100  # a cut mid-erase of nvm
    assert boot.read_usb_flag(blocks) is True


def test_holding_the_screen_overrides_for_one_start():
    held = Touch([(100, 100, 30000)] * 8)
    game, remounts, lines = _run(_blocks_with_flag(False), touch=held)
    assert not game and remounts == []
    assert lines == [boot.HOW]


def test_one_noisy_reading_is_not_a_held_screen():
    noisy = Touch([None, (5, 5, 20000), None, None, None, None, None, None])
    game, remounts, _ = _run(hardware.sim_blocks(ring=2), touch=noisy)
    assert game


def test_unreadable_saves_and_a_failing_remount_never_stop_the_board():
    blocks = hardware.sim_blocks(ring=2)
    blocks[0].data[0:300] = bytes(range(256)) + bytes(44)
    game, remounts, lines = _run(blocks, fs=FS(fail=RuntimeError("Cannot remount")))
    assert not game and lines == [boot.HOW]


def test_no_touch_library_means_no_override(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_touch(name, *a, **k):
        if name in ("board", "adafruit_touchscreen"):
            raise ImportError(name)
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_touch)
    assert boot.touched_at_boot(None, sleep=lambda s: None) is False


# --- the real boot.py and code.py on the simulated board -----------------------------


def _play(tmp_path, *extra, flag=None):
    """Run the game headless: a move, then the menu (a forced save); return (drive, app)."""
    import os

    from host_sim import sim
    from freecell_mc.app import App

    drive = tmp_path / "drive"
    nvm = tmp_path / "nvm.bin"
    drive.mkdir(exist_ok=True)
    if flag is not None:
        s = policy.Saves(hardware.drive_blocks(drive, str(nvm)))
        s.load()
        s.settings.usb_writable = flag
        assert s.commit(0, force=True)
    script = tmp_path / "s.txt"
    script.write_text("move 2a\nkey esc\nexpect screen menu\nwait 500\n")
    argv = ["--headless", "--quiet", "--date", "2026-11-30", "--ms", "1", "--nvm", str(nvm),
            "--drive", str(drive), "--script", str(script)] + list(extra)
    assert sim.main(argv) == 0
    return drive, App.current, os.path.exists(str(nvm))


def test_board_default_the_game_writes_its_save_files(tmp_path, capsys):
    drive, app, _ = _play(tmp_path)
    assert app.saves.files_ok
    assert circuitpy.open_drive(str(drive)).stat_size(savelog.LOG_PATH) > 0
    assert capsys.readouterr().out.startswith(boot.HOW + "\n")


def test_board_screen_held_at_reset_leaves_the_drive_and_saves_go_to_nvm(tmp_path, capsys):
    drive, app, nvm_written = _play(tmp_path, "--hold-at-boot")
    assert not app.saves.files_ok and nvm_written
    blocks = hardware.drive_blocks(drive)
    assert all(blocks[1 + k][0:256] == b"" for k in range(savelog.RING))  # not one save there
    # The USB switch is off: the drive is the computer's for this start only.
    assert app.saves.limit_reason() == "USB for this start only"
    assert capsys.readouterr().out.startswith(boot.HOW + "\n")


def test_board_usb_flag_in_settings_leaves_the_drive(tmp_path, capsys):
    drive, app, _ = _play(tmp_path, flag=True)
    assert not app.saves.files_ok
    assert app.saves.settings.usb_writable
    assert capsys.readouterr().out.startswith(boot.HOW + "\n")
