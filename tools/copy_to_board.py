# SPDX-License-Identifier: MIT
"""Copy FreeCell MC onto a mounted CIRCUITPY drive, skipping files that are already there.

    python tools/copy_to_board.py /media/$USER/CIRCUITPY [--prune] [--dry-run]

Copies freecell_mc/ (every .py), boot.py and code.py. Unchanged files are not rewritten:
every write wears the board's flash and makes CircuitPython restart the program. code.py goes
last, so the restart that its write causes runs with the whole package in place. --prune
deletes .py files under CIRCUITPY/freecell_mc/ that no longer exist here. Libraries go to
CIRCUITPY/lib with `circup install -r requirements.txt`.
"""

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sources(root=ROOT):
    """Return the files to copy, relative to root, in the order to write them."""
    pkg = sorted(p.relative_to(root) for p in (root / "freecell_mc").rglob("*.py")
                 if "__pycache__" not in p.parts)
    return pkg + [Path(n) for n in ("boot.py", "code.py") if (root / n).exists()]


def same(src, dst):
    """Return True if dst exists with exactly src's bytes."""
    try:
        if dst.stat().st_size != src.stat().st_size:
            return False
        return dst.read_bytes() == src.read_bytes()
    except OSError:
        return False


def stale(dest, root=ROOT):
    """Return .py files under dest/freecell_mc that have no source here any more."""
    target = dest / "freecell_mc"
    if not target.is_dir():
        return []
    keep = set(sources(root))
    return sorted(p.relative_to(dest) for p in target.rglob("*.py")
                  if p.relative_to(dest) not in keep)


def copy(dest, root=ROOT, prune=False, dry_run=False, out=sys.stdout):
    """Copy the game to dest; return (copied, unchanged, removed) lists of relative paths."""
    dest = Path(dest)
    if not dest.is_dir():
        raise SystemExit("copy_to_board: %s is not a directory (is CIRCUITPY mounted?)" % dest)
    if not (dest / "boot_out.txt").exists():
        out.write("note: %s has no boot_out.txt; it may not be a CIRCUITPY drive\n" % dest)
    copied, unchanged, removed = [], [], []
    for rel in sources(root):
        src, dst = root / rel, dest / rel
        if same(src, dst):
            unchanged.append(rel)
            continue
        copied.append(rel)
        if dry_run:
            continue
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(src.read_bytes())
        except OSError as e:
            raise SystemExit(
                "copy_to_board: cannot write %s (%s). If the game owns CIRCUITPY, switch "
                "on USB updates in Settings and reset the board (docs/saves.md)." % (dst, e))
    if prune:
        for rel in stale(dest, root):
            removed.append(rel)
            if not dry_run:
                (dest / rel).unlink()
    if not dry_run and hasattr(os, "sync"):
        # The board's drive is FAT over USB: unplugging before the cache is flushed loses files.
        os.sync()
    verb = "would copy" if dry_run else "copied"
    for rel in copied:
        out.write("%s %s\n" % (verb, rel))
    for rel in removed:
        out.write("%s %s\n" % ("would remove" if dry_run else "removed", rel))
    out.write("%d %s, %d unchanged, %d removed\n" % (len(copied), verb, len(unchanged),
                                                     len(removed)))
    if not prune:
        left = stale(dest, root)
        if left:
            out.write("%d old file(s) under freecell_mc/ have no source; --prune removes them\n"
                      % len(left))
    return copied, unchanged, removed


def main(argv=None):
    """Parse the arguments and copy; return the exit code."""
    ap = argparse.ArgumentParser(description="Copy FreeCell MC onto a mounted CIRCUITPY drive.")
    ap.add_argument("circuitpy", help="the mounted drive, e.g. /media/$USER/CIRCUITPY")
    ap.add_argument("--prune", action="store_true",
                    help="delete freecell_mc/*.py on the drive that no longer exist here")
    ap.add_argument("--dry-run", action="store_true", help="only say what would change")
    args = ap.parse_args(argv)
    copy(args.circuitpy, prune=args.prune, dry_run=args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
