# SPDX-License-Identifier: MIT
"""The external clock chips: a DS3231 or PCF8523 on the STEMMA port's I2C bus, found by
reading alone and driven by their registers (no library).

Imported by clock.device_clock only where the board has an I2C bus to look on, and let go
after the start where no chip answered (app._forget): a PyPortal with nothing on its
STEMMA port (its bus has no pull-ups, so board.I2C() raises) never loads it.
"""

from freecell_mc.compat import const
from freecell_mc.dates import valid_date, weekday

_RTC_ADDR = const(0x68)  # both the DS3231 and the PCF8523 answer here (and others do)
# A bus whose lock is never given back (a library that failed between try_lock and unlock)
# would hold the game forever: it is tried this often, then the chip is done without.
_LOCK_TRIES = const(1000)


def _bcd(v):
    """Decode one BCD byte."""
    return (v >> 4) * 10 + (v & 15)


def _to_bcd(v):
    """Encode 0..99 as one BCD byte."""
    return ((v // 10) << 4) | (v % 10)


class ExternalRTC:
    """A DS3231 or PCF8523 on I2C: read and set the date (registers written here, no library)."""

    DS3231 = "DS3231"
    PCF8523 = "PCF8523"

    def __init__(self, i2c, chip, addr=_RTC_ADDR):
        """Drive chip (ExternalRTC.DS3231 or .PCF8523) at addr on a busio.I2C-like bus."""
        self.i2c = i2c
        self.chip = chip
        self.addr = addr
        self._buf = bytearray(33)  # identify() reads registers 0x00..0x20 into it
        # Where the seconds..years registers start: the DS3231 starts with them, the
        # PCF8523 has three control registers first.
        self._base = 0 if chip == self.DS3231 else 3

    def _read(self, reg, n):
        """Read n registers from reg into the scratch buffer."""
        buf = self._buf
        buf[0] = reg
        for _ in range(_LOCK_TRIES):
            if self.i2c.try_lock():
                break
        else:
            raise OSError(16)  # EBUSY: the callers go on without the chip
        try:
            self.i2c.writeto_then_readfrom(self.addr, buf, buf, out_end=1, in_end=n)
        finally:
            self.i2c.unlock()
        return buf

    def _write(self, reg, data):
        """Write the bytes of data to registers from reg on."""
        out = bytearray(1 + len(data))
        out[0] = reg
        out[1:] = data
        for _ in range(_LOCK_TRIES):
            if self.i2c.try_lock():
                break
        else:
            raise OSError(16)
        try:
            self.i2c.writeto(self.addr, out)
        finally:
            self.i2c.unlock()

    def lost_power(self):
        """Return True when the chip says its time cannot be trusted (oscillator stopped)."""
        if self.chip == self.DS3231:
            return bool(self._read(0x0F, 1)[0] & 0x80)  # status: OSF
        return bool(self._read(0x03, 1)[0] & 0x80)  # seconds: OS

    def datetime(self):
        """Return (y, m, d, hh, mm, ss) read from the chip, or None for a time that cannot
        be (hour 45, minute 85: a look-alike chip, or a damaged one)."""
        r = self._read(self._base, 7)
        ss = _bcd(r[0] & 0x7F)
        mm = _bcd(r[1] & 0x7F)
        hh = _bcd(r[2] & 0x3F)
        # The DS3231 keeps the weekday before the day, the PCF8523 after it.
        d = _bcd(r[4 if self.chip == self.DS3231 else 3] & 0x3F)
        mo = _bcd(r[5] & 0x1F)
        y = 2000 + _bcd(r[6])
        if not (hh < 24 and mm < 60 and ss < 60 and valid_date(y, mo, d)):
            return None
        return (y, mo, d, hh, mm, ss)

    def set_datetime(self, y, m, d, hh=0, mm=0, ss=0):
        """Set the chip's date and time and mark its time trustworthy again."""
        wd = weekday(y, m, d)
        regs = bytearray(7)
        regs[0] = _to_bcd(ss)
        regs[1] = _to_bcd(mm)
        regs[2] = _to_bcd(hh)
        if self.chip == self.DS3231:
            regs[3] = wd + 1  # DS3231 weekday 1..7
            regs[4] = _to_bcd(d)
        else:
            regs[3] = _to_bcd(d)  # PCF8523: days before weekdays
            regs[4] = (wd + 1) % 7  # 0 Sunday .. 6 Saturday
        regs[5] = _to_bcd(m)
        regs[6] = _to_bcd(y - 2000)
        self._write(self._base, regs)
        if self.chip == self.DS3231:
            st = self._read(0x0F, 1)[0]
            self._write(0x0F, bytes((st & 0x7F,)))  # clear OSF
        else:
            # Control_3 resets to 0xE0 (battery switch-over off): without this the chip
            # forgets the time whenever the board is unplugged.
            self._write(0x02, b"\x00")


def identify(i2c, addr=_RTC_ADDR):
    """Return ExternalRTC.DS3231 or .PCF8523 for the chip at addr, or None if nothing fits.

    By reading alone: nothing is written to a chip before it is known (0x68 is also the
    address of motion sensors such as the MPU-6050, and of the DS1307). The register
    pointer is set for each read, which changes no register.
    - An InvenSense motion sensor (MPU-6050/6000, -6500, -9250, -9255) answers its
      WHO_AM_I at 0x75 with 0x68, 0x70, 0x71 or 0x73: not a clock.
    - A DS3231 has registers 0x00..0x12 and its pointer wraps to 0x00 after 0x12, so 33
      registers read from 0x00 repeat after 19: the date (which changes at midnight
      only) and the alarms (which change only when written) read the same twice. Its
      status bits 6..4 and the temperature's bits 5..0 read 0, and it holds a date (it
      starts at 2000-01-01).
    - A PCF8523 reads 0 in the bits its registers lack (minutes bit 7, hours 7..6,
      weekday 7..3, control 3 bit 4, timer A's 7..3, timer B's 7 and 3) and holds a
      date at 0x06, 0x08, 0x09 (it starts at 2000-01-01). A DS1307 (64 registers, its
      RAM from 0x08) shows neither.
    A bus whose lock is never free, or a chip that stops answering, gives None.
    """
    probe = ExternalRTC(i2c, None, addr)
    try:
        if probe._read(0x75, 1)[0] in (0x68, 0x70, 0x71, 0x73):
            return None
    except OSError:
        pass  # the clocks have no 0x75: one may refuse it
    try:
        r = probe._read(0, 33)
    except OSError:
        return None
    for i in range(3, 14):
        if r[19 + i] != r[i]:
            break
    else:
        if not (r[0x0F] & 0x70 or r[0x12] & 0x3F) and valid_date(
                2000 + _bcd(r[6]), _bcd(r[5] & 0x7F), _bcd(r[4])):
            return ExternalRTC.DS3231
    if (r[2] & 0x10 or r[4] & 0x80 or r[5] & 0xC0 or r[7] & 0xF8 or r[0x10] & 0xF8
            or r[0x12] & 0x88):
        return None
    if valid_date(2000 + _bcd(r[9]), _bcd(r[8]), _bcd(r[6])):
        return ExternalRTC.PCF8523
    return None


def find_rtc(i2c):
    """Return an ExternalRTC for a DS3231 or PCF8523 on the bus, or None."""
    if i2c is None:
        return None
    chip = identify(i2c)
    if chip is None:
        return None
    return ExternalRTC(i2c, chip)
