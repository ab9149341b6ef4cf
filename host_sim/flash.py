# SPDX-License-Identifier: MIT
"""The simulator's flash: nvm's erase-on-write block, a save file's sector, CIRCUITPY's chip.

`FlashBlock` behaves like `microcontroller.nvm` on the SAMD51 (len, indexing, slice read,
slice assignment) and like its flash: every write erases the whole block to 0xFF, then
programs it page by page. `FileBlock` models one preallocated save file on CIRCUITPY: a
write erases and reprograms the file's flash sector, then rewrites the sector that holds
its directory entry (FAT updates the entry's time stamp on every close).

`Flash` is CIRCUITPY's chip, the W25Q64JV / GD25Q64C of the PyPortal, Pynt and Titano, with
`supervisor/shared/external_flash/external_flash.c` on top (CircuitPython main branch,
2026-08). The file system writes 512-byte blocks. A block that reads erased (`page_erased`)
is programmed directly, with no erase. (page_erased checks the first 4 bytes, then loops
over the block's length comparing `short_buffer[i]`, an index past its 4 bytes: C leaves
that undefined. Modelled as the whole block, what it must do in practice: a check of the 4
bytes alone would program FAT sectors that begin with two end-of-chain entries without an
erase, and corrupt the FAT every computer writes through it.) Any other block goes into a
RAM copy of its 4 KB erase sector; that copy is written back (erase the 4 KB sector,
program its 16 pages of 256 bytes) when a block of another sector is written, the same
block is written twice, or on a sync (`os.sync()`, FatFs's CTRL_SYNC on every
f_sync/f_close). The FAT volume on it is host_sim/fat.py's.

Power cuts: `arm_cut(n)` makes the n-th low-level step from now (an erase or a page
program, counted across every block and chip of the process) stop half-done and raise
`PowerCut`, leaving the block in that state, persisted. On the chip each 4 KB erase and
each 256-byte page program is one step: a cut mid-erase leaves the first half of the
sector erased and the rest old; mid-program, half the page; the RAM cache dies with the
power. `PowerCut` is a BaseException so code that catches `Exception` or `OSError` (as the
game does for a read-only drive) cannot swallow it.
"""

import io
import os

PAGE = 512  # SAMD51 flash page; also one FAT sector

_armed = [0]  # steps left before the cut; 0 = disarmed
_steps = [0]  # low-level steps taken by the process


class PowerCut(SystemExit):
    """The power went away in the middle of a flash operation (a SystemExit: the game
    lets it through, app.main, even where it plays the board's faults)."""


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


# -- CIRCUITPY's chip ---------------------------------------------------------------------

SECTOR = 512  # FILESYSTEM_BLOCK_SIZE
ERASE = 4096  # SPI_FLASH_ERASE_SIZE
_ERASED_BLOCK = b"\xff" * SECTOR
QSPI_PAGE = 256  # SPI_FLASH_PAGE_SIZE
FLASH_BYTES = 8 * 1024 * 1024  # PyPortal, Pynt, Titano: W25Q64JVxQ or GD25Q64C, 64 Mbit

# Time the chip is busy, from the Winbond W25Q64JV datasheet (rev. L, 2021), table 9.6 AC
# electrical characteristics: page program tPP 0.4 ms typical (3 ms max), 4 KB sector erase
# tSE 45 ms typical (400 ms max). The GD25Q64C's are of the same order (0.6 ms, 50 ms).
PAGE_PROGRAM_US = 400
SECTOR_ERASE_US = 45000


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
        if _step():
            self.data[addr : addr + ERASE // 2] = b"\xff" * (ERASE // 2)
            self._persist(addr, addr + ERASE)
            self.lose_power()
            raise PowerCut("power cut while erasing a 4 KB sector of CIRCUITPY")
        self.data[addr : addr + ERASE] = b"\xff" * ERASE
        self._persist(addr, addr + ERASE)

    def program(self, addr, buf):
        """Program len(buf) bytes at addr page by page (NOR: bits only go from 1 to 0)."""
        for off in range(0, len(buf), QSPI_PAGE):
            a = addr + off
            page = buf[off : off + QSPI_PAGE]
            self.programs += 1
            self._busy(PAGE_PROGRAM_US)
            n = len(page)
            if _step():
                n //= 2
                self._and(a, page[:n])
                self._persist(a, a + n)
                self.lose_power()
                raise PowerCut("power cut while programming CIRCUITPY")
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
            if self.data[addr : addr + SECTOR] == _ERASED_BLOCK:
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
                cache[i * SECTOR : (i + 1) * SECTOR] = self.data[sec + i * SECTOR :
                                                                 sec + (i + 1) * SECTOR]
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

