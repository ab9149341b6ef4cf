# SPDX-License-Identifier: MIT
"""An open file on the FAT volume (host_sim/fat.py): FatFs's FIL, read, write and seek.

f_read, f_write, f_lseek and f_sync as lib/oofatfs/ff.c has them with FF_FS_TINY (FatFs
R0.13c, CircuitPython main branch, 2026-08), over the Volume's window and FAT.
"""

import struct

from host_sim.fatformat import (
    _ATTR_ARC, _EACCES, _EIO, _ENOSPC, _FA_CREATE_ALWAYS, _FA_READ, _FA_WRITE, _fattime,
)
from host_sim.flash import SECTOR


class Hang(SystemExit):
    """The board's FatFs would loop forever here.

    A SystemExit, as every way the simulator stops a run: the game catches none of them
    (app.main lets SystemExit through, the one a harness raises), not even where it plays
    the board's faults.
    """


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
        out = self._read(n)
        return out.decode() if self.text else out

    def readline(self):
        """Read up to and including the next newline, as MicroPython's streams do (a byte
        at a time from the file)."""
        out = bytearray()
        while not out.endswith(b"\n"):
            b = self._read(1)
            if not b:
                break
            out += b
        return out.decode() if self.text else bytes(out)

    def __iter__(self):
        return self

    def __next__(self):
        """A file is iterable by lines on the board too."""
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def _read(self, n):
        """Read up to n bytes (all that is left when n < 0) as bytes."""
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
        return bytes(out)

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
                        vol.flash.write_block(sect + i,
                                              data[at + i * SECTOR : at + (i + 1) * SECTOR])
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
        """f_close: f_sync, then the file is closed (a cut during f_sync leaves it open)."""
        if not self.closed:
            self.flush()
            self.closed = True
            if self in self.vol.open_files:
                self.vol.open_files.remove(self)
