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
    # The panel's size in millimetres is not in the display object: the board's name says it.
    # A Pynt runs the PyPortal's firmware (CircuitPython lists pyportal_pynt as an alias of
    # pyportal), so its board_id is "pyportal": its owner names it in CIRCUITPY/settings.toml,
    # FREECELL_BOARD = "pyportal_pynt", which os.getenv reads (README, "A PyPortal Pynt").
    import os

    name = os.getenv("FREECELL_BOARD") or getattr(board, "board_id", None)
    ppcm = panel_ppcm(name, size[0], size[1])
    return Hardware(display, touch, clock.device_clock(), blocks, keys, start, make_touch, ppcm)
