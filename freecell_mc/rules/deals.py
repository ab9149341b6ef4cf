# SPDX-License-Identifier: MIT
"""Deals: seeded (free and daily) deals, Microsoft deal numbers and deal codes.

Every function returns a deck: a list of 52 card ids (0..51) in deal order; card k of the
deck goes onto column k % 8. The seeded deal is frozen forever (SPEC section 3): a firmware
update must never change a deal, so the known-answer tests pin it.
"""

from freecell_mc.compat import const
from freecell_mc import dates

KIND_SEED = const(1)
KIND_DAILY = const(2)
KIND_MS = const(3)

MS_MAX = const(1000000)
DAILY_DAYS = const(30)  # the days a daily deal stays open: the calendar's 30

# What a daily deal's date is to the player today (daily_status).
DAY_OPEN = const(0)  # one of the calendar's 30 days: playable, a win is a daily day won
DAY_OLD = const(1)  # older than the calendar: its code still plays it, a win is a game won
DAY_FUTURE = const(2)  # not yet: nobody may play it
DAY_BEFORE = const(3)  # before the game existed (and before any clock it trusts)
DAY_UNKNOWN = const(4)  # today is not known (the clock was reset and never set)
_M32 = 0xFFFFFFFF
# Seeds are 32-bit; a code number longer than this has no deal behind it.
_SEED_MAX = 0xFFFFFFFF

# Damm's totally anti-symmetric quasigroup of order 10: row = interim, column = digit.
# It catches every single mistyped digit and every swap of two neighbouring digits.
_DAMM = (
    b"\x00\x03\x01\x07\x05\x09\x08\x06\x04\x02"
    b"\x07\x00\x09\x02\x01\x05\x04\x08\x06\x03"
    b"\x04\x02\x00\x06\x08\x07\x01\x03\x05\x09"
    b"\x01\x07\x05\x00\x09\x08\x03\x04\x02\x06"
    b"\x06\x01\x02\x03\x00\x04\x05\x09\x07\x08"
    b"\x03\x06\x07\x04\x02\x00\x09\x05\x08\x01"
    b"\x05\x08\x06\x09\x07\x02\x00\x01\x03\x04"
    b"\x08\x09\x04\x05\x03\x06\x02\x00\x01\x07"
    b"\x09\x04\x03\x08\x06\x01\x07\x02\x00\x05"
    b"\x02\x05\x08\x01\x04\x03\x06\x07\x09\x00"
)


def fmix32(h):
    """Return MurmurHash3's 32-bit finaliser of h (spreads nearby seeds apart)."""
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M32
    h ^= h >> 16
    return h


def seeded_deck(seed):
    """Return the deck of a 32-bit seed: xorshift32 after fmix32, Fisher-Yates from the top."""
    state = fmix32((seed & _M32) ^ 0x9E3779B9)
    if state == 0:
        # xorshift32 stays at 0 forever from 0.
        state = 1
    deck = list(range(52))
    for i in range(51, 0, -1):
        state ^= (state << 13) & _M32
        state ^= state >> 17
        state ^= (state << 5) & _M32
        j = state % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def daily_seed(y, m, d):
    """Return the seed of the daily deal of local date y-m-d (2026-11-30 -> 20261130)."""
    return y * 10000 + m * 100 + d


def daily_date(number):
    """Return (y, m, d) of a daily deal's number, as daily_seed made it (20261130: 2026, 11, 30)."""
    return (number // 10000, number // 100 % 100, number % 100)


def daily_status(number, today):
    """Return DAY_OPEN, DAY_OLD, DAY_FUTURE, DAY_BEFORE or DAY_UNKNOWN for a daily against today.

    ``today`` is (y, m, d) or None when the date is not known (dates.known_today).
    """
    y, m, d = daily_date(number)
    if not dates.plausible(y):
        return DAY_BEFORE
    if today is None:
        return DAY_UNKNOWN
    age = dates.day_number(today[0], today[1], today[2]) - dates.day_number(y, m, d)
    if age < 0:
        return DAY_FUTURE
    if age < DAILY_DAYS:
        return DAY_OPEN
    return DAY_OLD


def ms_deck(n):
    """Return Microsoft FreeCell deal number n (1 .. 2**32 - 1) as a deck in deal order."""
    if n < 1 or n > _M32:
        raise ValueError("Microsoft deal numbers are 1 to 4294967295")
    # Numbers from 2**31 on follow Freecell Solver's extension: bit 15 of every draw is set.
    high = 0x8000 if n >= 0x80000000 else 0
    state = n & 0x7FFFFFFF
    # The published algorithm: cards numbered 51..0 are swapped from the front with a slot
    # counted from the back; the result is read front to back.
    cards = list(range(51, -1, -1))
    for i in range(52):
        state = (state * 214013 + 2531011) & 0x7FFFFFFF
        r = (state >> 16) | high
        j = 51 - r % (52 - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deck_for(kind, number):
    """Return the deck of a deal given by kind and number (seed, YYYYMMDD or MS number)."""
    if kind == KIND_MS:
        return ms_deck(number)
    return seeded_deck(number)


def damm(digits):
    """Return the Damm check digit (0..9) of a string of decimal digits."""
    interim = 0
    for ch in digits:
        interim = _DAMM[interim * 10 + ord(ch) - 48]
    return interim


def valid_date(y, m, d):
    """Return True if y-m-d is a date a daily deal's code can name: a real date of 1..9999.

    The calendar's rule is dates.valid_date's; a deal's years are wider than a clock's.
    """
    return dates.valid_date(y, m, d, 1, 9999)


def _check_deal(kind, number, cells):
    """Raise ValueError with a message for the player if the deal does not exist."""
    if kind != KIND_SEED and kind != KIND_DAILY and kind != KIND_MS:
        raise ValueError("No such kind of deal: the code starts with 1, 2 or 3")
    if cells < 1 or cells > 4:
        raise ValueError("Free cells must be 1 to 4")
    if kind == KIND_MS:
        if number < 1 or number > MS_MAX:
            raise ValueError("Microsoft deals are numbered 1 to 1,000,000")
    elif kind == KIND_DAILY:
        y, m, d = daily_date(number)
        if not valid_date(y, m, d):
            raise ValueError("No such date")
    elif number < 0 or number > _SEED_MAX:
        raise ValueError("Deal numbers end at 4294967295")


def deal_code(kind, number, cells):
    """Return the code of a deal, "<kind><cells>-<number>-<check>", e.g. "24-20261130-5"."""
    _check_deal(kind, number, cells)
    body = str(kind) + str(cells) + str(number)
    return body[:2] + "-" + body[2:] + "-" + str(damm(body))


def parse_code(text):
    """Return (kind, number, cells) of a deal code; raise ValueError with a clear message."""
    digits = ""
    for ch in text:
        if ch == "-" or ch == " ":
            continue
        if ch < "0" or ch > "9":
            raise ValueError("A code has digits only")
        digits += ch
    if len(digits) < 4:
        raise ValueError("That code is too short")
    if len(digits) > 13:
        raise ValueError("That code is too long")
    # Checked before anything else: a typo must never be read as another valid deal.
    if damm(digits) != 0:
        raise ValueError("The check digit does not match: a digit is mistyped")
    kind = ord(digits[0]) - 48
    cells = ord(digits[1]) - 48
    number = int(digits[2:-1])
    _check_deal(kind, number, cells)
    return kind, number, cells
