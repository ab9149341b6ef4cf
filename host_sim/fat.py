# SPDX-License-Identifier: MIT
"""CIRCUITPY as the board has it: an 8 MB QSPI flash, CircuitPython's sector cache, FAT16.

Three layers, each written after the CircuitPython source it stands for (CircuitPython
main branch, 2026-08):

- `Flash`: the W25Q64JV / GD25Q64C chip of the PyPortal, Pynt and Titano with
  `supervisor/shared/external_flash/external_flash.c` on top. The file system writes
  512-byte blocks. A block whose first 4 bytes read erased (`page_erased`) is programmed
  directly, with no erase. Any other block goes into a RAM copy of its 4 KB erase sector;
  that copy is written back (erase the 4 KB sector, program its 16 pages of 256 bytes) when
  a block of another sector is written, the same block is written twice, or on a sync
  (`os.sync()`, FatFs's CTRL_SYNC on every f_sync/f_close).
- `layout()`: what `f_mkfs` (lib/oofatfs/ff.c, FatFs R0.13c) makes of that drive when
  `filesystem_init` (supervisor/shared/filesystem.c) formats it: `FM_FAT`, automatic
  cluster size, one FAT, 512 root entries, partition 1 of the fake MBR
  (supervisor/shared/flash.c, `PART1_START_BLOCK` 1), erase block 1 sector
  (`GET_BLOCK_SIZE` in extmod/vfs_fat_diskio.c, so nothing is aligned to 4 KB).
- `Volume`: the parts of FatFs a program reaches through open/read/write/seek/close, mkdir
  and remove, with `FF_FS_TINY` 1 as CircuitPython builds it: one shared 512-byte window
  for FAT, directory and partial data sectors; whole sectors go straight to the disk;
  f_sync/f_close rewrite the file's directory entry (size, time) and then sync the disk;
  allocating a cluster writes the FAT. 8.3 names only: the game saves under no others, and
  the installed image's long names are kept as their short names (`short_name`).

Power cuts come from host_sim/flash.py (`arm_cut`): each 4 KB erase and each 256-byte
page program is one step. A cut mid-erase leaves the first half of the sector erased and
the rest old; mid-program, half the page. The RAM cache dies with the power.
"""

import io
import os
import struct

from host_sim import flash as _flash

SECTOR = 512  # FILESYSTEM_BLOCK_SIZE
ERASE = 4096  # SPI_FLASH_ERASE_SIZE
PAGE = 256  # SPI_FLASH_PAGE_SIZE
FLASH_BYTES = 8 * 1024 * 1024  # PyPortal, Pynt, Titano: W25Q64JVxQ or GD25Q64C, 64 Mbit

# Time the chip is busy, from the Winbond W25Q64JV datasheet (rev. L, 2021), table 9.6 AC
# electrical characteristics: page program tPP 0.4 ms typical (3 ms max), 4 KB sector erase
# tSE 45 ms typical (400 ms max). The GD25Q64C's are of the same order (0.6 ms, 50 ms).
PAGE_PROGRAM_US = 400
SECTOR_ERASE_US = 45000

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


class Flash:
    """The QSPI flash chip and CircuitPython's one-sector RAM cache in front of it."""

    def __init__(self, path=None, size=FLASH_BYTES):
        """Hold size bytes, erased; or the image at path (created erased if missing)."""
        self.path = path
        self.size = size
        self.data = bytearray(b"\xff" * size)
        if path is not None:
            if os.path.exists(path):
                with io.open(path, "rb") as f:
                    old = f.read(size)
                self.data[0 : len(old)] = old
            else:
                with io.open(path, "wb") as f:
                    f.write(self.data)
        self.erases = [0] * (size // ERASE)  # per 4 KB erase sector
        self.programs = 0  # 256-byte pages programmed
        self.busy_us = 0  # time the chip spent erasing and programming
        self.on_busy = None  # called with microseconds after each erase or program
        self._cache = None  # bytearray(ERASE) while a sector is cached
        self._cache_at = None  # byte address of the cached sector
        self._dirty = 0  # bit i: block i of the cached sector was written

    # ------------------------------------------------------------ the chip itself

    def _persist(self, start, end):
        if self.path is not None:
            with io.open(self.path, "r+b") as f:
                f.seek(start)
                f.write(self.data[start:end])

    def _busy(self, us):
        self.busy_us += us
        if self.on_busy is not None:
            self.on_busy(us)

    def erase_sector(self, addr):
        """Erase the 4 KB sector at addr (one step; a cut leaves its first half erased)."""
        self.erases[addr // ERASE] += 1
        self._busy(SECTOR_ERASE_US)
        if _flash._step():
            self.data[addr : addr + ERASE // 2] = b"\xff" * (ERASE // 2)
            self._persist(addr, addr + ERASE)
            self.lose_power()
            raise _flash.PowerCut("power cut while erasing a 4 KB sector of CIRCUITPY")
        self.data[addr : addr + ERASE] = b"\xff" * ERASE
        self._persist(addr, addr + ERASE)

    def program(self, addr, buf):
        """Program len(buf) bytes at addr page by page (NOR: bits only go from 1 to 0)."""
        for off in range(0, len(buf), PAGE):
            a = addr + off
            page = buf[off : off + PAGE]
            self.programs += 1
            self._busy(PAGE_PROGRAM_US)
            n = len(page)
            if _flash._step():
                n //= 2
                self._and(a, page[:n])
                self._persist(a, a + n)
                self.lose_power()
                raise _flash.PowerCut("power cut while programming CIRCUITPY")
            self._and(a, page)
            self._persist(a, a + n)

    def _and(self, a, page):
        n = len(page)
        old = int.from_bytes(self.data[a : a + n], "big")
        self.data[a : a + n] = (old & int.from_bytes(page, "big")).to_bytes(n, "big")

    def lose_power(self):
        """Forget the RAM cache, as a power cut or a reset does."""
        self._cache = None
        self._cache_at = None
        self._dirty = 0

    # ------------------------------------------------ external_flash.c's block layer

    def read_block(self, block):
        """Return 512 bytes of block (from the RAM cache if it holds a newer copy)."""
        addr = block * SECTOR
        sec = addr - addr % ERASE
        i = (addr % ERASE) // SECTOR
        if self._cache is not None and self._cache_at == sec and self._dirty >> i & 1:
            return bytes(self._cache[i * SECTOR : (i + 1) * SECTOR])
        return bytes(self.data[addr : addr + SECTOR])

    def write_block(self, block, buf):
        """Write one 512-byte block as external_flash_write_block does."""
        addr = block * SECTOR
        sec = addr - addr % ERASE
        i = (addr % ERASE) // SECTOR
        if self._cache_at != sec or self._dirty >> i & 1:
            if self.data[addr : addr + 4] == b"\xff\xff\xff\xff":
                self.program(addr, bytes(buf))  # page_erased(): straight onto the chip
                return
            self.flush()
            self._cache = bytearray(ERASE)
            self._cache_at = sec
            self._dirty = 0
        self._dirty |= 1 << i
        self._cache[i * SECTOR : (i + 1) * SECTOR] = buf

    def flush(self):
        """Write the cached sector back: fill in untouched blocks, erase, program all 16 pages."""
        if self._cache is None or self._cache_at is None:
            self._cache_at = None
            return
        sec, cache = self._cache_at, self._cache
        for i in range(ERASE // SECTOR):
            if not self._dirty >> i & 1:
                cache[i * SECTOR : (i + 1) * SECTOR] = self.data[sec + i * SECTOR : sec + (i + 1) * SECTOR]
        self._cache_at = None
        self._cache = None
        self._dirty = 0
        self.erase_sector(sec)
        self.program(sec, bytes(cache))

    def worst(self, first=0, last=None):
        """Return (erases, sector index) of the most erased 4 KB sector in [first, last)."""
        last = len(self.erases) if last is None else last
        best = (0, first)
        for s in range(first, last):
            if self.erases[s] > best[0]:
                best = (self.erases[s], s)
        return best


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


class Hang(BaseException):
    """The board's FatFs would loop forever here (a BaseException: nothing catches it)."""


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
        return "it is a FAT32 volume; the simulator models FAT16, as CircuitPython formats CIRCUITPY"
    if nclst <= 0xFF5:
        return "it is a FAT12 volume; the simulator models FAT16, as CircuitPython formats CIRCUITPY"
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


class Volume:
    """FatFs (FF_FS_TINY) on a Flash: mkfs, mount, files and folders by 8.3 path.

    Where FatFs gives up, so does this, with the errno CircuitPython's extmod/vfs_fat_file.c
    maps the FRESULT to: a cluster link out of range or a broken directory chain is
    FR_INT_ERR (EIO), and a file that met one stays failed; no free cluster for a folder
    or a directory entry is FR_DENIED (EACCES), for file data a short write (ENOSPC).
    """

    def __init__(self, flash):
        """Mount the FAT volume on flash (OSError ENODEV, saying why, when it holds none)."""
        self.flash = flash
        vbr = flash.read_block(0)
        why = mount_problem(vbr)
        if why:
            raise OSError(_ENODEV, "no FAT volume: " + why)
        self.csize = vbr[13]
        _, rsv, n_root, fsz, tot = _bpb(vbr)
        self.fatbase = rsv
        self.dirbase = rsv + fsz
        self.root_sectors = n_root * _DIR_ENTRY // SECTOR
        self.database = self.dirbase + self.root_sectors
        self.n_fatent = (tot - self.database) // self.csize + 2
        self.win = bytearray(SECTOR)
        self.winsect = None
        self.wflag = False
        # find_volume: nothing known about free clusters on FAT16 (no FSInfo) until
        # f_getfree counts them; create_chain then keeps the count.
        self.last_clst = _UNKNOWN
        self.free_clst = _UNKNOWN
        self.open_files = []

    # --------------------------------------------------------------- formatting

    @staticmethod
    def mkfs(flash, label="CIRCUITPY"):
        """Format flash as filesystem_init does and return the mounted Volume."""
        lay = layout(flash.size)
        vbr = bytearray(SECTOR)
        vbr[0:11] = b"\xeb\xfe\x90MSDOS5.0"
        struct.pack_into("<HBHBHH", vbr, 11, SECTOR, lay["cluster_sectors"], lay["reserved"], 1,
                         512, lay["sectors"] if lay["sectors"] < 0x10000 else 0)
        vbr[21] = 0xF8
        struct.pack_into("<HHHI", vbr, 22, lay["fat_sectors"], 63, 255, 0)
        vbr[36] = 0x80
        vbr[38] = 0x29
        vbr[43:62] = b"NO NAME    FAT     "
        vbr[510:512] = b"\x55\xaa"
        flash.write_block(0, vbr)
        fat0 = bytearray(SECTOR)
        fat0[0:4] = b"\xf8\xff\xff\xff"
        flash.write_block(lay["fat_start"], fat0)
        zero = bytes(SECTOR)
        for s in range(lay["fat_start"] + 1, lay["data_start"]):
            flash.write_block(s, zero)
        flash.flush()
        vol = Volume(flash)
        vol._add_entry(0, label.upper().ljust(11)[:11].encode(), 0, _ATTR_VOL, 0, 0)
        vol._sync_fs()
        return vol

    # ------------------------------------------------------------- the window

    def _sync_window(self):
        if self.wflag:
            self.flash.write_block(self.winsect, self.win)
            self.wflag = False

    def _move_window(self, sect):
        if sect != self.winsect:
            self._sync_window()
            self.win[:] = self.flash.read_block(sect)
            self.winsect = sect

    def _sync_fs(self):
        self._sync_window()
        self.flash.flush()  # disk_ioctl(CTRL_SYNC): supervisor_flash_flush()

    def sync(self):
        """os.sync(): CTRL_SYNC on the drive (flushes the flash cache, not FatFs's window)."""
        self.flash.flush()

    # ---------------------------------------------------------------- the FAT
    # get_fat, put_fat, create_chain and remove_chain as ff.c has them: a value is a cluster
    # (2 .. n_fatent-1), free (0), or anything from n_fatent up, which ends a chain (the end
    # mark, the bad-cluster mark 0xFFF7 and every value past the volume alike).

    def _clst2sect(self, c):
        """Return the first sector of cluster c, or 0 when c is no cluster (clst2sect)."""
        if not 2 <= c < self.n_fatent:
            return 0
        return self.database + (c - 2) * self.csize

    def _get_fat(self, c):
        """Return cluster c's FAT entry, or 1 (FatFs's internal error) when c is no cluster."""
        if not 2 <= c < self.n_fatent:
            return 1
        self._move_window(self.fatbase + c * 2 // SECTOR)
        return struct.unpack_from("<H", self.win, c * 2 % SECTOR)[0]

    def _put_fat(self, c, v):
        if not 2 <= c < self.n_fatent:
            raise OSError(_EIO, "FAT entry %d is outside the volume (FR_INT_ERR)" % c)
        self._move_window(self.fatbase + c * 2 // SECTOR)
        struct.pack_into("<H", self.win, c * 2 % SECTOR, v & 0xFFFF)
        self.wflag = True

    def _create_chain(self, clst):
        """Return the cluster after clst, stretching the chain if it ends there (0: create one).

        0: no free cluster; 1: the chain is broken (clst's entry is free or 1: FR_INT_ERR).
        The search starts after the last cluster allocated (FatFs's last_clst) and stops
        at once when the free count, once known, is 0.
        """
        n_fatent = self.n_fatent
        if clst == 0:
            scl = self.last_clst
            if scl == 0 or scl >= n_fatent:
                scl = 1
        else:
            cs = self._get_fat(clst)
            if cs < 2:
                return 1
            if cs < n_fatent:
                return cs
            scl = clst
        if self.free_clst == 0:
            return 0
        ncl = 0
        if scl == clst:
            ncl = scl + 1
            if ncl >= n_fatent:
                ncl = 2
            cs = self._get_fat(ncl)
            if cs == 1:
                return 1
            if cs != _FREE:
                cs = self.last_clst
                if 2 <= cs < n_fatent:
                    scl = cs
                ncl = 0
        if ncl == 0:
            ncl = scl
            while True:
                ncl += 1
                if ncl >= n_fatent:
                    ncl = 2
                    if ncl > scl:
                        return 0
                cs = self._get_fat(ncl)
                if cs == _FREE:
                    break
                if cs == 1:
                    return 1
                if ncl == scl:
                    return 0
        self._put_fat(ncl, _EOC)
        if clst:
            self._put_fat(clst, ncl)
        self.last_clst = ncl
        if self.free_clst <= n_fatent - 2:
            self.free_clst -= 1
        return ncl

    def _remove_chain(self, c):
        """Free the chain from cluster c (remove_chain: stops at a free entry, as FatFs does)."""
        if not 2 <= c < self.n_fatent:
            raise OSError(_EIO, "cluster %d is outside the volume (FR_INT_ERR)" % c)
        while True:
            nxt = self._get_fat(c)
            if nxt == _FREE:
                break
            if nxt == 1:
                raise OSError(_EIO, "the chain of cluster %d is broken (FR_INT_ERR)" % c)
            self._put_fat(c, _FREE)
            if self.free_clst < self.n_fatent - 2:
                self.free_clst += 1
            c = nxt
            if c >= self.n_fatent:
                break

    def free_clusters(self):
        """Return the number of free clusters as f_getfree does.

        FatFs counts the zero entries among the first n_fatent of the FAT, the two reserved
        ones included, and keeps the count (the FSInfo hint) for create_chain.
        """
        if self.free_clst > self.n_fatent - 2:
            n = 0
            left = self.n_fatent
            sect = self.fatbase
            while left:
                self._move_window(sect)
                k = min(left, SECTOR // 2)
                n += sum(1 for i in range(k) if self.win[2 * i] == 0 and self.win[2 * i + 1] == 0)
                left -= k
                sect += 1
            self.free_clst = n
        return self.free_clst

    # ----------------------------------------------------------- directories

    def _dir_sectors(self, dclust, stretch=False):
        """Yield the sectors of a directory (0: the fixed root area) as dir_sdi and dir_next
        walk it: a link out of range is FR_INT_ERR (EIO), a link past the volume ends it,
        and no directory runs past MAX_DIR. With stretch, a cluster is added at the end
        (FR_DENIED, EACCES, when there is none) and yielded cleared."""
        if dclust == 0:
            for s in range(self.dirbase, self.dirbase + self.root_sectors):
                yield s
            return
        c = dclust
        base = self._clst2sect(c)
        if base == 0:
            raise OSError(_EIO, "a folder starts at cluster %d, outside the volume (FR_INT_ERR)"
                          % c)
        for _ in range(_MAX_DIR // (self.csize * SECTOR)):
            for s in range(base, base + self.csize):
                yield s
            nxt = self._get_fat(c)
            if nxt <= 1:
                raise OSError(_EIO, "a folder's chain is broken at cluster %d (FR_INT_ERR)" % c)
            if nxt >= self.n_fatent:
                if not stretch:
                    return
                nxt = self._create_chain(c)
                if nxt == 0:
                    raise OSError(_EACCES, "no free cluster to grow a folder (FR_DENIED)")
                if nxt == 1:
                    raise OSError(_EIO, "a folder's chain is broken at cluster %d (FR_INT_ERR)"
                                  % c)
                self._dir_clear(nxt)
            c = nxt
            base = self._clst2sect(c)

    def _find(self, dclust, raw):
        """Return (sector, offset) of the entry named raw in dclust, or None (dir_find)."""
        for s in self._dir_sectors(dclust):
            self._move_window(s)
            for off in range(0, SECTOR, _DIR_ENTRY):
                b = self.win[off]
                if b == 0:
                    return None
                if b != 0xE5 and self.win[off + 11] & _ATTR_VOL == 0 and self.win[off : off + 11] == raw:
                    return s, off
        return None

    def _entry(self, loc):
        s, off = loc
        self._move_window(s)
        e = self.win[off : off + _DIR_ENTRY]
        clst = struct.unpack_from("<H", e, 26)[0]
        size = struct.unpack_from("<I", e, 28)[0]
        return e[11], clst, size

    def _dir_clear(self, c):
        """Zero a new directory cluster (written straight to the disk, as dir_clear does)."""
        self._sync_window()
        base = self._clst2sect(c)
        zero = bytes(SECTOR)
        for s in range(base, base + self.csize):
            self.flash.write_block(s, zero)
        self.winsect = None

    def _add_entry(self, dclust, raw, ntres, attr, clst, size):
        """Write a new entry into the first free slot of dclust, stretching it if needed
        (dir_register); no slot left is FR_DENIED (EACCES)."""
        loc = None
        for s in self._dir_sectors(dclust, stretch=True):
            self._move_window(s)
            for off in range(0, SECTOR, _DIR_ENTRY):
                if self.win[off] in (0, 0xE5):
                    loc = (s, off)
                    break
            if loc:
                break
        if loc is None:
            raise OSError(_EACCES, "no free directory entry (FR_DENIED)")
        s, off = loc
        self._move_window(s)
        e = bytearray(_DIR_ENTRY)
        e[0:11] = raw
        e[11] = attr
        e[12] = ntres
        t = _fattime()
        struct.pack_into("<I", e, 14, t)  # created
        struct.pack_into("<I", e, 22, t)  # modified
        struct.pack_into("<H", e, 26, clst)
        struct.pack_into("<I", e, 28, size)
        self.win[off : off + _DIR_ENTRY] = e
        self.wflag = True
        return loc

    def _resolve(self, path):
        """Return (folder cluster, raw name, ntres, entry location or None) for path.

        A folder on the way that is missing or is a file is FR_NO_PATH (ENOENT), as
        follow_path has it.
        """
        parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
        if not parts:
            raise OSError(21, "Is a directory")
        dclust = 0
        for p in parts[:-1]:
            raw, _ = _name83(p)
            loc = self._find(dclust, raw)
            if loc is None:
                raise OSError(_ENOENT, "No such file/directory")
            attr, clst, _ = self._entry(loc)
            if not attr & _ATTR_DIR:
                raise OSError(_ENOENT, "No such file/directory")
            dclust = clst
        raw, ntres = _name83(parts[-1])
        return dclust, raw, ntres, self._find(dclust, raw)

    # ----------------------------------------------------------- what os offers

    def mkdir(self, path):
        """Create a folder (f_mkdir: a zeroed cluster with . and .., then the entry)."""
        dclust, raw, ntres, loc = self._resolve(path)
        if loc is not None:
            raise OSError(_EEXIST, "File exists")
        c = self._create_chain(0)
        if c == 0:
            raise OSError(_EACCES, "no free cluster for a folder (FR_DENIED)")
        if c == 1:
            raise OSError(_EIO, "the FAT is broken (FR_INT_ERR)")
        self._dir_clear(c)
        self._move_window(self._clst2sect(c))
        t = _fattime()
        for i, (name, target) in enumerate(((b".          ", c), (b"..         ", dclust))):
            e = bytearray(_DIR_ENTRY)
            e[0:11] = name
            e[11] = _ATTR_DIR
            struct.pack_into("<I", e, 22, t)
            struct.pack_into("<H", e, 26, target)
            self.win[i * _DIR_ENTRY : (i + 1) * _DIR_ENTRY] = e
        self.wflag = True
        try:
            self._add_entry(dclust, raw, ntres, _ATTR_DIR, c, 0)
        except OSError:
            self._remove_chain(c)  # f_mkdir gives the cluster back when the entry fails
            raise
        self._sync_fs()

    def stat_size(self, path):
        """Return the size of the file at path (OSError 2 when it is missing)."""
        _, _, _, loc = self._resolve(path)
        if loc is None:
            raise OSError(_ENOENT, "No such file/directory")
        attr, _, size = self._entry(loc)
        return 0 if attr & _ATTR_DIR else size

    def is_dir(self, path):
        """Return True if path names a folder."""
        try:
            _, _, _, loc = self._resolve(path)
        except OSError:
            return False
        return loc is not None and bool(self._entry(loc)[0] & _ATTR_DIR)

    def exists(self, path):
        """Return True if path names a file or folder."""
        try:
            return self._resolve(path)[3] is not None
        except OSError:
            return False

    def remove(self, path):
        """Delete a file (f_unlink): mark the entry deleted, free its clusters, sync."""
        _, _, _, loc = self._resolve(path)
        if loc is None:
            raise OSError(_ENOENT, "No such file/directory")
        attr, clst, _ = self._entry(loc)
        if attr & _ATTR_DIR:
            raise OSError(21, "Is a directory")
        if attr & _ATTR_RDO:
            raise OSError(_EACCES, "read-only file (FR_DENIED)")
        s, off = loc
        self._move_window(s)
        self.win[off] = 0xE5
        self.wflag = True
        if clst:
            self._remove_chain(clst)
        self._sync_fs()

    def open(self, path, mode="r"):
        """Open a file as CircuitPython's open() does through f_open; text modes read str."""
        flags = _open_flags(mode)
        dclust, raw, ntres, loc = self._resolve(path)
        if flags & (_FA_CREATE_ALWAYS | _FA_OPEN_ALWAYS | _FA_CREATE_NEW):
            if loc is None:
                loc = self._add_entry(dclust, raw, ntres, _ATTR_ARC, 0, 0)
                self._sync_fs()
            else:
                attr = self._entry(loc)[0]
                if attr & (_ATTR_RDO | _ATTR_DIR):
                    raise OSError(_EACCES, "cannot write over a folder or read-only file "
                                  "(FR_DENIED)")
                if flags & _FA_CREATE_NEW:
                    raise OSError(_EEXIST, "File exists")
                if flags & _FA_CREATE_ALWAYS:
                    self._truncate_entry(loc)
        else:
            if loc is None:
                raise OSError(_ENOENT, "No such file/directory")
            attr = self._entry(loc)[0]
            if attr & _ATTR_DIR:
                raise OSError(_ENOENT, "No such file/directory")  # FR_NO_FILE
            if flags & _FA_WRITE and attr & _ATTR_RDO:
                raise OSError(_EACCES, "read-only file (FR_DENIED)")
        f = FatFile(self, loc, flags, "b" not in mode)
        if flags == _FA_READ:
            f._link_map()  # CircuitPython turns on fast seek for files opened only to read
        if flags & _FA_OPEN_ALWAYS:
            f.seek(0, 2)
        return f

    def _truncate_entry(self, loc):
        """FA_CREATE_ALWAYS on an existing file: empty its entry, free its chain, sync."""
        attr, clst, size = self._entry(loc)
        if not (clst or size):
            return
        s, off = loc
        self._move_window(s)
        struct.pack_into("<H", self.win, off + 26, 0)
        struct.pack_into("<I", self.win, off + 28, 0)
        self.wflag = True
        if clst:
            self._remove_chain(clst)
            self._move_window(s)
            self.last_clst = clst - 1  # f_open: the next file reuses the hole
        self._sync_fs()


_MODE_FLAGS = {  # extmod/vfs_fat_file.c: one of r w x a, at most one +, one of b t
    "r": _FA_READ,
    "w": _FA_WRITE | _FA_CREATE_ALWAYS,
    "x": _FA_WRITE | _FA_CREATE_NEW,
    "a": _FA_WRITE | _FA_OPEN_ALWAYS,
}


def _open_flags(mode):
    """Return f_open's flags for a mode string as extmod/vfs_fat_file.c reads it."""
    kinds = [c for c in mode if c in _MODE_FLAGS]
    plus, bt = mode.count("+"), mode.count("b") + mode.count("t")
    if len(kinds) != 1 or plus > 1 or bt > 1 or len(kinds) + plus + bt != len(mode):
        raise ValueError("Invalid mode")
    return _MODE_FLAGS[kinds[0]] | (_FA_READ | _FA_WRITE if plus else 0)


class FatFile:
    """An open file (FIL) on a Volume: read, readinto, write, seek, tell, flush, close.

    f_read, f_write and f_lseek as ff.c has them (FF_FS_TINY): the chain is followed one
    cluster at a time (or from the fast-seek link map of a file opened only to read), and
    an error met on the way (FR_INT_ERR) stays with the file: every later read or write
    fails with it, as FatFs's fp->err makes them.
    """

    def __init__(self, vol, loc, flags, text):
        self.vol = vol
        self.loc = loc
        attr, self.sclust, self.objsize = vol._entry(loc)
        self.flags = flags
        self.writable = bool(flags & _FA_WRITE)
        self.text = text
        self.fptr = 0
        self.clust = 0
        self.err = 0  # errno of the error that stopped the file, as fp->err
        self.modified = bool(flags & _FA_CREATE_ALWAYS)
        self.closed = False
        self.cltbl = None  # fast seek: [(run length, first cluster), ...] of the chain

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _abort(self, errno, why):
        self.err = errno
        raise OSError(errno, why)

    def _link_map(self):
        """Build the fast-seek table (f_lseek CREATE_LINKMAP); a broken link stops the file.

        FatFs follows the chain until a value past the volume: a chain that loops back
        never gets there and the board hangs in open(); that is raised as `Hang`.
        """
        vol = self.vol
        tbl = []
        cl = self.sclust
        steps = 0
        if cl != 0:
            while True:
                top, n = cl, 0
                while True:
                    pcl = cl
                    n += 1
                    cl = vol._get_fat(cl)
                    steps += 1
                    if cl <= 1:
                        self.err = _EIO  # ABORT(FR_INT_ERR): the file fails from now on
                        return
                    if cl != pcl + 1:
                        break
                tbl.append((n, top))
                if cl >= vol.n_fatent:
                    break
                if steps > vol.n_fatent:
                    raise Hang("the chain of a file opened to read loops: the board's "
                               "FatFs follows it forever (f_lseek CREATE_LINKMAP)")
        self.cltbl = tbl

    def _clmt_clust(self, ofs):
        """Return the cluster holding byte ofs from the link map, 0 past the chain."""
        cl = ofs // SECTOR // self.vol.csize
        for n, top in self.cltbl:
            if cl < n:
                return top + cl
            cl -= n
        return 0

    def _bcs(self):
        return self.vol.csize * SECTOR

    def _cluster_of(self, pos):
        """Return the cluster holding byte pos (0 past the chain), for looking at a file."""
        if self.cltbl is not None:
            return self._clmt_clust(pos)
        c = self.sclust
        for _ in range(pos // self._bcs()):
            c = self.vol._get_fat(c)
            if not 2 <= c < self.vol.n_fatent:
                return 0
        return c

    def seek(self, pos, whence=0):
        """Move the file pointer as f_lseek does; like CircuitPython, ignore its errors."""
        if whence == 1:
            pos += self.fptr
        elif whence == 2:
            pos += self.objsize
        try:
            self._lseek(pos & 0xFFFFFFFF)
        except OSError:
            pass  # file_obj_ioctl drops f_lseek's result; fp->err fails the next read/write
        return self.fptr

    def _lseek(self, ofs):
        vol = self.vol
        if self.err:
            return
        if self.cltbl is not None:
            ofs = min(ofs, self.objsize)
            self.fptr = ofs
            if ofs > 0:
                self.clust = self._clmt_clust(ofs - 1)
                if vol._clst2sect(self.clust) == 0:
                    self._abort(_EIO, "seek past the file's chain (FR_INT_ERR)")
            return
        if ofs > self.objsize and not self.writable:
            ofs = self.objsize
        ifptr = self.fptr
        self.fptr = 0
        if ofs > 0:
            bcs = self._bcs()
            if ifptr > 0 and (ofs - 1) // bcs >= (ifptr - 1) // bcs:
                self.fptr = (ifptr - 1) & ~(bcs - 1)  # go on from the current cluster
                ofs -= self.fptr
                clst = self.clust
            else:
                clst = self.sclust
                if clst == 0:
                    clst = vol._create_chain(0)
                    if clst == 1:
                        self._abort(_EIO, "the FAT is broken (FR_INT_ERR)")
                    self.sclust = clst
                self.clust = clst
            if clst != 0:
                while ofs > bcs:
                    ofs -= bcs
                    self.fptr += bcs
                    if self.writable:
                        clst = vol._create_chain(clst)
                        if clst == 0:  # disk full: the file ends here
                            ofs = 0
                            break
                    else:
                        clst = vol._get_fat(clst)
                    if clst <= 1 or clst >= vol.n_fatent:
                        self._abort(_EIO, "the file's chain is broken (FR_INT_ERR)")
                    self.clust = clst
                self.fptr += ofs
                if ofs % SECTOR and vol._clst2sect(clst) == 0:
                    self._abort(_EIO, "the file's chain is broken (FR_INT_ERR)")
        if self.fptr > self.objsize:
            self.objsize = self.fptr
            self.modified = True

    def tell(self):
        """Return the file pointer."""
        return self.fptr

    def _step_cluster(self, reading):
        """At a cluster boundary, move self.clust on (f_read / f_write); return False when
        the disk is full (writing only)."""
        vol = self.vol
        if self.fptr == 0:
            clst = self.sclust
            if clst == 0 and not reading:
                clst = vol._create_chain(0)
        elif self.cltbl is not None:
            clst = self._clmt_clust(self.fptr)
        elif reading:
            clst = vol._get_fat(self.clust)
        else:
            clst = vol._create_chain(self.clust)
        if clst == 0 and not reading:
            return False
        if clst < 2:
            self._abort(_EIO, "the file's chain is broken (FR_INT_ERR)")
        self.clust = clst
        if self.sclust == 0:
            self.sclust = clst
        return True

    def _sector(self):
        sect = self.vol._clst2sect(self.clust)
        if sect == 0:
            self._abort(_EIO, "the file's chain leaves the volume (FR_INT_ERR)")
        return sect + (self.fptr // SECTOR) % self.vol.csize

    def read(self, n=-1):
        """Read up to n bytes (all that is left when n < 0)."""
        if self.err:
            raise OSError(self.err, "the file met an error before (fp->err)")
        if not self.flags & _FA_READ:
            raise OSError(_EACCES, "not open for reading (FR_DENIED)")
        vol = self.vol
        left = self.objsize - self.fptr
        n = left if n is None or n < 0 or n > left else n
        out = bytearray()
        while n > 0:
            if self.fptr % SECTOR == 0 and (self.fptr // SECTOR) % vol.csize == 0:
                self._step_cluster(True)
            sect = self._sector()
            if sect == vol.winsect:
                data = bytes(vol.win)
            else:
                data = vol.flash.read_block(sect)
            off = self.fptr % SECTOR
            k = min(n, SECTOR - off)
            out += data[off : off + k]
            self.fptr += k
            n -= k
        return out.decode() if self.text else bytes(out)

    def readinto(self, buf):
        """Read into buf; return the count."""
        data = self.read(len(buf))
        buf[0 : len(data)] = data
        return len(data)

    def write(self, data):
        """Write data as f_write does (FF_FS_TINY); a full disk raises ENOSPC (28)."""
        if self.err:
            raise OSError(self.err, "the file met an error before (fp->err)")
        if not self.writable:
            raise OSError(_EACCES, "not open for writing (FR_DENIED)")
        if isinstance(data, str):
            data = data.encode()
        vol = self.vol
        data = bytes(data)
        btw = len(data)
        at = 0
        while btw:
            if self.fptr % SECTOR == 0:
                csect = (self.fptr // SECTOR) & (vol.csize - 1)
                if csect == 0 and not self._step_cluster(False):
                    break  # disk full
                sect = self._sector()
                cc = btw // SECTOR
                if cc > 0:
                    cc = min(cc, vol.csize - csect)
                    for i in range(cc):
                        vol.flash.write_block(sect + i, data[at + i * SECTOR : at + (i + 1) * SECTOR])
                    if vol.winsect is not None and 0 <= vol.winsect - sect < cc:
                        j = vol.winsect - sect
                        vol.win[:] = data[at + j * SECTOR : at + (j + 1) * SECTOR]
                        vol.wflag = False
                    w = SECTOR * cc
                    self._advance(w)
                    at += w
                    btw -= w
                    continue
                if self.fptr >= self.objsize:
                    vol._sync_window()
                    vol.winsect = sect  # a new sector: no need to read it
                    vol.win[:] = bytes(SECTOR)
            else:
                sect = self._sector()
            w = min(SECTOR - self.fptr % SECTOR, btw)
            vol._move_window(sect)
            off = self.fptr % SECTOR
            vol.win[off : off + w] = data[at : at + w]
            vol.wflag = True
            self._advance(w)
            at += w
            btw -= w
        self.modified = True
        if btw:
            raise OSError(_ENOSPC, "No space left on device")
        return at

    def _advance(self, w):
        self.fptr += w
        if self.fptr > self.objsize:
            self.objsize = self.fptr

    def flush(self):
        """f_sync: write the window, rewrite the directory entry, sync the disk."""
        if self.modified:
            vol = self.vol
            s, off = self.loc
            vol._move_window(s)
            vol.win[off + 11] |= _ATTR_ARC
            struct.pack_into("<H", vol.win, off + 26, self.sclust)
            struct.pack_into("<I", vol.win, off + 28, self.objsize)
            struct.pack_into("<I", vol.win, off + 22, _fattime())
            struct.pack_into("<H", vol.win, off + 18, 0)
            vol.wflag = True
            vol._sync_fs()
            self.modified = False

    def close(self):
        """f_close: f_sync, then the file is closed."""
        if not self.closed:
            self.flush()
            self.closed = True


IMAGE = "circuitpy.img"  # the simulator's CIRCUITPY inside its drive folder

# What a PyPortal's CIRCUITPY holds before the game first saves: boot_out.txt (the firmware's),
# then the board image of `./dev bundle` in the order tools/copy_to_board.py writes it, with
# the sizes of build/CIRCUITPY on 2026-12-01 (CircuitPython 10 mpy-cross). Folders are made
# as their files need them.
INSTALLED = (
    ("boot_out.txt", 160),
    ("lib/freecell_mc/__init__.mpy", 39),
    ("lib/freecell_mc/app.mpy", 3276),
    ("lib/freecell_mc/compat.mpy", 90),
    ("lib/freecell_mc/dates.mpy", 803),
    ("lib/freecell_mc/hardware/__init__.mpy", 48),
    ("lib/freecell_mc/hardware/boot.mpy", 1415),
    ("lib/freecell_mc/hardware/clock.mpy", 2307),
    ("lib/freecell_mc/hardware/device.mpy", 990),
    ("lib/freecell_mc/hardware/taps.mpy", 686),
    ("lib/freecell_mc/play.mpy", 3586),
    ("lib/freecell_mc/rules/__init__.mpy", 45),
    ("lib/freecell_mc/rules/cards.mpy", 520),
    ("lib/freecell_mc/rules/deals.mpy", 1828),
    ("lib/freecell_mc/rules/engine.mpy", 3969),
    ("lib/freecell_mc/rules/notation.mpy", 5482),
    ("lib/freecell_mc/saves/__init__.mpy", 45),
    ("lib/freecell_mc/saves/policy.mpy", 2490),
    ("lib/freecell_mc/saves/record.mpy", 4255),
    ("lib/freecell_mc/saves/savelog.mpy", 3465),
    ("lib/freecell_mc/saves/stats.mpy", 2153),
    ("lib/freecell_mc/ui/__init__.mpy", 42),
    ("lib/freecell_mc/ui/cardart.mpy", 3076),
    ("lib/freecell_mc/ui/layout.mpy", 2308),
    ("lib/freecell_mc/ui/screens/__init__.mpy", 314),
    ("lib/freecell_mc/ui/screens/calibration.mpy", 2129),
    ("lib/freecell_mc/ui/screens/confirm.mpy", 973),
    ("lib/freecell_mc/ui/screens/daily.mpy", 2585),
    ("lib/freecell_mc/ui/screens/datepicker.mpy", 2012),
    ("lib/freecell_mc/ui/screens/keypad.mpy", 2039),
    ("lib/freecell_mc/ui/screens/menu.mpy", 1838),
    ("lib/freecell_mc/ui/screens/models.mpy", 4745),
    ("lib/freecell_mc/ui/screens/notice.mpy", 673),
    ("lib/freecell_mc/ui/screens/result.mpy", 2012),
    ("lib/freecell_mc/ui/screens/settings.mpy", 1785),
    ("lib/freecell_mc/ui/screens/stats.mpy", 1242),
    ("lib/freecell_mc/ui/table.mpy", 2066),
    ("lib/freecell_mc/ui/tableview.mpy", 4963),
    ("lib/freecell_mc/ui/widgets.mpy", 4817),
    ("lib/adafruit_touchscreen.mpy", 1353),
    ("boot.py", 286),
    ("code.py", 317),
)


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


def installed_paths():
    """Yield (path on the volume, size) for what `install` writes, in its order, with the
    short names FatFs gives them; a folder (size None) comes before its first file."""
    folders = {"": {}}  # folder path on the volume -> {long name: short name}
    for name, size in INSTALLED:
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
        yield where, size


def install(vol):
    """Put what a board holds before the game's first save onto a fresh volume."""
    for path, size in installed_paths():
        if size is None:
            vol.mkdir(path)
        else:
            with vol.open(path, "wb") as fh:
                fh.write(b"#" * size)


def open_drive(folder, populate=True):
    """Return the Volume of the drive folder's image, made and formatted if it is new."""
    path = os.path.join(folder, IMAGE)
    new = not os.path.exists(path)
    f = Flash(path)
    if not new:
        return Volume(f)
    vol = Volume.mkfs(f)
    if populate:
        install(vol)
    f.erases = [0] * len(f.erases)  # count from the installed drive on
    f.programs = 0
    f.busy_us = 0
    return vol


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
