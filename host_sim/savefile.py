# SPDX-License-Identifier: MIT
"""The save file as the computer makes it on CIRCUITPY, and a check of where it landed.

The board never makes its save file (docs/saves.md): `./dev bundle` puts it in the image
and tools/copy_to_board.py copies it onto a drive that lacks it, in `entries()` order: the
folder fcsave/, a 4 KB spacer fcsave/readme.txt, the folder fcsave/ring/, then
fcsave/ring/saves.bin, every byte 0xFF (erased: the board's first records need no erase).
Written one after the other onto a drive whose free space is one run (a fresh drive, or
one only ever added to), each takes the clusters right after the one before, so:

- the save file is contiguous, and its 8-sector guards keep every 4 KB erase sector that
  holds a record place inside the file;
- the sector holding its directory entry (rewritten when code.py ends) shares its 4 KB
  erase sector only with the spacer and the file's first guard.

`layout_problems(vol)` checks both on a FAT volume (host_sim/fat.py's model of the
simulator's drive, or a board's drive read as a block device) from the FAT itself.
"""

from freecell_mc.saves import savelog
from host_sim.flash import ERASE, SECTOR

_BLOCKS = ERASE // SECTOR  # 512-byte blocks per 4 KB erase sector

README = (
    "FreeCell MC keeps its saved games, statistics and settings in ring/saves.bin.\n"
    "Do not delete this folder unless you mean to start afresh: the game never makes the\n"
    "file itself (that would write the drive's FAT and folders, which a power cut could\n"
    "damage). tools/copy_to_board.py makes it again when it is missing.\n"
    "This file only keeps other files' data out of the 4 KB flash sector beside the\n"
    "save file's folder.\n"
)


def spacer():
    """Return the spacer file's bytes: the note above, padded to savelog.SPACER_BYTES."""
    data = README.encode()
    return data + b" " * (savelog.SPACER_BYTES - len(data))


def blank(places=savelog.RING):
    """Return the bytes of an empty save file with `places` record places: all erased."""
    return b"\xff" * savelog.file_bytes(places)


def entries(places=savelog.RING):
    """Return [(path, bytes or None for a folder)] in the order they must be written."""
    ring = savelog.LOG_PATH.rsplit("/", 1)[0]
    return [(savelog.LOG_DIR, None), (savelog.SPACER_PATH, spacer()), (ring, None),
            (savelog.LOG_PATH, blank(places))]


def install(vol, places=savelog.RING):
    """Make the save file on a Volume as the copy tool does (the folders as needed)."""
    write(vol, entries(places))


def write(vol, items):
    """Write (path, data) items onto a Volume in their order: data None makes the folder."""
    for path, data in items:
        if data is None:
            if not vol.is_dir(path):
                vol.mkdir(path)
        else:
            with vol.open(path, "wb") as f:
                f.write(data)


def _blocks_of(vol, path):
    """Return the flash blocks of a file or folder, in order, from its cluster chain."""
    _, _, _, loc = vol._resolve(path)
    if loc is None:
        return None
    _, clst, size = vol._entry(loc)
    out = []
    seen = 0
    while 2 <= clst < vol.n_fatent and seen <= vol.n_fatent:
        base = vol._clst2sect(clst)
        out.extend(range(base, base + vol.csize))
        clst = vol._get_fat(clst)
        seen += 1
    return out


def layout_problems(vol, places=savelog.RING):
    """Return what keeps a save on this volume from touching nothing but the save file.

    Empty when every 4 KB erase sector holding a record place holds nothing but the save
    file, and the erase sector of the file's directory entry nothing but the spacer, the
    file's folder and the file's first guard.
    """
    path = savelog.LOG_PATH
    blocks = _blocks_of(vol, path)
    if blocks is None:
        return ["there is no %s" % path]
    out = []
    if len(blocks) * SECTOR < savelog.file_bytes(places):
        out.append("%s holds %d bytes, not %d" % (path, len(blocks) * SECTOR,
                                                   savelog.file_bytes(places)))
        return out
    own = set(blocks)
    shared = set()
    g = savelog.GUARD
    for b in blocks[g : g + places]:
        first = b - b % _BLOCKS
        for x in range(first, first + _BLOCKS):
            if x not in own:
                shared.add(first)
    if shared:
        out.append("%d of the 4 KB erase sectors holding record places also hold other data "
                   "(the file is not in one run, or its guards are cut short)" % len(shared))
    entry = vol._resolve(path)[3][0]
    mine = set(blocks[:g]) | set(_blocks_of(vol, savelog.SPACER_PATH) or ())
    mine |= set(_blocks_of(vol, path.rsplit("/", 1)[0]) or ())
    first = entry - entry % _BLOCKS
    others = [x for x in range(first, first + _BLOCKS) if x not in mine]
    if others:
        out.append("the 4 KB erase sector of the save file's directory entry also holds "
                   "block(s) %s of other data" % ", ".join(str(x) for x in others))
    return out
