# SPDX-License-Identifier: MIT
"""Fake `digitalio` for the simulated board: pins that drive the simulated touch panel.

Only the four touch pins do anything; the real adafruit_touchscreen drives them through
this module and host_sim.fakes.analogio reads the panel's voltages back (see `Panel`).
A pin is claimed while a DigitalInOut or AnalogIn holds it, and a second claim raises
ValueError("... in use") as on the board.
"""

from host_sim import fakes
from host_sim.hardware import screen_to_raw

_FULL = 65535
_X = ("TOUCH_XL", "TOUCH_XR")
_Y = ("TOUCH_YD", "TOUCH_YU")


class Panel:
    """A 4-wire resistive panel: two plates that touch where the finger presses.

    Driving one X pin low and one Y pin high measures the pressure: current flows through
    the touch point, the free X pin reads the X plate's voltage there (z1) and the free Y
    pin the Y plate's (z2); the library's z = 65535 - (z2 - z1) is the simulated pressure.
    Entering this set-up starts a new touch_point read, which takes one reading from the
    simulator (one poll). Driving both Y pins puts a gradient on the Y plate, which the X
    pins then read (the library's raw x); driving both X pins gives its raw y. The raw
    values are those of a panel with the factory calibration (hardware.screen_to_raw).
    """

    def __init__(self):
        self.claimed = set()
        self.driven = {}  # pin name -> output level (True: high)
        self.reading = None  # (x, y, z) of the current touch_point read, or None
        self.fresh = False
        self.reads = 0  # panel readings taken (touch_point reads that reached the ADC)
        self.objects = 0  # pin objects made, as the board's heap would see them

    def claim(self, pin):
        """Take pin for a DigitalInOut or AnalogIn; ValueError if it is taken."""
        name = getattr(pin, "name", str(pin))
        if name in self.claimed:
            raise ValueError("%s in use" % name)
        self.claimed.add(name)
        self.objects += 1
        return name

    def release(self, name):
        """Give pin back (deinit)."""
        self.claimed.discard(name)
        self.driven.pop(name, None)

    def drive(self, name, level):
        """Set an output; entering the pressure set-up starts a new reading."""
        before = self._pressure()
        self.driven[name] = bool(level)
        if self._pressure() and not before:
            self.fresh = True

    def to_input(self, name):
        """Make pin an input again."""
        self.driven.pop(name, None)

    def _pressure(self):
        """Return (x pin level, y pin level) when one pin of each plate is driven, else None."""
        xs = [n for n in _X if n in self.driven]
        ys = [n for n in _Y if n in self.driven]
        if len(xs) == 1 and len(ys) == 1 and self.driven[xs[0]] != self.driven[ys[0]]:
            return self.driven[xs[0]], self.driven[ys[0]]
        return None

    def voltage(self, name):
        """Return the 16-bit ADC value pin `name` reads now."""
        pressure = self._pressure()
        if pressure is not None:
            if self.fresh:
                self.fresh = False
                self.reads += 1
                self.reading = fakes.current().touch_read()
            x_level, y_level = pressure
            z = 0 if self.reading is None else max(0, min(_FULL, self.reading[2]))
            # The plates' voltages at the touch point: z1 <= z keeps z2 within range.
            z1 = z // 2
            z2 = z1 + _FULL - z
            if name in _X:
                return z1 if not x_level else _FULL - z1
            return z2 if y_level else _FULL - z2
        if self.reading is None:
            return 0  # a floating input
        sim = fakes.current()
        raw_x, raw_y = screen_to_raw(self.reading[0], self.reading[1], (sim.width, sim.height))
        if name in _X and all(n in self.driven for n in _Y):
            return raw_x if self.driven["TOUCH_YU"] else _FULL - raw_x
        if name in _Y and all(n in self.driven for n in _X):
            return raw_y if self.driven["TOUCH_XR"] else _FULL - raw_y
        return 0


panel = Panel()


def reset():
    """A new board: every pin free, no reading."""
    global panel
    panel = Panel()


class Direction:
    """digitalio.Direction."""

    INPUT = 0
    OUTPUT = 1


class DriveMode:
    """digitalio.DriveMode."""

    PUSH_PULL = 0
    OPEN_DRAIN = 1


class Pull:
    """digitalio.Pull."""

    UP = 1
    DOWN = 2


class DigitalInOut:
    """digitalio.DigitalInOut on the simulated board."""

    def __init__(self, pin):
        self._panel = panel
        self._name = panel.claim(pin)
        self.direction = Direction.INPUT
        self.pull = None

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        """Drive the pin."""
        self.direction = Direction.OUTPUT
        self._panel.drive(self._name, value)

    def switch_to_input(self, pull=None):
        """Let the pin float (or pull it, which the panel ignores)."""
        self.direction = Direction.INPUT
        self.pull = pull
        self._panel.to_input(self._name)

    @property
    def value(self):
        """Return the output level, or the panel's voltage as a logic level."""
        if self._name in self._panel.driven:
            return self._panel.driven[self._name]
        return self._panel.voltage(self._name) > 32767

    @value.setter
    def value(self, level):
        if self.direction == Direction.OUTPUT:
            self._panel.drive(self._name, level)

    def deinit(self):
        """Free the pin."""
        if self._name is not None:
            self._panel.release(self._name)
            self._name = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
