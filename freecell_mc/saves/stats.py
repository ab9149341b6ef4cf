# SPDX-License-Identifier: MIT
"""Statistics: games played and won, best and average time and moves, daily days won.

No streak is counted anywhere (the product deliberately has none). Daily wins are kept as
a count plus a 64-day bitmap ending at the latest won day: enough for the 30-day calendar
in 8 bytes. Everything packs into a fixed 40-byte layout (see SIZE and pack_into) that
record.py embeds in every save record.
"""

import struct

from freecell_mc import dates
from freecell_mc.compat import const

# Layout (little-endian), offsets relative to the start of the stats area:
#   0 played u32 | 4 won u32 | 8 sum of won seconds u32 | 12 sum of won moves u32
#  16 best seconds u32 (0 = none) | 20 best moves u16 (0 = none) | 22 days won u16
#  24 day number of the latest won day i32, -0x7FFFFFFF for none | 28 days bitmap,
#     8 bytes (bit i = that day - i) | 36 reserved u32
# The i32 goes through struct as its two halves, low u16 and high i16: CircuitPython's small
# ints have 31 bits, -0x7FFFFFFF would be a long int, and its struct checks a long int's
# range by building more of them (96 bytes at every look for changes, on every board that
# never won a daily). Every value here stays a small int, so packing allocates nothing.
_FMT = "<IIIIIHHHh"
_BITS = const(28)
SIZE = const(40)
_WINDOW = const(64)  # days the bitmap remembers back from the latest won day
_NONE_DAY = const(-0x3FFFFFFF)  # "no day won yet" in RAM: no date's day number, a small int
_NONE_LO = const(1)  # -0x7FFFFFFF, "no day won yet" on flash, as its two halves
_NONE_HI = const(-0x8000)
# Counters stop at the largest small int instead of growing into long ints (or past their
# u32 field: a struct.error at the next save would lose the save). A billion games, or
# 34 years of won games' time, is no count a player reaches; a record holding more (an
# earlier version stopped at 0xFFFFFFFF) loads as this.
_MAX = const(0x3FFFFFFF)
_MAX16 = const(0xFFFF)
# The days a won daily can have: the dates deals.valid_date accepts (years 1..9999).
_FIRST_DAY = const(-730119)  # dates.day_number(1, 1, 1)
_LAST_DAY = const(2921939)  # dates.day_number(9999, 12, 31)


class Stats:
    """Counts of games, won games' times and moves, and the daily days won."""

    def __init__(self):
        """Start with nothing played."""
        self.days_bits = bytearray(8)
        self.clear()

    def clear(self):
        """Forget everything."""
        self.played = 0
        self.won = 0
        self.won_seconds = 0
        self.won_moves = 0
        self.best_seconds = 0
        self.best_moves = 0
        self.days_won = 0
        self.last_day = _NONE_DAY
        for i in range(8):
            self.days_bits[i] = 0

    def record_start(self):
        """Count a game as played (call it once per deal, on its first move)."""
        if self.played < _MAX:
            self.played += 1

    def record_win(self, seconds, moves):
        """Count a won game with its elapsed seconds and moves."""
        seconds = min(max(seconds, 0), _MAX)
        moves = min(max(moves, 0), _MAX16)
        if self.won < _MAX:
            self.won += 1
        if self.played < self.won:
            self.played = self.won  # a win is always a game played
        self.won_seconds = min(self.won_seconds + seconds, _MAX)
        self.won_moves = min(self.won_moves + moves, _MAX)
        if self.best_seconds == 0 or seconds < self.best_seconds:
            self.best_seconds = max(1, seconds)
        if self.best_moves == 0 or moves < self.best_moves:
            self.best_moves = moves

    def win_rate(self):
        """Return won/played as a whole percentage (100 and 0 only when exact), or None before
        any game."""
        if self.played == 0:
            return None
        rate = (self.won * 100 + self.played // 2) // self.played
        # Rounded, 199 of 200 would read 100% and 1 of 201 0%: neither is true.
        if rate == 100 and self.won < self.played:
            return 99
        if rate == 0 and self.won > 0:
            return 1
        return rate

    def avg_seconds(self):
        """Return the average seconds of won games (rounded), or None without a win."""
        if self.won == 0:
            return None
        return (self.won_seconds + self.won // 2) // self.won

    def avg_moves(self):
        """Return the average moves of won games (rounded), or None without a win."""
        if self.won == 0:
            return None
        return (self.won_moves + self.won // 2) // self.won

    def _bit(self, i):
        """Return bit i of the days bitmap."""
        return (self.days_bits[i >> 3] >> (i & 7)) & 1

    def _shift(self, k):
        """Age the bitmap by k days (bit i moves to bit i + k)."""
        bits = self.days_bits
        for i in range(_WINDOW - 1, -1, -1):
            v = self._bit(i - k) if i >= k else 0
            if v:
                bits[i >> 3] |= 1 << (i & 7)
            else:
                bits[i >> 3] &= ~(1 << (i & 7)) & 255

    def day_won(self, y, m, d):
        """Return True if the daily deal of y-m-d was won (days within the last 64 kept)."""
        if self.last_day == _NONE_DAY:
            return False
        i = self.last_day - dates.day_number(y, m, d)
        return 0 <= i < _WINDOW and self._bit(i) == 1

    def mark_day_won(self, y, m, d, reach=None):
        """Record the daily deal of y-m-d as won; return True if it was not already.

        reach: the latest day number the window may move to (None: any). A day past it is
        not marked, nor counted: a clock far ahead of the last confirmed date (an RTC that
        lost its date, a slip in the date picker) would shift the window past every day
        the calendar still shows, and back on the real date they would read as not won.
        """
        n = dates.day_number(y, m, d)
        if reach is not None and n > reach:
            return False
        if self.last_day == _NONE_DAY:
            self.last_day = n
        elif n > self.last_day:
            self._shift(min(n - self.last_day, _WINDOW))
            self.last_day = n
        i = self.last_day - n
        if 0 <= i < _WINDOW:
            if self._bit(i):
                return False
            self.days_bits[i >> 3] |= 1 << (i & 7)
        # A day older than the window cannot be checked for repeats; the calendar only
        # shows 30 days, so such a win is counted once more at worst.
        if self.days_won < _MAX16:
            self.days_won += 1
        return True

    def pack_into(self, buf, off):
        """Write the SIZE-byte layout into buf at off."""
        # The fields are named one by one, here and in unpack_from, because the saves'
        # 250 ms look for changes packs a record and must allocate nothing (no list, no *args).
        day = self.last_day
        if day == _NONE_DAY:
            lo = _NONE_LO
            hi = _NONE_HI
        else:
            lo = day & 0xFFFF
            hi = day >> 16
        struct.pack_into(
            _FMT,
            buf,
            off,
            self.played,
            self.won,
            self.won_seconds,
            self.won_moves,
            self.best_seconds,
            self.best_moves,
            self.days_won,
            lo,
            hi,
        )
        buf[off + _BITS : off + _BITS + 8] = self.days_bits
        for i in range(off + _BITS + 8, off + SIZE):
            buf[i] = 0

    def unpack_from(self, buf, off):
        """Read the SIZE-byte layout from buf at off (check it with refusal() first)."""
        played, won, won_s, won_m, best_s, self.best_moves, self.days_won, lo, hi = (
            struct.unpack_from(_FMT, buf, off))
        # A count over _MAX (an earlier version's) would stay a long int: it loads as _MAX.
        self.played = min(played, _MAX)
        self.won = min(won, _MAX)
        self.won_seconds = min(won_s, _MAX)
        self.won_moves = min(won_m, _MAX)
        self.best_seconds = min(best_s, _MAX)
        self.last_day = _day(lo, hi)
        self.days_bits[:] = buf[off + _BITS : off + _BITS + 8]


def _day(lo, hi):
    """Return the day number of an i32 read as its halves, or _NONE_DAY."""
    if lo == _NONE_LO and hi == _NONE_HI:
        return _NONE_DAY
    return hi << 16 | lo


def refusal(buf, off):
    """Return why the SIZE-byte layout at off cannot come from this game, or None if it can.

    Each rule is something every sequence of record_start, record_win and mark_day_won
    keeps true, so only a foreign or broken writer breaks one.
    """
    played, won, won_s, won_m, best_s, best_m, days, lo, hi = struct.unpack_from(_FMT, buf, off)
    last = _day(lo, hi)
    if won > played:
        return "statistics: more games won than played"
    if won == 0:
        if won_s or won_m or best_s or best_m:
            return "statistics: times or moves of won games, but none won"
    elif best_s == 0:
        return "statistics: won games without a best time"
    # The best game is one of the won ones, so the sums (saturating) are never below it;
    # record_win counts a 0-second win's best as 1 second.
    if best_s > max(won_s, 1) or best_m > won_m:
        return "statistics: a best game beyond the sum of all won games"
    bits = 0
    for i in range(off + _BITS, off + _BITS + 8):
        b = buf[i]
        while b:
            bits += b & 1
            b >>= 1
    if last == _NONE_DAY:
        if bits or days:
            return "statistics: daily days won without a latest day"
    elif not _FIRST_DAY <= last <= _LAST_DAY:
        return "statistics: the latest daily day won is no date"
    elif not buf[off + _BITS] & 1:
        return "statistics: the latest daily day won is not marked"
    elif bits > days:
        return "statistics: more days marked won than counted"
    return None
