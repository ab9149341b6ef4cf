# SPDX-License-Identifier: MIT
"""The device clock: the internal RTC, and a DS3231 or PCF8523 on I2C when one answers.

`DeviceClock` talks to the clocks handed to it; `device_clock()` imports the board's
modules inside the function, so importing this module touches no hardware. The chips'
driver is hardware/rtcchip.py's, the arithmetic of dates and ticks freecell_mc/dates.py's.
"""

from freecell_mc.dates import (
    TICKS_MASK, day_number, from_day_number, plausible, valid_date, weekday,
)


class DeviceClock:
    """The clock the game sees: ticks, today's date, and setting it.

    rtc: an object with a writable `datetime` (struct_time-like, as rtc.RTC()); ext: an
    ExternalRTC or None; ticks: a function returning milliseconds (wrapping at 2**29);
    make_time: builds what rtc.datetime takes from a 9-tuple (time.struct_time).
    """

    def __init__(self, rtc, ext=None, ticks=None, make_time=None):
        """Wrap the internal RTC and, when present, an external one that outlives resets."""
        self.rtc = rtc
        self.ext = ext
        self._ticks = ticks
        self._make_time = make_time if make_time is not None else tuple
        if ext is not None:
            try:
                # An impossible time (None) is not taken either: the player is asked for
                # the date, which then sets the chip right.
                t = None if ext.lost_power() else ext.datetime()
                if t is not None and plausible(t[0]):
                    self._set_internal(t[0], t[1], t[2], t[3], t[4], t[5])
            except Exception:  # noqa: BLE001  (any error from a chip: start without it)
                self.ext = None

    def ticks_ms(self):
        """Return milliseconds from a counter that wraps at 2**29."""
        return self._ticks() & TICKS_MASK

    def today(self):
        """Return (y, m, d) from the clock, whether or not it is plausible."""
        t = self.rtc.datetime
        return (t[0], t[1], t[2])

    def plausible(self):
        """Return True if today() can be trusted (the clock has been set since power-up)."""
        return plausible(self.today()[0])

    def _set_internal(self, y, m, d, hh, mm, ss):
        """Set the internal RTC."""
        wd = weekday(y, m, d)
        yd = day_number(y, m, d) - day_number(y, 1, 1) + 1
        self.rtc.datetime = self._make_time((y, m, d, hh, mm, ss, wd, yd, -1))

    def set_today(self, y, m, d):
        """Set today's date (keeping the clock's time of day) on every clock there is."""
        if not valid_date(y, m, d):
            raise ValueError("not a date")
        t = self.rtc.datetime
        hh, mm, ss = t[3], t[4], t[5]
        self._set_internal(y, m, d, hh, mm, ss)
        if self.ext is not None:
            try:
                self.ext.set_datetime(y, m, d, hh, mm, ss)
            except Exception:  # noqa: BLE001  (any error from a chip: go on without it)
                self.ext = None


def device_clock(i2c=None):
    """Build the board's DeviceClock: rtc.RTC(), plus a DS3231/PCF8523 if one answers."""
    import rtc
    import time

    try:
        import supervisor

        ticks = supervisor.ticks_ms
    except (ImportError, AttributeError):

        def ticks():
            return int(time.monotonic() * 1000)

    if i2c is None:
        try:
            import board

            i2c = board.I2C()
        except (ImportError, AttributeError, RuntimeError, ValueError, OSError):
            i2c = None  # no STEMMA bus, or no pull-ups because nothing is plugged in
    ext = None
    if i2c is not None:
        try:
            from freecell_mc.hardware.rtcchip import find_rtc

            ext = find_rtc(i2c)
        except Exception:  # noqa: BLE001  (any error from a chip means starting without it)
            ext = None
    clock = DeviceClock(rtc.RTC(), ext, ticks, time.struct_time)
    if not clock.plausible():
        # The game's own reset after a fault restarted the internal RTC: the time it
        # carried across (hardware/carry.py) is taken back, so the player is not asked.
        from freecell_mc.hardware import carry

        carried = carry.time()
        if carried is not None:
            y, m, d = from_day_number(carried[0])
            s = carried[1]
            if plausible(y) and valid_date(y, m, d):
                clock._set_internal(y, m, d, s // 3600, s // 60 % 60, s % 60)
    return clock
