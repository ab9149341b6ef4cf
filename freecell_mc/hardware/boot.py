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
What it prints is one line, the same at every start (HOW): it lands in boot_out.txt.
"""

from freecell_mc.saves import record, savelog

# What boot.py prints, at every start and in every case: one line, the same bytes. The
# firmware writes its own lines and this into boot_out.txt, and rewrites that file when
# the text changes (main.c, run_boot_py): a 4 KB erase of the sector it shares with the
# boot sector, the FAT, the root folder and fcsave/, where a power cut can cost the drive.
# So nothing here says which way this start went (Settings does, on the screen): not the
# mode, not a held screen, not an error.
HOW = ("FreeCell MC: after a reset the game keeps CIRCUITPY for its saves (the computer "
       "sees it read-only) unless Settings > USB updates is on or the screen is held.")

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


def _valid_record(data):
    """Return data if it is a record the game could have written, else None."""
    if record.check(data) == record.OK and record.refusal(data) is None:
        return data
    return None


def read_usb_flag(blocks):
    """Return the USB-update flag for boot.py: from nvm, else the newest save file.

    A change of the flag reaches nvm at once (Saves._write, policy.py; a storm of taps
    every 10 s), so a valid nvm record holds the current flag and boot.py reads nvm's two
    places instead of the whole ring; only when neither holds one (a cut while it was
    written) is the ring searched.
    """
    nvm = blocks[0] if blocks else None
    a = _valid_record(savelog.read_place(nvm))
    b = _valid_record(savelog.read_place(nvm, savelog.NVM_COPY))
    if a is not None and b is not None:
        # Both the board's own, a few writes apart at most: the newer is less than half
        # the circle of sequence numbers ahead (policy.newest_of).
        ahead = (record.seq_of(b) - record.seq_of(a)) % record.SEQ_LIMIT
        data = b if 0 < ahead < record.SEQ_LIMIT // 2 else a
    else:
        data = a if a is not None else b
    if data is not None:
        return record.usb_flag(data) == 1
    from freecell_mc.saves.loading import NVM_PLACES, newest_of

    seqs = [-1] * (NVM_PLACES + len(blocks) - 1)
    for at in range(NVM_PLACES, len(seqs)):
        data = _valid_record(savelog.read_place(blocks[at - NVM_PLACES + 1]))
        if data is not None:
            seqs[at] = record.seq_of(data)
    if newest_of(seqs) < 0:  # the entries are now age keys: the largest is the newest
        return False
    data = savelog.read_place(blocks[seqs.index(max(seqs)) - NVM_PLACES + 1])
    return record.usb_flag(data) == 1


def main(fs=None, blocks=None, touch=None, out=print):
    """Run boot.py's job; return True if the game writes CIRCUITPY.

    It prints HOW and nothing else, whatever happens (so boot_out.txt never changes);
    nothing in it can stop the board from starting. The arguments replace the board's
    modules in tests.
    """
    out(HOW)
    try:
        from freecell_mc.hardware import source

        # A copy of the game as source cannot run on the board (hardware/source.py): the
        # drive is left to the computer, so the release zip can be unzipped onto it.
        if source.installed():
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
        except Exception:  # noqa: BLE001  (unreadable saves mean the default)
            flag = False
        # A held screen leaves the drive to the computer for this start; the saved flag
        # for every start until it is switched off.
        if touched_at_boot(touch) or flag:
            return False
        fs.remount("/", readonly=False)
        return True
    except Exception:  # noqa: BLE001  (boot.py must never stop the board from starting)
        return False  # a failing remount too: the game finds the drive read-only and says so
