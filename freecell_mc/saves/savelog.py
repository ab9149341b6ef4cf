# SPDX-License-Identifier: MIT
"""The places records go on flash: nvm, and the ring of sectors of one save file on CIRCUITPY.

Places ("blocks") look like microcontroller.nvm: `len(b)`, `b[a:z]` reads, `b[a:z] = data`
writes; reads and writes may raise OSError (nvm writes RuntimeError). blocks[0] is nvm (None
if absent), blocks[1:] the ring. On the board the ring is the 512-byte sectors of one save
file on CIRCUITPY (SaveLog, device_blocks), and `Ring` writes the records round it in turn,
into flash erased ahead of them. A power cut can only damage the place being written: the
previous record, complete, is still in another place. nvm's 8 KB block erases on every write
and lives in the SAMD51's own flash, so policy.py writes it rarely.

The board never makes, grows or closes the save file: the computer makes it, whole
(`./dev bundle` puts it in the image, tools/copy_to_board.py copies it onto a drive that
lacks it), so no save of the game allocates a cluster or writes the FAT or a directory.
docs/saves.md has the layout and why.
"""

from freecell_mc.compat import const
from freecell_mc.dates import ticks_diff
from freecell_mc.saves.record import REC, Record

NVM_SIZE = const(8192)
# nvm's second record place: the start of the second half of its one 8 KB erase block.
# Where nvm is the only place, a record goes to both in one write (policy.py), so that a
# cut in that write leaves the record before it whole (docs/saves.md, "nvm alone").
NVM_COPY = const(4096)
SECTOR = const(512)  # one record per FAT sector: the unit the flash driver writes
GROUP = const(8)  # sectors per 4 KB flash erase sector: erased together, ahead of the writer
RING = const(2048)  # record sectors in the save file: 1 MB (wear arithmetic: docs/saves.md)
# Sectors at each end of the file never written. CIRCUITPY's data area starts at an odd
# sector (65), so a file starts 1, 3, 5 or 7 sectors into a 4 KB erase sector: 7 sectors at
# each end keep every erase sector a record lies in inside the file; 8 is a whole one.
GUARD = const(8)
_MIN_PLACES = const(40)  # 5 groups: the fewest that keep erases off the newest record
LOG_DIR = "fcsave"
# The file's folder comes after a 4 KB file of the game's own, so that the 4 KB erase
# sector holding the file's directory entry (which an end of code.py would rewrite; the
# game resets instead, docs/saves.md "code.py never ends") holds nothing of any other file.
LOG_PATH = "fcsave/ring/saves.bin"
SPACER_PATH = "fcsave/readme.txt"
SPACER_BYTES = const(4096)

# The save file takes one record per FILE_GAP_MS on average, whatever is forced: the pace
# of the checkpoint (a look every 250 ms, then 1.5 s), which the wear arithmetic counts on.
# A few forced saves in a row (leaving a game, then a setting) go at once.
FILE_GAP_MS = const(1750)
FILE_BURST = const(4)
_TRIES = const(4)  # save places tried per write before the drive is given up on
# Why the save file cannot take records (Ring.files_error): CircuitPython's errno values
# where there is one (_errno() reads the port's own from the exception first).
NO_FILE = const(2)  # ENOENT: missing (installed by hand, deleted, drive too full for it)
IS_DIR = const(21)  # EISDIR: a folder in its place
WRONG_SIZE = const(27)  # EFBIG: not the size the game's ring needs (cut short, or foreign)
READ_ONLY = const(30)  # EROFS: boot.py left CIRCUITPY to the computer
_EIO = const(5)


def file_bytes(places=RING):
    """Return the size of a save file with `places` record places (and both guards)."""
    return (2 * GUARD + places) * SECTOR


def read_place(blk, at=0):
    """Read REC bytes of a place from at; None when it is absent or cannot be read at all."""
    if blk is None:
        return None
    try:
        if len(blk) < at + REC:
            return None
        return blk[at : at + REC]
    except OSError:
        return None


def read_place_into(read_into, k, buf):
    """Read save-file place k into buf; return buf, None when erased or absent (EMPTY)."""
    try:
        n = read_into(k, buf)
    except OSError:
        return None
    if n == REC:
        return buf
    return buf[0:n] if n else None


class Ring(Record):
    """A Record written to the save file's places in turn, each erase group erased ahead.

    Where places come in groups (the board's save file), a group is erased before the
    writer enters it, while the group before it is still empty: so no erase ever touches
    the 4 KB erase sector of a record written since. The erase is a job, done in a quiet
    moment (erase_ahead, which the App calls while nobody touches the screen) or, when
    none came, at the next write.
    """

    def __init__(self, blocks):
        """Use blocks: [nvm or None, save file 0, save file 1, ...] (nvm-like objects)."""
        Record.__init__(self)
        self.nvm = blocks[0] if blocks else None
        self._blocks = blocks  # the save files are blocks[1:], indexed (no copy, no slice)
        self._files = len(blocks) - 1 if blocks else 0
        # why not (files_error): NO_FILE, IS_DIR, WRONG_SIZE, READ_ONLY or another errno
        self.files_error = getattr(blocks, "error", 0) if blocks else 0
        self.files_ok = self._files > 0 and not self.files_error
        self._group = getattr(blocks, "group", 1)  # places erased together (1: no erasing)
        self._next = 0  # ring index of the next file write
        self._todo = 0  # groups to erase before the next write
        self._todo_at = 0  # ring index of the first place of the first of them
        self._tokens = FILE_BURST  # save-file writes that may go at once
        self._token_ms = None  # ticks the tokens were last counted

    def _resume(self, newest):
        """Set the place to write next after a load found the newest record at newest.

        Erased ahead in groups (the board's save file), writing resumes two groups on, and
        those two groups are erased first: the group in between keeps every erase away
        from the 4 KB sector holding the newest record, whatever the file's alignment on
        flash (docs/saves.md).
        """
        n = self._files
        g = self._group
        self._todo = 0
        if n <= 0:
            self._next = 0
        elif g <= 1:
            self._next = (newest + 1) % n if newest >= 0 else 0
        else:
            self._next = ((newest // g + 2) * g) % n if newest >= 0 else 0
            self._todo_at = self._next
            self._todo = 2

    def take_token(self, now_ms):
        """Return True if the save file's write budget allows a write now (one is spent by
        _write_files); without a usable file, nvm's own budget decides."""
        if not self.files_ok:
            return True
        at = self._token_ms
        if at is None:
            self._token_ms = now_ms
        else:
            while self._tokens < FILE_BURST and ticks_diff(now_ms, at) >= FILE_GAP_MS:
                self._tokens += 1
                at += FILE_GAP_MS
            self._token_ms = now_ms if self._tokens >= FILE_BURST else at
        return self._tokens > 0

    def erase_due(self):
        """Return True if an erase is waiting for a quiet moment."""
        return self._todo > 0 and self.files_ok

    def erase_ahead(self):
        """Erase one group of the job waiting; return True if it touched the flash.

        Each group is at most two 4 KB erases (about 100 ms on the board's flash), so the
        App calls it between polls while nobody touches the screen.
        """
        if not self.erase_due():
            return False
        g = self._group
        try:
            self._blocks.prepare()
            self._blocks.erase(self._todo_at, g)
        except OSError as e:
            self.files_ok = False
            self.files_error = _errno(e)
            return True
        self._todo_at = (self._todo_at + g) % self._files
        self._todo -= 1
        return True

    def _write_files(self):
        """Write the sealed record to the next save place that takes it; True on success.

        Places are written in turn, each into flash erased ahead of it (an erase job not
        done yet is done first), so a save programs and never erases. A place that fails
        is skipped and writing resumes two groups on; _TRIES failures in a row, or a
        read-only drive, end file saves for this session and saves fall back to nvm
        (files_error tells why).
        """
        blocks = self._blocks
        g = self._group
        n = self._files
        err = 0
        for _ in range(min(n, _TRIES)):
            k = self._next % n
            try:
                if g > 1:
                    blocks.prepare()
                    while self._todo:
                        blocks.erase(self._todo_at, g)
                        self._todo_at = (self._todo_at + g) % n
                        self._todo -= 1
                blocks[1 + k][0:REC] = self._rec
            except OSError as e:
                err = _errno(e)
                if err == READ_ONLY or err == NO_FILE:
                    break  # boot.py left the drive to the computer, or the file is gone
                self._resume(k)  # what the failed place's group holds is not known
                continue
            self._next = (k + 1) % n
            self._tokens -= 1
            if g > 1 and self._next % g == 0:
                # Entering a group: it was erased ahead; the next one may be erased now,
                # while this one is still empty.
                self._todo_at = (self._next + g) % n
                self._todo = 1
            return True
        self.files_ok = False
        self.files_error = err
        return False


class _Place:
    """One record place of a SaveLog, with nvm-like slice access."""

    def __init__(self, log, k):
        self.log = log
        self.k = k

    def __len__(self):
        return SECTOR

    def __getitem__(self, index):
        start, stop = index.start or 0, index.stop
        return self.log.read(self.k, start, stop - start)

    def __setitem__(self, index, data):
        self.log.write(self.k, data)


class SaveLog:
    """nvm, then the record places of the save file on CIRCUITPY (device_blocks).

    The file is made on the computer, erased (0xFF) and whole; the game checks its size
    and then only rewrites whole sectors inside it through one handle kept open: every
    record is a 512-byte sector at a sector boundary, which FatFs hands to the flash driver
    directly, and which the driver programs without an erase when the sector reads erased.
    The file's size and clusters never change, so no save writes the FAT or a directory
    (docs/saves.md). `erase` writes 0xFF over a group of sectors and syncs: the driver
    erases their 4 KB sector(s).
    """

    group = GROUP

    def __init__(self, nvm, path=LOG_PATH, places=RING, fs=None):
        """Hold nvm and the save file's path; nothing is opened yet.

        fs: None for the board's open() and os; the simulator's tests hand in its FAT
        model instead (open, stat_size, is_dir, free_bytes, sync).
        """
        self.nvm = nvm
        self.fs = fs
        self.path = path
        self.want = places
        self._n = None
        self._error = 0
        self._f = None
        # True once the file is open for writing: from then on closing it (code.py's end)
        # would rewrite its directory entry (docs/saves.md, "When code.py ends").
        self.writing = False
        self._buf = None  # the sector written: a record, then 0xFF
        self._erased = None  # REC bytes of 0xFF, to spot erased places quickly

    def __len__(self):
        return 1 + self._places()

    def __getitem__(self, i):
        if i < 0:
            i += 1 + self._places()
        if i == 0:
            return self.nvm
        if not 0 < i <= self._places():
            raise IndexError("no such save place")
        return _Place(self, i - 1)

    @property
    def error(self):
        """Return why the file cannot take records (NO_FILE, WRONG_SIZE, ...), 0 if it can."""
        self._places()
        return self._error

    def _places(self):
        """Return the places a load reads: the ring, or what a file of the wrong size holds.

        The count comes from the file's size only up to the ring's: a directory entry
        claiming 4 GB reads as 2,048 places, not as a list of 8 million.
        """
        if self._n is None:
            size = _size(self.path, self.fs)
            n = 0
            if size == -1:
                self._error = NO_FILE
            elif size < 0:
                self._error = IS_DIR
            else:
                if size != file_bytes(self.want) or self.want < _MIN_PLACES:
                    self._error = WRONG_SIZE
                n = size // SECTOR - GUARD
                n = 0 if n < 0 else min(n, self.want)
            self._n = n
        return self._n

    def read(self, k, start, n):
        """Return n bytes of place k from start (OSError when the file cannot be opened)."""
        f = self._reader()
        f.seek((GUARD + k) * SECTOR + start)
        data = f.read(n)
        if n == REC and self._reads_erased(data):
            return b""  # empty reads as EMPTY
        return data

    def read_into(self, k, buf):
        """Read the first len(buf) bytes of place k into buf; return how many, 0 if erased.

        The load's scan of every place uses it, so a start makes no object per place.
        """
        f = self._reader()
        f.seek((GUARD + k) * SECTOR)
        n = f.readinto(buf) or 0
        return 0 if n == REC and self._reads_erased(buf) else n

    def _reader(self):
        """Return the handle reads go through."""
        f = self._f
        if f is None:
            f = self._f = self._open("rb")
        return f

    def close(self):
        """Close the file's handle (a reading one: nothing is written back)."""
        if self._f is not None:
            self._f.close()
            self._f = None
            self.writing = False

    def _reads_erased(self, data):
        """Return True if data, a place's REC bytes, is all 0xFF.

        Most places are erased: one comparison in C instead of check()'s loop over 256
        bytes (2,048 places are read at every start).
        """
        if data[0] != 0xFF:
            return False
        erased = self._erased
        if erased is None:
            erased = self._erased = b"\xff" * REC
        return data == erased

    def write(self, k, data):
        """Write data at the start of place k as one whole sector."""
        buf = self._buf
        if buf is None:
            buf = self._buf = bytearray(b"\xff" * SECTOR)
        buf[0 : len(data)] = data
        self._put(k, buf)
        _sync(self.fs)  # a sector that was not erased waits in the driver's cache for a sync

    def erase(self, k, n):
        """Bring places k..k+n-1 back to the erased state (0xFF) on flash."""
        buf = self._buf
        if buf is None:
            buf = self._buf = bytearray(SECTOR)
        for i in range(SECTOR):
            buf[i] = 0xFF
        for i in range(n):
            self._put(k + i, buf)
        # One sync for the group: the driver erases each 4 KB sector it touches once.
        _sync(self.fs)

    def _put(self, k, buf):
        f = self.prepare()
        f.seek((GUARD + k) * SECTOR)
        if f.write(buf) != SECTOR:
            raise OSError(_EIO, "short write inside the save file")

    def prepare(self):
        """Return the handle writes go through; OSError when the file cannot take records.

        The file is never made here: a missing one, or one of the wrong size, leaves the
        saves to nvm (the board takes no space on CIRCUITPY, docs/saves.md).
        """
        if self.writing:
            return self._f
        err = self.error
        if err:
            raise OSError(err, "the save file cannot take records")
        if self._f is not None:
            self._f.close()  # opened for reading only: nothing to write back
            self._f = None
        self._f = self._open("r+b")
        self.writing = True
        return self._f

    def _open(self, mode):
        if self.fs is not None:
            return self.fs.open(self.path, mode)
        return open(self.path, mode, 0)  # unbuffered where open buffers (CPython)

    def free_bytes(self):
        """Return the bytes free on CIRCUITPY, or -1 when the drive does not say."""
        try:
            if self.fs is not None:
                return self.fs.free_bytes()
            import os

            st = os.statvfs("/")
            return st[0] * st[4]  # f_bsize * f_bavail
        except (OSError, AttributeError):
            return -1


def _size(path, fs=None):
    """Return the size of the file at path, -1 when it is missing, -2 for a folder."""
    try:
        if fs is not None:
            return -2 if fs.is_dir(path) else fs.stat_size(path)
        import os

        st = os.stat(path)
        return -2 if st[0] & 0x4000 else st[6]
    except OSError:
        return -1


def _errno(e):
    """Return the errno of OSError e (_EIO when it has none)."""
    code = e.args[0] if e.args else 0
    return code if isinstance(code, int) and code else _EIO


def _sync(fs=None):
    """Push CircuitPython's flash cache out now, so a save is on flash when commit returns."""
    if fs is not None:
        fs.sync()
        return
    import os

    sync = getattr(os, "sync", None)
    if sync is not None:
        sync()


def device_blocks(nvm, places=RING):
    """Return the device's save blocks: nvm (may be None), then the save file's places."""
    return SaveLog(nvm, LOG_PATH, places)
