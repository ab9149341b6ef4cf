# SPDX-License-Identifier: MIT
"""The screens' pure logic: dates, the 30-day calendar, the keypad, calibration, figures.

It also names deals for the player and says why a daily deal is not open (which ones are is
the rules' to say: deals.daily_status).

No displayio here: every function runs under CPython and MicroPython alike, so the
logic behind the menus is tested without a display and on a real MicroPython.
"""

from freecell_mc.compat import const
from freecell_mc.dates import (
    FIRST_PLAUSIBLE_YEAR, add_days, day_number, days_in_month, from_day_number, weekday,
)
from freecell_mc.rules.deals import (
    DAILY_DAYS, DAY_BEFORE, DAY_FUTURE, DAY_UNKNOWN, KIND_DAILY, KIND_MS, MS_MAX, daily_date,
    daily_status,
)
from freecell_mc.saves.settings import CAL_MIN_SPAN, DEFAULT_CALIBRATION, valid_calibration  # noqa: F401  (calibration.py asks here)

YEAR_MIN = FIRST_PLAUSIBLE_YEAR  # the picker never offers a date the clock would distrust
YEAR_MAX = const(2099)
MS_DIGITS = const(7)
ENTRY_MAX = const(16)

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)
WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


# --- dates (the arithmetic is freecell_mc.dates') ------------------------------------


def date_text(y, m, d):
    """Return "Monday 30 November 2026"."""
    return WEEKDAY_NAMES[weekday(y, m, d)] + " " + str(d) + " " + MONTH_NAMES[m - 1] + " " + str(y)


def iso(y, m, d):
    """Return "2026-11-30"."""
    return "%04d-%02d-%02d" % (y, m, d)


class DateModel:
    """The date picker's value: year, month and day stepped by +/-, always a real, plausible
    date."""

    YEAR = 0
    MONTH = 1
    DAY = 2

    def __init__(self, y=2026, m=1, d=1):
        self.y = YEAR_MIN
        self.m = 1
        self.d = 1
        self.set(y, m, d)

    def set(self, y, m, d):
        """Start from y-m-d, pulled into the plausible range and to a real day."""
        if y < YEAR_MIN:
            y, m, d = YEAR_MIN, 1, 1
        elif y > YEAR_MAX:
            y = YEAR_MAX
        m = min(12, max(1, m))
        self.y = y
        self.m = m
        self.d = min(days_in_month(y, m), max(1, d))

    def step(self, field, delta):
        """Add delta to the year, month or day, carrying as a calendar does; stop at the
        range's ends.

        Carrying matters here: the picker starts from the last date the game knew, and
        the usual answer is a few days later, often across the end of a month.
        """
        y, m, d = self.y, self.m, self.d
        if field == 0:
            y += delta
        elif field == 1:
            k = y * 12 + m - 1 + delta
            y = k // 12
            m = k % 12 + 1
        else:
            y, m, d = add_days(y, m, d, delta)
        if y < YEAR_MIN or y > YEAR_MAX:
            return
        # 31 January stepped to February becomes the 28th or 29th, never 3 March.
        self.y = y
        self.m = m
        self.d = min(d, days_in_month(y, m))

    def value(self):
        """Return (y, m, d)."""
        return (self.y, self.m, self.d)


class Calendar:
    """The last n days ending today, oldest first, in weeks (Monday first) or in rows of cols.

    Day i (0 = the oldest, n - 1 = today) sits in row ``(offset + i) // cols`` and
    column ``(offset + i) % cols``. In weeks (cols 7) the columns are the weekdays; in rows
    of another length (a panel too narrow for seven days a finger wide) they are not, and
    today ends the last row.
    """

    def __init__(self, y, m, d, n=DAILY_DAYS, cols=7):
        self.n = n
        self.cols = cols
        self.today = day_number(y, m, d)
        self.first = self.today - (n - 1)
        if cols == 7:
            self.offset = (weekday(y, m, d) - (n - 1)) % 7
        else:
            self.offset = -n % cols
        self.rows = (self.offset + n + cols - 1) // cols

    def date(self, i):
        """Return (y, m, d) of day i."""
        return from_day_number(self.first + i)

    def cell(self, i):
        """Return (row, col) of day i."""
        k = self.offset + i
        return (k // self.cols, k % self.cols)

    def index_at(self, row, col):
        """Return the day index shown at (row, col), or -1 for an empty cell."""
        i = row * self.cols + col - self.offset
        if 0 <= i < self.n:
            return i
        return -1

    def span(self, row, rows):
        """Return (first, last): the indexes of the oldest and newest day in rows from row."""
        k = row * self.cols - self.offset
        return (max(0, k), min(self.n - 1, k + rows * self.cols - 1))

    def months(self, first, last, sep=" "):
        """Return the months of days first..last and their year: "Nov-Dec 2026".

        sep goes before the year ("\n": "Nov-Dec" over "2026"). Over a new year each month
        has its own year: "Dec 2026 - Jan 2027", with "\n" one over the other.
        """
        y0, m0, _ = self.date(first)
        y1, m1, _ = self.date(last)
        if y0 != y1:
            return (MONTHS[m0 - 1] + " " + str(y0) + (" - " if sep == " " else sep)
                    + MONTHS[m1 - 1] + " " + str(y1))
        text = MONTHS[m1 - 1] + sep + str(y1)
        return MONTHS[m0 - 1] + "-" + text if m0 != m1 else text

    def label(self, i):
        """Return the caption of day i: the day number, with the month on the 1st and the
        oldest day."""
        y, m, d = self.date(i)
        if d == 1 or i == 0:
            return str(d) + " " + MONTHS[m - 1]
        return str(d)

    def span_text(self):
        """Return "1 Nov - 30 Nov 2026" for the shown range."""
        y0, m0, d0 = self.date(0)
        y1, m1, d1 = self.date(self.n - 1)
        left = str(d0) + " " + MONTHS[m0 - 1]
        if y0 != y1:
            left += " " + str(y0)
        return left + " - " + str(d1) + " " + MONTHS[m1 - 1] + " " + str(y1)


# --- deals and the daily days ---------------------------------------------


def day_short(y, m, d):
    """Return "30 Nov"."""
    return str(d) + " " + MONTHS[m - 1]


def deal_name(kind, number):
    """Return the one name a deal goes by: "daily 30 Nov", "deal #11982" or "free deal".

    Every screen that names a deal (menu, result, question, keypad, calendar's refusals)
    says it so, deal_title where it begins a line: the same game never reads as two.
    """
    if kind == KIND_DAILY:
        return "daily " + day_short(*daily_date(number))
    if kind == KIND_MS:
        return "deal #" + str(number)
    return "free deal"


def deal_title(kind, number):
    """Return deal_name as it begins a line: "Daily 30 Nov", "Deal #11982", "Free deal"."""
    name = deal_name(kind, number)
    return name[0].upper() + name[1:]


def daily_refusal(number, today):
    """Return why the daily of number cannot be played today, or None when it can."""
    st = daily_status(number, today)
    y, m, d = daily_date(number)
    # Short enough for two lines of the Pynt's 26 characters under the keypad's field.
    if st == DAY_FUTURE:
        return deal_title(KIND_DAILY, number) + " opens on " + day_short(y, m, d) + " " + str(y)
    if st == DAY_BEFORE:
        return "No daily before 1 Jan " + str(YEAR_MIN)
    if st == DAY_UNKNOWN:
        return "Set the date first: Menu, Daily deal"
    return None


def continue_label(kind, number, sep=" "):
    """Return the caption of the button that continues a deal: "Continue daily 30 Nov"."""
    return "Continue" + sep + deal_name(kind, number)


def loss_text(name, moves, other):
    """Return the warning before the unfinished game called name gives way to the deal other.

    other is None when the same deal would start again from the beginning.
    """
    done = ("Your " + name + " is not finished (" + str(moves)
            + (" move" if moves == 1 else " moves") + "). ")
    if other is None:
        return done + "Replaying deals it again from the start: those moves are lost."
    return done + "Playing " + other + " gives it up: it cannot be continued afterwards."


def loss_short(name, moves, other):
    """Return loss_text in fewer words, for a screen that cannot hold it (about 70 characters)."""
    count = str(moves) + (" move" if moves == 1 else " moves")
    done = "Your " + name + " (" + count + ") is lost if you "
    if other is None:
        return done + "replay it."
    return done + "play " + other + "."


# --- keypad ----------------------------------------------------------------


class Entry:
    """What the player typed on the keypad: digits and dashes, at most ENTRY_MAX."""

    def __init__(self):
        self._buf = bytearray(ENTRY_MAX)
        self.n = 0

    def press(self, ch):
        """Append one digit or dash; return False if the entry is full or ch is not allowed."""
        if len(ch) != 1 or not ("0" <= ch <= "9" or ch == "-"):
            return False
        if self.n >= ENTRY_MAX:
            return False
        self._buf[self.n] = ord(ch)
        self.n += 1
        return True

    def back(self):
        """Remove the last character; return False if there was none."""
        if self.n == 0:
            return False
        self.n -= 1
        return True

    def clear(self):
        """Empty the entry."""
        self.n = 0

    def set(self, text):
        """Replace the entry with text (characters that are not allowed are dropped)."""
        self.n = 0
        for ch in text:
            self.press(ch)

    @property
    def text(self):
        """The typed text."""
        return bytes(self._buf[: self.n]).decode()


def is_ms_number(text):
    """Return True if text reads as a Microsoft deal number: 1 to 7 digits, no dash."""
    if not text or len(text) > MS_DIGITS:
        return False
    for ch in text:
        if ch < "0" or ch > "9":
            return False
    return True


def parse_entry(text, cells, parse_code, today=None, check_daily=False):
    """Return (kind, number, cells) for what was typed; raise ValueError with a message.

    Up to 7 digits without a dash is a Microsoft deal number, dealt with ``cells``
    free cells; anything else is a deal code, read by ``parse_code``
    (freecell_mc.rules.deals.parse_code). With check_daily, a daily that is not open on
    ``today`` (y, m, d; None when unknown) is refused with the reason.
    """
    if not text:
        raise ValueError("Type a deal number or a deal code first")
    if is_ms_number(text):
        n = int(text)
        if n < 1 or n > MS_MAX:
            raise ValueError("Microsoft deals are numbered 1 to 1,000,000")
        return (KIND_MS, n, cells)
    deal = parse_code(text)
    if check_daily and deal[0] == KIND_DAILY:
        why = daily_refusal(deal[1], today)
        if why is not None:
            raise ValueError(why)
    return deal


def entry_hint(text):
    """Return what the entry will be read as, shown under it while typing."""
    if not text:
        return "A Microsoft deal number or a deal code"
    if is_ms_number(text):
        return deal_title(KIND_MS, int(text))
    return "Deal code"


# --- touch calibration -----------------------------------------------------

# adafruit_touchscreen maps a raw reading r to screen (r - lo) * (size - 1) / (hi - lo),
# clamped to the screen; a calibration is ((x_lo, x_hi), (y_lo, y_hi)). The factory one,
# DEFAULT_CALIBRATION, is the saves' default; the saves also decide which ones are valid
# (settings.valid_calibration), so what this screen stores is what a start accepts.


def raw_to_screen(r, lo, hi, size):
    """Return the screen coordinate adafruit_touchscreen gives raw reading r (clamped)."""
    s = (r - lo) * (size - 1) // (hi - lo)
    return min(size - 1, max(0, s))


def screen_to_raw(s, lo, hi, size):
    """Return the raw reading that maps to screen coordinate s under (lo, hi)."""
    return lo + s * (hi - lo) // (size - 1)


def solve_axis(s1, r1, s2, r2, size):
    """Return (lo, hi) so that raw r1 maps to screen s1 and raw r2 to s2 on one axis."""
    if s1 == s2 or r1 == r2:
        raise ValueError("Those two taps read the same; try again")
    per = (r2 - r1) * (size - 1) / (s2 - s1)
    lo = r1 - s1 * per / (size - 1)
    hi = lo + per
    return (int(lo + 0.5), int(hi + 0.5))


def solve_calibration(targets, raws, width, height):
    """Return ((x_lo, x_hi), (y_lo, y_hi)) from two targets and their raw readings.

    ``targets`` and ``raws`` are two (x, y) pairs each; the targets sit in opposite
    corners. Raise ValueError when the readings cannot be a real screen.
    """
    (sx1, sy1), (sx2, sy2) = targets
    (rx1, ry1), (rx2, ry2) = raws
    cx = solve_axis(sx1, rx1, sx2, rx2, width)
    cy = solve_axis(sy1, ry1, sy2, ry2, height)
    # The settings keep each bound in 16 bits, low before high, as the PyPortal's panel reads.
    for lo, hi in (cx, cy):
        if hi - lo < CAL_MIN_SPAN or lo < 0 or hi > 65535:
            raise ValueError("Those taps do not fit the screen; tap the centre of each cross")
    return (cx, cy)


# --- figures ---------------------------------------------------------------


def clock_text(seconds):
    """Return an elapsed time as "m:ss" or "h:mm:ss"."""
    if seconds is None:
        return "-"
    seconds = int(seconds)
    h = seconds // 3600
    m = seconds // 60 % 60
    s = seconds % 60
    if h:
        return "%d:%02d:%02d" % (h, m, s)
    return "%d:%02d" % (m, s)


def grid_cell(index, cols, x0, y0, w, h, gap, rows):
    """Return (x, y, cw, ch) of cell index in a cols x rows grid filling w x h."""
    cw = (w - gap * (cols - 1)) // cols
    ch = (h - gap * (rows - 1)) // rows
    c = index % cols
    r = index // cols
    return (x0 + c * (cw + gap), y0 + r * (ch + gap), cw, ch)
