# SPDX-License-Identifier: MIT
"""The screens' pure logic: dates, the 30-day calendar, keypad entry, calibration, figures.

Dates are checked against CPython's datetime as the oracle; the touch mapping against
adafruit_touchscreen's own map_range; the whole module once more under real MicroPython.
"""

import datetime
import json
import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell_mc import dates
from freecell_mc.rules import deals
from freecell_mc.saves import record
from freecell_mc.ui.screens import models as M  # noqa: N812  (M: the module under test, as the MicroPython script names it too)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_calendar_of_2026_11_30():
    cal = M.Calendar(2026, 11, 30)
    assert cal.n == 30
    assert cal.date(0) == (2026, 11, 1)
    assert cal.date(29) == (2026, 11, 30)
    # 1 November 2026 is a Sunday: the grid needs six weeks and today opens the sixth.
    assert cal.offset == 6
    assert cal.rows == 6
    assert cal.cell(0) == (0, 6)
    assert cal.cell(29) == (5, 0)
    assert cal.label(0) == "1 Nov"
    assert cal.label(1) == "2"
    assert cal.span_text() == "1 Nov - 30 Nov 2026"


@given(st.dates(min_value=datetime.date(2025, 1, 1), max_value=datetime.date(2099, 12, 31)))
def test_calendar_is_the_last_30_days_in_weeks(today):
    cal = M.Calendar(today.year, today.month, today.day)
    seen = set()
    for i in range(cal.n):
        day = today - datetime.timedelta(days=cal.n - 1 - i)
        assert cal.date(i) == (day.year, day.month, day.day)
        r, c = cal.cell(i)
        assert c == day.weekday()
        assert 0 <= r < cal.rows <= 6
        assert cal.index_at(r, c) == i
        seen.add((r, c))
        label = cal.label(i)
        assert label.split()[0] == str(day.day)
        # The month is named where it changes, so the grid can be read alone.
        assert (len(label.split()) == 2) == (i == 0 or day.day == 1)
    assert len(seen) == cal.n
    assert cal.index_at(0, cal.offset - 1) == -1 if cal.offset else True


@given(st.dates(min_value=datetime.date(2025, 1, 1), max_value=datetime.date(2099, 12, 31)),
       st.integers(min_value=2, max_value=6))
def test_calendar_in_rows_of_another_length_ends_with_today(today, cols):
    cal = M.Calendar(today.year, today.month, today.day, cols=cols)
    seen = set()
    for i in range(cal.n):
        r, c = cal.cell(i)
        assert cal.index_at(r, c) == i
        seen.add((r, c))
    assert len(seen) == cal.n
    # Date order, no weekdays: today closes the last row, a gap only before the oldest.
    assert cal.cell(cal.n - 1) == (cal.rows - 1, cols - 1)
    assert cal.offset < cols
    assert [cal.index_at(0, c) for c in range(cal.offset)] == [-1] * cal.offset
    # Every row's span names its oldest and newest day; together they cover all 30.
    spans = [cal.span(r, 1) for r in range(cal.rows)]
    assert spans[0][0] == 0 and spans[-1][1] == cal.n - 1
    assert all(spans[k][1] + 1 == spans[k + 1][0] for k in range(cal.rows - 1))
    assert cal.span(0, cal.rows) == (0, cal.n - 1)


def test_calendar_names_the_months_of_the_days_asked():
    cal = M.Calendar(2026, 12, 1, cols=5)  # 2 Nov .. 1 Dec, six rows of five
    assert cal.months(0, cal.n - 1) == "Nov-Dec 2026"
    assert cal.months(*cal.span(0, 3)) == "Nov 2026"
    assert cal.months(*cal.span(3, 3)) == "Nov-Dec 2026"
    assert cal.months(0, cal.n - 1, "\n") == "Nov-Dec\n2026"
    # Over a new year each month is named with its own year: December is 2026's.
    cal = M.Calendar(2027, 1, 10)
    assert cal.months(0, cal.n - 1) == "Dec 2026 - Jan 2027"
    assert cal.months(0, cal.n - 1, "\n") == "Dec 2026\nJan 2027"
    assert cal.months(*cal.span(0, 2)) == "Dec 2026"
    assert cal.months(*cal.span(cal.rows - 1, 1)) == "Jan 2027"  # 4 .. 10 Jan


def test_date_model_steps_and_stays_valid():
    dm = M.DateModel(2026, 1, 31)
    dm.step(dm.MONTH, 1)
    assert dm.value() == (2026, 2, 28)
    dm.set(2028, 1, 31)
    dm.step(dm.MONTH, 1)
    assert dm.value() == (2028, 2, 29)
    dm.step(dm.YEAR, 1)
    assert dm.value() == (2029, 2, 28)
    dm.set(2026, 12, 31)
    dm.step(dm.DAY, 1)
    assert dm.value() == (2027, 1, 1)  # days and months carry, as on a calendar
    dm.step(dm.DAY, -1)
    assert dm.value() == (2026, 12, 31)
    dm.step(dm.MONTH, 1)
    assert dm.value() == (2027, 1, 31)
    dm.step(dm.MONTH, -2)
    assert dm.value() == (2026, 11, 30)
    dm.set(2000, 1, 1)  # what a reset RTC says: not a date to start from
    assert dm.value() == (M.YEAR_MIN, 1, 1)
    dm.step(dm.DAY, -1)
    dm.step(dm.MONTH, -1)
    dm.step(dm.YEAR, -1)
    assert dm.value() == (M.YEAR_MIN, 1, 1)  # the range's ends hold
    dm.set(M.YEAR_MAX, 12, 31)
    dm.step(dm.DAY, 1)
    dm.step(dm.YEAR, 1)
    assert dm.value() == (M.YEAR_MAX, 12, 31)


@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from((-1, 1))), max_size=200))
def test_date_model_never_leaves_real_dates(steps):
    dm = M.DateModel(2026, 11, 30)
    for field, delta in steps:
        dm.step(field, delta)
        y, m, d = dm.value()
        datetime.date(y, m, d)  # raises if the model ever holds an impossible date
        assert M.YEAR_MIN <= y <= M.YEAR_MAX and dates.plausible(y)


@given(st.integers(-5, 10005), st.integers(0, 13), st.integers(0, 32))
def test_one_calendar_rule_for_a_clocks_date_and_a_deal_codes(y, m, d):
    """dates.valid_date is the rule: the clock's years by default, a deal code's 1..9999."""
    try:
        real = datetime.date(y, m, d) is not None
    except ValueError:
        real = False
    assert dates.valid_date(y, m, d) == (real and 2000 <= y <= 2099)
    assert deals.valid_date(y, m, d) == real == dates.valid_date(y, m, d, 1, 9999)


def test_entry_buffer():
    e = M.Entry()
    for ch in "24-2026x1130":
        e.press(ch)
    assert e.text == "24-20261130"
    assert e.back() and e.text == "24-2026113"
    for ch in "0123456789":
        e.press(ch)
    assert len(e.text) == M.ENTRY_MAX
    assert not e.press("1")
    e.clear()
    assert e.text == "" and not e.back()
    e.set("34-1-7")
    assert e.text == "34-1-7"


def test_parse_entry_microsoft_numbers():
    assert M.parse_entry("11982", 4, deals.parse_code) == (deals.KIND_MS, 11982, 4)
    assert M.parse_entry("1", 2, deals.parse_code) == (deals.KIND_MS, 1, 2)
    assert M.parse_entry("1000000", 3, deals.parse_code) == (deals.KIND_MS, 1000000, 3)
    with pytest.raises(ValueError, match="1 to 1,000,000"):
        M.parse_entry("0", 4, deals.parse_code)
    with pytest.raises(ValueError, match="1 to 1,000,000"):
        M.parse_entry("1000001", 4, deals.parse_code)
    with pytest.raises(ValueError, match="first"):
        M.parse_entry("", 4, deals.parse_code)


def test_parse_entry_codes():
    code = deals.deal_code(deals.KIND_DAILY, 20261130, 4)
    assert M.parse_entry(code, 1, deals.parse_code) == (deals.KIND_DAILY, 20261130, 4)
    assert (M.parse_entry(code.replace("-", ""), 1, deals.parse_code)
            == (deals.KIND_DAILY, 20261130, 4))
    # A short Microsoft code is told from a deal number by its dashes.
    short = deals.deal_code(deals.KIND_MS, 1, 2)
    assert len(short.replace("-", "")) <= M.MS_DIGITS
    assert M.parse_entry(short, 4, deals.parse_code) == (deals.KIND_MS, 1, 2)
    bad = code[:-1] + str((int(code[-1]) + 1) % 10)
    with pytest.raises(ValueError, match="mistyped"):
        M.parse_entry(bad, 4, deals.parse_code)


def test_daily_days_are_open_for_30_days_and_never_before_their_day():
    today = (2026, 11, 30)
    assert deals.daily_status(20261130, today) == deals.DAY_OPEN
    assert deals.daily_status(20261101, today) == deals.DAY_OPEN  # the calendar's oldest day
    assert deals.daily_status(20261031, today) == deals.DAY_OLD
    assert deals.daily_status(20250101, today) == deals.DAY_OLD
    assert deals.daily_status(20261201, today) == deals.DAY_FUTURE
    assert deals.daily_status(20270101, (2026, 12, 31)) == deals.DAY_FUTURE
    assert deals.daily_status(19990101, today) == deals.DAY_BEFORE
    assert deals.daily_status(20241231, today) == deals.DAY_BEFORE
    assert deals.daily_status(20261130, None) == deals.DAY_UNKNOWN
    # Exactly the days the calendar shows are open.
    cal = M.Calendar(*today)
    shown = {deals.daily_seed(*cal.date(i)) for i in range(cal.n)}
    d = datetime.date(2026, 9, 1)
    while d <= datetime.date(2027, 1, 31):
        n = deals.daily_seed(d.year, d.month, d.day)
        assert (deals.daily_status(n, today) == deals.DAY_OPEN) == (n in shown), d
        d += datetime.timedelta(days=1)
    assert M.daily_refusal(20261128, today) is None
    assert M.daily_refusal(20261001, today) is None  # an old day's code still plays
    assert "opens on 1 Dec 2026" in M.daily_refusal(20261201, today)
    assert "1 Dec 2026" in M.daily_refusal(20261201, today)
    assert "before 1 Jan 2025" in M.daily_refusal(19990101, today)
    assert "date first" in M.daily_refusal(20261130, None)


def test_parse_entry_refuses_a_daily_that_is_not_open_when_asked_to():
    tomorrow = deals.deal_code(deals.KIND_DAILY, 20261201, 4)
    old = deals.deal_code(deals.KIND_DAILY, 19990101, 3)
    today = (2026, 11, 30)
    with pytest.raises(ValueError, match="opens on 1 Dec 2026"):
        M.parse_entry(tomorrow, 4, deals.parse_code, today, True)
    with pytest.raises(ValueError, match="No daily before"):
        M.parse_entry(old, 4, deals.parse_code, today, True)
    assert (M.parse_entry(tomorrow, 4, deals.parse_code, (2026, 12, 1), True)
            == (deals.KIND_DAILY, 20261201, 4))
    # Other deals are not dates: the check leaves them alone.
    ms = deals.deal_code(deals.KIND_MS, 11982, 2)
    assert M.parse_entry(ms, 4, deals.parse_code, None, True) == (deals.KIND_MS, 11982, 2)
    assert M.parse_entry(tomorrow, 4, deals.parse_code) == (deals.KIND_DAILY, 20261201, 4)


def test_known_today_prefers_a_set_clock_then_the_last_known_date():
    assert dates.known_today((2026, 11, 30), (2026, 11, 2)) == (2026, 11, 30)
    assert dates.known_today((2000, 1, 1), (2026, 11, 2)) == (2026, 11, 2)
    assert dates.known_today((2000, 1, 1), None) is None


def test_deal_names_and_the_warning_before_a_game_is_given_up():
    assert M.deal_name(deals.KIND_DAILY, 20261130) == "daily 30 Nov"
    assert M.deal_name(deals.KIND_MS, 11982) == "deal #11982"
    assert M.deal_name(deals.KIND_SEED, 123) == "free deal"
    assert M.continue_label(deals.KIND_DAILY, 20261201) == "Continue daily 1 Dec"
    assert M.continue_label(deals.KIND_SEED, 5, "\n") == "Continue\nfree deal"
    assert record.unfinished(3, 0) and record.unfinished(3, record.SLOT_WON - 1)
    assert not record.unfinished(0, 0)  # nothing played: nothing to lose
    assert not record.unfinished(40, record.SLOT_WON)  # its win is recorded already
    t = M.loss_text("daily 28 Nov", 1, "daily 30 Nov")
    assert t == ("Your daily 28 Nov is not finished (1 move). Playing daily 30 Nov gives it up: "
                 "it cannot be continued afterwards.")
    assert "(12 moves). Replaying" in M.loss_text("free deal", 12, None)


def test_entry_hint():
    assert "deal code" in M.entry_hint("")
    assert M.entry_hint("0011982") == "Deal #11982"
    assert M.entry_hint("24-2") == "Deal code"
    assert M.entry_hint("12345678") == "Deal code"


@given(st.text(alphabet="ab cdefgh:", max_size=120), st.integers(1, 60))
def test_the_one_wrap_keeps_every_word_whole_and_within_the_width(text, cols):
    """widgets.wrap, every screen's and the table's: lines at most cols wide, but for a word
    longer than that, which keeps a line of its own, whole, for its caller to measure and
    step the text down a scale (widgets.caption, the statistics' tiles); nothing lost."""
    from freecell_mc.ui.widgets import wrap

    out = wrap(text, cols)
    for line in out.split("\n"):
        assert len(line) <= cols or " " not in line.strip(" "), (out, line)
    assert out.split() == text.split()


def test_the_one_wrap_on_a_word_longer_than_the_line():
    from freecell_mc.ui.widgets import wrap

    assert wrap("No save file: copy fcsave/ring/saves.bin again", 12) == (
        "No save\nfile: copy\nfcsave/ring/saves.bin\nagain")


def _library_map_range():
    os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")
    import adafruit_touchscreen

    return adafruit_touchscreen.map_range


@settings(max_examples=200)
@given(
    st.integers(1000, 12000), st.integers(50000, 64000),
    st.integers(1000, 12000), st.integers(50000, 64000),
    st.sampled_from(((320, 240), (480, 320))),
)
def test_calibration_solves_what_a_panel_reads(xl, xh, yl, yh, size):
    w, h = size
    (a, b), (c, d) = ((xl, xh), (yl, yh))
    tg = ((w // 8, h // 8), (w - 1 - w // 8, h - 1 - h // 8))
    raws = [(M.screen_to_raw(x, a, b, w), M.screen_to_raw(y, c, d, h)) for x, y in tg]
    cal = M.solve_calibration(tg, raws, w, h)
    assert M.valid_calibration(cal)
    map_range = _library_map_range()
    # With the solved calibration, the library puts every raw reading where the true
    # calibration does, to within a pixel of rounding.
    for sx in range(0, w, 37):
        r = M.screen_to_raw(sx, a, b, w)
        got = int(map_range(r, cal[0][0], cal[0][1], 0, w - 1))
        assert abs(got - sx) <= 1
        assert abs(M.raw_to_screen(r, a, b, w) - int(map_range(r, a, b, 0, w - 1))) <= 1


def test_calibration_rejects_nonsense():
    tg = ((40, 30), (279, 209))
    with pytest.raises(ValueError):
        M.solve_calibration(tg, ((30000, 30000), (30000, 30000)), 320, 240)
    with pytest.raises(ValueError):
        M.solve_calibration(tg, ((30000, 30000), (30100, 30100)), 320, 240)
    # A panel read mirrored, or bounds outside 16 bits, cannot be stored: ask again.
    with pytest.raises(ValueError, match="centre"):
        M.solve_calibration(tg, ((56000, 10000), (9000, 52000)), 320, 240)
    with pytest.raises(ValueError, match="centre"):
        M.solve_calibration(tg, ((100, 10000), (30000, 65000)), 320, 240)
    assert not M.valid_calibration(None)
    assert not M.valid_calibration(((59000, 5200), (5800, 57000)))
    assert not M.valid_calibration(((1, 2), (3, 4)))
    assert M.valid_calibration(M.DEFAULT_CALIBRATION)


def test_figures():
    assert M.clock_text(None) == "-"
    assert M.clock_text(5) == "0:05"
    assert M.clock_text(192) == "3:12"
    assert M.clock_text(3725) == "1:02:05"
    assert M.date_text(2026, 11, 30) == "Monday 30 November 2026"
    assert M.iso(2026, 1, 2) == "2026-01-02"


# The same computations under CPython and under real MicroPython must agree.
_MP_SCRIPT = r"""
import json
from freecell_mc import dates
from freecell_mc.rules import deals
from freecell_mc.saves import record
from freecell_mc.ui.screens import models as M
out = []
for y, m, d in ((2026, 11, 30), (2026, 12, 1), (2028, 3, 1), (2025, 1, 1), (2099, 12, 31)):
    cal = M.Calendar(y, m, d)
    out.append([cal.offset, cal.rows, [list(cal.date(i)) for i in range(cal.n)],
                [list(cal.cell(i)) for i in range(cal.n)], [cal.label(i) for i in range(cal.n)],
                dates.weekday(y, m, d), dates.day_number(y, m, d), M.date_text(y, m, d)])
    five = M.Calendar(y, m, d, cols=5)
    out.append([five.offset, five.rows, [list(five.cell(i)) for i in range(five.n)],
                list(five.span(3, 3)), five.months(*five.span(3, 3)), five.months(0, 29, "\n")])
dm = M.DateModel(2026, 1, 31)
trace = []
for f, s in ((1, 1), (0, 1), (2, -1), (1, -3), (2, 40), (0, -5), (1, 13)):
    dm.step(f, s)
    trace.append(list(dm.value()))
out.append(trace)
e = M.Entry()
for ch in "24-2026x1130":
    e.press(ch)
e.back()
out.append(e.text)
res = []
for text in ("11982", "0", "1000001", "", "24-20261130-4", "24-20261130-5", "34-1-7", "12345678"):
    try:
        res.append(list(M.parse_entry(text, 3, deals.parse_code)))
    except ValueError as err:
        res.append(str(err))
    res.append(M.entry_hint(text))
out.append(res)
cal = M.solve_calibration(((40, 30), (279, 209)), ((9000, 10000), (56000, 52000)), 320, 240)
out.append([list(cal[0]), list(cal[1])])
out.append([M.raw_to_screen(r, 5200, 59000, 320) for r in (0, 5200, 32100, 59000, 65535)])
out.append([M.clock_text(s) for s in (0, 59, 192, 3725)] + [M.iso(2026, 1, 2)])
days = []
for n in (20261130, 20261101, 20261031, 20261201, 19990101, 20250101):
    for today in ((2026, 11, 30), (2000, 1, 1), None):
        t = dates.known_today(today, (2026, 11, 2)) if today else None
        days.append([deals.daily_status(n, t), M.daily_refusal(n, t)])
out.append(days)
res = []
for text in (deals.deal_code(2, 20261201, 4), deals.deal_code(2, 19990101, 4), "24-20261130-4",
             "34-1-7"):
    try:
        res.append(list(M.parse_entry(text, 3, deals.parse_code, (2026, 11, 30), True)))
    except ValueError as err:
        res.append(str(err))
out.append(res)
out.append([M.deal_name(k, n) for k, n in ((2, 20261130), (3, 11982), (1, 5))])
out.append([M.continue_label(2, 20261201, "\n"), record.unfinished(2, 0), record.unfinished(2, 2),
            M.loss_text("free deal", 1, None), M.loss_text("deal #5", 7, "daily 1 Dec")])
print(json.dumps(out))
"""


def _run_here():
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        exec(compile(_MP_SCRIPT, "mp_screens_models", "exec"), {"__name__": "__main__"})
    return json.loads(buf.getvalue())


def test_models_agree_under_micropython(tmp_path):
    node = shutil.which("node")
    runner = os.path.join(ROOT, "tests", "mp", "run.mjs")
    assert node, "node runs the MicroPython tests (./dev setup installs it)"
    assert os.path.isdir(os.path.join(ROOT, "tests", "mp", "node_modules")), "run ./dev setup"
    script = tmp_path / "mp_screens_models.py"
    script.write_text(_MP_SCRIPT)
    proc = subprocess.run(
        ["timeout", "60", node, runner,
         "--with", os.path.join(ROOT, "freecell_mc", "ui", "screens", "models.py"),
         str(script)],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == _run_here()


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
