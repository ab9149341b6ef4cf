# SPDX-License-Identifier: MIT
"""CIRCUITPY in the simulator's drive folder: its image, made with what a board holds first.

`open_drive` opens the folder's image, `circuitpy.img` (host_sim/flash.py's chip, with
host_sim/fat.py's volume on it), formatting a new one and installing the board image
(`INSTALLED`, and the save file as the copy tool makes it, host_sim/savefile.py) as a
PyPortal holds it before the game's first save. `drive_problem` says why an image there
could not be mounted, before the board would format it.
"""

import os

from freecell_mc.saves import savelog
from host_sim import savefile
from host_sim.fat import Volume
from host_sim.fatformat import image_problem, short_name
from host_sim.flash import SECTOR, Flash

IMAGE = "circuitpy.img"  # the simulator's CIRCUITPY inside its drive folder
BOOT_OUT = "boot_out.txt"
# What the firmware writes into boot_out.txt before boot.py's output (main.c run_boot_py:
# its version, the board, the chip's UID; printed "cooked", each line ending CR LF); a
# drive that had no boot.py at its last start holds just this.
FIRMWARE_TEXT = ("Adafruit CircuitPython 10.0.3 on 2025-10-17; Adafruit PyPortal with "
                 "samd51j20\r\nBoard ID:pyportal\r\nUID:8DD2C4F553544B4D34202020FF0C1C3D\r\n")


def boot_out_text(old):
    """Return the bytes of boot_out.txt once the game's boot.py has run, from its bytes now.

    The firmware's own lines stay; "boot.py output:" and the one line the game's boot.py
    prints at every start follow (freecell_mc/hardware/boot.py HOW). The copy tool writes
    this, so that the board's first start after the copy finds it unchanged and does not
    rewrite it (docs/saves.md, "boot.py: who writes CIRCUITPY").
    """
    from freecell_mc.hardware.boot import HOW

    cut = old.find(b"boot.py output:")
    firmware = old if cut < 0 else old[:cut]
    return firmware + b"boot.py output:\r\n" + HOW.encode() + b"\r\n"


# The words of How to play, which the game reads from the drive (ui/screens/howto.py): the
# one file of the image the simulated drive holds as it is, not as a file of its size.
HOWTO_PATH = "howto.txt"
HOWTO = open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          HOWTO_PATH), "rb").read()

# What a PyPortal's CIRCUITPY holds before the game first saves: boot_out.txt (the firmware's),
# then the board image of `./dev bundle` in the order tools/copy_to_board.py writes it, with
# the sizes of build/CIRCUITPY on 2026-12-03 (CircuitPython 10 mpy-cross): first the save
# file and its folders (host_sim/savefile.py, not listed here), then these. Folders are made
# as their files need them.
INSTALLED = (
    ("boot_out.txt", 136),  # FIRMWARE_TEXT; the copy tool adds boot.py's line (boot_out_text)
    ("lib/freecell_mc/__init__.mpy", 39),
    ("lib/freecell_mc/app.mpy", 5439),
    ("lib/freecell_mc/compat.mpy", 90),
    ("lib/freecell_mc/dates.mpy", 900),
    ("lib/freecell_mc/hardware/__init__.mpy", 48),
    ("lib/freecell_mc/hardware/backlight.mpy", 689),
    ("lib/freecell_mc/hardware/boot.mpy", 1411),
    ("lib/freecell_mc/hardware/carry.mpy", 1316),
    ("lib/freecell_mc/hardware/clock.mpy", 1274),
    ("lib/freecell_mc/hardware/device.mpy", 1255),
    ("lib/freecell_mc/hardware/rtcchip.mpy", 1550),
    ("lib/freecell_mc/hardware/source.mpy", 1592),
    ("lib/freecell_mc/hardware/taps.mpy", 721),
    ("lib/freecell_mc/play.mpy", 4146),
    ("lib/freecell_mc/rules/__init__.mpy", 45),
    ("lib/freecell_mc/rules/cards.mpy", 411),
    ("lib/freecell_mc/rules/deals.mpy", 2055),
    ("lib/freecell_mc/rules/engine.mpy", 4150),
    ("lib/freecell_mc/rules/notation.mpy", 5488),
    ("lib/freecell_mc/saves/__init__.mpy", 45),
    ("lib/freecell_mc/saves/loading.mpy", 1709),
    ("lib/freecell_mc/saves/notices.mpy", 1168),
    ("lib/freecell_mc/saves/policy.mpy", 3154),
    ("lib/freecell_mc/saves/record.mpy", 4774),
    ("lib/freecell_mc/saves/savelog.mpy", 3598),
    ("lib/freecell_mc/saves/settings.mpy", 988),
    ("lib/freecell_mc/saves/stats.mpy", 2372),
    ("lib/freecell_mc/ui/__init__.mpy", 42),
    ("lib/freecell_mc/ui/cardart.mpy", 1412),
    ("lib/freecell_mc/ui/cardfaces.mpy", 2812),
    ("lib/freecell_mc/ui/layout.mpy", 3125),
    ("lib/freecell_mc/ui/narrow.mpy", 1360),
    ("lib/freecell_mc/ui/screens/__init__.mpy", 322),
    ("lib/freecell_mc/ui/screens/calibration.mpy", 2292),
    ("lib/freecell_mc/ui/screens/confirm.mpy", 1456),
    ("lib/freecell_mc/ui/screens/daily.mpy", 5514),
    ("lib/freecell_mc/ui/screens/datepicker.mpy", 2570),
    ("lib/freecell_mc/ui/screens/host.mpy", 1228),
    ("lib/freecell_mc/ui/screens/howto.mpy", 1597),
    ("lib/freecell_mc/ui/screens/keypad.mpy", 2594),
    ("lib/freecell_mc/ui/screens/menu.mpy", 2771),
    ("lib/freecell_mc/ui/screens/models.mpy", 4700),
    ("lib/freecell_mc/ui/screens/notice.mpy", 1103),
    ("lib/freecell_mc/ui/screens/result.mpy", 1971),
    ("lib/freecell_mc/ui/screens/settings.mpy", 3742),
    ("lib/freecell_mc/ui/screens/stats.mpy", 1723),
    ("lib/freecell_mc/ui/table.mpy", 2484),
    ("lib/freecell_mc/ui/tableview.mpy", 7026),
    ("lib/freecell_mc/ui/widgets.mpy", 5077),
    ("lib/adafruit_touchscreen.mpy", 1353),
    ("howto.txt", len(HOWTO)),  # its real words (HOWTO): the game reads them from the drive
    ("boot.py", 447),
    ("code.py", 478),
)


def drive_problem(folder):
    """Return one line saying why the drive folder's image cannot be mounted, or ''.

    CircuitPython formats a CIRCUITPY it cannot mount (filesystem_init), which erases
    whatever the image held; the simulator refuses it instead. A missing image is fine:
    `open_drive` makes a fresh one.
    """
    path = os.path.join(folder, IMAGE)
    if not os.path.lexists(path):
        return ""
    if not os.path.isfile(path):
        why = "it is not a plain file"
    else:
        why = image_problem(path)
    if not why:
        return ""
    return ("the drive %s holds %s, which is not a FAT volume the board can mount: %s; the "
            "board would format it, erasing it (move it away to start on a new drive)"
            % (_short(folder), IMAGE, why))


def _short(path):
    return path if len(path) <= 60 else "..." + path[-57:]


def installed_paths(items=INSTALLED):
    """Yield (path on the volume, size) for what `install` writes, in its order, with the
    short names FatFs gives them; a folder (size None) comes before its first file.

    items: (long path, size) pairs; a size of None is a folder of its own.
    """
    folders = {"": {}}  # folder path on the volume -> {long name: short name}
    for name, size in items:
        parts = name.split("/")
        where = ""
        for i, part in enumerate(parts):
            names = folders[where]
            if part not in names:
                names[part] = short_name(part, names.values())
            path = (where + "/" if where else "") + names[part]
            if i < len(parts) - 1 and path not in folders:
                folders[path] = {}
                yield path, None
            where = path
        if size is None:
            if where not in folders:
                folders[where] = {}
                yield where, None
        else:
            yield where, size


def install_zip(vol, zip_path):
    """Unzip a release (tools/release.py) onto a fresh volume, entry by entry in its order,
    as a file manager does; the firmware's boot_out.txt first."""
    import zipfile

    with vol.open(BOOT_OUT, "wb") as fh:
        fh.write(FIRMWARE_TEXT.encode())
    with zipfile.ZipFile(zip_path) as zf:
        infos = zf.infolist()
        items = [(i.filename.rstrip("/"), None if i.is_dir() else i.file_size) for i in infos]
        data = (zf.read(i) for i in infos if not i.is_dir())
        savefile.write(vol, ((path, None if size is None else next(data))
                             for path, size in installed_paths(items)))


def install(vol, places=savelog.RING, saves=True):
    """Put what a board holds before the game's first save onto a fresh volume.

    places: the save file's record places; saves=False leaves the save file out (a game
    copied by hand, or with circup).
    """
    for i, (path, size) in enumerate(installed_paths()):
        if i == 1 and saves:
            savefile.install(vol, places)  # right after the firmware's boot_out.txt
        if size is None:
            vol.mkdir(path)
        else:
            with vol.open(path, "wb") as fh:
                if path == BOOT_OUT:  # the firmware's, as the copy tool leaves it
                    fh.write(boot_out_text(FIRMWARE_TEXT.encode()))
                elif path == HOWTO_PATH:
                    fh.write(HOWTO)
                else:
                    fh.write(b"#" * size)


def open_drive(folder, populate=True, release=None):
    """Return the Volume of the drive folder's image, made and formatted if it is new.

    A new one holds what a board holds before its first save: the modelled image, or the
    release zip `release` unzipped onto it.
    """
    path = os.path.join(folder, IMAGE)
    new = not os.path.exists(path)
    f = Flash(path)
    if not new:
        vol = Volume(f)
        if populate and release is None:
            _same_howto(vol)
        return vol
    vol = Volume.mkfs(f)
    if release is not None:
        install_zip(vol, release)
    elif populate:
        install(vol)
    f.erases = [0] * len(f.erases)  # count from the installed drive on
    f.programs = 0
    f.busy_us = 0
    return vol


def _same_howto(vol):
    """Give a drive made by an earlier version the game's words of How to play, as copying
    the game again would: the simulator runs the repository's game on it."""
    try:
        with vol.open(HOWTO_PATH, "rb") as fh:
            if fh.read(len(HOWTO) + 1) == HOWTO:
                return
    except OSError:
        pass
    with vol.open(HOWTO_PATH, "wb") as fh:
        fh.write(HOWTO)
    vol.sync()


def fill(vol, leave):
    """Fill the volume with a file (fill.bin) until about `leave` bytes stay free."""
    free = vol.free_clusters() * vol.csize * SECTOR
    size = max(0, free - leave)
    chunk = b"\0" * (64 * SECTOR)
    with vol.open("fill.bin", "wb") as f:
        while size > 0:
            n = min(size, len(chunk))
            f.write(chunk[:n])
            size -= n
