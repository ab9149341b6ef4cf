# SPDX-License-Identifier: MIT
"""The places records go on flash: nvm, and the ring of sectors of one save file on CIRCUITPY.

Places ("blocks") look like microcontroller.nvm: `len(b)`, `b[a:z]` reads, `b[a:z] = data`
writes; reads and writes may raise OSError (nvm writes RuntimeError). blocks[0] is nvm (None
if absent), blocks[1:] the ring. On the board the ring is the 512-byte sectors of one save
file on CIRCUITPY (SaveLog, device_blocks), and `Ring` writes the records round it in turn,
into flash erased ahead of them. A power cut can only damage the place being written: the
previous record, complete, is still in another place. nvm's 8 KB block erases on every write
and lives in the SAMD51's own flash, so policy.py writes it rarely.
"""

from freecell_mc.compat import const
from freecell_mc.saves.record import REC, Record

NVM_SIZE = const(8192)
SECTOR = const(512)  # one record per FAT sector: the unit the flash driver writes
GROUP = const(8)  # sectors per 4 KB flash erase sector: erased together, ahead of the writer
RING = const(2048)  # record sectors in the save file: 1 MB (wear arithmetic: docs/saves.md)
_GUARD = const(8)  # sectors at the file's start never written (beside its folder entry)
_MIN_PLACES = const(40)  # 5 groups: the fewest that keep erases off the newest record
LOG_DIR = "fcsave"
LOG_PATH = "fcsave/saves.bin"

_TRIES = const(4)  # save places tried per write before the drive is given up on
_EROFS = const(30)  # CircuitPython's values; _errno() asks the port's errno first
_ENOSPC = const(28)


class Ring(Record):
    """A Record written to the save file's places in turn, each erase group erased ahead."""

    def __init__(self, blocks):
        """Use blocks: [nvm or None, save file 0, save file 1, ...] (nvm-like objects)."""
        Record.__init__(self)
        self.nvm = blocks[0] if blocks else None
        self._blocks = blocks  # the save files are blocks[1:], indexed (no copy, no slice)
        self._files = len(blocks) - 1 if blocks else 0
        self.files_ok = self._files > 0  # False once CIRCUITPY turns out to be unusable
        # why not: the errno (EROFS: left to USB, ENOSPC: drive full, others: a broken file)
        self.files_error = getattr(blocks, "error", 0) if blocks else 0
        self._group = getattr(blocks, "group", 1)  # places erased together (1: no erasing)
        self._ahead = 2  # groups to erase before the next write (restart: 2, then 1)
        self._next = 0  # ring index of the next file write

    def _resume(self, newest):
        """Return the place to write next after a load found the newest record at newest.

        Erased ahead in groups (the board's save file), writing resumes two groups on:
        the group in between keeps every erase away from the 4 KB sector holding the
        newest record, whatever the file's alignment on flash (docs/saves.md).
        """
        n = self._files
        if n <= 0:
            return 0
        g = self._group
        self._ahead = 2
        if g <= 1:
            return (newest + 1) % n if newest >= 0 else 0
        if newest < 0:
            return 0
        return ((newest // g + 2) * g) % n

    def _write_files(self):
        """Write the sealed record to the next save place that takes it; True on success.

        Places are written in turn. Where places come in erase groups (the board's save
        file), entering a group first erases the next one (after a restart, this one and
        the next), so every record is programmed into erased flash: no erase per save, and
        no erase ever near the newest record. A place that fails is skipped for the next
        one; _TRIES failures in a row, or a read-only or full drive, end file saves for
        this session and saves fall back to nvm (files_error tells why).
        """
        blocks = self._blocks
        g = self._group
        if g > 1:
            try:
                blocks.prepare()
            except OSError as e:
                self.files_ok = False
                self.files_error = _errno(e)
                return False
        n = len(blocks) - 1  # a save file made shorter on a full drive has fewer places
        self._files = n
        if n < g or n <= 0:
            self.files_ok = False
            self.files_error = _ENOSPC
            return False
        err = 0
        for _ in range(min(n, _TRIES)):
            k = self._next % n
            self._next = (k + 1) % n
            try:
                if g > 1 and k % g == 0 and self._ahead:
                    first = k if self._ahead > 1 else (k + g) % n
                    for _ in range(self._ahead):
                        blocks.erase(first, g)
                        first = (first + g) % n
                    self._ahead = 1
                blocks[1 + k][0:REC] = self._rec
                return True
            except OSError as e:
                err = _errno(e)
                if err == _EROFS or err == _ENOSPC:
                    break  # boot.py left the drive to the computer, or it is full
                self._ahead = 2  # what the failed place's group holds is not known
        self.files_ok = False
        self.files_error = err
        return False

    def limit_reason(self):
        """Return None while saves are power-safe on CIRCUITPY, else a few words why not."""
        if self.files_ok:
            return None
        if self.files_error == _EROFS:
            return "USB mode"
        if self.files_error == _ENOSPC:
            return "drive full"
        if self.files_error:
            return "drive error"
        return "no drive"

    def mode_text(self):
        """Return one line for the settings screen saying how saves are kept."""
        why = self.limit_reason()
        if why is None:
            if self._files < RING and self._group > 1:
                return "Saves: power-safe, CIRCUITPY nearly full"
            return "Saves: power-safe on CIRCUITPY"
        if why == "USB mode":
            return "Saves: limited, CIRCUITPY is open for USB updates"
        if why == "drive full":
            return "Saves: limited, CIRCUITPY is full"
        if why == "drive error":
            return "Saves: limited, the save file cannot be written"
        return "Saves: limited to nvm"


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

    The file is made once, 1 MB of erased sectors in a folder of its own, and is then only
    rewritten in place through one handle kept open: every record is a whole 512-byte
    sector written at a sector boundary, which FatFs hands to the flash driver directly,
    and which the driver programs without an erase when the sector reads erased. The
    file's size and clusters never change and it is not closed while the game runs, so
    neither the FAT nor its folder entry is written by a save (docs/saves.md). `erase`
    writes 0xFF over a group of sectors and syncs: the driver erases their 4 KB sector(s).
    """

    group = GROUP

    def __init__(self, nvm, path=LOG_PATH, places=RING, fs=None):
        """Hold nvm and the save file's path; nothing is opened yet.

        fs: None for the board's open() and os; the simulator's tests hand in its FAT
        model instead (open, mkdir, stat_size, sync).
        """
        self.nvm = nvm
        self.fs = fs
        self.path = path
        self.want = places
        self._n = None
        self.error = 0  # errno when the file there cannot hold the ring (see _places)
        self._missing = False
        self._f = None
        self._writing = False
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

    def _places(self):
        """Return the record places: the whole ring, or what a short file holds."""
        if self._n is None:
            size = _size(self.path, self.fs)
            self._missing = size == -1
            if size == -1:
                self._n = self.want  # made at the first write
            elif size < 0:
                self._n = 0
                self.error = 21  # EISDIR: a folder where the file should be
            else:
                n = size // SECTOR - _GUARD
                n = n - n % GROUP
                self._n = n if n >= _MIN_PLACES else 0
                if not self._n:
                    self.error = _ENOSPC  # cut short when it was made
        return self._n

    def read(self, k, start, n):
        """Return n bytes of place k from start (OSError when the file is missing)."""
        f = self._reader()
        if f is None:
            raise OSError(2, "no save file yet")
        f.seek((_GUARD + k) * SECTOR + start)
        data = f.read(n)
        if n == REC and self._reads_erased(data):
            return b""  # empty reads as EMPTY
        return data

    def read_into(self, k, buf):
        """Read the first len(buf) bytes of place k into buf; return how many, 0 if erased.

        A missing file reads as erased (read() raises OSError there; an exception a place
        is what this avoids). The load's scan of every place uses it, so a start makes no
        object per place.
        """
        f = self._reader()
        if f is None:
            return 0
        f.seek((_GUARD + k) * SECTOR)
        n = f.readinto(buf) or 0
        return 0 if n == REC and self._reads_erased(buf) else n

    def _reader(self):
        """Return the handle reads go through, or None while the file is missing."""
        f = self._f
        if f is None:
            self._places()  # looks for the file once
            if self._missing:
                return None
            f = self._f = self._open("rb")
        return f

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
        f = self._writer()
        f.seek((_GUARD + k) * SECTOR)
        if f.write(buf) != SECTOR:
            raise OSError(_ENOSPC, "short write")

    def prepare(self):
        """Open the save file for writing (made first if missing); OSError if it cannot be."""
        self._writer()

    def _writer(self):
        """Return the handle writes go through, making the file first if it is missing."""
        if self._writing:
            return self._f
        if self._f is not None:
            self._f.close()  # opened for reading only: nothing to write back
            self._f = None
        if _size(self.path, self.fs) < 0:
            self._create()
        self._f = self._open("r+b")
        self._missing = False
        self._writing = True
        return self._f

    def _open(self, mode):
        if self.fs is not None:
            return self.fs.open(self.path, mode)
        return open(self.path, mode, 0)  # unbuffered where open buffers (CPython)

    def _create(self):
        """Make the folder and the file, erased, as long as the drive allows (>= 5 groups)."""
        if self.fs is not None:
            mkdir = self.fs.mkdir
        else:
            import os

            mkdir = os.mkdir
        d = self.path.rsplit("/", 1)[0] if "/" in self.path else ""
        try:
            if d:
                mkdir(d)
        except OSError as e:
            if _errno(e) != 17:  # EEXIST
                raise
        ff = bytearray(b"\xff" * SECTOR)
        made = 0
        with self._open("wb") as f:
            try:
                for _ in range(_GUARD + self.want):
                    if f.write(ff) != SECTOR:
                        break
                    made += 1
            except OSError as e:
                if _errno(e) != _ENOSPC:
                    raise
        n = made - _GUARD
        n -= n % GROUP
        self._n = n if n >= _MIN_PLACES else 0
        if not self._n:
            raise OSError(_ENOSPC, "CIRCUITPY is full")


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
    """Return the errno of OSError e (0 when it has none)."""
    code = e.args[0] if e.args else 0
    return code if isinstance(code, int) else 0


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
