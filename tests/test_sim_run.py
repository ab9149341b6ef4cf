# SPDX-License-Identifier: MIT
"""The simulator runs a board's boot.py and code.py: touches, keys, time, flash, resets.

These use a small code.py of their own (written into tmp_path) to pin the simulator's
behaviour independently of the game; tests/test_sim_game.py runs the game itself.
"""

import os
import subprocess
import sys
import time

import pytest

from host_sim import script, sim

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A board program: paints touched pixels yellow, logs what it sees to log.txt beside the
# simulated CIRCUITPY folder (its working directory), counts boots in nvm[0].
CODE = """
import adafruit_touchscreen, board, displayio, microcontroller, storage, supervisor, time
log = open("../log.txt", "a")
boots = microcontroller.nvm[0]
boots = 0 if boots == 0xFF else boots
microcontroller.nvm[0] = boots + 1
log.write("start %d readonly %s\\n" % (boots, storage.getmount("/").readonly))
d = board.DISPLAY
d.auto_refresh = False
bmp = displayio.Bitmap(d.width, d.height, 2)
pal = displayio.Palette(2)
pal[0] = 0x000040
pal[1] = 0xFFFF00
g = displayio.Group()
g.append(displayio.TileGrid(bmp, pixel_shader=pal))
d.root_group = g
d.refresh()
ts = adafruit_touchscreen.Touchscreen(board.TOUCH_XL, board.TOUCH_XR, board.TOUCH_YD,
    board.TOUCH_YU, calibration=((5200, 59000), (5800, 57000)), size=(d.width, d.height))
down = False
while True:
    p = ts.touch_point
    if p and not down:
        bmp[p[0], p[1]] = 1
        d.refresh()
        log.write("touch %d %d %d at %d\\n" % (p[0], p[1], p[2], int(time.monotonic() * 1000)))
    down = p is not None
    k = board.KEYS.read()
    if k == "r" and boots == 0:
        log.flush()
        microcontroller.reset()
    if k:
        log.write("key %s at %d\\n" % (k, int(time.monotonic() * 1000)))
    log.flush()
"""

BOOT = """
import storage
storage.remount("/", readonly=False)
"""


@pytest.fixture
def board_root(tmp_path):
    """A folder with the test program as code.py; yield (root, drive)."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "code.py").write_text(CODE)
    drive = tmp_path / "drive"
    drive.mkdir()
    yield root, drive


def _run(root, drive, text, **kw):
    s = sim.Simulator(
        root=str(root), drive=str(drive), script=script.parse(text, str(drive)), **kw
    )
    try:
        return s.run(), s, (drive.parent / "log.txt").read_text()
    finally:
        s.close()


def test_taps_reach_the_panel_at_their_pixel_and_time_moves_per_poll(board_root):
    root, drive = board_root
    rc, s, log = _run(root, drive, "tap 10 20\nwait 100\ntap 319 239\nshot a.png\n")
    assert rc == 0
    lines = log.splitlines()
    assert lines[0] == "start 0 readonly True"
    # the game's first poll is 10 ms after boot.py's; a tap is PRESS_MS then RELEASE_MS
    t2 = 10 + script.PRESS_MS + script.RELEASE_MS + 100
    assert lines[1:] == ["touch 10 20 %d at 10" % script.TAP_Z,
                         "touch 319 239 %d at %d" % (script.TAP_Z, t2)]
    assert s.display.pixel(10, 20) == (255, 255, 0)
    assert s.display.pixel(319, 239) == (255, 255, 0)
    assert s.display.pixel(11, 20) == (0, 0, 65)  # 0x000040 in RGB565, read back
    # each touch redrew one pixel (after the first-draw quirk re-reports the layer)
    assert s.display.drawn_refreshes()[-1] == [(319, 239, 320, 240)]
    assert (drive / "a.png").exists()


def test_keys_reach_the_board_keyboard(board_root):
    root, drive = board_root
    rc, s, log = _run(root, drive, "key u\nkey esc\nkey 7\n")
    assert rc == 0
    assert [line.split(" at")[0] for line in log.splitlines()[1:]] == ["key u", "key esc", "key 7"]


def test_boot_py_remounts_the_drive_for_code(board_root):
    root, drive = board_root
    (root / "boot.py").write_text(BOOT)
    rc, s, log = _run(root, drive, "wait 10\n")
    assert rc == 0
    assert log.splitlines()[0] == "start 0 readonly False"
    assert s.remounts == [("/", False)]


WRITER = """
import os
try:
    os.mkdir("saves")
    with open("saves/a.bin", "wb") as f:
        f.write(b"x")
    result = "wrote"
except OSError as e:
    result = "error %d" % e.args[0]
with open("../log.txt", "a") as log:
    log.write(result + "\\n")
os.sync()
"""


@pytest.mark.parametrize("remount", [False, True])
def test_code_may_write_circuitpy_only_after_boot_remounts_it(board_root, remount):
    root, drive = board_root
    (root / "code.py").write_text(WRITER)
    if remount:
        (root / "boot.py").write_text(BOOT)
    s = sim.Simulator(root=str(root), drive=str(drive), script=script.parse("wait 10\n"))
    try:
        assert s.run() == 0
    finally:
        s.close()
    log = (drive.parent / "log.txt").read_text()
    from host_sim import circuitpy

    vol = circuitpy.open_drive(str(drive))  # the simulated CIRCUITPY: a FAT image in the folder
    if remount:
        assert log == "wrote\n" and vol.open("saves/a.bin", "rb").read() == b"x"
        assert s.syncs == 1
    else:
        assert log == "error 30\n" and not vol.exists("saves")


def test_nvm_persists_in_its_file_and_every_write_is_one_erase(board_root, tmp_path):
    root, drive = board_root
    nvm = tmp_path / "nvm.bin"
    for _ in range(3):
        rc, s, log = _run(root, drive, "wait 10\n", nvm_path=str(nvm))
        assert rc == 0
        assert s.nvm.erase_count == 1
    assert log.splitlines()[-1] == "start 2 readonly True"
    data = nvm.read_bytes()
    assert len(data) == 8192 and data[0] == 3


def test_a_hard_reset_runs_boot_and_code_again(board_root):
    root, drive = board_root
    rc, s, log = _run(root, drive, "key r\nkey u\n", date="2026-11-30")
    assert rc == 0
    assert s.resets == 1
    # the reset restarted ticks and the internal clock, which forgets --date
    assert s.clock.ms() < 1000
    assert time.gmtime(s.clock.rtc_seconds())[:3] == (2000, 1, 1)
    lines = log.splitlines()
    assert lines[0] == "start 0 readonly True"
    assert lines[1] == "start 1 readonly True"
    assert lines[2].startswith("key u")


def test_a_crash_in_code_exits_non_zero_with_the_traceback(board_root, capsys):
    root, drive = board_root
    (root / "code.py").write_text("import board\nboard.DISPLAY.no_such_thing\n")
    s = sim.Simulator(root=str(root), drive=str(drive), script=script.parse("wait 10\n"))
    try:
        assert s.run() == 1
    finally:
        s.close()
    assert "no_such_thing" in capsys.readouterr().err
    assert "AttributeError" in s.failure  # kept for tests that inspect the run


def test_command_line_headless_script_in_a_subprocess(board_root, tmp_path):
    root, drive = board_root
    (tmp_path / "s.txt").write_text("tap 100 50\nshot out.png\n")
    env = dict(os.environ, BLINKA_OS_AGNOSTIC="1")
    r = subprocess.run(
        [sys.executable, "-m", "host_sim", "--headless", "--script", "s.txt", "--board",
         "titano", "--root", str(root), "--drive", str(drive)],
        cwd=str(tmp_path), env=dict(env, PYTHONPATH=ROOT), capture_output=True, text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    assert "polls" in r.stderr
    from PIL import Image

    img = Image.open(tmp_path / "out.png")
    assert img.size == (480, 320)
    assert img.getpixel((100, 50))[:3] == (255, 255, 0)
    assert "touch 100 50" in (tmp_path / "log.txt").read_text()


def test_bad_options_and_scripts_exit_2(tmp_path, capsys):
    assert sim.main(["--headless"]) == 2
    (tmp_path / "bad.txt").write_text("tap 1 2\nfly away\n")
    assert sim.main(["--headless", "--script", str(tmp_path / "bad.txt")]) == 2
    assert "line 2" in capsys.readouterr().err
    assert sim.main(["--headless", "--script", str(tmp_path / "bad.txt"), "--ms", "0"]) == 2
    assert sim.main(["--date", "2026-13-01", "--headless", "--script", "x"]) == 2
    assert sim.main(["--headless", "--script", str(tmp_path / "bad.txt"), "--step-ms", "0"]) == 2


def test_deal_options_become_the_start_deal():
    from freecell_mc.rules import deals

    def start(*argv):
        return sim.start_from_args(sim.build_parser().parse_args(list(argv)))

    assert start() is None
    assert start("--ms", "11982") == (deals.KIND_MS, 11982, 4)
    assert start("--seed", "1", "--cells", "2") == (deals.KIND_SEED, 1, 2)
    assert start("--daily", "2026-11-30") == (deals.KIND_DAILY, 20261130, 4)
    code = deals.deal_code(deals.KIND_MS, 5, 3)
    assert start("--code", code) == (deals.KIND_MS, 5, 3)
    for bad in (("--code", code, "--cells", "4"), ("--ms", "1", "--seed", "2")):
        with pytest.raises(ValueError):
            start(*bad)
    # A value that is no deal at all is refused by the parser, before anything starts.
    for bad in (("--ms", "0"), ("--daily", "2026-02-30"), ("--daily", "today"),
                ("--code", code[:-1] + str((int(code[-1]) + 1) % 10))):
        with pytest.raises(SystemExit):
            start(*bad)


def test_a_window_without_a_screen_says_so_and_exits_2(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT, SDL_VIDEODRIVER="no-such-driver")
    r = subprocess.run(
        [sys.executable, "-m", "host_sim", "--nvm", str(tmp_path / "n.bin"), "--drive",
         str(tmp_path / "d")],
        cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 2
    assert "cannot open the window" in r.stderr
