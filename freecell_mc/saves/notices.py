# SPDX-License-Identifier: MIT
"""What the saves tell the player about the save file: notices at a start, Settings' words.

Short and plain, and about the player's games: what happened, what is at risk, what to do.
The start-up notice (ui/screens/notice.py) shows one text; Settings one line under the USB
switch (limit words). policy.py imports this module only when there is something to tell;
its own three messages (unreadable, newer, older) are its. docs/saves.md says when each is
told.
"""

from freecell_mc.compat import const
from freecell_mc.saves.savelog import IS_DIR, NO_FILE, READ_ONLY, WRONG_SIZE

PAGE = "\f"  # between two notices told at one start: the notice shows them one after the other
_AT_RISK = " Until then a power cut loses up to 30 min."
# What copying the game makes on CIRCUITPY for its saves: the file, the spacer before its
# folder and the two folders' clusters (1 KB each on the board's drive).
NEEDS = const(1062912)  # savelog.file_bytes() + SPACER_BYTES + 2 * 1024 (a test checks)


def from_backup(gone, date):
    """Return the notice for a start from nvm's backup: the save file gone, or unreadable.

    date: the last date the backup knew, (y, m, d) or None.
    """
    head = "The save file is gone." if gone else "The save file could not be read."
    when = " of %d-%02d-%02d" % date if date else ""
    return head + (" Going on from the board's backup%s: up to an hour of play may be lost."
                   % when)


def limited(error, blocks):
    """Return the notice for a drive whose save file cannot take records (not USB mode)."""
    if error == NO_FILE:
        free = _free(blocks)
        if 0 <= free < NEEDS:
            kb = (NEEDS - free + 1023) // 1024
            return ("No room for the save file: free %d KB on CIRCUITPY, copy the game "
                    "again." % kb) + _AT_RISK
        return "No save file on CIRCUITPY: copy the game again to make one." + _AT_RISK
    if error == WRONG_SIZE or error == IS_DIR:
        return "The save file on CIRCUITPY is damaged: copy the game again." + _AT_RISK
    return "CIRCUITPY cannot be written: saves go to the board's memory." + _AT_RISK


def reason(error, usb_flag):
    """Return Settings' few words on how saves are limited, and what to do (fits its row)."""
    if error == READ_ONLY:
        # The flag on: USB updates were chosen. Off: the screen was held at reset (or
        # boot.py could not take the drive): the computer has it for this start only.
        return "USB mode: saves limited" if usb_flag else "USB for this start only"
    if error == NO_FILE or not error:
        return "no save file: copy again"
    if error == WRONG_SIZE or error == IS_DIR:
        return "bad save file: copy again"
    return "save file will not write"


def _free(blocks):
    """Return the bytes free on CIRCUITPY, or -1 when the blocks cannot say."""
    free = getattr(blocks, "free_bytes", None)
    return free() if free is not None else -1
