# SPDX-License-Identifier: MIT
"""Flash storage models for the simulator: nvm's erase-on-write block and save files.

`FlashBlock` behaves like `microcontroller.nvm` on the SAMD51 (len, indexing, slice read,
slice assignment) and like its flash: every write erases the whole block to 0xFF, then
programs it page by page. `FileBlock` models one preallocated save file on CIRCUITPY: a
write erases and reprograms the file's flash sector, then rewrites the sector that holds
its directory entry (FAT updates the entry's time stamp on every close).

Power cuts: `arm_cut(n)` makes the n-th low-level step from now (an erase or a page
program, counted across every block of the process) stop half-done and raise `PowerCut`,
leaving the block in that state, persisted. `PowerCut` is a BaseException so code that
catches `Exception` or `OSError` (as the game does for a read-only drive) cannot swallow it.
"""

import os

PAGE = 512  # SAMD51 flash page; also one FAT sector

_armed = [0]  # steps left before the cut; 0 = disarmed
_steps = [0]  # low-level steps taken by the process


class PowerCut(BaseException):
    """The power went away in the middle of a flash operation."""


def arm_cut(step):
    """Cut the power during the step-th low-level flash step from now (1 = the next)."""
    if step < 1:
        raise ValueError("step counts from 1")
    _armed[0] = step


def disarm():
    """Cancel a pending power cut."""
    _armed[0] = 0


def step_count():
    """Return the low-level flash steps (erases and page programs) taken so far."""
    return _steps[0]


def _step():
    """Count one step; return True when this step is the one the power dies in."""
    _steps[0] += 1
    if _armed[0]:
        _armed[0] -= 1
        if _armed[0] == 0:
            return True
    return False


class FlashBlock:
    """One erase block: nvm-like access, erase-then-program writes, erase counting."""

    fail = False  # True: every write fails before it touches the flash (a worn-out block)

    def __init__(self, path=None, size=8192, page=PAGE):
        """Open the block stored at path (created erased if missing), or in memory."""
        self.path = path
        self.size = size
        self.page = page
        self.erase_count = 0
        self.write_count = 0
        self.fail_exc = OSError  # the simulator's nvm raises RuntimeError, as the board's does
        self.on_busy = None
        self.data = bytearray(b"\xff" * size)
        if path is not None and os.path.exists(path):
            with open(path, "rb") as f:
                old = f.read(size)
            self.data[0 : len(old)] = old

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self.data[index])
        return self.data[index]

    def __setitem__(self, index, value):
        if self.fail:
            raise self.fail_exc("Unable to write to nvm.")
        new = bytearray(self.data)
        if isinstance(index, slice):
            old_len = len(new[index])
            new[index] = value
            if len(new) != self.size or len(value) != old_len:
                raise ValueError("a flash write cannot change the block's size")
        else:
            new[index] = value
        self._program(new)

    def _persist(self):
        """Write the current physical contents to the backing file, if any."""
        if self.path is not None:
            with open(self.path, "wb") as f:
                f.write(self.data)

    def _erase(self):
        """Erase the whole block (one step); a cut leaves the first half erased."""
        self.erase_count += 1
        if _step():
            half = self.size // 2
            self.data[0:half] = b"\xff" * half
            self._persist()
            raise PowerCut("power cut while erasing")
        self.data[:] = b"\xff" * self.size
        self._persist()

    def _program(self, new):
        """Erase, then program new page by page; each page is one step."""
        self.write_count += 1
        self._erase()
        page = self.page
        for start in range(0, self.size, page):
            end = min(start + page, self.size)
            if _step():
                mid = start + (end - start) // 2
                self.data[start:mid] = new[start:mid]
                self._persist()
                raise PowerCut("power cut while programming")
            self.data[start:end] = new[start:end]
        self._persist()


class FileBlock(FlashBlock):
    """One preallocated save file on CIRCUITPY, as the flash sees a rewrite of it.

    Physical model (what docs/saves.md assumes of CircuitPython's FAT on SPI flash): the
    file's data fills one 4 KB erase sector of its own; a write erases and reprograms it,
    then closing the file rewrites the directory sector that holds its entry (one more
    erase and program, counted in `meta_erase_count`). A cut while that directory sector
    is erased or half-programmed loses the entry: the file is gone until it is created again.

    `writable=False` models a drive that boot.py left to the computer: writes raise
    OSError(30) (EROFS) like CircuitPython does, and reads still work.
    """

    def __init__(self, path=None, size=4096, page=PAGE, writable=True):
        """Model the save file at path (a real file in the simulator's drive), or in memory."""
        self.present = path is None or os.path.exists(path)
        super().__init__(path, size, page)
        self.writable = writable
        self.meta_erase_count = 0

    def __len__(self):
        return self.size if self.present else 0

    def __getitem__(self, index):
        if not self.present:
            raise OSError(2, "No such file/directory")
        return super().__getitem__(index)

    def __setitem__(self, index, value):
        if not self.writable:
            raise OSError(30, "Read-only filesystem")
        if not self.present:
            # Creating the file: the data starts erased, as after a fresh allocation.
            self.data[:] = b"\xff" * self.size
            self.present = True
        super().__setitem__(index, value)
        self._directory()

    def _persist(self):
        if self.path is None:
            return
        if not self.present:
            if os.path.exists(self.path):
                os.remove(self.path)
            return
        d = os.path.dirname(self.path)
        if d:
            os.makedirs(d, exist_ok=True)
        super()._persist()

    def _directory(self):
        """Rewrite the directory entry's sector: an erase step and a program step."""
        self.meta_erase_count += 1
        for _ in range(2):
            if _step():
                self.present = False
                self._persist()
                raise PowerCut("power cut while updating the directory entry")


FILE_SIZE = 4096  # the per-file model: one save file per 4 KB erase sector


def ring_path(i):
    """Return the path of place i in the per-file model (one file per folder)."""
    return "fcsave/%02d/save.bin" % i


def sim_blocks(drive=None, nvm_path=None, ring=None, writable=True):
    """Build nvm and a ring of separate save files (the per-file model, for record tests).

    The board's layout (one save file on a FAT drive) is `fat_blocks`; this simpler ring
    of one file per place exercises the records and the policy with small rings. drive:
    a folder (None keeps everything in memory); nvm_path: where nvm persists (None: in
    memory); ring: number of places (default: the device's); writable=False models a drive
    left to the computer for USB updates.
    """
    from freecell_mc.saves import savelog

    n = savelog.RING if ring is None else ring
    blocks = [FlashBlock(nvm_path, savelog.NVM_SIZE)]
    for i in range(n):
        path = None if drive is None else os.path.join(drive, ring_path(i))
        blocks.append(FileBlock(path, FILE_SIZE, writable=writable))
    return blocks


class ReadOnly:
    """A FAT volume as code.py sees it while the computer owns CIRCUITPY: writes fail (EROFS)."""

    def __init__(self, vol):
        self.vol = vol

    def open(self, path, mode="r"):
        """Open for reading; refuse any write."""
        if any(c in mode for c in "wax+"):
            raise OSError(30, "Read-only filesystem")
        return self.vol.open(path, mode)

    def mkdir(self, path):
        """Refuse."""
        raise OSError(30, "Read-only filesystem")

    def stat_size(self, path):
        """Return the file's size."""
        return self.vol.stat_size(path)

    def is_dir(self, path):
        """Return True for a folder."""
        return self.vol.is_dir(path)

    def sync(self):
        """Nothing to sync."""


def fat_blocks(vol=None, nvm_path=None, places=None, writable=True):
    """Build the board's save blocks over CIRCUITPY's FAT model: nvm, then the save file.

    vol: a host_sim.fat.Volume (None: a freshly formatted 8 MB drive in memory, holding
    what a board holds before the first save); places: record places (default RING).
    """
    from freecell_mc.saves import savelog
    from host_sim import fat

    if vol is None:
        vol = fat.Volume.mkfs(fat.Flash())
        fat.install(vol)
        vol.flash.erases = [0] * len(vol.flash.erases)  # count from the installed drive on
    n = savelog.RING if places is None else places
    fs = vol if writable else ReadOnly(vol)
    return savelog.SaveLog(FlashBlock(nvm_path, savelog.NVM_SIZE), savelog.LOG_PATH, n, fs)


def drive_blocks(drive, nvm_path=None, places=None):
    """Return the board's save blocks on the simulator's drive folder (its FAT image) and nvm.

    What the simulator's game reads and writes on `--drive drive --nvm nvm_path`: tests
    prepare saves with it before a run and read them after one.
    """
    from host_sim import fat

    return fat_blocks(fat.open_drive(str(drive)), nvm_path, places)


def total_erases(blocks):
    """Return (nvm erases, the most erases of any one file sector or directory sector)."""
    nvm = blocks[0].erase_count
    most = 0
    for b in blocks[1:]:
        most = max(most, b.erase_count, getattr(b, "meta_erase_count", 0))
    return nvm, most
