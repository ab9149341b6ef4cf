# SPDX-License-Identifier: MIT
"""Write the release zips a maker unzips onto CIRCUITPY: `./dev release [--mpy-cross PATH]`.

    dist/freecell-mc-9.x-mpy-VERSION.zip     for CircuitPython 9 (its compiler's .mpy files)
    dist/freecell-mc-10.x-mpy-VERSION.zip    for CircuitPython 10
    dist/freecell-mc-py-VERSION.zip          the same as source, for reading and the simulator

named as Adafruit names its library bundles, VERSION from `git describe`. Each zip holds the
drive's own layout, so it is unzipped straight onto CIRCUITPY: the save file first (fcsave/,
as the copy tool makes it), then lib/ (the game and adafruit_touchscreen), boot.py, and
code.py last, in the order a board must receive them (code.py's write restarts the program).
The .mpy zips are `./dev bundle`'s images (tools/bundle.py); with a compiler given, only its
major's zip and the source zip are written.
"""

import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from host_sim import options  # noqa: E402
from tools import bundle, cptools  # noqa: E402

DIST = ROOT / "dist"
NAME = "freecell-mc"
# A fixed time for every entry: the same sources make the same zip, byte for byte.
STAMP = (2020, 1, 1, 0, 0, 0)


def version(root=ROOT):
    """Return the release's name from git: the tag, or tag-N-gHASH, or the hash (-dirty)."""
    try:
        proc = subprocess.run(["git", "describe", "--tags", "--always", "--dirty"], cwd=root,
                              capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise bundle.BundleError("cannot run git to name the release: %s" % e) from e
    name = proc.stdout.strip()
    if proc.returncode != 0 or not name:
        raise bundle.BundleError("git describe failed in %s: %s" % (root, proc.stderr.strip()))
    return name


def zip_name(kind, name):
    """Return the zip's file name for kind ("9.x", "10.x" or "py") and release name."""
    return "%s-%s-%s.zip" % (NAME, kind + "-mpy" if kind != "py" else "py", name)


def source_entries(root=ROOT):
    """Return [(path on the drive, source file or None)]: the game as .py files.

    The same files as an image, each .mpy as the .py it was compiled from; the libraries'
    sources are the pinned ones `bundle.libraries` finds.
    """
    out = []
    for rel in bundle.device_sources(root):
        out.append(("lib/" + rel.as_posix(), root / rel))
    for _name, _dist, _v, base, files in bundle.libraries(root):
        out += [("lib/" + p.relative_to(base).as_posix(), p) for p in files]
    return out


def _add(zf, path, data):
    """Add a file (data: bytes) or a folder (data None) to the zip, with a fixed stamp."""
    info = zipfile.ZipInfo(path + "/" if data is None else path, STAMP)
    if data is None:
        info.external_attr = 0o40755 << 16
        zf.writestr(info, b"")
    else:
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        zf.writestr(info, data)


def write_zip(path, saves, files):
    """Write a zip: saves [(path, bytes or None)] first, then files [(path, bytes)] in order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    folders = set()
    with zipfile.ZipFile(tmp, "w") as zf:
        for rel, data in saves:
            if data is None:
                folders.add(rel)
            _add(zf, rel, data)
        for rel, data in files:
            parts = rel.split("/")[:-1]
            for i in range(1, len(parts) + 1):
                folder = "/".join(parts[:i])
                if folder not in folders:
                    folders.add(folder)
                    _add(zf, folder, None)
            _add(zf, rel, data)
    tmp.replace(path)
    return path


def _saves():
    from host_sim import savefile

    return savefile.entries()


def mpy_zip(dist, name, exe, target, log):
    """Build the image with exe and zip it as the target's release; return the zip's path."""
    with tempfile.TemporaryDirectory() as tmp:
        image = Path(tmp) / "CIRCUITPY"
        manifest = bundle.build(image, exe, log=log)
        files = [(f, (image / f).read_bytes()) for f in manifest["files"]]
    return write_zip(dist / zip_name(target, name), _saves(), files)


def py_zip(dist, name, root=ROOT):
    """Zip the game and its library as source; return the zip's path."""
    bundle.fill_lib(root, bundle.libraries(root))
    files = [(rel, src.read_bytes()) for rel, src in source_entries(root)]
    files += [(n, (root / n).read_bytes()) for n in bundle.DATA + ("boot.py", "code.py")]
    return write_zip(dist / zip_name("py", name), _saves(), files)


def build_parser():
    """Return the command line's parser."""
    ap = options.Parser(prog="./dev release", description="Write the zips a maker unzips "
                        "onto CIRCUITPY.")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross: only its major's zip (else $%s, else "
                    "one found or downloaded for each major)" % cptools.MPY_CROSS_VAR)
    ap.add_argument("--out", metavar="DIR", default=str(DIST), help="where (default dist/)")
    return ap


def main(argv=None):
    """Write the zips; return the exit code (2: bad arguments or no compiler)."""
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        dist = Path(options.folder(args.out, "--out"))
        found = cptools.compilers(args.mpy_cross)
        name = version()
    except (ValueError, cptools.ToolError) as e:
        ap.refuse(e)
    try:
        written = [mpy_zip(dist, name, exe, target, io.StringIO()) for exe, target, _ in found]
        written.append(py_zip(dist, name))
    except bundle.BundleError as e:
        sys.stderr.write(options.error_line(ap.prog, e) + "\n")
        return 1
    for path in written:
        print("release: %s, %d bytes" % (path, path.stat().st_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
