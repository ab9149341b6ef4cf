# SPDX-License-Identifier: MIT
"""Date arithmetic (dates.py) against Python's datetime, and the clock with DS3231 / PCF8523
chips."""

import calendar
import datetime
import time

import pytest
from hypothesis import given, strategies as st

from freecell_mc import dates
from freecell_mc.hardware import clock, rtcchip
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
    """A busio.I2C stand-in whose devices are register chips keyed by address.

    It logs every plain write (a register pointer set for a read goes through
    writeto_then_readfrom and is not one) and counts the tries for its lock.
    """

    def __init__(self, devices):
        self.devices = devices
        self.locked = False
        self.writes = []  # (address, bytes) of each writeto
        self.tries = 0

    def try_lock(self):
        self.tries += 1
        assert self.tries < 100000, "the game waits for the I2C lock without end"
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def scan(self):
        assert self.locked
        return sorted(self.devices)

    def _device(self, addr):
        assert self.locked
        if addr not in self.devices:
            raise OSError(19, "No such device")
        return self.devices[addr]

    def writeto(self, addr, buf, *, start=0, end=None):
        self.writes.append((addr, bytes(buf[start:end])))
        self._device(addr).write(bytes(buf[start:end]))

    def writeto_then_readfrom(
        self, addr, out, inb, *, out_start=0, out_end=None, in_start=0, in_end=None
    ):
        self._device(addr).write(bytes(out[out_start:out_end]))
        end = len(inb) if in_end is None else in_end
        inb[in_start:end] = self._device(addr).read(end - in_start)


class Regs:
    """A bare register file with an auto-incrementing pointer and per-register bit masks.

    Written from the datasheets, independently of the simulator's chips: the DS3231 has
    19 registers (the pointer wraps after 0x12), the PCF8523 20, the DS1307 64 (time,
    control at 0x07, RAM), the MPU-6050 answers WHO_AM_I (0x75) with 0x68. Each logs the
    writes that store anything.
    """

    def __init__(self, size, masks, init=()):
        self.r = bytearray(size)
        self.masks = masks
        self.p = 0
        self.stored = []
        for reg, v in init:
            self.r[reg] = v

    def write(self, data):
        self.p = data[0] % len(self.r)
        if len(data) > 1:
            self.stored.append(bytes(data))
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
    # As at first power-up: 2000-01-01, a Saturday counted 1, control 0x1C, OSF set.
    return Regs(0x13, {3: 0x07, 0x0F: 0x8F}, ((3, 1), (4, 1), (5, 1), (0x0E, 0x1C), (0x0F, 0x80)))


def pcf8523():
    # As after power-on: 2000-01-01, control 3 0xE0, OS set in the seconds.
    return Regs(0x14, {7: 0x07}, ((2, 0xE0), (3, 0x80), (6, 1), (7, 6), (8, 1)))


def ds1307():
    # Time as the DS3231's, control 0x03 at 0x07, then RAM, here all zero.
    return Regs(0x40, {}, ((0, 0x30), (1, 0x12), (2, 0x08), (3, 1), (4, 0x30), (5, 0x11),
                           (6, 0x26), (7, 0x03)))


def mpu6050(like=None):
    """An MPU-6050 (WHO_AM_I 0x68 at 0x75); like: registers 0x00.. copied from a clock."""
    chip = Regs(0x76, {}, ((0x6B, 0x40), (0x75, 0x68)))
    if like is not None:
        chip.r[0 : len(like.r)] = like.r
        chip.r[len(like.r) : 2 * len(like.r)] = like.r
    return chip


def test_identify_tells_the_chips_apart_by_reading_alone():
    for make, want in ((ds3231, rtcchip.ExternalRTC.DS3231), (pcf8523, rtcchip.ExternalRTC.PCF8523),
                       (ds1307, None), (mpu6050, None)):
        chip = make()
        before = bytes(chip.r)
        bus = Bus({0x68: chip})
        assert rtcchip.identify(bus) == want, make.__name__
        assert bus.writes == [] and chip.stored == [] and bytes(chip.r) == before
        assert not bus.locked
    assert rtcchip.identify(Bus({})) is None
    assert rtcchip.identify(Bus({0x68: Regs(0x20, {})})) is None  # all zero: no date held
    assert rtcchip.find_rtc(None) is None


@pytest.mark.parametrize("like", [ds3231, pcf8523])
def test_a_motion_sensor_that_reads_like_a_clock_is_left_alone(like):
    # Its first registers are a clock's, twice over: only WHO_AM_I tells it apart.
    chip = mpu6050(like())
    bus = Bus({0x68: chip})
    assert rtcchip.identify(bus) is None and rtcchip.find_rtc(bus) is None
    assert bus.writes == [] and chip.stored == []
    # Without WHO_AM_I the same registers would pass for the clock: the test can fail.
    chip.r[0x75] = 0
    assert rtcchip.identify(bus) is not None


@pytest.mark.parametrize("make", [ds3231, pcf8523])
def test_a_clock_is_written_only_once_known(make):
    chip = make()
    bus = Bus({0x68: chip})
    rtc = rtcchip.find_rtc(bus)
    c = clock.DeviceClock(FakeInternalRTC(), rtc, lambda: 0, time.struct_time)
    assert bus.writes == [] and chip.stored == []  # found and read: nothing written
    c.set_today(2026, 11, 30)
    assert bus.writes and all(a == 0x68 for a, _ in bus.writes)
    assert rtc.datetime()[:3] == (2026, 11, 30)


class StuckBus(Bus):
    """A bus whose lock someone took and never gave back."""

    def try_lock(self):
        Bus.try_lock(self)
        return False


def test_a_bus_whose_lock_is_never_free_is_done_without_in_bounded_tries():
    bus = StuckBus({0x68: ds3231()})
    assert rtcchip.identify(bus) is None
    assert bus.tries <= 2 * rtcchip._LOCK_TRIES  # two reads, each given up
    assert rtcchip.find_rtc(bus) is None and bus.writes == []
    # A chip found while the bus was free, whose bus then sticks: the clock goes on alone.
    free = Bus({0x68: ds3231()})
    rtc = rtcchip.find_rtc(free)
    free.try_lock()  # taken and never given back
    free.tries = 0
    c = clock.DeviceClock(FakeInternalRTC(), rtc, lambda: 0, time.struct_time)
    assert c.ext is None and free.tries <= rtcchip._LOCK_TRIES
    c = clock.DeviceClock(FakeInternalRTC(), None, lambda: 0, time.struct_time)
    c.ext = rtc
    c.set_today(2026, 11, 30)  # the chip's write gives up, the internal clock is set
    assert c.ext is None and c.today() == (2026, 11, 30)


@pytest.mark.parametrize("make", [ds3231, pcf8523])
def test_set_and_read_back(make):
    chip = make()
    rtc = rtcchip.find_rtc(Bus({0x68: chip}))
    rtc.set_datetime(2026, 11, 30, 21, 45, 7)
    assert rtc.datetime() == (2026, 11, 30, 21, 45, 7)
    assert not rtc.lost_power()
    if rtc.chip == rtcchip.ExternalRTC.DS3231:
        assert chip.r[3] == 1  # Monday, DS3231 counts 1..7 from Monday here
        assert chip.r[0:7] == bytes((0x07, 0x45, 0x21, 1, 0x30, 0x11, 0x26))
    else:
        assert chip.r[2] == 0  # battery switch-over enabled
        assert chip.r[3:10] == bytes((0x07, 0x45, 0x21, 0x30, 1, 0x11, 0x26))


def test_lost_power_flags():
    # The DS3231 flags a stopped oscillator in its status register, the PCF8523 in seconds.
    for chip, flag_reg, kind in ((ds3231(), 0x0F, rtcchip.ExternalRTC.DS3231),
                                 (pcf8523(), 3, rtcchip.ExternalRTC.PCF8523)):
        chip.r[flag_reg] = 0x80
        rtc = rtcchip.ExternalRTC(Bus({0x68: chip}), kind)
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
    rtcchip.find_rtc(bus).set_datetime(2026, 12, 1, 8, 0, 0)
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, rtcchip.find_rtc(bus), lambda: 0, time.struct_time)
    assert c.today() == (2026, 12, 1) and c.plausible()
    assert r.datetime.tm_hour == 8


@pytest.mark.parametrize("make", [ds3231, pcf8523])
def test_device_clock_ignores_a_chip_that_lost_power_and_sets_it(make):
    chip = make()
    bus = Bus({0x68: chip})
    ext = rtcchip.find_rtc(bus)
    ext.set_datetime(2026, 12, 1)
    if ext.chip == rtcchip.ExternalRTC.DS3231:
        chip.r[0x0F] = 0x80
    else:
        chip.r[3] |= 0x80
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, rtcchip.find_rtc(bus), lambda: 0, time.struct_time)
    assert not c.plausible()  # the chip's date was not trusted
    c.set_today(2026, 12, 5)
    assert ext.datetime()[0:3] == (2026, 12, 5) and not ext.lost_power()


def _sim_bus(kind):
    """Return (a bus, its devices) holding the simulator's chip model kind at 0x68, set to
    2026-11-30 12:00."""
    start = calendar.timegm((2026, 11, 30, 12, 0, 0, 0, 0, 0))
    devices = hardware.make_ext_rtc(kind, hardware.SimClock(), start)
    return Bus(devices), devices


@pytest.mark.parametrize("kind", ["ds3231", "pcf8523"])
def test_works_with_the_simulators_chips(kind):
    """The simulator's own chip models (written separately) are found and driven too."""
    bus, _ = _sim_bus(kind)
    ext = rtcchip.find_rtc(bus)
    assert ext is not None and ext.chip.lower() == kind
    assert ext.datetime()[0:4] == (2026, 11, 30, 12)
    ext.set_datetime(2027, 3, 4, 5, 6, 7)
    assert ext.datetime() == (2027, 3, 4, 5, 6, 7)


@pytest.mark.parametrize("kind", ["ds1307", "mpu6050"])
def test_the_simulators_other_chips_at_0x68_are_left_alone(kind):
    bus, devices = _sim_bus(kind)
    assert rtcchip.find_rtc(bus) is None
    assert bus.writes == [] and devices[0x68].writes == []


def _boot(monkeypatch, ext_rtc, stuck=False):
    """Run code.py on the simulator with this chip at 0x68; return (the App, the chip, tries).

    stuck: the board's I2C bus lock is held by someone else and never given back.
    """
    from host_sim import script, sim
    from host_sim.fakes import busio
    from freecell_mc.app import App

    tries = [0]
    take = busio.I2C.try_lock

    def try_lock(bus):
        tries[0] += 1
        assert tries[0] < 100000, "the game waits for the I2C lock without end"
        return False if stuck else take(bus)

    monkeypatch.setattr(busio.I2C, "try_lock", try_lock)
    s = sim.Simulator(date="2026-11-30", ext_rtc=ext_rtc,
                      script=script.parse("wait 100\nexpect screen table\n"))
    chip = s.i2c_devices.get(0x68)
    try:
        assert s.run() == 0, s.failure
    finally:
        s.close()
    return App.current, chip, tries[0]


@pytest.mark.parametrize("kind", ["ds1307", "mpu6050"])
def test_through_the_game_a_chip_it_does_not_own_gets_no_write(monkeypatch, kind):
    app, chip, _ = _boot(monkeypatch, kind)
    assert app.clock.ext is None and app.screen.name == "table"
    assert chip.writes == []  # identified by reading alone, and left alone


def test_through_the_game_a_ds3231_is_found_by_reading_and_written_only_when_set(monkeypatch):
    app, chip, _ = _boot(monkeypatch, "ds3231")
    assert app.clock.ext is not None and app.clock.ext.chip == rtcchip.ExternalRTC.DS3231
    assert chip.writes == []  # found and its date read: nothing written
    app.clock.set_today(2026, 12, 24)
    assert chip.writes and app.clock.ext.datetime()[:3] == (2026, 12, 24)


def test_through_the_game_a_stuck_i2c_bus_starts_the_game_without_the_chip(monkeypatch):
    app, chip, tries = _boot(monkeypatch, "ds3231", stuck=True)
    assert app.screen.name == "table" and app.clock.ext is None
    assert app.clock.today() == (2026, 11, 30)  # the internal clock, set for the test
    # Bounded: two reads given up, and the one try of the panel's probe (device.board_name:
    # a "pyportal" whose bus is held is taken for the Pynt).
    assert 0 < tries <= 2 * rtcchip._LOCK_TRIES + 1
    assert chip.writes == []


class FailingAfter(Regs):
    """A chip that answers identify() and then raises what a broken bus or library raises."""

    def __init__(self, base, reads, exc):
        super().__init__(len(base.r), base.masks)
        self.r[:] = base.r
        self.reads = reads
        self.exc = exc

    def read(self, n):
        self.reads -= 1
        if self.reads < 0:
            raise self.exc
        return super().read(n)


@pytest.mark.parametrize("exc", [RuntimeError("I2C bus error"), ValueError("bad"),
                                 OSError(5, "EIO"), MemoryError()])
def test_a_chip_that_passes_identify_and_then_raises_is_done_without(exc):
    chip = ds3231()
    Bus({0x68: chip})  # as found: a date and the status bits a DS3231 has
    bus = Bus({0x68: FailingAfter(chip, 2, exc)})  # identify's two reads, then the error
    ext = rtcchip.find_rtc(bus)
    assert ext is not None
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, ext, lambda: 0, time.struct_time)
    assert c.ext is None and not c.plausible()  # started without it: the date is asked
    c.set_today(2026, 12, 3)  # and setting it touches the chip no more
    assert c.today() == (2026, 12, 3)


def _bcd(v):
    return (v // 10) << 4 | v % 10


# What a look-alike's registers decode to: hour 0x3F is "45", minute 0x7F "85", second
# 0x5A "60", month 0x13 "13", day 0x32 "32" (BCD with digits past 9).
@pytest.mark.parametrize("reg, value", [(2, 0x3F), (1, 0x7F), (0, 0x5A), (5, 0x13), (4, 0x32)])
def test_a_look_alike_s_impossible_time_is_refused_and_the_date_asked(reg, value):
    chip = ds3231()
    bus = Bus({0x68: chip})
    ext = rtcchip.find_rtc(bus)
    ext.set_datetime(2026, 12, 1, 8, 0, 0)
    chip.r[reg] = value  # after the chip was found: its time turns impossible
    r = FakeInternalRTC()
    c = clock.DeviceClock(r, ext, lambda: 0, time.struct_time)
    assert not c.plausible() and r.datetime.tm_hour < 24  # nothing impossible was set
    c.set_today(2026, 12, 5)  # the player's date then sets the chip right
    assert ext.datetime()[0:3] == (2026, 12, 5)


def test_two_thousand_fuzzed_look_alikes_never_stop_the_start_nor_set_an_impossible_time():
    # A DS3231's registers, its time and date registers random: what a look-alike (or a
    # damaged chip) answers. Many pass identify(); none may stop the start or put an
    # impossible time into the internal clock.
    import random

    rng = random.Random(20261203)
    found = set_times = 0
    for _ in range(2000):
        chip = ds3231()
        # Any seconds, minutes and hours; a real date (identify() reads it), 2025 on.
        chip.r[0:3] = bytes(rng.randrange(256) for _ in range(3))
        chip.r[4:7] = bytes((_bcd(rng.randint(1, 28)), _bcd(rng.randint(1, 12)),
                             _bcd(rng.randint(25, 99))))
        chip.r[0x0F] = 0  # the oscillator flag clear: the chip claims its time is good
        bus = Bus({0x68: chip})
        ext = rtcchip.find_rtc(bus)
        found += ext is not None
        r = FakeInternalRTC()
        c = clock.DeviceClock(r, ext, lambda: 0, time.struct_time)
        t = r.datetime
        assert 0 <= t.tm_hour < 24 and 0 <= t.tm_min < 60 and 0 <= t.tm_sec < 60
        assert clock.valid_date(t.tm_year, t.tm_mon, t.tm_mday)
        set_times += c.plausible()
    print("fuzzed look-alikes: %d found as a DS3231, %d set the clock, none impossibly"
          % (found, set_times))
    assert found > 1000  # the fuzz reaches the reading of the time, not just identify()
    assert 0 < set_times < found  # good times taken, impossible ones refused


@pytest.mark.parametrize("trouble", ["raises", "impossible"])
def test_through_the_game_a_bad_chip_starts_the_game_on_the_date_picker(monkeypatch, trouble):
    from host_sim import script, sim

    s = sim.Simulator(ext_rtc="ds3231",
                      script=script.parse("wait 100\nexpect screen datepicker\n"))
    chip = s.i2c_devices[0x68]
    if trouble == "raises":
        reads = [0]
        real = chip.read

        def read(n):
            reads[0] += 1
            if reads[0] > 2:  # identify's two reads pass
                raise RuntimeError("I2C bus error")
            return real(n)

        chip.read = read
    else:
        real_out = chip._sync_out

        def sync_out():
            real_out()
            chip.regs[2] = 0x3F  # hour "45"
            chip.regs[0x0F] = 0  # oscillator running: the chip claims a good time

        chip._sync_out = sync_out
    try:
        assert s.run() == 0, s.failure
    finally:
        s.close()
