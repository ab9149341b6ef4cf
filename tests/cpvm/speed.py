# SPDX-License-Identifier: MIT
"""What a speed session measures on CircuitPython's VM: where the instructions go.

bench/speed.py runs the VM under valgrind's callgrind, which counts the instructions the
VM executes and writes the count so far at every call of three C library functions
(`--dump-before`), each opening an interval of one kind (functions the game never calls:
it reads os.getenv):

    unsetenv   the stand-ins' own work (the board runs C there, or nothing)
    chdir      the game's work (and the real adafruit_touchscreen's between readings)
    setenv     displayio drawing: board.DISPLAY.refresh(), the real C renderer

Each interval of the stand-ins prints one line, so that the benchmark can tell them apart:

    @@P STEP PRESSED BYTES COMMANDS WRITES TICKS SCREEN   a poll ended (time.sleep): the
        session's step, the finger, the display bus's bytes and commands so far, the
        saves written so far, supervisor.ticks_ms calls in the poll, the screen shown
    @@R PRESSED     a touch reading: adafruit_touchscreen.touch_point over the stand-in pins
    @@N WHAT        a call into a stand-in: nvm, storage, or the calibration of these marks

The stand-ins themselves are not changed (their heap in a day of play stays what it is):
run() wraps them here, and only a speed session imports this module. board.DISPLAY becomes
a real busdisplay.BusDisplay on the VM's counting paralleldisplaybus.ParallelBus, built
as the PyPortal's firmware builds its display (ports/atmel-samd/boards/pyportal/board.c):
16-bit colour, rotation 0, the MIPI column, row and memory-write commands. Nothing here
allocates per poll.
"""

import os

import board
import busdisplay
import microcontroller
import paralleldisplaybus
import session
import storage
import supervisor

_ENV = "FREECELL_SPEED"

# In a touch reading (1/0), pin groups closed in it, supervisor.ticks_ms calls this poll.
_st = [0, 0, 0]


def _standin():
    os.unsetenv(_ENV)


def _game():
    os.chdir(".")


def _draw():
    os.putenv(_ENV, "")


def _passed(name):
    """Return a property that reads and sets the real display's attribute name."""
    return property(lambda self: getattr(self.display, name),
                    lambda self, value: setattr(self.display, name, value))


class Display:
    """board.DISPLAY: a real busdisplay.BusDisplay whose refresh() is marked as drawing.

    What the game uses of a display, passed on (a subclass could not call the C refresh
    without a super() object a call).
    """

    def __init__(self, display):
        self.display = display
        self.width = display.width
        self.height = display.height
        self.bus = display.bus

    def refresh(self):
        """Draw what changed (the C renderer into the bus), marked as drawing."""
        _draw()
        r = self.display.refresh()
        _game()
        return r

    root_group = _passed("root_group")
    auto_refresh = _passed("auto_refresh")
    brightness = _passed("brightness")


# -- the stand-ins, wrapped -----------------------------------------------------------------

_pin_init = session.Pin.__init__
_pin_deinit = session.Pin.deinit


def _init(self, pin):
    if not _st[0] and not session._npins[0]:
        _standin()  # adafruit_touchscreen claims its first pin: a reading begins
        _st[0] = 1
        _st[1] = 0
    _pin_init(self, pin)


def _deinit(self):
    _pin_deinit(self)
    if _st[0] and not session._npins[0]:
        # A reading without pressure is one group of pins; with it, two more follow.
        _st[1] += 1
        if _st[1] == (3 if session._xy[2] else 1):
            _st[0] = 0
            print("@@R", session._xy[2])
            _game()


_sleep_ms = session.sleep_ms


def _sleep(ms):
    _standin()
    _sleep_ms(ms)
    app = session._app()
    bus = board.DISPLAY.bus
    if app is None:
        print("@@P", session._steps[1], session._xy[2], bus.bytes_sent, bus.commands_sent,
              0, _st[2], "-")
    else:
        scr = app.screen
        print("@@P", session._steps[1], session._xy[2], bus.bytes_sent, bus.commands_sent,
              app.saves.writes, _st[2], "-" if scr is None else scr.name)
    _st[2] = 0
    _game()


_ticks_ms = supervisor.ticks_ms


def _ticks():
    _st[2] += 1
    return _ticks_ms()


_nvm = type(microcontroller.nvm)
_get = _nvm.__getitem__
_set = _nvm.__setitem__


# A stand-in may raise (nvm beyond its end, as the board's does): its interval ends all
# the same, with its line.


def _getitem(self, i):
    _standin()
    try:
        return _get(self, i)
    finally:
        print("@@N nvm")
        _game()


def _setitem(self, i, v):
    _standin()
    try:
        _set(self, i, v)
    finally:
        print("@@N nvm")
        _game()


_remount = storage.remount


def _remount_marked(mount_path, readonly=False, disable_concurrent_write_protection=False):
    _standin()
    try:
        _remount(mount_path, readonly, disable_concurrent_write_protection)
    finally:
        print("@@N storage")
        _game()


def calibrate():
    """Mark intervals that hold nothing but the marks themselves, and 16 ticks_ms calls:
    what the benchmark takes off the game's intervals for its marks and ticks."""
    _draw()  # three in a row: where these marks begin
    _draw()
    _draw()
    _game()
    _standin()  # game -> stand-in: the cost of the marks around a game interval
    print("@@N cal")
    _game()
    _draw()  # game -> draw
    _game()  # draw -> game: the marks around a drawing
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _ticks()
    _standin()  # 16 ticks_ms calls and the marks of a game interval
    _st[2] = 0
    print("@@N cal")
    _game()


def install(width, height):
    """Wrap the stand-ins and put a real display of width x height on board.DISPLAY."""
    session.Pin.__init__ = _init
    session.Pin.deinit = _deinit
    session.sleep_ms = _sleep
    supervisor.ticks_ms = _ticks
    _nvm.__getitem__ = _getitem
    _nvm.__setitem__ = _setitem
    storage.remount = _remount_marked
    board.DISPLAY = Display(busdisplay.BusDisplay(paralleldisplaybus.ParallelBus(), b"",
                                                  width=width, height=height,
                                                  auto_refresh=False))


def run(script):
    """Run boot.py or code.py as the board does (as __main__), measured."""
    install(session.WIDTH, session.HEIGHT)
    calibrate()
    with open(script) as f:
        source = f.read()
    _game()
    exec(source, {"__name__": "__main__"})
