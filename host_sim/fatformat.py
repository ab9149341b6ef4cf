# SPDX-License-Identifier: MIT
"""FatFs's FAT16 as CircuitPython formats CIRCUITPY: geometry, names, entries, mountability.

Written after lib/oofatfs/ff.c (FatFs R0.13c) and extmod/vfs_fat_file.c (CircuitPython main
branch, 2026-08):

- `layout()`: what `f_mkfs` makes of the drive when `filesystem_init`
  (supervisor/shared/filesystem.c) formats it: `FM_FAT`, automatic cluster size, one FAT,
  512 root entries, partition 1 of the fake MBR (supervisor/shared/flash.c,
  `PART1_START_BLOCK` 1), erase block 1 sector (`GET_BLOCK_SIZE` in
  extmod/vfs_fat_diskio.c, so nothing is aligned to 4 KB).
- 8.3 names: the game saves under no others, and the installed image's long names are kept
  as the short names FatFs gives them (`short_name`).
- The directory entry's attributes and time stamp, f_open's mode flags, the FAT16 cluster
  markers, and the errno CircuitPython raises for each FRESULT, as host_sim/fat.py's Volume
  and host_sim/fatfile.py's FatFile use them.
- `mount_problem` and `image_problem`: why FatFs (find_volume) or the model could not mount
  a boot sector or a drive image.
"""

import io
import os
import struct

from host_sim.flash import ERASE, FLASH_BYTES, SECTOR

_FREE = 0
_EOC = 0xFFFF  # FAT16 end of chain
_DIR_ENTRY = 32
_ATTR_DIR = 0x10
_ATTR_ARC = 0x20
_ATTR_VOL = 0x08
_ATTR_RDO = 0x01
_MAX_DIR = 0x200000  # ff.c MAX_DIR: no directory is followed past 2 MB
_UNKNOWN = 0xFFFFFFFF  # FatFs's "not known yet" for the free count and the last cluster

# f_open's mode flags (ff.h)
_FA_READ = 0x01
_FA_WRITE = 0x02
_FA_CREATE_NEW = 0x04
_FA_CREATE_ALWAYS = 0x08
_FA_OPEN_ALWAYS = 0x10

# The errno CircuitPython raises for each FRESULT (extmod/vfs_fat_file.c
# fresult_to_errno_table): FR_NO_FILE/FR_NO_PATH ENOENT, FR_INT_ERR EIO, FR_DENIED EACCES,
# FR_EXIST EEXIST, FR_NO_FILESYSTEM ENODEV; a short f_write is ENOSPC.
_ENOENT = 2
_EIO = 5
_EACCES = 13
_EEXIST = 17
_ENODEV = 19
_ENOSPC = 28


def layout(flash_bytes=FLASH_BYTES):
    """Return the FAT layout f_mkfs gives CIRCUITPY on a flash of flash_bytes (in sectors).

    Follows f_mkfs's FAT12/16 branch with au = 0 (automatic), n_fats = 1, n_rootdir = 512,
    sz_blk = 1. Sector numbers are of the volume, which begins at flash block 0: the fake
    MBR is block 0 of the disk and partition 1 starts at disk block 1 = flash block 0.
    """
    sz_vol = (flash_bytes - ERASE) // SECTOR  # supervisor_flash_get_block_count(): the
    # last 4 KB sector is kept as scratch; the partition is all the rest
    n = sz_vol // 0x1000  # volume size in units of 4K sectors
    pau = 1
    for boundary in (1, 4, 16, 64, 256, 512):
        if boundary <= n:
            pau <<= 1
        else:
            break
    while True:
        n_clst = sz_vol // pau
        fat12 = n_clst <= 0xFF5
        fat_bytes = (n_clst * 3 + 1) // 2 + 3 if fat12 else n_clst * 2 + 4
        sz_fat = (fat_bytes + SECTOR - 1) // SECTOR
        sz_rsv = 1
        sz_dir = (128 if sz_vol <= 256 else 512) * _DIR_ENTRY // SECTOR
        n_clst = (sz_vol - sz_rsv - sz_fat - sz_dir) // pau
        if not fat12 and n_clst <= 0xFF5 and pau < 128:
            pau *= 2  # too few clusters for FAT16: f_mkfs retries with larger clusters
            continue
        break
    return {
        "sectors": sz_vol,
        "fat_type": 12 if fat12 else 16,
        "cluster_sectors": pau,
        "reserved": sz_rsv,
        "fat_start": sz_rsv,
        "fat_sectors": sz_fat,
        "root_start": sz_rsv + sz_fat,
        "root_sectors": sz_dir,
        "data_start": sz_rsv + sz_fat + sz_dir,
        "clusters": n_clst,
    }


def _name83(name):
    """Return (11-byte short name, NT case flags) for an 8.3 name, or raise OSError."""
    if name in (".", ".."):
        return (name.encode() + b" " * 11)[:11], 0
    base, dot, ext = name.partition(".")
    if not base or len(base) > 8 or len(ext) > 3 or "." in ext or (dot and not ext):
        raise OSError(22, "not an 8.3 name: %r" % name)
    for ch in base + ext:
        if not (ch.isalnum() or ch in "_-~!#$%&'()@^`{}") or ord(ch) > 126:
            raise OSError(22, "not an 8.3 name: %r" % name)
    if base != base.lower() and base != base.upper():
        raise OSError(22, "mixed case needs a long name: %r" % name)
    if ext != ext.lower() and ext != ext.upper():
        raise OSError(22, "mixed case needs a long name: %r" % name)
    flags = (0x08 if base != base.upper() else 0) | (0x10 if ext != ext.upper() else 0)
    raw = base.upper().ljust(8) + ext.upper().ljust(3)
    return raw.encode("ascii"), flags


def _fattime():
    """Return a fixed FAT time stamp (2026-11-30 12:00), so runs repeat exactly."""
    return ((2026 - 1980) << 25) | (11 << 21) | (30 << 16) | (12 << 11)


def _bpb(vbr):
    """Return (bytes per sector, reserved, root entries, FAT sectors, total sectors)."""
    ss, rsv = struct.unpack_from("<HxH", vbr, 11)
    n_root, tot16 = struct.unpack_from("<HH", vbr, 17)
    fsz = struct.unpack_from("<H", vbr, 22)[0] or struct.unpack_from("<I", vbr, 36)[0]
    tot = tot16 or struct.unpack_from("<I", vbr, 32)[0]
    return ss, rsv, n_root, fsz, tot


def mount_problem(vbr, sectors=FLASH_BYTES // SECTOR):
    """Return why FatFs (find_volume) or this model cannot mount the boot sector vbr, or ''.

    :param vbr: the volume's first 512 bytes
    :param sectors: the sectors the flash holds under the volume
    """
    vbr = bytes(vbr)
    if vbr[510:512] != b"\x55\xaa":
        if vbr == bytes(SECTOR):
            return "its boot sector is all zeros"
        if vbr == b"\xff" * SECTOR:
            return "its boot sector is erased (all 0xFF)"
        return "its boot sector has no 55 AA signature"
    if vbr[0] not in (0xE9, 0xEB, 0xE8) or (vbr[54:57] != b"FAT" and vbr[82:87] != b"FAT32"):
        return "its boot sector is not a FAT one"
    ss, rsv, n_root, fsz, tot = _bpb(vbr)
    n_fats, csize = vbr[16], vbr[13]
    if ss != SECTOR:
        return "its sectors are %d bytes, not 512" % ss
    if n_fats not in (1, 2) or csize == 0 or csize & (csize - 1) or n_root % 16 or rsv == 0:
        return "its BIOS parameter block is damaged"
    sysect = rsv + fsz * n_fats + n_root // 16
    nclst = (tot - sysect) // csize if tot >= sysect else 0
    if nclst == 0:
        return "its BIOS parameter block is damaged (no room for data)"
    if nclst > 0xFFF5:
        return ("it is a FAT32 volume; the simulator models FAT16, as CircuitPython formats"
                " CIRCUITPY")
    if nclst <= 0xFF5:
        return ("it is a FAT12 volume; the simulator models FAT16, as CircuitPython formats"
                " CIRCUITPY")
    if n_root == 0 or fsz < ((nclst + 2) * 2 + SECTOR - 1) // SECTOR:
        return "its BIOS parameter block is damaged"
    if n_fats != 1:
        return "it has 2 FATs; the simulator models the one CircuitPython formats"
    if tot > sectors:
        return "it claims %d sectors, more than the flash's %d" % (tot, sectors)
    return ""


def image_problem(path):
    """Return why the drive image at path cannot be the simulator's CIRCUITPY, or ''."""
    size = os.path.getsize(path)
    if size == 0:
        return "it is empty"
    if size != FLASH_BYTES:
        return "it holds %d bytes, not the board's 8 MB flash (%d bytes)" % (size, FLASH_BYTES)
    with io.open(path, "rb") as f:
        vbr = f.read(SECTOR)
    return mount_problem(vbr)


def short_name(name, taken=()):
    """Return the 8.3 name FatFs files `name` under in a folder already holding `taken`.

    A name that is 8.3 already is its own. A longer one gets FatFs's numbered short name
    (ff.c create_name and gen_numname): upper case, its first letters, ~1 (~2, ... when taken),
    the extension's first three letters. The long-name entries FatFs writes beside it are not
    modelled: the image's four long names take seven more slots of 32 bytes, and no folder
    needs another cluster for them.
    """
    try:
        _name83(name)
        return name
    except OSError:
        pass
    base, dot, ext = name.rpartition(".")
    if not dot:
        base, ext = name, ""
    base = "".join(c if c.isalnum() or c in "_-~!#$%&'()@^`{}" else "_"
                   for c in base.replace(".", "").replace(" ", "")).upper()
    ext = ext[:3].upper()
    taken = {t.upper() for t in taken}
    n = 1
    while True:
        tail = "~%d" % n
        short = base[:8 - len(tail)] + tail + ("." + ext if ext else "")
        if short not in taken:
            return short
        n += 1
