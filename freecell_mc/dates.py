# SPDX-License-Identifier: MIT
"""Dates, clock plausibility and the board's tick counter as plain arithmetic.

Imports nothing and runs on CPython, MicroPython and CircuitPython alike: the rules (the
daily deal), the saves, the screens and the board's clock all count days and ticks here.
Day numbers count days from 2000-01-01 (day 0), the date the SAMD51 clock restarts at.
"""

from freecell_mc.compat import const

TICKS_MASK = const(0x1FFFFFFF)  # supervisor.ticks_ms() wraps at 2**29
_TICKS_HALF = const(0x10000000)
# the game did not exist before: an earlier year is a reset clock
FIRST_PLAUSIBLE_YEAR = const(2025)

_MDAYS = b"\x1f\x1c\x1f\x1e\x1f\x1e\x1f\x1f\x1e\x1f\x1e\x1f"  # 31 28 31 30 ... as one bytes object


def is_leap(y):
    """Return True if y is a Gregorian leap year."""
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def days_in_month(y, m):
    """Return the number of days in month m (1..12) of year y."""
    if m == 2 and is_leap(y):
        return 29
    return _MDAYS[m - 1]


def valid_date(y, m, d, first=2000, last=2099):
    """Return True if y-m-d is a real Gregorian date of the years first..last.

    By default the years a clock holds (2000..2099: the RTCs keep two digits of the year);
    deals.valid_date asks for the years a deal code can name (1..9999).
    """
    return first <= y <= last and 1 <= m <= 12 and 1 <= d <= days_in_month(y, m)


def day_number(y, m, d):
    """Return the days from 2000-01-01 to y-m-d (negative before it)."""
    # Civil-from-days arithmetic with March as the first month, so the leap day is last.
    if m <= 2:
        y -= 1
        m += 9
    else:
        m -= 3
    era = y // 400
    yoe = y - era * 400
    doy = (153 * m + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 730425  # 730425: day number of 2000-01-01 in this scheme


def from_day_number(n):
    """Return (y, m, d) for a day number from day_number()."""
    z = n + 730425
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y = yoe + era * 400 + (1 if m <= 2 else 0)
    return (y, m, d)


def add_days(y, m, d, n):
    """Return the date n days after y-m-d (n may be negative)."""
    return from_day_number(day_number(y, m, d) + n)


def weekday(y, m, d):
    """Return the weekday of y-m-d: 0 Monday .. 6 Sunday."""
    return (day_number(y, m, d) + 5) % 7  # 2000-01-01 was a Saturday


def plausible(y):
    """Return True if a clock showing year y has plausibly been set."""
    return y >= FIRST_PLAUSIBLE_YEAR


def known_today(clock_today, last_date):
    """Return today as the clock says if it is set, else the last date the game knew, else None."""
    if clock_today is not None and plausible(clock_today[0]):
        return clock_today
    return last_date


def ticks_diff(a, b):
    """Return a - b for ticks_ms() values that wrap at 2**29 (as supervisor.ticks_ms does)."""
    return ((a - b + _TICKS_HALF) & TICKS_MASK) - _TICKS_HALF
