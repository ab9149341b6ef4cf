# SPDX-License-Identifier: MIT
"""Copy the board image onto a mounted CIRCUITPY drive, writing only files that changed.

    python tools/copy_to_board.py /media/$USER/CIRCUITPY [--prune] [--dry-run]
                                  [--image DIR] [--mpy-cross PATH] [--device PATH]

Copies the image of `./dev bundle` for the CircuitPython the board runs (boot_out.txt on the
drive names it: build/CIRCUITPY-9.x or build/CIRCUITPY-10.x): code.py, boot.py and lib/ with
the game and its libraries compiled for it. The image is built first when it is missing or
older than the sources (with CircuitPython's mpy-cross for that major: --mpy-cross,
$FREECELL_MPY_CROSS, or the one tools/cptools.py finds or downloads). Unchanged files are not
rewritten: every write wears the board's flash and makes CircuitPython restart the program.
code.py goes last, so the restart that its write causes runs with everything else in place.

Files that would make the board run something other than the image are always removed: the
old layout's freecell_mc/ at the top of the drive (CircuitPython looks in / before /lib) and a
.py beside one of the image's .mpy files (a .py is found before the .mpy). --prune also deletes
files under lib/freecell_mc/ that the image no longer has. Nothing else on the drive (other
libraries, settings.toml, the saves) is touched.

The save file (fcsave/, host_sim/savefile.py) is made first, and only where the drive has
none: the board never makes it (docs/saves.md), and a player's saves are never written
over. Where the drive cannot hold it, the tool says how much to free. Afterwards it reads
the drive's FAT, where the computer lets it read the drive itself (--device, or the device
mounted there on Linux), and says whether the file landed in one run with nothing else in
the 4 KB flash sectors a save erases; a file it made that did not is removed again, and the
tool says so (the game then saves to the board's own memory rather than risk other files).
"""

import errno
import os
import re
import shutil
import sys
from pathlib import Path

# Run as a script, tools/ is on sys.path; imported from the tests, the root is.
try:
    import bundle
except ImportError:
    from tools import bundle
from host_sim import options, savefile  # bundle put the root on sys.path
from tools import cptools

ROOT = Path(__file__).resolve().parent.parent


def same(src, dst):
    """Return True if dst exists with exactly src's bytes."""
    try:
        if dst.stat().st_size != src.stat().st_size:
            return False
        return dst.read_bytes() == src.read_bytes()
    except OSError:
        return False


def board_target(dest):
    """Return the CircuitPython major ("9.x", "10.x") the drive's boot_out.txt names, or None.

    The firmware writes it at every start: "Adafruit CircuitPython 10.2.1 on 2025-...".
    """
    try:
        text = (Path(dest) / "boot_out.txt").read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r"CircuitPython (\d+)\.", text)
    target = m.group(1) + ".x" if m else None
    return target if target in cptools.TARGETS else None


def ensure_image(image, root=ROOT, mpy_cross=None, out=sys.stdout):
    """Build the image when it is missing or stale; return its list of files in write order."""
    try:
        why = bundle.stale(image, root)
        if why is not None:
            out.write("building the image (%s)\n" % why)
            bundle.build(image, mpy_cross, root, log=out)
    except cptools.ToolError as e:
        raise SystemExit("copy_to_board: error: cannot build the image: %s (run this tool with "
                         ".venv/bin/python after ./dev setup)" % e) from e
    return [Path(f) for f in bundle.read_manifest(image)["files"]]


def shadowing(dest, files):
    """Return files on dest that the board would load instead of the image's, relative to dest."""
    found = []
    old = dest / "freecell_mc"
    if old.is_dir():
        found += [p.relative_to(dest) for p in old.rglob("*") if p.is_file()]
    for rel in files:
        if rel.suffix == ".mpy" and (dest / rel.with_suffix(".py")).is_file():
            found.append(rel.with_suffix(".py"))
    return sorted(set(found))


def stale(dest, files):
    """Return files under dest/lib/freecell_mc that the image does not have."""
    target = dest / "lib" / "freecell_mc"
    if not target.is_dir():
        return []
    keep = set(files)
    return sorted(p.relative_to(dest) for p in target.rglob("*")
                  if p.is_file() and p.relative_to(dest) not in keep)


def _remove(dest, rels):
    """Delete the files rels under dest, then any folders of the game left empty."""
    for rel in rels:
        (dest / rel).unlink()
    for top in (dest / "freecell_mc", dest / "lib" / "freecell_mc"):
        if top.is_dir():
            for d in sorted((p for p in top.rglob("*") if p.is_dir()), reverse=True):
                if not any(d.iterdir()):
                    d.rmdir()
            if top.name == "freecell_mc" and top.parent == dest and not any(top.iterdir()):
                top.rmdir()


class NoRoomError(Exception):
    """The drive cannot hold the save file; the message says how much to free."""


def _ours(data, blank):
    """Return True if data is a save file this tool began and did not finish: a short copy
    of the empty file, its first record place aside (where a record carried over from the
    earlier layout may lie). The game never writes a file of the wrong size, so none of
    it can be the player's."""
    if len(data) >= len(blank):
        return False
    at = savefile.savelog.GUARD * savefile.savelog.SECTOR
    end = at + savefile.savelog.SECTOR
    return data[:at] == blank[:at] and data[end:] == blank[end : len(data)]


def _no_room(free, need, cause):
    return NoRoomError(
        "copy_to_board: error: %s: free %d KB on CIRCUITPY and run this again. Until then "
        "the game saves to the board's own memory, and a power cut can lose 30 minutes of "
        "play." % (cause, (need - free + 1023) // 1024))


def place_saves(dest, image, dry_run=False, out=sys.stdout):
    """Make the save file where the drive has none; return the paths written (or to write).

    A save file already there is the player's and is kept whatever it holds; one of the
    wrong size is only reported, unless it is this tool's own, cut short when the drive
    filled up: that one is made again. Raise NoRoomError with how much to free when it
    cannot fit, before writing or when the drive fills up while it is written (what the
    run made is then removed again, so the next run finds no half file).
    """
    rels = [Path(p) for p in (bundle.read_manifest(image) or {}).get("saves", [])]
    if not rels:
        return []
    target = dest / rels[-1]
    want = (image / rels[-1]).stat().st_size
    mended = False
    if target.exists():
        size = target.stat().st_size if target.is_file() else -1
        if size == want:
            out.write("kept %s (the saves)\n" % rels[-1])
            return []
        if size < 0 or not _ours(target.read_bytes(), (image / rels[-1]).read_bytes()):
            out.write("warning: %s is %s, not a save file of %d bytes, and not one this tool "
                      "left short: the game cannot save there, and it is not touched. Move it "
                      "away and run this again.\n"
                      % (rels[-1], "a folder" if size < 0 else "%d bytes" % size, want))
            return []
        mended = True  # an earlier run's, cut short when CIRCUITPY filled up
    # The spacer and the file's folder are made afresh with the file, one after the
    # other, so that they lie together (host_sim/savefile.py says why). Nothing else in
    # the save folder is touched.
    spacer, ring = dest / rels[0], (dest / rels[-1]).parent
    need = sum((image / rel).stat().st_size for rel in rels) + 2 * 1024  # two folders
    free = shutil.disk_usage(dest).free
    free += spacer.stat().st_size if spacer.is_file() else 0
    free += target.stat().st_size if mended else 0
    if free < need:
        raise _no_room(free, need, "CIRCUITPY has %d KB free and the save file needs %d KB"
                       % (free // 1024, need // 1024))
    if dry_run:
        return rels
    if spacer.is_file():
        spacer.unlink()
    if ring.is_dir():
        shutil.rmtree(ring)
    if mended:
        out.write("mended %s: an earlier run left it short when CIRCUITPY filled up; it is "
                  "made again\n" % rels[-1])
    carried = carry_over(dest, out)
    made = []
    try:
        for rel in rels:
            data = (image / rel).read_bytes()
            if rel == rels[-1] and carried is not None:
                at = savefile.savelog.GUARD * savefile.savelog.SECTOR
                data = data[:at] + carried + data[at + len(carried):]
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            made.append(rel)
            (dest / rel).write_bytes(data)
    except OSError as e:
        if e.errno not in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            raise  # read-only and the like: copy() says how to open the drive
        _unmake(dest, made)
        raise _no_room(shutil.disk_usage(dest).free, need,
                       "CIRCUITPY filled up while the save file was written (%s)"
                       % (e.strerror or e)) from e
    return rels


def _unmake(dest, made):
    """Remove the files of the save folder this run made (in reverse), then its folders
    if they are empty."""
    ring = Path(savefile.savelog.LOG_PATH).parent
    for path in [Path(dest) / rel for rel in reversed(made)] + [Path(dest) / ring,
                                                                Path(dest) / ring.parent]:
        try:
            if path.is_dir():
                path.rmdir()  # only when empty: fcsave/ may hold the earlier layout's saves
            elif path.exists():
                path.unlink()
        except OSError:
            pass


OLD_SAVES = "fcsave/saves.bin"  # the earlier layout's save file, which the board made itself


def carry_over(dest, out=sys.stdout):
    """Return the newest save of the earlier layout's file on dest (a record), or None.

    The game reads only the save file at its new place; the newest record of the old one
    goes into the new file's first place, so an update loses no play. The old file is left
    as it is (the player may delete it: it is 1 MB).
    """
    from freecell_mc.saves import loading, record

    path = dest / OLD_SAVES
    if not path.is_file():
        return None
    data = path.read_bytes()
    sector = savefile.savelog.SECTOR
    found = []
    for at in range(savefile.savelog.GUARD * sector, len(data) - record.REC + 1, sector):
        rec = data[at : at + record.REC]
        if record.check(rec) == record.OK and record.refusal(rec) is None:
            found.append((record.seq_of(rec), rec))
    if not found:
        return None
    # The places after nvm's (loading.NVM_PLACES): the earlier file's records, counted alike.
    newest = loading.newest_of([-1] * loading.NVM_PLACES + [seq for seq, _ in found])
    rec = [r for seq, r in found if seq == newest][0]
    out.write("carried the newest save of %s (the earlier layout) over; that file may be "
              "deleted\n" % OLD_SAVES)
    return rec


def boot_out(dest, dry_run=False, out=sys.stdout):
    """Write boot_out.txt as the board's next start will find it, if it differs.

    The firmware rewrites boot_out.txt at a start whose boot.py prints other text than it
    holds (CircuitPython's main.c), an erase of the flash sector it shares with the boot
    sector, the FAT, the root folder and fcsave/; the game's boot.py prints one line, the
    same at every start. Written here, from the computer, the board never rewrites it.
    """
    from host_sim import circuitpy

    path = Path(dest) / "boot_out.txt"
    try:
        old = path.read_bytes()
    except OSError:
        return  # no firmware's text to keep (told above: maybe not a CIRCUITPY drive)
    new = circuitpy.boot_out_text(old)
    if new != old:
        if not dry_run:
            path.write_bytes(new)
        out.write("%s boot_out.txt as the board will write it, so it never does\n"
                  % ("would write" if dry_run else "wrote"))


def mounted_device(dest, platform=None, run=None):
    """Return the device mounted at dest, or None: Linux's from /proc/self/mounts, macOS's
    from `diskutil info`, Windows's volume (\\\\.\\E:). Reading it takes the rights the
    system gives: root (sudo) on macOS and most Linux systems, an administrator on Windows.
    """
    platform = platform or sys.platform
    if platform == "darwin":
        import subprocess

        run = run or subprocess.run
        try:
            info = run(["diskutil", "info", str(dest)], capture_output=True, text=True,
                       timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        m = re.search(r"^\s*Device Node:\s*(/dev/\S+)\s*$", info, re.M)
        return m.group(1) if m else None
    if platform == "win32":
        import ntpath

        drive = ntpath.splitdrive(str(dest))[0]
        return "\\\\.\\" + drive if re.fullmatch(r"[A-Za-z]:", drive) else None
    try:
        with open("/proc/self/mounts") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    where = os.path.realpath(dest)
    for line in lines:
        parts = line.split()
        if len(parts) > 2 and parts[1].replace("\\040", " ") == where and parts[0].startswith("/"):
            return parts[0]
    return None


def check_layout(dest, device=None, out=sys.stdout):
    """Read the drive's FAT and say where the save file landed; return its problems or None.

    None when the drive cannot be read as a device here (the layout is then assumed).
    """
    from host_sim.fat import Volume
    from host_sim.flash import FLASH_BYTES, Flash

    device = device or mounted_device(dest)
    if device is None:
        out.write("note: the drive's FAT was not read (no device for %s; --device names "
                  "it), so where the save file lies is not checked\n" % dest)
        return None
    try:
        with open(device, "rb") as f:  # read only: the tool never writes the device
            data = f.read(FLASH_BYTES)
        fl = Flash()
        fl.data[0 : len(data)] = data
        problems = savefile.layout_problems(Volume(fl))
    except OSError as e:
        out.write("note: %s could not be read (%s), so where the save file lies is not "
                  "checked; run this again as root (sudo) or, on Windows, as an "
                  "administrator to check it\n" % (device, e.strerror or e))
        return None
    if problems:
        for p in problems:
            out.write("warning: %s\n" % p)
        out.write("warning: a power cut while the game saves could then damage other files. "
                  "Copy your files off the drive, let CircuitPython format it "
                  "(storage.erase_filesystem() at the REPL), and copy the game again.\n")
    else:
        out.write("checked on %s: the save file lies in one run, its flash sectors its own\n"
                  % device)
    return problems


def refuse_saves(dest, made, out=sys.stdout):
    """Remove the save file this run made where it landed in pieces, and say so.

    A save erases the 4 KB flash sectors of the places it writes; where those hold other
    files' data, a power cut during the erase destroys it. The game then saves to the
    board's memory alone (it tells the player at its start) rather than risk them.
    """
    _unmake(dest, made)
    if hasattr(os, "sync"):
        os.sync()
    out.write("refused: the drive's free space is in pieces, so the save file shared flash "
              "sectors with other files, and a power cut while the game saves could destroy "
              "them; it was removed. The game saves to the board's own memory meanwhile (a "
              "power cut can lose 30 minutes of play). Copy your files off the drive, let "
              "CircuitPython format it (storage.erase_filesystem() at the REPL), and copy "
              "the game again.\n")


def copy(dest, image=None, root=ROOT, prune=False, dry_run=False, mpy_cross=None,
         out=sys.stdout, device=None):
    """Copy the image to dest; return (copied, unchanged, removed) lists of relative paths.

    image: default, the one of the major the drive's boot_out.txt names (else 10.x's).
    The save file, when it is made, comes first in copied.
    """
    dest = Path(dest)
    if image is None:
        image = bundle.out_dir(board_target(dest) or cptools.VM_TARGET)
    image = Path(image)
    if not dest.is_dir():
        raise SystemExit(
            "copy_to_board: error: %s is not a directory (is CIRCUITPY mounted?)" % dest)
    if not (dest / "boot_out.txt").exists():
        out.write("note: %s has no boot_out.txt; it may not be a CIRCUITPY drive\n" % dest)
    files = ensure_image(image, root, mpy_cross, out)
    copied, unchanged = [], []
    no_room = None
    removed = shadowing(dest, files)
    if prune:
        removed += [p for p in stale(dest, files) if p not in removed]
    try:
        if not dry_run:
            # Before the copy: code.py's write restarts the board, which must not find them.
            _remove(dest, removed)
        # First, so that it takes the drive's free space in one run, before any file the
        # copy rewrites leaves a hole.
        try:
            copied += place_saves(dest, image, dry_run, out)
        except NoRoomError as e:
            no_room = str(e)  # the game is copied all the same: it saves to nvm meanwhile
        boot_out(dest, dry_run, out)
        for rel in files:
            src, dst = image / rel, dest / rel
            if same(src, dst):
                unchanged.append(rel)
                continue
            copied.append(rel)
            if dry_run:
                continue
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(src.read_bytes())
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            raise SystemExit(
                "copy_to_board: error: CIRCUITPY is full: %s could not be written (%s). Free "
                "some space on it (the game needs %d KB in all) and run this again."
                % (e.filename or dest, e.strerror or e, _image_kb(image))) from e
        raise SystemExit(
            "copy_to_board: error: cannot write to %s (%s). If the game owns CIRCUITPY, switch "
            "on USB updates in Settings and reset the board (docs/saves.md)." % (dest, e)) from e
    if not dry_run and hasattr(os, "sync"):
        # The board's drive is FAT over USB: unplugging before the cache is flushed loses files.
        os.sync()
    if not dry_run and (dest / savefile.savelog.LOG_PATH).is_file():
        problems = check_layout(dest, device, out)
        made = [rel for rel in copied if str(rel).replace(os.sep, "/").startswith(
            savefile.savelog.LOG_DIR + "/")]
        if problems and made:
            refuse_saves(dest, made, out)
            copied = [rel for rel in copied if rel not in made]
    verb = "would copy" if dry_run else "copied"
    for rel in removed:
        out.write("%s %s\n" % ("would remove" if dry_run else "removed", rel))
    for rel in copied:
        out.write("%s %s\n" % (verb, rel))
    out.write("%d %s, %d unchanged, %d removed\n" % (len(copied), verb, len(unchanged),
                                                     len(removed)))
    if not prune:
        left = stale(dest, files)
        if left:
            out.write("%d old file(s) under lib/freecell_mc/ are not in the image; --prune "
                      "removes them\n" % len(left))
    if no_room is not None:
        raise SystemExit(no_room)
    return copied, unchanged, removed


def _image_kb(image):
    """Return the KB the whole image takes on the drive (its files and the save folder)."""
    total = sum(f.stat().st_size for f in Path(image).rglob("*") if f.is_file())
    return (total + 1023) // 1024


def check_args(args):
    """Check the drive and what building the image needs before anything is written;
    raise ValueError with one line."""
    dest = Path(args.circuitpy)
    if not dest.is_dir():
        raise ValueError("%s is not a directory (is CIRCUITPY mounted?)" % dest)
    if args.device is not None and not os.path.exists(args.device):
        raise ValueError("--device %s does not exist" % args.device)
    runs = board_target(dest)
    try:
        given = cptools.given_mpy_cross(args.mpy_cross)
        if given is not None and runs is not None and given[1] != runs:
            raise ValueError("the board runs CircuitPython %s and %s is %s's compiler"
                             % (runs, given[0], given[1]))
        target = given[1] if given else runs or cptools.VM_TARGET
        image = Path(args.image or bundle.out_dir(target)).resolve()
        if image.exists() and not image.is_dir():
            raise ValueError("--image %s is a file, not a folder" % args.image)
        exe = given[0] if given else None
        if bundle.stale(image) is not None:  # it will be built: all it takes must be there
            options.folder(str(image), "--image")
            bundle.check_out(image)
            if exe is None:
                exe = cptools.find_mpy_cross(target, download=True)[0]
    except cptools.ToolError as e:
        raise ValueError("cannot build the image: %s" % " ".join(str(e).split())) from None
    return image, exe


def build_parser():
    """Return the command line's parser."""
    ap = options.Parser(prog="copy_to_board",
                        description="Copy FreeCell MC onto a mounted CIRCUITPY drive.")
    ap.add_argument("circuitpy", help="the mounted drive, e.g. /media/$USER/CIRCUITPY")
    ap.add_argument("--prune", action="store_true",
                    help="delete files under lib/freecell_mc/ that the image no longer has")
    ap.add_argument("--dry-run", action="store_true", help="only say what would change")
    ap.add_argument("--image",
                    help="the image to copy (default build/CIRCUITPY-<major> for the major "
                    "the drive's boot_out.txt names, built when stale)")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross, to build the image (else $%s, else "
                    "found or downloaded: tools/cptools.py)" % cptools.MPY_CROSS_VAR)
    ap.add_argument("--device", metavar="PATH",
                    help="the drive as a block device or image (e.g. /dev/sdb1), to check where "
                    "the save file lies (default: the device mounted there, on Linux)")
    return ap


def main(argv=None):
    """Parse and check the arguments, then copy; return the exit code (2: bad arguments)."""
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        image, exe = check_args(args)
    except ValueError as e:
        ap.refuse(e)
    copy(args.circuitpy, image=image, prune=args.prune, dry_run=args.dry_run,
         mpy_cross=exe, device=args.device)
    return 0


if __name__ == "__main__":
    sys.exit(main())
