# SPDX-License-Identifier: MIT
"""Date arithmetic (dates.py) against Python's datetime, and the clock with DS3231 / PCF8523 chips."""

import calendar
import datetime
import time

import pytest
from hypothesis import given, strategies as st

from freecell_mc import dates
from freecell_mc.hardware import clock
from host_sim import hardware

D2000 = datetime.date(2000, 1, 1)
rtc_days = st.dates(min_value=datetime.date(2000, 1, 1), max_value=datetime.date(2099, 12, 31))


def test_days_in_month_and_leap_years():
    for y in (2000, 2024, 2025, 2026, 2028, 2099, 2100, 1900):
        for m in range(1, 13):
            assert dates.days_in_month(y, m) == calendar.monthrange(y, m)[1], (y, m)
        assert dates.is_leap(y) == calendar.isleap(y)


@given(rtc_days)
def test_day_numbers_match_datetime(d):
    n = dates.day_number(d.year, d.month, d.day)
    assert n == (d - D2000).days
    assert dates.from_day_number(n) == (d.year, d.month, d.day)
    assert dates.weekday(d.year, d.month, d.day) == d.weekday()
    assert dates.valid_date(d.year, d.month, d.day)


@given(st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2400, 12, 31)))
def test_day_numbers_hold_far_from_2000(d):
    n = dates.day_number(d.year, d.month, d.day)
    assert n == (d - D2000).days
    assert dates.from_day_number(n) == (d.year, d.month, d.day)
    assert dates.weekday(d.year, d.month, d.day) == d.weekday()


@given(rtc_days, st.integers(-400, 400))
def test_add_days_matches_timedelta(d, k):
    e = d + datetime.timedelta(days=k)
    assert dates.add_days(d.year, d.month, d.day, k) == (e.year, e.month, e.day)


def test_known_dates():
    assert dates.day_number(2000, 1, 1) == 0
    assert dates.weekday(2026, 11, 30) == 0  # a Monday
    assert dates.add_days(2026, 12, 31, 1) == (2027, 1, 1)
    assert dates.add_days(2028, 3, 1, -1) == (2028, 2, 29)
    assert not dates.valid_date(2026, 2, 29)
    assert not dates.valid_date(2026, 13, 1)
    assert not dates.valid_date(1999, 12, 31)


def test_plausible():
    assert not dates.plausible(2000)
    assert not dates.plausible(2024)
    assert dates.plausible(2025)
    assert dates.plausible(2026)


def test_ticks_diff_across_the_wrap():
    top = 1 << 29
    assert dates.ticks_diff(5, top - 5) == 10
    assert dates.ticks_diff(top - 5, 5) == -10
    assert dates.ticks_diff(1000, 400) == 600


# --- I2C chips -----------------------------------------------------------------------


class Bus:
    """A busio.I2C stand-in whose devices are register chips keyed by address."""

    def __init__(self, devices):
        self.devices = devices
        self.locked = False

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def scan(self):
        assert self.locked
        return sorted(self.devices)

    def writeto(self, addr, buf, *, start=0, end=None):
        assert self.locked
        self.devices[addr].write(bytes(buf[start:end]))

    def writeto_then_readfrom(
        self, addr, out, inb, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        self.writeto(addr, out, start=out_start, end=out_end)
        end = len(inb) if in_end is None else in_end
        inb[in_start:end] = self.devices[addr].read(end - in_start)


class Regs:
    """A bare register file with an auto-incrementing pointer and per-register bit masks.

    Written from the datasheets, independently of the simulator's chips: the DS3231 has
    19 registers and all 8 bits of 0x07 (alarm 1 seconds); the PCF8523 has 20 and only
    bits 2..0 of 0x07 (weekday).
    """

    def __init__(self, size, masks):
        self.r = bytearray(size)
        self.masks = masks
        self.p = 0

    def write(self, data):
        self.p = data[0] % len(self.r)
        for b in data[1:]:
            self.r[self.p] = b & self.masks.get(self.p, 0xFF)
            self.p = (self.p + 1) % len(self.r)

    def read(self, n):
        out = bytearray()
        for _ in range(n):
            out.append(self.r[self.p])
            self.p = (self.p + 1) % len(self.r)
        return out


def ds3231():
    return Regs(0x13, {3: 0x07, 0x0F: 0x8F})


def pcf8523():
    chip = Regs(0x14, {7: 0x07})
    chip.r[2] = 0xE0
    return chip


def test_identify_tells_the_chips_apart_and_restores_the_probe_register():
    d = ds3231()
    d.r[7] = 0x12
    assert clock.identify(Bus({0x68: d})) == clock.ExternalRTC.DS3231
    assert d.r[7] == 0x12
    p = pcf8523()
    p.r[7] = 0x03
    assert clock.identify(Bus({0x68: p})) == clock.ExternalRTC.PCF8523
    assert p.r[7] == 0x03
    assert clock.identify(Bus({})) is None
    assert clock.identify(Bus({0x68: Regs(0x20, {7: 0x0F})})) is None  # something else
    assert clock.find_rtc(None) is None


@pytest.mark.parametrize("make", [ds3231, pcf8523])
def test_set_and_read_back(make):
    chip = make()
    rtc = clock.find_rtc(Bus({0x68: chip}))
    rtc.set_datetime(2026, 11, 30, 21, 45, 7)
    assert rtc.datetime() == (2026, 11, 30, 21, 45, 7)
    assert not rtc.lost_power()
    if rtc.chip == clock.ExternalRTC.DS3231:
        assert chip.r[3] == 1  # Monday, DS3231 counts 1..7 from Monday here
        assert chip.r[0:7] == bytes((0x07, 0x45, 0x21, 1, 0x30, 0x11, 0x26))
    else:
        assert chip.r[2] == 0  # battery switch-over enabled
        assert chip.r[3:10] == bytes((0x07, 0x45, 0x21, 0x30, 1, 0x11, 0x26))


def test_lost_power_flags():
    # The DS3231 flags a stopped oscillator in its status register, the PCF8523 in seconds.
    for chip, flag_reg, kind in ((ds3231(), 0x0F, clock.ExternalRTC.DS3231),
                                 (pcf8523(), 3, clock.ExternalRTC.PCF8523)):
        chip.r[flag_reg] = 0x80
        rtc = clock.ExternalRTC(Bus({0x68: chip}), kind)
        assert rtc.lost_power(), kind
        rtc.set_datetime(2026, 1, 2)
        assert not rtc.lost_power(), kind


class FakeInternalRTC:
    """rtc.RTC(): restarts at 2000-01-01, datetime is a struct_time."""

    def __init__(self, t=(2000, 1, 1, 0, 3, 0, 5, 1, -1)):
        self.datetime = time.struct_time(t)


def test_device_clock_without_external_chip():
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, None, lambda: 123, time.struct_time)
    assert c.today() == (2000, 1, 1) and not c.plausible()
    c.set_today(2026, 11, 30)
    assert c.today() == (2026, 11, 30) and c.plausible()
    assert r.datetime.tm_min == 3  # time of day kept
    assert r.datetime.tm_wday == 0 and r.datetime.tm_yday == 334
    with pytest.raises(ValueError):
        c.set_today(2026, 2, 30)
    assert c.ticks_ms() == 123


@pytest.mark.parametrize("make", [ds3231, pcf8523])
def test_device_clock_takes_the_date_from_a_set_chip_at_start(make):
    chip = make()
    bus = Bus({0x68: chip})
    clock.find_rtc(bus).set_datetime(2026, 12, 1, 8, 0, 0)
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, clock.find_rtc(bus), lambda: 0, time.struct_time)
    assert c.today() == (2026, 12, 1) and c.plausible()
    assert r.datetime.tm_hour == 8


@pytest.mark.parametrize("make", [ds3231, pcf8523])
def test_device_clock_ignores_a_chip_that_lost_power_and_sets_it(make):
    chip = make()
    bus = Bus({0x68: chip})
    ext = clock.find_rtc(bus)
    ext.set_datetime(2026, 12, 1)
    if ext.chip == clock.ExternalRTC.DS3231:
        chip.r[0x0F] = 0x80
    else:
        chip.r[3] |= 0x80
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, clock.find_rtc(bus), lambda: 0, time.struct_time)
    assert not c.plausible()  # the chip's date was not trusted
    c.set_today(2026, 12, 5)
    assert ext.datetime()[0:3] == (2026, 12, 5) and not ext.lost_power()


@pytest.mark.parametrize("kind", ["ds3231", "pcf8523"])
def test_works_with_the_simulators_chips(kind):
    """The simulator's own chip models (written separately) are found and driven too."""
    sclock = hardware.SimClock()
    start = calendar.timegm((2026, 11, 30, 12, 0, 0, 0, 0, 0))
    devices = hardware.make_ext_rtc(kind, sclock, start)
    bus = Bus(devices)
    ext = clock.find_rtc(bus)
    assert ext is not None and ext.chip.lower() == kind
    assert ext.datetime()[0:4] == (2026, 11, 30, 12)
    ext.set_datetime(2027, 3, 4, 5, 6, 7)
    assert ext.datetime() == (2027, 3, 4, 5, 6, 7)
