# SPDX-License-Identifier: MIT
"""Simulated board parts: the clock, the keyboard, the touch panel, the I2C RTC chips, and
the save blocks the game writes (nvm, and its save ring on the flash or the FAT drive)."""

import calendar
import os
import time

from freecell_mc.ui import layout
from host_sim.circuitpy import install, open_drive
from host_sim.fat import Volume
from host_sim.flash import FileBlock, Flash, FlashBlock

# CircuitPython's supervisor.ticks_ms() wraps at 2**29 and starts 65 s before the
# first wrap, so code that mishandles the wrap fails within a minute, as on the board.
TICKS_PERIOD = 1 << 29
TICKS_START = TICKS_PERIOD - 65536

# The PyPortal panel's factory calibration (SPEC section 6): the simulated panel
# produces raw readings as if it were calibrated exactly like this.
PANEL_CALIBRATION = ((5200, 59000), (5800, 57000))

EPOCH_2000 = calendar.timegm((2000, 1, 1, 0, 0, 0, 0, 0, 0))

# board name -> (board.board_id, width, height), from the game's one table of boards. A
# Pynt runs the PyPortal's firmware and reports its board_id, "pyportal"; the game tells
# the two apart by the PyPortal's temperature sensor (ADT7410 below), as on the boards.
BOARDS = {name: ("pyportal" if board_id == "pyportal_pynt" else board_id, w, h)
          for name, board_id, w, h, _ in layout.BOARDS}


def parse_date(text):
    """Return the epoch seconds of midnight of a YYYY-MM-DD date; raise ValueError if bad."""
    parts = text.split("-")
    if len(parts) != 3:
        raise ValueError("dates look like 2026-11-30, not %r" % text)
    y, m, d = (int(p) for p in parts)
    if not (1 <= m <= 12 and 1 <= d <= calendar.monthrange(y, m)[1]):
        raise ValueError("no such date: %r" % text)
    return calendar.timegm((y, m, d, 0, 0, 0, 0, 0, 0))


def struct_time_of(seconds):
    """Return a time.struct_time for epoch seconds, the way CircuitPython builds it."""
    t = time.gmtime(seconds)
    return time.struct_time(
        (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, t.tm_wday, t.tm_yday, -1)
    )


def seconds_of(t):
    """Return the epoch seconds of a struct_time or 9-tuple (the board has no time zones)."""
    return calendar.timegm(tuple(t)[:6] + (0, 0, 0))


class SimClock:
    """The board's time: a monotonic millisecond count and the battery-less internal RTC.

    Headless, time moves only when `advance` is called (once per touch poll), so a run
    never sleeps and is the same every time. In a window it follows the wall clock.
    """

    def __init__(self, realtime=False, rtc_start=EPOCH_2000, step_ms=10):
        self.realtime = realtime
        self.step_ms = step_ms  # headless: the board time one poll takes
        self._ms = 0
        self._t0 = time.monotonic()
        self._boot_ms = 0  # total_ms() at the last power-up
        # rtc seconds = _rtc_base + seconds since power-up; setting the RTC moves the base
        self._rtc_base = rtc_start

    def total_ms(self):
        """Return milliseconds since the simulation began (battery-backed chips run on it)."""
        if self.realtime:
            return int((time.monotonic() - self._t0) * 1000)
        return self._ms

    def ms(self):
        """Return milliseconds since the last power-up."""
        return self.total_ms() - self._boot_ms

    def power_up(self, rtc_start=EPOCH_2000):
        """A hard reset: the tick counter and the internal RTC start again."""
        self._boot_ms = self.total_ms()
        self._rtc_base = rtc_start

    def advance(self, ms):
        """Move simulated time forward (headless only; the wall clock moves by itself)."""
        self._ms += ms

    def ticks_ms(self):
        """Return supervisor.ticks_ms(): wrapping at 2**29, starting 65 s before the wrap."""
        return (TICKS_START + self.ms()) & (TICKS_PERIOD - 1)

    def monotonic(self):
        """Return time.monotonic(): float seconds since power-up."""
        return self.ms() / 1000.0

    def monotonic_ns(self):
        """Return time.monotonic_ns()."""
        return self.ms() * 1000000

    def rtc_seconds(self):
        """Return the internal RTC as epoch seconds."""
        return self._rtc_base + self.ms() // 1000

    def set_rtc_seconds(self, seconds):
        """Set the internal RTC (rtc.RTC().datetime = ...)."""
        self._rtc_base = int(seconds) - self.ms() // 1000

    def sleep(self, seconds):
        """Sleep in a window; headless, a pause longer than a poll's step moves the clock.

        A headless poll is step_ms of board time, the main loop's short pause included; a
        longer pause (the dark screen's slower polls) adds what it lasts beyond that.
        """
        if self.realtime:
            if seconds > 0:
                time.sleep(seconds)
            return
        extra = int(seconds * 1000) - self.step_ms
        if extra > 0:
            self._ms += extra


class Keyboard:
    """Keys for the game: `read()` returns the next key name or None."""

    def __init__(self):
        self._queue = []

    def push(self, key):
        """Queue a key name ("u", "esc", "enter", "3", ...)."""
        self._queue.append(key)

    def read(self):
        """Return the next key name, or None when no key is waiting."""
        if self._queue:
            return self._queue.pop(0)
        return None

    def pending(self):
        """Return how many keys wait to be read."""
        return len(self._queue)


def screen_to_raw(x, y, size, calibration=PANEL_CALIBRATION):
    """Return the raw ADC (x, y) the simulated panel produces when pressed at screen (x, y)."""
    (cx0, cx1), (cy0, cy1) = calibration
    w, h = size
    # the middle of the pixel, so the library's int() maps it back to the same pixel
    rx = cx0 + (x + 0.5) * (cx1 - cx0) / (w - 1)
    ry = cy0 + (y + 0.5) * (cy1 - cy0) / (h - 1)
    return min(65535, max(0, int(rx))), min(65535, max(0, int(ry)))


def raw_to_screen(rx, ry, size, calibration):
    """Map raw ADC readings to screen pixels exactly as adafruit_touchscreen does."""
    if not calibration:
        calibration = ((0, 65535), (0, 65535))
    (cx0, cx1), (cy0, cy1) = calibration
    w, h = size if size else (65535, 65535)
    return _map_range(rx, cx0, cx1, w - 1), _map_range(ry, cy0, cy1, h - 1)


def _map_range(v, in0, in1, out1):
    """Map like adafruit_simplemath.map_range onto 0..out1, clamped, then truncate."""
    if in1 == in0:
        return 0
    mapped = (v - in0) * out1 / (in1 - in0)
    return int(min(max(mapped, 0), out1))


# --- I2C real-time clocks -------------------------------------------------------------


def _bcd(v):
    """Return v (0..99) in binary-coded decimal."""
    return (v // 10) << 4 | (v % 10)


def _unbcd(b):
    """Return the value of a binary-coded-decimal byte."""
    return (b >> 4) * 10 + (b & 15)


class _RegisterChip:
    """An I2C device with a register pointer that auto-increments, like both RTC chips."""

    size = 0
    masks = {}

    def __init__(self):
        self.regs = bytearray(self.size)
        self._ptr = 0
        self.writes = []  # (register, bytes) of every write that stored anything

    def write(self, data):
        """Handle an I2C write: first byte sets the pointer, the rest are stored."""
        if not data:
            return
        self._ptr = data[0] % self.size
        if len(data) > 1:
            self.writes.append((self._ptr, bytes(data[1:])))
            self._sync_out()
            for b in data[1:]:
                # bits a register does not have read back as 0
                self.regs[self._ptr] = b & self.masks.get(self._ptr, 0xFF)
                self._ptr = (self._ptr + 1) % self.size
            self._sync_in()

    def read(self, n):
        """Handle an I2C read of n bytes from the pointer."""
        self._sync_out()
        out = bytearray(n)
        for i in range(n):
            out[i] = self.regs[self._ptr]
            self._ptr = (self._ptr + 1) % self.size
        return out

    def _sync_out(self):
        """Refresh the time registers from the running time."""

    def _sync_in(self):
        """Take a new time from the time registers after a write."""


class _RtcChip(_RegisterChip):
    """A battery-backed RTC: keeps its own time, which runs with the board's clock."""

    # Each chip says where it keeps seconds, minutes, hours, day, month and year (BCD),
    # and the weekday.
    time_regs = ()
    weekday_reg = 0
    _wd_first = 0  # the register's value for the chip's first weekday

    def __init__(self, clock, start_seconds):
        super().__init__()
        self._clock = clock
        self._base = start_seconds - clock.total_ms() // 1000
        # The weekday register is a counter of its own: it holds whatever was written,
        # kept as an offset from the weekday of the running date.
        self._wd_offset = 0

    def _weekday(self, t):
        """Return the weekday register's value for time t (struct_time)."""
        return (self._wd0(t) + self._wd_offset) % 7 + self._wd_first

    def _take_weekday(self):
        """Remember the written weekday register as an offset from the date's weekday."""
        t = time.gmtime(self.seconds())
        v = self.regs[self.weekday_reg] - self._wd_first
        self._wd_offset = (v - self._wd0(t)) % 7

    @staticmethod
    def _wd0(t):
        """Return the chip's 0-based weekday of struct_time t."""
        return t.tm_wday

    def seconds(self):
        """Return the chip's time as epoch seconds (its battery keeps it over resets)."""
        return self._base + self._clock.total_ms() // 1000

    def set_seconds(self, s):
        """Set the chip's time."""
        self._base = s - self._clock.total_ms() // 1000

    def _sync_out(self):
        t = time.gmtime(self.seconds())
        r = self.regs
        sec, mins, hour, day, mon, year = self.time_regs
        r[sec] = (r[sec] & 0x80) | _bcd(t.tm_sec)  # keep the PCF8523's OS (clock integrity) flag
        r[mins] = _bcd(t.tm_min)
        r[hour] = _bcd(t.tm_hour)
        r[day] = _bcd(t.tm_mday)
        r[self.weekday_reg] = self._weekday(t)
        r[mon] = _bcd(t.tm_mon)
        r[year] = _bcd(t.tm_year % 100)

    def _sync_in(self):
        r = self.regs
        sec, mins, hour, day, mon, year = self.time_regs
        fields = (
            2000 + _unbcd(r[year]),
            _unbcd(r[mon] & 0x1F),
            _unbcd(r[day] & 0x3F),
            _unbcd(r[hour] & 0x3F),
            _unbcd(r[mins] & 0x7F),
            _unbcd(r[sec] & 0x7F),
        )
        try:
            s = calendar.timegm(fields + (0, 0, 0))
        except (ValueError, OverflowError):
            return
        self.set_seconds(s)
        self._take_weekday()


class DS3231(_RtcChip):
    """Maxim DS3231 at 0x68: time at 0x00..0x06 (s, m, h, weekday, day, month, year)."""

    size = 0x13
    masks = {0: 0x7F, 1: 0x7F, 2: 0x7F, 3: 0x07, 4: 0x3F, 5: 0x9F}
    time_regs = (0, 1, 2, 4, 5, 6)
    weekday_reg = 3
    _wd_first = 1  # 1..7

    def __init__(self, clock, start_seconds):
        super().__init__(clock, start_seconds)
        self.regs[0x0E] = 0x1C  # control: the power-on value from the datasheet

    def _sync_out(self):
        super()._sync_out()
        self.regs[0x11] = 25  # temperature, degrees C
        self.regs[0x12] = 0


class PCF8523(_RtcChip):
    """NXP PCF8523 at 0x68: time at 0x03..0x09 (s, m, h, day, weekday, month, year)."""

    size = 0x14
    masks = {4: 0x7F, 5: 0x3F, 6: 0x3F, 7: 0x07, 8: 0x1F}
    time_regs = (3, 4, 5, 6, 8, 9)
    weekday_reg = 7

    @staticmethod
    def _wd0(t):
        return (t.tm_wday + 1) % 7  # the chip counts Sunday as 0

    def __init__(self, clock, start_seconds):
        super().__init__(clock, start_seconds)
        self.regs[0x02] = 0xE0  # control 3: battery switch-over as after power-on


class DS1307(_RtcChip):
    """Maxim DS1307 at 0x68: time at 0x00..0x06 as the DS3231's, control at 0x07, then 56
    bytes of RAM (here all 0, the case most like the other chips); the pointer wraps at 0x3F.
    Not a clock the game drives (SPEC: DS3231 or PCF8523): it must be left untouched."""

    size = 0x40
    masks = {0: 0xFF, 1: 0x7F, 2: 0x7F, 3: 0x07, 4: 0x3F, 5: 0x1F, 7: 0x93}
    time_regs = (0, 1, 2, 4, 5, 6)
    weekday_reg = 3
    _wd_first = 1

    def __init__(self, clock, start_seconds):
        super().__init__(clock, start_seconds)
        self.regs[0x07] = 0x03  # control: square wave off, rate bits set, as at power-on


class MPU6050(_RegisterChip):
    """InvenSense MPU-6050 motion sensor at 0x68 (AD0 low): WHO_AM_I (0x75) reads 0x68,
    PWR_MGMT_1 (0x6B) 0x40 (asleep), the rest 0 but for a few factory trim bytes."""

    size = 0x76

    def __init__(self, clock=None, start_seconds=0):
        super().__init__()
        self.regs[0x75] = 0x68
        self.regs[0x6B] = 0x40
        self.regs[0x00:0x06] = bytes((0x81, 0x02, 0x03, 0x24, 0x15, 0x06))  # gyro trims


class ADT7410(_RegisterChip):
    """Analog Devices ADT7410 at 0x48, the PyPortal's temperature sensor (the Pynt and the
    Titano have none): its ID register 0x0B reads 0xCB, the temperature 25 C at 0x00."""

    size = 0x30

    def __init__(self):
        super().__init__()
        self.regs[0x0B] = 0xCB
        self.regs[0x00] = 0x0C  # 25 C, 1/128 C a unit: 0x0C80
        self.regs[0x01] = 0x80
        self.regs[0x04] = 0x20  # the power-on alarm limits
        self.regs[0x08] = 0x49
        self.regs[0x0A] = 0x05


def board_chips(board):
    """Return {address: chip} of what a board has on its I2C bus before anything is plugged
    in: the PyPortal its ADT7410 (the Pynt and the Titano nothing)."""
    return {0x48: ADT7410()} if board == "pyportal" else {}


EXT_CHIPS = {"ds3231": DS3231, "pcf8523": PCF8523, "ds1307": DS1307, "mpu6050": MPU6050}


def make_ext_rtc(kind, clock, start_seconds):
    """Return {address: chip} for --ext-rtc none|ds3231|pcf8523|ds1307|mpu6050.

    ds1307 and mpu6050 are chips the game must not drive, only find and leave alone."""
    if kind in (None, "none"):
        return {}
    if kind in EXT_CHIPS:
        return {0x68: EXT_CHIPS[kind](clock, start_seconds)}
    raise ValueError("--ext-rtc is none, %s, not %r" % (", ".join(EXT_CHIPS), kind))


# -- the save blocks: nvm and the save ring over the simulated flash -----------------

FILE_SIZE = 4096  # the per-file model: one save file per 4 KB erase sector


def ring_path(i):
    """Return the path of place i in the per-file model (one file per folder)."""
    return "fcsave/%02d/save.bin" % i


def sim_blocks(drive=None, nvm_path=None, ring=None, writable=True):
    """Build nvm and a ring of separate save files (the per-file model, for record tests).

    The board's layout (one save file on a FAT drive) is `fat_blocks`; this simpler ring
    of one file per place exercises the records and the policy with small rings. drive:
    a folder (None keeps everything in memory); nvm_path: where nvm persists (None: in
    memory); ring: number of places (default: the device's); writable=False models a drive
    left to the computer for USB updates.
    """
    from freecell_mc.saves import savelog

    n = savelog.RING if ring is None else ring
    blocks = [FlashBlock(nvm_path, savelog.NVM_SIZE)]
    for i in range(n):
        path = None if drive is None else os.path.join(drive, ring_path(i))
        blocks.append(FileBlock(path, FILE_SIZE, writable=writable))
    return blocks


class ReadOnly:
    """A FAT volume as code.py sees it while the computer owns CIRCUITPY: writes fail (EROFS)."""

    def __init__(self, vol):
        self.vol = vol

    def open(self, path, mode="r"):
        """Open for reading; refuse any write."""
        if any(c in mode for c in "wax+"):
            raise OSError(30, "Read-only filesystem")
        return self.vol.open(path, mode)

    def mkdir(self, path):
        """Refuse."""
        raise OSError(30, "Read-only filesystem")

    def stat_size(self, path):
        """Return the file's size."""
        return self.vol.stat_size(path)

    def is_dir(self, path):
        """Return True for a folder."""
        return self.vol.is_dir(path)

    def free_bytes(self):
        """Return the bytes free on the drive."""
        return self.vol.free_bytes()

    def sync(self):
        """Nothing to sync."""


def fat_blocks(vol=None, nvm_path=None, places=None, writable=True):
    """Build the board's save blocks over CIRCUITPY's FAT model: nvm, then the save file.

    vol: a host_sim.fat.Volume (None: a freshly formatted 8 MB drive in memory, holding
    what a board holds before the first save, its save file made for `places`); places:
    record places (default RING).
    """
    from freecell_mc.saves import savelog

    n = savelog.RING if places is None else places
    if vol is None:
        vol = Volume.mkfs(Flash())
        install(vol, n)
        vol.flash.erases = [0] * len(vol.flash.erases)  # count from the installed drive on
    fs = vol if writable else ReadOnly(vol)
    return savelog.SaveLog(FlashBlock(nvm_path, savelog.NVM_SIZE), savelog.LOG_PATH, n, fs)


def drive_blocks(drive, nvm_path=None, places=None):
    """Return the board's save blocks on the simulator's drive folder (its FAT image) and nvm.

    What the simulator's game reads and writes on `--drive drive --nvm nvm_path`: tests
    prepare saves with it before a run and read them after one.
    """
    return fat_blocks(open_drive(str(drive)), nvm_path, places)


def total_erases(blocks):
    """Return (nvm erases, the most erases of any one file sector or directory sector)."""
    nvm = blocks[0].erase_count
    most = 0
    for b in blocks[1:]:
        most = max(most, b.erase_count, getattr(b, "meta_erase_count", 0))
    return nvm, most
