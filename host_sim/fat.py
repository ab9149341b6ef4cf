# SPDX-License-Identifier: MIT
"""CIRCUITPY's file system as the board has it: FatFs with FF_FS_TINY on the flash chip.

`Volume`: the parts of FatFs a program reaches through open/read/write/seek/close, mkdir and
remove, with `FF_FS_TINY` 1 as CircuitPython builds it (lib/oofatfs/ff.c, FatFs R0.13c;
CircuitPython main branch, 2026-08): one shared 512-byte window for FAT, directory and
partial data sectors; whole sectors go straight to the disk; f_sync/f_close rewrite the
file's directory entry (size, time) and then sync the disk; allocating a cluster writes the
FAT. `Fat`, which a Volume is, holds the mounted volume, its window and its FAT; an open
file is host_sim/fatfile.py's `FatFile`. The chip and CircuitPython's sector cache under it
are host_sim/flash.py's `Flash`; the format (f_mkfs's layout, 8.3 names, what mounts) is
host_sim/fatformat.py's; the drive folder's image, with the files a board holds before the
game's first save, is host_sim/circuitpy.py's.

Power cuts come from host_sim/flash.py (`arm_cut`).
"""

import struct

from host_sim.fatfile import FatFile
from host_sim.fatformat import (
    _ATTR_ARC, _ATTR_DIR, _ATTR_RDO, _ATTR_VOL, _DIR_ENTRY, _EACCES, _EEXIST, _EIO, _ENODEV,
    _ENOENT, _EOC, _FA_CREATE_ALWAYS, _FA_CREATE_NEW, _FA_OPEN_ALWAYS, _FA_READ, _FA_WRITE,
    _FREE, _MAX_DIR, _UNKNOWN, _bpb, _fattime, _name83, layout, mount_problem,
)
from host_sim.flash import SECTOR


class Fat:
    """A mounted FAT16 volume on a Flash: its one-sector window and its FAT.

    ff.c's move_window, sync_window, get_fat, put_fat, create_chain and remove_chain.
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
        self.open_files = []  # files open on this volume, closed at code.py's end (finalise)

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

    def finalise(self):
        """code.py ended: close every file still open, as CircuitPython's finalisers do.

        main.c's cleanup_after_vm flushes the flash cache (filesystem_flush), then stop_mp
        calls gc_deinit, whose gc_sweep_all runs the finaliser of every object on the heap:
        an open file's is FileIO.__del__, mp_stream_close, f_close (extmod/vfs_fat_file.c).
        f_close of a file written through (FA_MODIFIED) rewrites its directory entry and
        syncs: an erase of the 4 KB sector holding the entry. A reset
        (microcontroller.reset(), a power cut) runs no finaliser: see `reset`.
        """
        self.flash.flush()
        while self.open_files:
            self.open_files[-1].close()

    def reset(self):
        """microcontroller.reset(): flush the flash cache, close nothing, forget FatFs's state.

        ports/atmel-samd/reset.c: reset() calls filesystem_flush() (the block layer's cache
        only) and NVIC_SystemReset(); no finaliser runs, so no open file is closed and no
        directory entry is rewritten. FatFs's window dies with the RAM.
        """
        self.flash.flush()
        self.open_files = []
        self.winsect = None
        self.wflag = False
        self.last_clst = _UNKNOWN
        self.free_clst = _UNKNOWN

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


class Volume(Fat):
    """FatFs (FF_FS_TINY) on a Flash: mkfs, mount, files and folders by 8.3 path.

    Where FatFs gives up, so does this, with the errno CircuitPython's extmod/vfs_fat_file.c
    maps the FRESULT to: a cluster link out of range or a broken directory chain is
    FR_INT_ERR (EIO), and a file that met one stays failed; no free cluster for a folder
    or a directory entry is FR_DENIED (EACCES), for file data a short write (ENOSPC).
    """

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
                if (b != 0xE5 and self.win[off + 11] & _ATTR_VOL == 0
                        and self.win[off : off + 11] == raw):
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

    def free_bytes(self):
        """Return the bytes free on the volume (os.statvfs's f_bsize * f_bavail)."""
        return self.free_clusters() * self.csize * SECTOR

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
        self.open_files.append(f)
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
