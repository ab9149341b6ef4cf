# SPDX-License-Identifier: MIT
"""The computer at the other end of the USB cable, copying files onto CIRCUITPY.

Over USB the computer writes CIRCUITPY block by block (USB mass storage), straight into
the board's block layer: CircuitPython's `tud_msc_write10_cb` hands each block to
`disk_write`, which is the flash cache of host_sim/flash.py, and each write's completion
triggers an auto-reload (`autoreload_trigger`, supervisor/shared/usb/usb_msc_flash.c). A
computer's file system caches its writes: a copy's data goes first and its folder entries
and FAT follow later, when the computer writes back its metadata (`meta_delay_ms`). If the
board resets in between, USB goes with it and whatever the computer had not yet sent never
reaches the drive: the copied files are left without their entries, or with half a FAT.

`Computer(sim, files)` works out the blocks a copy changes on a scratch copy of the drive
(host_sim/fat.py, as any FAT driver lays the files out) and sends them at `blocks_per_ms`,
data first, then the metadata `meta_delay_ms` after the last data block, then a flush
(SYNCHRONIZE CACHE, or the drive ejected). `run_until(ms)` sends what is due by then;
`unplugged()` is the board's reset: the rest is never sent.
"""

from host_sim.fat import Volume
from host_sim.flash import SECTOR, Flash

BLOCKS_PER_MS = 0.1  # about 50 KB/s: each 4 KB of new data costs the board an erase
META_DELAY_MS = 5000  # a computer writes back its cached metadata some seconds later


def drive_bytes(flash):
    """Return the drive's bytes as the computer reads them over USB (the cache included)."""
    data = bytearray(flash.data)
    if flash._cache is not None and flash._cache_at is not None:
        first = flash._cache_at // SECTOR
        for block in range(first, first + 8):
            data[block * SECTOR : (block + 1) * SECTOR] = flash.read_block(block)
    return data


def plan(flash, files):
    """Return [(block, data)] a computer sends to copy files {path: bytes} onto the drive:
    data blocks first, then the FAT and the root folder, each part in block order."""
    scratch = Flash(None, flash.size)
    scratch.data[:] = drive_bytes(flash)
    vol = Volume(scratch)
    for path in sorted(files):
        parts = path.split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            if not vol.exists(folder):
                vol.mkdir(folder)
        with vol.open(path, "wb") as f:
            f.write(files[path])
    scratch.flush()
    old = drive_bytes(flash)
    data, meta = [], []
    for block in range(len(old) // SECTOR):
        at = block * SECTOR
        new = bytes(scratch.data[at : at + SECTOR])
        if new != old[at : at + SECTOR]:
            (meta if block < vol.database else data).append((block, new))
    return data, meta


class Computer:
    """A copy onto the board's CIRCUITPY over USB, sent a block at a time as time goes on."""

    def __init__(self, sim, files, start_ms=None, blocks_per_ms=BLOCKS_PER_MS,
                 meta_delay_ms=META_DELAY_MS):
        """Plan the copy of files ({path on the drive: bytes}) onto sim's drive, from
        start_ms of the simulation's clock (default: now)."""
        vol = sim.volume()
        if not sim.drive_readonly:
            raise OSError(30, "CIRCUITPY is the board's: the computer sees it read-only")
        self.sim = sim
        self.data, self.meta = plan(vol.flash, files)
        self.files = dict(files)
        self.rate = blocks_per_ms
        self.meta_delay_ms = meta_delay_ms
        self.start_ms = sim.clock.total_ms() if start_ms is None else start_ms
        self.sent = 0  # blocks sent so far
        self.done_ms = None  # when the last block and the flush were sent
        self.lost = 0  # blocks the board's reset kept from the drive
        self._last_data_ms = None if self.data else self.start_ms

    @property
    def total(self):
        """The blocks the whole copy sends."""
        return len(self.data) + len(self.meta)

    def idle(self):
        """Return True when nothing is left to send."""
        return self.done_ms is not None or self.lost > 0

    def _due(self, now_ms):
        """Return how many blocks may have been sent by now_ms."""
        n = int((now_ms - self.start_ms) * self.rate)
        if n < len(self.data):
            return max(n, 0)
        if self._last_data_ms is None:
            return len(self.data)
        if now_ms - self._last_data_ms < self.meta_delay_ms:
            return len(self.data)
        return len(self.data) + int((now_ms - self._last_data_ms - self.meta_delay_ms)
                                    * self.rate) + 1

    def run_until(self, now_ms):
        """Send every block due by now_ms (the board's USB task runs between its polls)."""
        if self.idle():
            return
        flash = self.sim.volume().flash
        vol = self.sim.volume()
        due = min(self._due(now_ms), self.total)
        while self.sent < due:
            i = self.sent
            block, data = self.data[i] if i < len(self.data) else self.meta[i - len(self.data)]
            flash.write_block(block, data)
            if block == vol.winsect:
                vol.win[:] = data  # usb_msc_flash.c keeps FatFs's cached window up to date
            self.sent += 1
            if self.sent == len(self.data):
                self._last_data_ms = now_ms
            self.sim.usb_wrote()
        if self.sent == self.total:
            flash.flush()  # SYNCHRONIZE CACHE: the computer's copy is done
            self.done_ms = now_ms

    def unplugged(self):
        """The board reset: USB went away, and what the computer had not sent is lost."""
        if not self.idle():
            self.lost = self.total - self.sent
