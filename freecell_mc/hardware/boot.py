# SPDX-License-Identifier: MIT
"""Decide at power-up who may write CIRCUITPY: the game (for its saves) or the computer.

CircuitPython lets only one side write the drive, and boot.py is the one place that can
choose, after a hard reset and before USB starts. By default the game gets it
(`storage.remount("/", readonly=False)`): saves then go to the ring of save files and are
power-safe, and the computer sees the drive read-only. A maker who wants to copy an update
switches to USB updates in Settings (a flag in the saves, read here at the next reset), or,
with no working game at all, holds a finger on the screen while pressing reset: that start
leaves the drive to the computer once. CircuitPython's safe mode (press reset again while
the status light blinks yellow at start-up) skips boot.py entirely and always works.
"""

from freecell_mc.saves import record, savelog

GAME = "FreeCell MC: the game keeps its saves on CIRCUITPY, so the computer sees it read-only."
HOW = "For USB updates: Settings > USB updates, or hold the screen while pressing reset."
USB = "FreeCell MC: CIRCUITPY is open to the computer for updates; saves are limited."
BACK = "To give it back to the game: Settings > USB updates, then reset."
HELD = "FreeCell MC: screen held at reset, CIRCUITPY is open to the computer for this start."
# Switching USB updates on in Settings would keep the drive from the game after the reset:
# after a held start, a plain reset without holding is all it takes.
AGAIN = "To give it back to the game: reset without holding the screen."
# A copy of the game as source cannot run on the board (hardware/source.py): the drive is
# left to the computer, so the release zip can be unzipped onto it at once.
SOURCE = "FreeCell MC: copied as .py source; CIRCUITPY stays open to copy the .mpy release."

_SAMPLES = 8
_NEEDED = 5  # of the samples, so one noisy reading neither starts nor stops it


def touched_at_boot(touch=None, sleep=None):
    """Return True if the screen is being held (most of 8 readings, 10 ms apart)."""
    if touch is None:
        try:
            import board
            import adafruit_touchscreen

            touch = adafruit_touchscreen.Touchscreen(
                board.TOUCH_XL, board.TOUCH_XR, board.TOUCH_YD, board.TOUCH_YU
            )
        except (ImportError, AttributeError, ValueError, RuntimeError):
            return False  # no touch panel or no library: only Settings and safe mode remain
    if sleep is None:
        import time

        sleep = time.sleep
    hits = 0
    for _ in range(_SAMPLES):
        if touch.touch_point is not None:
            hits += 1
        sleep(0.01)
    return hits >= _NEEDED


def read_usb_flag(blocks):
    """Return the USB-update flag for boot.py: from nvm, else the newest save file.

    A change of the flag reaches nvm at once (Saves._write, policy.py; a storm of taps
    every 10 s), so a valid nvm record holds the current flag and boot.py reads one block
    instead of the whole ring; only when nvm is unreadable (a cut while it was written) is
    the ring searched.
    """
    data = savelog.read_place(blocks[0]) if blocks else None
    if record.check(data) == record.OK and record.refusal(data) is None:
        return record.usb_flag(data) == 1
    from freecell_mc.saves.policy import newest_of

    seqs = [-1] * len(blocks)
    for i in range(1, len(blocks)):
        data = savelog.read_place(blocks[i])
        if record.check(data) == record.OK and record.refusal(data) is None:
            seqs[i] = record.seq_of(data)
    if newest_of(seqs) < 0:  # the entries are now age keys: the largest is the newest
        return False
    data = savelog.read_place(blocks[seqs.index(max(seqs))])
    return record.usb_flag(data) == 1


def decide(usb_flag, held):
    """Return (game_writes, lines to print) for the saved flag and a held screen."""
    if held:
        return False, (HELD, AGAIN)
    if usb_flag:
        return False, (USB, BACK)
    return True, (GAME, HOW)


def main(fs=None, blocks=None, touch=None, out=print):
    """Run boot.py's job; the arguments replace the board's modules in tests."""
    from freecell_mc.hardware import source

    if source.installed():
        out(SOURCE)
        return False
    if fs is None:
        import storage as fs  # CircuitPython's storage module: the drive's mounts
    if blocks is None:
        try:
            import microcontroller

            nvm = microcontroller.nvm
        except (ImportError, AttributeError):
            nvm = None
        blocks = savelog.device_blocks(nvm)
    try:
        flag = read_usb_flag(blocks)
    except Exception:  # noqa: BLE001  (boot.py must never stop the board from starting)
        flag = False
    held = touched_at_boot(touch)
    game_writes, lines = decide(flag, held)
    if game_writes:
        try:
            fs.remount("/", readonly=False)
        except (RuntimeError, OSError) as e:
            game_writes = False
            lines = ("FreeCell MC: could not take CIRCUITPY (%s); saves are limited." % e, HOW)
    for line in lines:
        out(line)
    return game_writes
