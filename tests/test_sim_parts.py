# SPDX-License-Identifier: MIT
"""The simulator's board parts: clock, RTC chips, touch panel, storage, display, scripts."""

import calendar
import os
import subprocess
import sys
import time

import pytest

from host_sim import fakes, hardware, script
from host_sim.hardware import SimClock

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _Sim:
    """The least a fake module asks of the running simulator."""

    def __init__(self, date=None, ext="none"):
        start = hardware.parse_date(date) if date else hardware.EPOCH_2000
        self.clock = SimClock(rtc_start=start)
        self.i2c_devices = hardware.make_ext_rtc(ext, self.clock, calendar.timegm(
            (2026, 11, 30, 12, 34, 56, 0, 0, 0)))
        self.usb_connected = True
        self.drive_readonly = True
        self.remounts = []
        self.phase = "code"
        self.width, self.height = 320, 240
        self.readings = []
        self._i2c = None

    def touch_read(self):
        return self.readings.pop(0) if self.readings else None

    def background(self):
        pass  # no USB host, no reload

    def i2c(self):
        if self._i2c is None:
            from host_sim.fakes.busio import I2C

            self._i2c = I2C()
        return self._i2c


@pytest.fixture
def board_sim():
    """Install the fake modules around a minimal simulator; yield it."""
    s = _Sim()
    fakes.install(s)
    yield s
    fakes.uninstall()


def test_ticks_start_65_seconds_before_the_wrap_and_wrap_like_circuitpython():
    c = SimClock()
    assert c.ticks_ms() == (1 << 29) - 65536
    c.advance(65536)
    assert c.ticks_ms() == 0
    c.advance(10)
    assert c.ticks_ms() == 10
    assert c.monotonic() == pytest.approx(65.546)


def test_rtc_starts_at_2000_and_can_be_set(board_sim):
    import rtc
    import time as board_time

    r = rtc.RTC()
    assert tuple(r.datetime)[:6] == (2000, 1, 1, 0, 0, 0)
    assert isinstance(r.datetime, time.struct_time)
    board_sim.clock.advance(61000)
    assert tuple(r.datetime)[:6] == (2000, 1, 1, 0, 1, 1)
    r.datetime = time.struct_time((2026, 11, 30, 9, 15, 0, 0, 334, -1))
    board_sim.clock.advance(2000)
    assert tuple(r.datetime)[:6] == (2026, 11, 30, 9, 15, 2)
    assert tuple(board_time.localtime())[:6] == (2026, 11, 30, 9, 15, 2)


def test_date_option_sets_the_internal_clock():
    c = SimClock(rtc_start=hardware.parse_date("2026-12-01"))
    assert time.gmtime(c.rtc_seconds())[:3] == (2026, 12, 1)
    with pytest.raises(ValueError):
        hardware.parse_date("2026-02-30")


def test_time_monotonic_follows_the_polls_not_the_wall_clock(board_sim):
    import time as board_time

    assert board_time is not time or sys.modules["time"] is not time
    t0 = board_time.monotonic()
    board_sim.clock.advance(250)
    assert board_time.monotonic() - t0 == pytest.approx(0.25)
    before = time.monotonic()
    board_time.sleep(5)  # headless: returns at once
    assert time.monotonic() - before < 1


@pytest.mark.parametrize("chip", ["ds3231", "pcf8523"])
def test_the_game_finds_and_reads_and_sets_the_external_rtc(chip):
    from freecell_mc.hardware import clock, rtcchip

    s = _Sim(ext=chip)
    fakes.install(s)
    try:
        import board

        i2c = board.I2C()
        assert board.I2C() is i2c
        assert i2c.scan() == [0x68]
        found = rtcchip.identify(i2c)
        assert found == (rtcchip.ExternalRTC.DS3231 if chip == "ds3231"
                         else rtcchip.ExternalRTC.PCF8523)
        dc = clock.device_clock(i2c)
        # the chip's date went into the internal RTC, which had restarted at 2000-01-01
        assert dc.today() == (2026, 11, 30)
        assert dc.plausible()
        dc.set_today(2027, 1, 2)
        assert dc.ext.datetime()[:3] == (2027, 1, 2)
        s.clock.advance(3000)
        assert dc.ext.datetime()[3:] == (12, 34, 59)
        assert not dc.ext.lost_power()
        # a hard reset restarts the board's clocks, not the battery-backed chip
        s.clock.power_up()
        assert clock.device_clock(i2c).today() == (2027, 1, 2)
        # the weekday register keeps only the bits it has
        reg = 3 if chip == "ds3231" else 7
        i2c.writeto(0x68, bytes((reg, 0xFD)))
        buf = bytearray(1)
        i2c.writeto_then_readfrom(0x68, bytes((reg,)), buf)
        assert buf[0] == 0x05
    finally:
        fakes.uninstall()


def test_without_an_rtc_chip_the_bus_is_empty_and_the_clock_is_not_plausible(board_sim):
    from freecell_mc.hardware import clock

    import board

    assert board.I2C().scan() == []
    with pytest.raises(OSError):
        board.I2C().writeto(0x68, b"\x00")
    dc = clock.device_clock()
    assert dc.ext is None
    assert dc.today() == (2000, 1, 1)
    assert not dc.plausible()
    dc.set_today(2026, 11, 30)
    assert dc.today() == (2026, 11, 30)


def test_storage_is_readonly_for_code_unless_boot_remounts(board_sim):
    import storage

    assert storage.getmount("/").readonly
    with pytest.raises(RuntimeError):
        storage.remount("/", readonly=False)  # code.py while USB is connected
    board_sim.phase = "boot"
    storage.remount("/", readonly=False)
    assert not storage.getmount("/").readonly
    assert board_sim.remounts == [("/", False)]


def test_supervisor_and_microcontroller(board_sim):
    import microcontroller
    import supervisor

    assert supervisor.ticks_ms() == board_sim.clock.ticks_ms()
    assert supervisor.runtime.usb_connected
    with pytest.raises(fakes.HardReset):
        microcontroller.reset()
    with pytest.raises(fakes.SoftReload):
        supervisor.reload()


def test_touch_panel_maps_like_the_library():
    cal = ((5200, 59000), (5800, 57000))
    # the known answer from TOOLCHAIN.md: raw 32100/31500 is the centre pixel
    assert hardware.raw_to_screen(32100, 31500, (320, 240), cal) == (159, 119)
    for size in ((320, 240), (480, 320)):
        for x in range(size[0]):
            assert hardware.raw_to_screen(*hardware.screen_to_raw(x, 7, size), size, cal)[0] == x
        for y in range(size[1]):
            assert hardware.raw_to_screen(*hardware.screen_to_raw(3, y, size), size, cal)[1] == y


def test_touchscreen_fake_keeps_the_signature_and_applies_its_calibration(board_sim):
    import adafruit_touchscreen
    import board

    pins = (board.TOUCH_XL, board.TOUCH_XR, board.TOUCH_YD, board.TOUCH_YU)
    ts = adafruit_touchscreen.Touchscreen(
        *pins, calibration=((5200, 59000), (5800, 57000)), size=(320, 240)
    )
    board_sim.readings = [(100, 50, 30000), None]
    assert ts.touch_point == (100, 50, 30000)
    assert ts.touch_point is None
    # A player's calibration that is off by a shift moves where the same press lands.
    shifted = adafruit_touchscreen.Touchscreen(
        *pins, calibration=((5200 - 1681, 59000 - 1681), (5800, 57000)), size=(320, 240)
    )
    board_sim.readings = [(100, 50, 30000)]
    x, y, _ = shifted.touch_point
    assert (x, y) == (110, 50)
    light = adafruit_touchscreen.Touchscreen(*pins, z_threshold=40000, size=(320, 240))
    board_sim.readings = [(100, 50, 30000)]
    assert light.touch_point is None


def test_nvm_erases_the_whole_block_on_every_write(tmp_path):
    from host_sim.flash import FlashBlock

    nvm = FlashBlock(str(tmp_path / "nvm.bin"), 8192)
    nvm[0:4] = b"abcd"
    nvm[10] = 7
    assert nvm.erase_count == 2
    again = FlashBlock(str(tmp_path / "nvm.bin"), 8192)
    assert again[0:4] == b"abcd" and again[10] == 7 and len(again) == 8192


def test_framebuffer_display_renders_and_logs_dirty_areas(fb_display, tmp_path):
    import displayio

    bmp = displayio.Bitmap(320, 240, 3)
    pal = displayio.Palette(3)
    pal[0] = 0x0000FF
    pal[1] = 0xFF0000
    pal[2] = 0x00FF00
    g = displayio.Group()
    g.append(displayio.TileGrid(bmp, pixel_shader=pal))
    fb_display.root_group = g
    fb_display.refresh()
    assert fb_display.refreshes[-1] == [(0, 0, 320, 240)]
    fb_display.refresh()  # Blinka's second refresh re-reports the layer (first-draw quirk)
    fb_display.refresh()
    assert fb_display.refreshes[-1] == []  # nothing changed, nothing drawn
    for x in range(40, 60):
        for y in range(100, 110):
            bmp[x, y] = 1
    fb_display.refresh()
    assert fb_display.refreshes[-1] == [(40, 100, 60, 110)]
    assert fb_display.pixel(0, 0) == (0, 0, 255)
    assert fb_display.pixel(45, 105) == (255, 0, 0)
    path = tmp_path / "s.png"
    fb_display.save_png(str(path))
    from PIL import Image

    img = Image.open(path)
    assert img.size == (320, 240)
    assert img.getpixel((45, 105))[:3] == (255, 0, 0)
    assert img.getpixel((60, 105))[:3] == (0, 0, 255)


def test_the_headless_display_needs_no_pygame():
    code = (
        "import os, sys; os.environ['BLINKA_OS_AGNOSTIC'] = '1'; sys.path.insert(0, %r)\n"
        "from host_sim.display import FramebufferDisplay\n"
        "d = FramebufferDisplay(480, 320); d.refresh()\n"
        "assert 'pygame' not in sys.modules, 'pygame was imported'\n" % ROOT
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_script_parsing_rejects_bad_lines_with_their_number():
    cmds = script.parse("# comment\n\ntap 1 2\nmove 3a\nkey ESC\nwait 25\nexpect screen table\n"
                        "tap 3 4 2000\nexpect light dim\n")
    assert [c[1] for c in cmds] == ["tap", "move", "key", "wait", "expect", "tap", "expect"]
    assert cmds[0] == (3, "tap", [1, 2, script.PRESS_MS])
    assert cmds[2][2] == ["esc"]
    assert cmds[5][2] == [3, 4, 2000] and cmds[6][2] == ["light", "dim"]
    for bad, line in (("tap 1\n", 1), ("\nkey q\n", 2), ("\n\nfly\n", 3), ("expect lost\n", 1),
                      ("tap 1 2 0\n", 1), ("tap 1 2 3 4\n", 1), ("expect light off\n", 1)):
        with pytest.raises(script.ScriptError, match="line %d" % line):
            script.parse(bad)
