# SPDX-License-Identifier: MIT
"""Build the game's hardware from the board's own modules (app.main runs the game on it).

Every board-specific import happens inside `build()`, so importing this module touches
no hardware. The desktop simulator runs this very file: it supplies `board` and friends.
"""

# The PyPortal panel's factory calibration (SPEC section 6), used until the player saves one.
from freecell_mc.saves.settings import DEFAULT_CALIBRATION as CALIBRATION


class NoKeys:
    """The board has no keyboard: `read()` never returns a key."""

    def read(self):
        """Return None: no key is waiting."""
        return None


class Hardware:
    """What the App receives: display, touch, clock, blocks, keys (docs/architecture.md)."""

    def __init__(self, display, touch, clock, blocks, keys, start=None, make_touch=None, ppcm=0):
        """Hold the parts; make_touch(calibration) builds a touch panel with a new calibration.

        ppcm is the panel's pixels per 10 mm (layout.panel_ppcm); 0 means the size's default.
        """
        self.display = display
        self.touch = touch
        self.clock = clock
        self.blocks = blocks
        self.keys = keys
        # (kind, number, cells) to start on instead of the saved game, or None
        self.start = start
        self._make_touch = make_touch
        self.calibration = CALIBRATION
        self.ppcm = ppcm

    def set_calibration(self, calibration):
        """Use a touch calibration ((x_min, x_max), (y_min, y_max)) from now on."""
        if self._make_touch is not None and calibration != self.calibration:
            self.touch = self._make_touch(calibration)
            self.calibration = calibration


def build():
    """Return the Hardware of the board this runs on."""
    import adafruit_touchscreen
    import board
    import microcontroller

    from freecell_mc.hardware import clock
    from freecell_mc.saves import savelog
    from freecell_mc.ui.layout import panel_ppcm

    display = board.DISPLAY
    display.auto_refresh = False  # the game refreshes once per poll, only when something changed
    size = (display.width, display.height)

    def make_touch(calibration):
        return adafruit_touchscreen.Touchscreen(
            board.TOUCH_XL,
            board.TOUCH_XR,
            board.TOUCH_YD,
            board.TOUCH_YU,
            calibration=calibration or CALIBRATION,
            size=size,
        )

    blocks = savelog.device_blocks(microcontroller.nvm)
    # The player's own calibration lives in the saves, which the App loads: it hands it
    # over with set_calibration, so the saves are read once.
    touch = make_touch(None)
    # A real board has neither: the simulator's board module adds its keyboard and the
    # deal asked for on its command line.
    keys = getattr(board, "KEYS", None)
    if keys is None:
        keys = NoKeys()
    start = getattr(board, "START_DEAL", None)
    # The panel's size in millimetres is not in the display object: the board's name says
    # it, and a Pynt's is the PyPortal's (board_name). CIRCUITPY/settings.toml may name the
    # board instead, FREECELL_BOARD = "pyportal_pynt" or "pyportal", which os.getenv reads
    # (README, "A PyPortal Pynt").
    import os

    ppcm = panel_ppcm(os.getenv("FREECELL_BOARD") or board_name(board), size[0], size[1])
    return Hardware(display, touch, clock.device_clock(), blocks, keys, start, make_touch, ppcm)


def board_name(board):
    """Return the name layout.panel_ppcm knows the board by: board_id, but for a Pynt.

    A Pynt runs the PyPortal's firmware (CircuitPython lists pyportal_pynt as an alias of
    pyportal), so it reports board_id "pyportal" too. The one part that tells them apart is
    the PyPortal's ADT7410 temperature sensor, which the Pynt leaves out (Adafruit's Pynt
    pages; the boards' schematics: the same wiring otherwise): on the I2C bus at 0x48, its
    ID register 0x0B reads 0xC8-0xCF. Reading a register only sets the chip's pointer, and
    nothing else answers there on a PyPortal. A "pyportal" where it does not answer (no
    bus, a bus held by something on the STEMMA port) is taken for the Pynt: its layout
    on a 3.2" panel is larger than needed, never too small; settings.toml can say which.
    """
    board_id = getattr(board, "board_id", None)
    if board_id == "pyportal":
        buf = bytearray(1)
        try:
            i2c = board.I2C()  # no pull-ups (nothing on the bus) raises RuntimeError
            if i2c.try_lock():
                try:
                    i2c.writeto_then_readfrom(0x48, b"\x0b", buf)  # the ADT7410's ID register
                finally:
                    i2c.unlock()
        except (AttributeError, OSError, RuntimeError, ValueError):
            pass
        if buf[0] & 0xF8 != 0xC8:
            return "pyportal_pynt"
    return board_id
