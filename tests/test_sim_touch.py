# SPDX-License-Identifier: MIT
"""The simulated touch panel: the real adafruit_touchscreen reads it through fake pins.

On the board every `touch_point` makes and frees DigitalInOut/AnalogIn objects and reads raw
16-bit ADC values; the simulator now runs that very code over host_sim.fakes' digitalio and
analogio, so what the library does per read (objects, pins in use, mapping) is the board's.
"""

from pathlib import Path

import pytest

from host_sim import fakes

FACTORY = ((5200, 59000), (5800, 57000))


class _Sim:
    """The least the touch fakes ask of the running simulator: a size and readings."""

    def __init__(self, width=320, height=240):
        self.width, self.height = width, height
        self.readings = []
        self.polls = 0
        self.phase = "code"

    def touch_read(self):
        self.polls += 1
        return self.readings.pop(0) if self.readings else None


@pytest.fixture
def sim():
    """Install the fake modules around a minimal simulator; yield it."""
    s = _Sim()
    fakes.install(s)
    yield s
    fakes.uninstall()


def _panel(sim, size=(320, 240), **kw):
    import adafruit_touchscreen
    import board

    return adafruit_touchscreen.Touchscreen(board.TOUCH_XL, board.TOUCH_XR, board.TOUCH_YD,
                                            board.TOUCH_YU, size=size, **kw)


def test_the_board_library_itself_runs_over_the_simulated_pins(sim):
    """Touchscreen is the installed library's class, bound to the fake analogio/digitalio."""
    import adafruit_touchscreen
    import analogio
    import digitalio

    code = adafruit_touchscreen.Touchscreen.touch_point.fget.__code__
    assert Path(code.co_filename).name == "adafruit_touchscreen.py"
    assert "site-packages" in Path(code.co_filename).parts
    lib = adafruit_touchscreen.library
    assert lib.AnalogIn is analogio.AnalogIn and lib.DigitalInOut is digitalio.DigitalInOut
    assert analogio.__name__ == "host_sim.fakes.analogio"


def test_raw_readings_are_a_factory_calibrated_panels(sim):
    """The centre pixel of 320x240 reads raw x 32100 (TOOLCHAIN.md) and maps back to itself."""
    import adafruit_touchscreen
    import analogio
    import board
    import digitalio

    sim.readings = [(159, 119, 30000)]
    # The library's own steps: pressure first (one poll), then each plate.
    with digitalio.DigitalInOut(board.TOUCH_XR) as xp, \
            digitalio.DigitalInOut(board.TOUCH_YD) as ym:
        xp.switch_to_output(False)
        ym.switch_to_output(True)
        with analogio.AnalogIn(board.TOUCH_XL) as a, analogio.AnalogIn(board.TOUCH_YU) as b:
            z1, z2 = a.value, b.value
    assert 65535 - (z2 - z1) == 30000
    with digitalio.DigitalInOut(board.TOUCH_YU) as yp, \
            digitalio.DigitalInOut(board.TOUCH_YD) as ym, \
            analogio.AnalogIn(board.TOUCH_XR) as xr:
        yp.switch_to_output(True)
        ym.switch_to_output(False)
        raw_x = xr.value
    with digitalio.DigitalInOut(board.TOUCH_XR) as xp, \
            digitalio.DigitalInOut(board.TOUCH_XL) as xm, \
            analogio.AnalogIn(board.TOUCH_YU) as yu:
        xp.switch_to_output(True)
        xm.switch_to_output(False)
        raw_y = yu.value
    assert (raw_x, raw_y) == (32100, 31400)
    assert sim.polls == 1
    m = adafruit_touchscreen.map_range
    assert int(m(32100, 5200, 59000, 0, 319)) == 159 and int(m(31500, 5800, 57000, 0, 239)) == 119
    sim.readings = [(159, 119, 30000)]
    assert _panel(sim, calibration=FACTORY).touch_point == (159, 119, 30000)


def test_every_read_makes_and_frees_pin_objects_like_the_board(sim):
    """Pressed: 6 DigitalInOut + 4 AnalogIn per read; lifted: 2 + 2; no pin stays claimed."""
    import digitalio

    ts = _panel(sim, calibration=FACTORY)
    sim.readings = [(10, 20, 30000), None, (300, 230, 20000)]
    before = digitalio.panel.objects
    assert ts.touch_point == (10, 20, 30000)
    assert digitalio.panel.objects - before == 10
    assert ts.touch_point is None
    assert digitalio.panel.objects - before == 14
    assert ts.touch_point == (300, 230, 20000)
    assert digitalio.panel.claimed == set() and digitalio.panel.driven == {}
    # One read is one poll of the game, as before.
    assert sim.polls == 3 and digitalio.panel.reads == 3


def test_every_pixel_of_both_sizes_maps_back_through_the_library(sim):
    """Raw values from the factory-calibrated panel land on the pressed pixel at 320 and 480."""
    for size in ((320, 240), (480, 320)):
        sim.width, sim.height = size
        ts = _panel(sim, size=size, calibration=FACTORY)
        for x in range(0, size[0], 7):
            sim.readings = [(x, size[1] - 1 - x % size[1], 25000)]
            assert ts.touch_point == (x, size[1] - 1 - x % size[1], 25000)
        for corner in ((0, 0), (size[0] - 1, size[1] - 1)):
            sim.readings = [corner + (25000,)]
            assert ts.touch_point[:2] == corner


def test_light_press_and_inverted_pressure_follow_the_library(sim):
    """The library's own threshold decides: z at or under z_threshold is no touch."""
    ts = _panel(sim, calibration=FACTORY, z_threshold=20000)
    sim.readings = [(50, 60, 20000), (50, 60, 20001)]
    assert ts.touch_point is None
    assert ts.touch_point == (50, 60, 20001)


def test_a_pin_held_elsewhere_is_in_use_as_on_the_board(sim):
    """Holding a touch pin (say as a button) makes the library's read fail with ValueError."""
    import board
    import digitalio

    ts = _panel(sim, calibration=FACTORY)
    held = digitalio.DigitalInOut(board.TOUCH_XL)
    with pytest.raises(ValueError, match="TOUCH_XL in use"):
        sim.readings = [(5, 5, 30000)]
        ts.touch_point  # noqa: B018  (the property read is the action)
    held.deinit()
    sim.readings = [(5, 5, 30000)]
    assert ts.touch_point == (5, 5, 30000)
