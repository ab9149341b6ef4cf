# SPDX-License-Identifier: MIT
"""tools/copy_to_board.py on a temporary directory standing in for CIRCUITPY.

The image is built with CircuitPython's own mpy-cross (as `./dev bundle` does) into a
temporary folder; a clone without that compiler skips these tests (one summary line says
why), and where it is required (.ci/run) they fail.
"""

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import copy_to_board  # noqa: E402
from freecell_mc.saves import notices, savelog  # noqa: E402

bundle = copy_to_board.bundle


def shutil_usage(total, used, free):
    """Return what shutil.disk_usage returns."""
    import shutil

    return shutil._ntuple_diskusage(total, used, free)


@pytest.fixture(scope="module")
def image(tmp_path_factory, cp_mpy_cross):
    """Return a freshly built board image (build/CIRCUITPY's twin in a temporary folder)."""
    out = tmp_path_factory.mktemp("image") / "CIRCUITPY"
    try:
        bundle.build(out, cp_mpy_cross, log=io.StringIO())
    except bundle.BundleError as e:
        pytest.fail(str(e))
    return out


@pytest.fixture
def drive(tmp_path):
    """Return an empty CIRCUITPY look-alike with the board's own files on it."""
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.3 on 2025-10-17; PyPortal\n")
    (d / "lib").mkdir()
    (d / "lib" / "adafruit_bitmap_font.mpy").write_bytes(b"C\x06lib")
    (d / "settings.toml").write_text('CIRCUITPY_WEB_API_PASSWORD = "x"\n')
    return d


def run(dest, image, **kw):
    """Copy quietly; return (copied, unchanged, removed, output)."""
    out = io.StringIO()
    copied, unchanged, removed = copy_to_board.copy(dest, image=image, out=out, **kw)
    return copied, unchanged, removed, out.getvalue()


def files_of(image):
    """Return the image's files in write order."""
    return [Path(f) for f in bundle.read_manifest(image)["files"]]


def saves_of(image):
    """Return the image's save file and its spacer, in write order."""
    return [Path(f) for f in bundle.read_manifest(image)["saves"]]


def test_first_copy_puts_every_file_and_code_py_last(drive, image):
    """The whole image arrives byte for byte; code.py is written after everything else."""
    files = files_of(image)
    names = [p.as_posix() for p in files]
    assert "lib/freecell_mc/rules/engine.mpy" in names and "lib/adafruit_touchscreen.mpy" in names
    # The one library beside the game; nothing for the frozen adafruit_display_text.
    assert [n for n in names if n.startswith("lib/") and not n.startswith("lib/freecell_mc/")] \
        == ["lib/adafruit_touchscreen.mpy"]
    assert names[-1] == "code.py" and "boot.py" in names
    assert not any(n.endswith(".py") and n.startswith("lib/") for n in names)
    copied, unchanged, removed, out = run(drive, image)
    saves = saves_of(image)
    assert saves == [Path("fcsave/readme.txt"), Path("fcsave/ring/saves.bin")]
    assert copied == saves + files and unchanged == [] and removed == []
    for rel in saves + files:
        assert (drive / rel).read_bytes() == (image / rel).read_bytes()
    assert (drive / "fcsave/ring/saves.bin").read_bytes() == b"\xff" * savelog.file_bytes()
    assert "%d copied, 0 unchanged" % (len(files) + 2) in out
    assert "where the save file lies is not checked" in out  # a folder: no device to read
    # The board's own files are left alone.
    assert (drive / "lib" / "adafruit_bitmap_font.mpy").read_bytes() == b"C\x06lib"
    assert (drive / "settings.toml").exists()


def test_second_copy_rewrites_nothing(drive, image):
    """Unchanged files are not written again (no flash wear, no needless restart)."""
    run(drive, image)
    stamp = 1_000_000_000
    for rel in files_of(image):
        os.utime(drive / rel, (stamp, stamp))
    copied, unchanged, _, out = run(drive, image)
    assert copied == []
    assert unchanged == files_of(image)
    assert "kept fcsave/ring/saves.bin (the saves)" in out
    assert all((drive / rel).stat().st_mtime == stamp for rel in unchanged)


def test_a_changed_file_is_copied_alone(drive, image):
    """A file that differs on the drive (same size or not) is copied again, the rest skipped."""
    run(drive, image)
    target = drive / "lib" / "freecell_mc" / "rules" / "engine.mpy"
    data = bytearray(target.read_bytes())
    data[-1] ^= 1  # same size, different bytes
    target.write_bytes(bytes(data))
    copied, _, _, _ = run(drive, image)
    assert copied == [Path("lib/freecell_mc/rules/engine.mpy")]
    assert target.read_bytes() == (image / target.relative_to(drive)).read_bytes()


def test_old_layout_and_shadowing_sources_are_removed(drive, image):
    """The board looks in / before /lib and takes a .py before an .mpy: those copies must go."""
    old = drive / "freecell_mc"
    (old / "screens").mkdir(parents=True)
    (old / "engine.py").write_text("x = 1\n")
    (old / "screens" / "menu.py").write_text("x = 1\n")
    (drive / "lib" / "adafruit_touchscreen.py").write_text("x = 1\n")
    _, _, removed, out = run(drive, image, dry_run=True)
    assert Path("freecell_mc/engine.py") in removed and old.exists()
    assert "would remove lib/adafruit_touchscreen.py" in out
    _, _, removed, out = run(drive, image)
    assert sorted(removed) == [Path("freecell_mc/engine.py"), Path("freecell_mc/screens/menu.py"),
                               Path("lib/adafruit_touchscreen.py")]
    assert not old.exists() and not (drive / "lib" / "adafruit_touchscreen.py").exists()
    assert (drive / "lib" / "adafruit_touchscreen.mpy").exists()


def test_stale_files_are_reported_and_pruned_on_request(drive, image):
    """Old game files in lib/ stay unless --prune; prune never touches anything else."""
    run(drive, image)
    old = drive / "lib" / "freecell_mc" / "old_module.mpy"
    old.write_bytes(b"C\x06")
    _, _, removed, out = run(drive, image)
    assert removed == [] and old.exists()
    assert "1 old file(s)" in out
    _, _, removed, _ = run(drive, image, prune=True)
    assert removed == [Path("lib/freecell_mc/old_module.mpy")] and not old.exists()
    assert (drive / "settings.toml").exists()
    assert (drive / "lib" / "adafruit_bitmap_font.mpy").exists()


def test_a_players_save_file_is_never_written_over(drive, image):
    """Saves in the file stay; a file of the wrong size is named, and left alone too."""
    run(drive, image)
    saves = drive / "fcsave" / "ring" / "saves.bin"
    played = bytearray(saves.read_bytes())
    played[8 * 512 : 8 * 512 + 4] = b"FCMC"
    saves.write_bytes(bytes(played))
    run(drive, image)
    assert saves.read_bytes() == played
    saves.write_bytes(b"\0" * 4096)  # not the empty file this tool writes, cut short
    copied, _, _, out = run(drive, image)
    assert copied == [] and saves.read_bytes() == b"\0" * 4096
    assert "fcsave/ring/saves.bin is 4096 bytes, not a save file of %d bytes" % (
        savelog.file_bytes()) in out


def test_a_deleted_save_file_is_made_again_with_its_spacer_before_it(drive, image):
    run(drive, image)
    (drive / "fcsave" / "ring" / "saves.bin").unlink()
    (drive / "fcsave" / "readme.txt").write_text("edited")
    copied, _, _, _ = run(drive, image)
    assert copied == saves_of(image)  # the spacer afresh too: the two must lie together
    assert (drive / "fcsave/readme.txt").read_bytes() == (image / "fcsave/readme.txt").read_bytes()


def test_the_earlier_layouts_newest_save_is_carried_over_and_its_file_kept(drive, image):
    """The board once made fcsave/saves.bin itself: its newest record starts the new file."""
    from freecell_mc.saves import policy, record
    from host_sim import hardware

    blocks = hardware.sim_blocks(ring=3)
    s = policy.Saves(blocks)
    s.load()
    old = bytearray(b"\xff" * ((8 + 2048) * 512))
    for i in range(3):
        s.stats.record_start()
        assert s.commit(2000 * i, force=True)
        old[(8 + 5 + i) * 512 : (8 + 5 + i) * 512 + record.REC] = blocks[1 + i][0 : record.REC]
    (drive / "fcsave").mkdir()
    (drive / "fcsave" / "saves.bin").write_bytes(bytes(old))
    _, _, _, out = run(drive, image)
    assert "carried the newest save of fcsave/saves.bin" in out
    assert (drive / "fcsave" / "saves.bin").read_bytes() == old  # the player's file kept
    new = (drive / "fcsave" / "ring" / "saves.bin").read_bytes()
    assert len(new) == savelog.file_bytes()
    first = new[8 * 512 : 8 * 512 + record.REC]
    assert first == bytes(old[(8 + 7) * 512 : (8 + 7) * 512 + record.REC])  # the newest
    r = policy.Saves([None, _Place(first)])
    assert r.load() is None and r.stats.played == 3


class _Place:
    """One place holding a record, read-only."""

    def __init__(self, data):
        self.data = data

    def __len__(self):
        return 512

    def __getitem__(self, index):
        return self.data[index]


def test_a_drive_too_full_for_the_save_file_gets_the_game_and_how_much_to_free(
        drive, image, monkeypatch):
    free = 300 * 1024
    monkeypatch.setattr(copy_to_board.shutil, "disk_usage",
                        lambda path: shutil_usage(total=8 << 20, used=(8 << 20) - free, free=free))
    with pytest.raises(SystemExit) as e:
        run(drive, image)
    need = savelog.file_bytes() + savelog.SPACER_BYTES + 2048
    assert "free %d KB on CIRCUITPY" % ((need - free + 1023) // 1024) in str(e.value)
    assert "a power cut can lose 30 minutes of play" in str(e.value)
    assert not (drive / "fcsave").exists()  # nothing made that cannot keep the promise
    assert (drive / "code.py").exists()  # the game is there, saving to the board's memory
    assert need == notices.NEEDS  # what the game itself tells the player to free


def _fills_up_at(monkeypatch, limit):
    """Make writes of the save file stop at `limit` bytes with ENOSPC, as a full drive does
    (what was written stays: the file is left short)."""
    real = Path.write_bytes

    def write_bytes(self, data):
        if self.name == "saves.bin" and len(data) > limit:
            real(self, data[:limit])
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)


def test_a_drive_that_fills_up_mid_save_file_is_told_so_and_the_rerun_makes_it_whole(
        drive, image, monkeypatch):
    with monkeypatch.context() as m:
        _fills_up_at(m, 528384)
        with pytest.raises(SystemExit) as e:
            run(drive, image)
    said = str(e.value)
    assert "CIRCUITPY filled up while the save file was written" in said
    assert "free " in said and "KB on CIRCUITPY and run this again" in said
    assert "USB updates" not in said  # the drive is writable: that advice would mislead
    assert not (drive / "fcsave").exists()  # the half file is not left behind
    assert (drive / "code.py").exists()  # the game is copied all the same
    copied, _, _, out = run(drive, image)
    assert copied == saves_of(image)
    saves = drive / "fcsave" / "ring" / "saves.bin"
    assert saves.read_bytes() == (image / "fcsave" / "ring" / "saves.bin").read_bytes()


def test_a_short_save_file_an_earlier_run_left_is_mended_and_a_foreign_one_kept(drive, image):
    run(drive, image)
    saves = drive / "fcsave" / "ring" / "saves.bin"
    whole = saves.read_bytes()
    saves.write_bytes(whole[:528384])  # what the copy tool once left on a full drive
    copied, _, _, out = run(drive, image)
    assert "mended fcsave/ring/saves.bin" in out and copied == saves_of(image)
    assert saves.read_bytes() == whole
    foreign = b"not a save file" + whole[15:528384]
    saves.write_bytes(foreign)
    copied, _, _, out = run(drive, image)
    assert copied == [] and saves.read_bytes() == foreign
    assert "not one this tool left short" in out and "Move it away" in out


def test_a_full_drive_while_the_game_s_files_are_copied_says_so(drive, image, monkeypatch):
    real = Path.write_bytes

    def write_bytes(self, data):
        if self.suffix == ".mpy":
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    with pytest.raises(SystemExit) as e:
        run(drive, image)
    assert "CIRCUITPY is full" in str(e.value) and "USB updates" not in str(e.value)


def test_the_drives_fat_is_read_to_check_where_the_save_file_landed(drive, image, tmp_path):
    """Given the drive as a device (here the simulator's image), the FAT is read."""
    from host_sim import circuitpy

    good = tmp_path / "good"
    good.mkdir()
    circuitpy.open_drive(str(good))
    _, _, _, out = run(drive, image, device=str(good / "circuitpy.img"))
    assert "checked on" in out and "lies in one run" in out
    # A drive whose free space was in pieces: the file went into the holes.
    holes = tmp_path / "holes"
    holes.mkdir()
    vol = circuitpy.open_drive(str(holes), populate=False)
    for i in range(40):
        with vol.open("f%d.bin" % i, "wb") as f:
            f.write(b"x" * 3000)
    for i in range(0, 40, 2):
        vol.remove("f%d.bin" % i)
    from host_sim import fat, savefile

    vol = fat.Volume(vol.flash)  # mounted again, FatFs looks for free clusters from the start
    savefile.install(vol)
    vol._sync_fs()
    import shutil

    shutil.rmtree(drive / "fcsave")  # a drive the tool makes the save file on
    _, _, _, out = run(drive, image, device=str(holes / "circuitpy.img"))
    assert "warning: " in out and "not in one run" in out and "erase_filesystem" in out
    # The file it made there is refused: removed again, and said so; the game then saves
    # to nvm alone and tells the player at its start (tests/test_faults_fragmented.py).
    assert "refused: " in out and "it was removed" in out
    assert not (drive / "fcsave").exists()
    # A save file already there is the player's: warned about, never removed.
    for rel in saves_of(image):
        (drive / rel).parent.mkdir(parents=True, exist_ok=True)
        (drive / rel).write_bytes((image / rel).read_bytes())
    copied, _, _, out = run(drive, image, device=str(holes / "circuitpy.img"))
    assert "not in one run" in out and "refused" not in out
    assert (drive / savelog.LOG_PATH).is_file()


def test_dry_run_changes_nothing(drive, image):
    """--dry-run lists what would be copied and writes nothing."""
    copied, _, _, out = run(drive, image, dry_run=True)
    assert copied == saves_of(image) + files_of(image)
    assert "would copy code.py" in out
    assert not (drive / "lib" / "freecell_mc").exists() and not (drive / "code.py").exists()


def test_a_missing_image_is_built_first(drive, tmp_path, cp_mpy_cross):
    """With no image yet, the copy builds it, then copies it."""
    where = tmp_path / "build" / "CIRCUITPY"
    copied, _, _, out = run(drive, where, mpy_cross=str(cp_mpy_cross))
    assert "building the image (no image in" in out
    assert bundle.stale(where) is None
    assert (drive / "lib" / "freecell_mc" / "app.mpy").read_bytes()[:1] == b"C"
    assert copied[-1] == Path("code.py")


def test_missing_drive_and_read_only_drive_fail_clearly(tmp_path, drive, image, monkeypatch):
    """No drive: a clear exit. A drive the game owns (read-only): says how to open it."""
    with pytest.raises(SystemExit) as e:
        run(tmp_path / "nowhere", image)
    assert "is CIRCUITPY mounted" in str(e.value)

    def refuse(self, data):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "write_bytes", refuse)
    with pytest.raises(SystemExit) as e:
        run(drive, image)
    assert "USB updates" in str(e.value)


def test_command_line(drive, image):
    """The script runs as a command and reports what it did."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "copy_to_board.py"), str(drive),
                           "--image", str(image)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (drive / "code.py").exists() and "copied" in proc.stdout


def test_the_drives_boot_out_txt_picks_the_image_of_its_major(drive, tmp_path, monkeypatch):
    """boot_out.txt names the firmware: a CircuitPython 9 board gets the 9.x image."""
    assert copy_to_board.board_target(drive) == "10.x"
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.8 on 2025-05-28; PyPortal\n")
    assert copy_to_board.board_target(drive) == "9.x"
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 8.2.10 on 2024-02-14\n")
    assert copy_to_board.board_target(drive) is None  # not a major the game is built for
    (drive / "boot_out.txt").unlink()
    assert copy_to_board.board_target(drive) is None
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.8 on 2025-05-28; PyPortal\n")
    asked = []
    monkeypatch.setattr(copy_to_board, "ensure_image",
                        lambda image, root, mpy_cross, out: asked.append(image) or [])
    monkeypatch.setattr(copy_to_board, "place_saves", lambda *a: [])
    copy_to_board.copy(drive, out=io.StringIO())
    assert asked == [bundle.out_dir("9.x")]


def test_a_compiler_of_another_major_than_the_boards_is_refused(drive, tmp_path):
    """The board runs 9.x and the compiler given is 10.x's: one line, exit 2, nothing written."""
    fake = tmp_path / "mpy-cross"
    fake.write_text("#!/bin/sh\necho 'CircuitPython 10.3.1 on 2026-06-01; mpy-cross emitting "
                    "mpy v6.3'\n")
    fake.chmod(0o755)
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.8 on 2025-05-28; PyPortal\n")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "copy_to_board.py"), str(drive),
                           "--mpy-cross", str(fake)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "runs CircuitPython 9.x" in proc.stderr and "10.x's compiler" in proc.stderr
    assert not (drive / "code.py").exists()


def test_the_drives_device_is_found_on_each_system(tmp_path):
    """Where the FAT is read: Linux's mount table, macOS's diskutil, Windows's volume."""
    import types

    said = ("   Device Identifier:         disk4s1\n"
            "   Device Node:               /dev/disk4s1\n"
            "   Volume Name:               CIRCUITPY\n")

    def diskutil(argv, **kw):
        assert argv == ["diskutil", "info", "/Volumes/CIRCUITPY"]
        return types.SimpleNamespace(stdout=said)

    assert copy_to_board.mounted_device("/Volumes/CIRCUITPY", "darwin", diskutil) == \
        "/dev/disk4s1"

    def nothing(argv, **kw):
        return types.SimpleNamespace(stdout="Could not find disk\n")

    assert copy_to_board.mounted_device("/Volumes/X", "darwin", nothing) is None
    assert copy_to_board.mounted_device("E:\\", "win32") == "\\\\.\\E:"
    assert copy_to_board.mounted_device("\\\\server\\share", "win32") is None
    # A device the tool cannot read (no rights, or gone): said, with how to check it,
    # nothing refused, and nothing made where it was named (the tool only reads it).
    out = io.StringIO()
    gone = tmp_path / "gone.img"
    assert copy_to_board.check_layout(tmp_path, str(gone), out) is None
    assert "could not be read" in out.getvalue() and "administrator" in out.getvalue()
    assert not gone.exists()
