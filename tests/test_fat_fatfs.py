# SPDX-License-Identifier: MIT
"""The FAT model against the real FatFs: the same operations on the same image, compared.

host_sim/fat.py is written after CircuitPython's FatFs (lib/oofatfs/ff.c, R0.13c). The
oracle here is ChaN's FatFs itself, compiled: PyPI's fatfs-ng (pinned in
requirements-dev.txt) wraps FatFs R0.16 built with FF_FS_TINY 0, FF_USE_FASTSEEK 0 and
long names on. Between R0.13c and R0.16, get_fat, put_fat, create_chain, remove_chain,
dir_next, f_write and f_lseek differ only in names and integer types, so where clusters
go and where FatFs gives up are the same; the sector writes are not (no shared window
without FF_FS_TINY), so what is compared is the result: the whole volume, byte for byte,
except the time stamps (fatfs-ng stamps the host's clock) and the bytes past each file's
end in its last cluster and the free clusters (what a sector's tail holds is a buffer's
leftovers in both; the FATs, compared whole, say which clusters are free).
Errors are compared as CircuitPython raises them: the errno of fresult_to_errno_table.

What the oracle cannot show (no fast seek in fatfs-ng): a file opened only to read,
whose link map CircuitPython builds at open. Those cases are checked against ff.c's
f_lseek(CREATE_LINKMAP) here by hand, in the tests after the cross-checks.
"""

import struct

import pytest
from fatfs import RamDisk, Partition
from fatfs import wrapper as ng

from host_sim import circuitpy, fat, fatfile, fatformat, flash

LAYOUT = fatformat.layout()
CLUSTER = LAYOUT["cluster_sectors"] * flash.SECTOR

# extmod/vfs_fat_file.c fresult_to_errno_table, by FRESULT number (ff.h)
ERRNO = {1: 5, 2: 5, 3: 16, 4: 2, 5: 2, 6: 22, 7: 13, 8: 17, 9: 22, 10: 30, 11: 19,
         12: 19, 13: 19, 14: 5, 15: 5, 16: 5, 17: 12, 18: 24, 19: 22}
FA_READ, FA_WRITE, FA_CREATE_NEW, FA_CREATE_ALWAYS, FA_OPEN_ALWAYS = 1, 2, 4, 8, 0x10
MODES = {"rb": FA_READ, "r+b": FA_READ | FA_WRITE, "wb": FA_WRITE | FA_CREATE_ALWAYS,
         "ab": FA_WRITE | FA_OPEN_ALWAYS}


class RealFile:
    """A FIL of the real FatFs, used as CircuitPython's file object uses it."""

    def __init__(self, handle, size):
        self.h = handle
        self.fptr = 0
        self.size = size

    def seek(self, pos, whence=0):
        pos += (0, self.fptr, self.size)[whence]
        ng.pyf_lseek(self.h.fp, pos)  # CircuitPython drops f_lseek's result too
        self.fptr = pos
        self.size = max(self.size, pos)
        return pos

    def write(self, data):
        try:
            res, n = ng.pyf_write(self.h.fp, bytes(data))
        except ng.FatFSException as e:  # the wrapper raises where the other calls return
            res, n = e.code, 0
        if res:
            raise OSError(ERRNO[res], "FatFs FRESULT %d" % res)
        self.fptr += n
        self.size = max(self.size, self.fptr)
        if n != len(data):
            raise OSError(28, "No space left on device")
        return n

    def read(self, n):
        res, data = ng.pyf_read(self.h.fp, n)
        if res:
            raise OSError(ERRNO[res], "FatFs FRESULT %d" % res)
        self.fptr += len(data)
        return bytes(data)

    def close(self):
        res = ng.pyf_close(self.h.fp)
        if res:
            raise OSError(ERRNO[res], "FatFs FRESULT %d" % res)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class RealVolume:
    """The real FatFs on a copy of a model's volume: the model's open/mkdir/remove."""

    def __init__(self, image):
        self.store = bytearray(image)
        self.part = Partition(RamDisk(self.store, sector_size=flash.SECTOR, block_size=1))
        self.part.mount()

    def _path(self, path):
        return self.part.pname + b"/" + path.encode()

    def _check(self, res):
        if res:
            raise OSError(ERRNO[res], "FatFs FRESULT %d" % res)

    def mkdir(self, path):
        self._check(ng.pyf_mkdir(self._path(path)))

    def remove(self, path):
        self._check(ng.pyf_unlink(self._path(path)))

    def open(self, path, mode):
        h = ng.FileHandle()
        self._check(ng.pyf_open(h.fp, self._path(path), MODES[mode]))
        f = RealFile(h, self._size(path))
        if mode == "ab":
            f.seek(0, 2)  # vfs_fat_file.c: 'a' opens with FA_OPEN_ALWAYS, then seeks the end
        return f

    def _size(self, path):
        info = ng.FILINFO_Handle()
        self._check(ng.pyf_stat(self._path(path), info))
        return info.get_size()

    def close(self):
        self.part.unmount()


def model_image(vol):
    """Return the bytes of the model's volume, its caches written back."""
    vol._sync_window()
    vol.flash.flush()
    return bytes(vol.flash.data[: LAYOUT["sectors"] * flash.SECTOR])


def masked(image):
    """Return image with the time stamps of every directory entry, every file's bytes past
    its end and every free cluster zeroed."""
    img = bytearray(image)
    vol = fat.Volume(_flash_of(img))
    tails = []
    stack = [0]
    while stack:
        dclust = stack.pop()
        sectors = []
        try:
            for s in vol._dir_sectors(dclust):
                sectors.append(s)
        except OSError:
            pass  # a damaged folder chain: what was reached is compared
        for s in sectors:
            for off in range(0, flash.SECTOR, 32):
                e = s * flash.SECTOR + off
                if img[e] == 0:
                    break
                img[e + 13 : e + 20] = bytes(7)  # created (tenths, time, date), accessed
                img[e + 22 : e + 26] = bytes(4)  # modified
                if img[e] == 0xE5 or img[e] == ord("."):
                    continue
                attr = img[e + 11]
                clst, size = struct.unpack_from("<HI", img, e + 26)
                if attr & 0x10:
                    stack.append(clst)
                elif clst and attr & 0x08 == 0:
                    tails.append((clst, size))
    for c in range(2, vol.n_fatent):
        if vol._get_fat(c) == 0:  # what a free cluster holds is nobody's
            start = vol._clst2sect(c) * flash.SECTOR
            img[start : start + CLUSTER] = bytes(CLUSTER)
    for clst, size in tails:
        c, left = clst, size
        for _ in range(vol.n_fatent):
            if not 2 <= c < vol.n_fatent:
                break
            start = vol._clst2sect(c) * flash.SECTOR
            if left < CLUSTER:
                img[start + max(left, 0) : start + CLUSTER] = bytes(CLUSTER - max(left, 0))
            left -= CLUSTER
            c = vol._get_fat(c)
    return bytes(img)


def _flash_of(image):
    f = flash.Flash()
    f.data[: len(image)] = image
    return f


def fresh():
    """Return a model volume as a PyPortal's CIRCUITPY holds before the first save."""
    vol = fat.Volume.mkfs(flash.Flash())
    circuitpy.install(vol)
    return vol


def same_start(vol):
    """Return (the model's volume, the real FatFs's volume) on the same image, both just
    mounted (nothing known of free clusters or where the last one went)."""
    image = model_image(vol)
    return fat.Volume(vol.flash), RealVolume(image)


def outcome(fs, steps):
    """Run steps on fs; return the errno of each (0: it went through)."""
    got = []
    for step in steps:
        try:
            step(fs)
            got.append(0)
        except OSError as e:
            got.append(e.errno)
    return got


def compare(vol, steps):
    """Run steps through the model and the real FatFs from vol's image; assert the same."""
    model, real = same_start(vol)
    try:
        a = outcome(model, steps)
        b = outcome(real, steps)
        assert a == b, "errnos: model %s, FatFs %s" % (a, b)
        mi, ri = masked(model_image(model)), masked(bytes(real.store))
        if mi != ri:
            diff = [i for i in range(len(mi)) if mi[i] != ri[i]]
            pytest.fail("the images differ at %d bytes, first at sector %d offset %d"
                        % (len(diff), diff[0] // flash.SECTOR, diff[0] % flash.SECTOR))
    finally:
        real.close()
    return a


# ---------------------------------------------------------------------------- steps


def write(path, mode, data, at=None, chunk=700):
    """A step: open path in mode, seek to at, write data in chunks, close."""

    def step(fs):
        f = fs.open(path, mode)
        try:
            if at is not None:
                f.seek(at)
            for i in range(0, len(data), chunk):
                f.write(data[i : i + chunk])
        finally:
            f.close()

    return step


def mkdir(path):
    return lambda fs: fs.mkdir(path)


def remove(path):
    return lambda fs: fs.remove(path)


def pattern(n, seed):
    return bytes((i * 7 + seed) & 0xFF for i in range(n))


SAVE = "saves/log.bin"


def with_save(clusters=12):
    """Return a fresh volume holding a save file of `clusters` clusters, written once."""
    vol = fresh()
    vol.mkdir("saves")
    with vol.open(SAVE, "wb") as f:
        f.write(pattern(clusters * CLUSTER, 1))
    return vol


def chain(vol, path):
    """Return the clusters of path's chain, as the model reads it."""
    f = vol.open(path, "rb")
    out, c = [], f.sclust
    while 2 <= c < vol.n_fatent and len(out) < vol.n_fatent:
        out.append(c)
        c = vol._get_fat(c)
    return out


# ------------------------------------------------------------------- cross-checks


def test_a_fresh_format_is_what_fatfs_makes():
    """f_mkfs of the real FatFs and the model's give the same volume (label and serial
    aside: CircuitPython names the drive after formatting)."""
    store = bytearray(LAYOUT["sectors"] * flash.SECTOR)
    part = Partition(RamDisk(store, sector_size=flash.SECTOR, block_size=1))
    try:
        assert ng.pyf_mkfs(part.pname, n_fat=1, align=0, n_root=512, au_size=0) == 0
    finally:
        part.unmount()
    vol = fat.Volume.mkfs(flash.Flash())
    mine = bytearray(model_image(vol))
    mine[39:43] = store[39:43]  # the volume serial: f_mkfs takes it from the clock
    root = LAYOUT["root_start"] * flash.SECTOR
    assert mine[root : root + 11] == b"CIRCUITPY  " and mine[root + 11] == 0x08
    mine[root : root + 32] = bytes(32)  # f_setlabel's entry
    system = LAYOUT["data_start"] * flash.SECTOR  # the data area is left as it was
    assert bytes(mine[:system]) == bytes(store[:system])


def test_installing_and_playing_a_session_allocate_as_fatfs_does():
    """Folders, files made, grown by append and by seeking, rewritten, removed: the same
    clusters, entries and bytes."""
    vol = fat.Volume.mkfs(flash.Flash())
    steps = []
    for path, size in circuitpy.installed_paths():
        steps.append(mkdir(path) if size is None else write(path, "wb", pattern(size, size)))
    steps += [
        mkdir("saves"),
        write(SAVE, "wb", pattern(20000, 3)),
        write(SAVE, "r+b", pattern(3000, 4), at=CLUSTER * 3 - 100),  # across a cluster
        write(SAVE, "ab", pattern(2528, 5)),  # to 22 clusters: a grown file's bytes past
        # its old end are whatever its last sector's tail held, and the tails differ
        remove("lib/FREECE~1/rules/notation.mpy"),  # a hole in the middle of the drive
        write("saves/big.bin", "wb", pattern(9000, 6)),  # fills the hole, then goes on
        write("code.py", "wb", pattern(100, 7)),  # rewritten: its chain freed first
        write("new.txt", "wb", pattern(2000, 8)),  # the hole code.py left is used again
        write(SAVE, "r+b", pattern(1, 9), at=25000),  # seeking past the end grows the file
        remove("saves/big.bin"),
        write("saves/x.bin", "wb", b""),
    ]
    assert compare(vol, steps) == [0] * len(steps)


def test_a_zeroed_fat_sector_under_the_save_fails_its_growth_as_fatfs_does():
    """The save file's links read free: growing it past its first cluster is FR_INT_ERR
    (EIO) on both, and nothing else on the drive changes; writing inside the first
    cluster still works, as it does on the board."""
    vol = with_save()
    first = chain(vol, SAVE)[0]
    sect = vol.fatbase + first * 2 // flash.SECTOR
    vol.flash.write_block(sect, bytes(flash.SECTOR))
    steps = [write(SAVE, "r+b", b"inside", at=10),
             write(SAVE, "r+b", pattern(3 * CLUSTER, 2), at=CLUSTER // 2),
             write(SAVE, "ab", b"more")]
    assert compare(vol, steps) == [0, 5, 5]


@pytest.mark.parametrize("link", [0, 1, 0xF000, 0xFFF7])
def test_a_damaged_link_in_the_save_chain_is_met_as_fatfs_meets_it(link):
    """Free (0) and 1 are FR_INT_ERR when the chain is followed for writing; a value past
    the volume (0xF000) and the bad-cluster mark (0xFFF7) end the chain, and FatFs
    stretches it from there."""
    vol = with_save(6)
    c = chain(vol, SAVE)
    vol._put_fat(c[2], link)
    steps = [write(SAVE, "r+b", pattern(CLUSTER * 5, 3), at=CLUSTER), write("after.bin", "wb",
                                                                          pattern(3000, 4))]
    got = compare(vol, steps)
    # A 1 anywhere the free-cluster search passes is FR_INT_ERR to every later allocation.
    assert got == {0: [5, 0], 1: [5, 5]}.get(link, [0, 0])


def test_a_cluster_marked_bad_is_never_allocated():
    vol = with_save(4)
    last = chain(vol, SAVE)[-1]
    for c in (last + 1, last + 3):
        vol._put_fat(c, 0xFFF7)
    assert compare(vol, [write(SAVE, "ab", pattern(5 * CLUSTER, 5))]) == [0]


def test_a_chain_looping_back_is_followed_round_as_fatfs_follows_it():
    """A loop is no error to f_write: the file's own start is written over."""
    vol = with_save(4)
    c = chain(vol, SAVE)
    vol._put_fat(c[-1], c[0])
    assert compare(vol, [write(SAVE, "ab", pattern(3 * CLUSTER, 6))]) == [0]


def test_a_full_drive_stops_a_write_short_and_refuses_a_folder():
    """No free cluster: f_write stops short (ENOSPC), f_mkdir is FR_DENIED (EACCES); a new
    empty file still gets its entry."""
    vol = with_save(2)
    free = vol.free_clusters()
    steps = [write("fill.bin", "wb", bytes(free * CLUSTER - 300), chunk=64 * flash.SECTOR),
             write(SAVE, "ab", pattern(2000, 7)),
             mkdir("more"),
             write("empty.txt", "wb", b""),
             write("one.txt", "wb", b"x")]
    assert compare(vol, steps) == [0, 28, 13, 0, 28]


def test_a_full_root_refuses_one_more_file():
    """512 root entries: the 513th is FR_DENIED (EACCES), a folder's grows by a cluster."""
    vol = fresh()
    used = sum(1 for s in vol._dir_sectors(0) for off in range(0, flash.SECTOR, 32)
               if vol.flash.read_block(s)[off] not in (0, 0xE5))
    steps = [write("f%d.txt" % i, "wb", b"") for i in range(512 - used - 1)]
    steps += [write("over.txt", "wb", b""), mkdir("over")]
    steps += [write("saves/g%d.bin" % i, "wb", b"") for i in range(40)]
    steps.insert(0, mkdir("saves"))
    got = compare(vol, steps)
    assert got[-42:-40] == [13, 13] and set(got[:-42]) == {0} and set(got[-40:]) == {0}


# --------------------------------------- what only CircuitPython's build of FatFs does


def test_a_file_opened_to_read_fails_at_open_if_its_chain_is_broken_anywhere():
    """CircuitPython builds the fast-seek link map at open: a free link, even past what is
    read, stops the file (fp->err): every read is EIO."""
    vol = with_save(4)
    vol._put_fat(chain(vol, SAVE)[2], 0)
    f = vol.open(SAVE, "rb")
    with pytest.raises(OSError) as e:
        f.read(10)
    assert e.value.errno == 5
    f.seek(0)
    with pytest.raises(OSError):
        f.read(1)


def test_a_file_opened_to_read_past_its_chain_fails_there():
    vol = with_save(4)
    vol._put_fat(chain(vol, SAVE)[1], 0xFFFF)  # the chain ends after 2 of its 4 clusters
    f = vol.open(SAVE, "rb")
    assert f.read(2 * CLUSTER) == pattern(4 * CLUSTER, 1)[: 2 * CLUSTER]
    with pytest.raises(OSError) as e:
        f.read(1)
    assert e.value.errno == 5


def test_a_looping_chain_hangs_the_board_when_opened_to_read():
    vol = with_save(4)
    c = chain(vol, SAVE)
    vol._put_fat(c[-1], c[1])
    with pytest.raises(fatfile.Hang, match="loops"):
        vol.open(SAVE, "rb")


def test_the_free_count_of_a_zeroed_first_fat_sector_includes_the_reserved_entries():
    """f_getfree on FAT16 counts zero entries from entry 0: the two reserved ones too."""
    vol = fresh()
    before = vol.free_clusters()
    used_in_first = sum(1 for c in range(2, 256) if vol._get_fat(c) != 0)
    vol.flash.write_block(vol.fatbase, bytes(flash.SECTOR))
    again = fat.Volume(vol.flash)
    assert again.free_clusters() == before + used_in_first + 2


def test_a_known_free_count_of_zero_stops_allocation_at_once():
    """Once f_getfree said 0, create_chain looks no further (free_clst), even if a write
    elsewhere freed nothing it could see."""
    vol = with_save(2)
    assert vol.free_clusters() > 1000
    vol.free_clst = 0  # as after a count on a full drive, before a file elsewhere went
    with pytest.raises(OSError) as e:
        with vol.open("x.bin", "wb") as f:
            f.write(b"x")
    assert e.value.errno == 28
    assert vol.stat_size("x.bin") == 0
