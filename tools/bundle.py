# SPDX-License-Identifier: MIT
"""Build the CIRCUITPY image the board runs: `./dev bundle [--target 9.x|10.x] [--mpy-cross PATH]`.

Writes build/CIRCUITPY-9.x/ and build/CIRCUITPY-10.x/ (git-ignored), one for each
CircuitPython major the game is built for, as Adafruit builds its library bundles; with a
compiler given (--mpy-cross, $FREECELL_MPY_CROSS) only the image of its major:

    code.py, boot.py            as they are (the board runs only these two as source)
    howto.txt                   as it is: the words of How to play, read a page at a time
    lib/freecell_mc/**.mpy      the game, compiled by CircuitPython's own mpy-cross (the date
                                picker's DEFAULT_DATE set to the date of the commit built)
    lib/<library>.mpy           every library of requirements.txt the firmware does not freeze
                                (today adafruit_touchscreen alone), compiled from the pinned
                                package in the development set-up
    fcsave/                     the empty save file and the spacer before its folder
                                (host_sim/savefile.py): the board never makes them itself,
                                tools/copy_to_board.py copies them where they are missing

No settings.toml: the game fits the board's default call stack and heap, so nothing needs
changing there (docs/architecture.md).

The libraries come from the Python packages pinned with `==` in requirements-dev.txt (./dev
installs them into .venv), never from a copy kept in the repository. Their sources are placed
in the repository's lib/ first (git-ignored, the CIRCUITPY layout) and compiled from there, so
lib/ always holds exactly the pinned versions. A `.bundle` file in the image records what went
in; tools/copy_to_board.py reads it to rebuild a stale image and to copy it in order.

The compilers are found, or downloaded by circuitpython-build-tools, as tools/cptools.py
says. MicroPython's mpy-cross is refused: CircuitPython rejects its files ("incompatible .mpy
file").
"""

import hashlib
import importlib.machinery
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as tools/bundle.py (copy_to_board imports it so)
    sys.path.insert(0, str(ROOT))
from freecell_mc.ui import layout  # noqa: E402  (after the root is on the path)
from host_sim import options, savefile  # noqa: E402  (after the root is on the path)
from tools import cptools  # noqa: E402

BUILD = ROOT / "build"
MANIFEST = ".bundle"
# A board whose clock and saves know no date asks for it from the date picker, which starts
# from DEFAULT_DATE: the image carries the date of the commit it is built from there (never
# after today, and the same image for the same commit), or the source's, whichever is later.
DATED = "freecell_mc/ui/screens/datepicker.py"
_DATE_LINE = re.compile(r"^DEFAULT_DATE = \((\d+), (\d+), (\d+)\)$", re.M)
# Files the game reads from the drive's top, copied as they are (ui/screens/howto.py).
DATA = ("howto.txt",)


def out_dir(target):
    """Return where `./dev bundle` writes the image of a target such as "10.x"."""
    return BUILD / ("CIRCUITPY-" + target)


# Frozen into the PyPortal, Pynt and Titano firmware (SPEC section 6; the board stubs of
# circuitpython-stubs list the same, which tests/test_board_image.py checks): a frozen module
# wins over /lib, so a copy in lib/ would only take flash. The game imports none of them
# (it draws text from the firmware font's glyph sheet, not with adafruit_display_text), so
# nothing goes into the image for them.
FROZEN = frozenset({
    "adafruit_connection_manager",
    "adafruit_display_text",
    "adafruit_esp32spi",
    "adafruit_fakerequests",
    "adafruit_portalbase",
    "adafruit_requests",
    "neopixel",
})
# The boards the game is for, by their circuitpython-stubs board definition (their board_id).
BOARDS = tuple(board_id for _, board_id, _, _, _ in layout.BOARDS)
# Part of every CircuitPython core, so the board stubs do not list them.
CORE = frozenset({"gc", "micropython"})


class BundleError(cptools.ToolError):
    """The image cannot be built; the message says why and what to do."""


def board_modules(board):
    """Return (built-in modules, frozen libraries) of a board, from its circuitpython-stubs.

    The board definitions' docstrings list them ("Included modules: ...", "Frozen
    libraries: ..."), taken from the firmware's build settings.
    """
    purelib = Path(sysconfig.get_paths()["purelib"])
    path = purelib / "board_definitions" / board / "__init__.pyi"
    try:
        text = path.read_text()
    except OSError as e:
        raise BundleError("no board definition for %s (circuitpython-stubs; run ./dev setup)"
                          % board) from e
    found = {}
    for key in ("Included modules", "Frozen libraries"):
        m = re.search(r"^ - %s: (.*)$" % key, text, re.M)
        names = m.group(1).split(",") if m else []
        # "busio.SPI", "os.getenv", "_bleio (HCI co-processor)": the module is the first word
        found[key] = {n.strip().split(".")[0].split(" ")[0] for n in names if n.strip()}
    return found["Included modules"], found["Frozen libraries"]


def builtin_modules():
    """Return the modules built into the firmware of every one of the game's boards."""
    common = None
    for board in BOARDS:
        included = board_modules(board)[0]
        common = included if common is None else common & included
    if not common or "displayio" not in common:
        raise BundleError("the board definitions list no modules; run ./dev setup")
    return frozenset(common | CORE)


def device_sources(root=ROOT):
    """Return the game's modules (freecell_mc/**.py) relative to root, sorted."""
    return sorted(p.relative_to(root) for p in (root / "freecell_mc").rglob("*.py")
                  if "__pycache__" not in p.parts)


def required(root=ROOT):
    """Return the circup names in requirements.txt, in file order."""
    out = []
    for line in (root / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and line not in out:
            out.append(line)
    return out


def pins(root=ROOT):
    """Return {distribution name (normalised): version} of the `==` lines in requirements-dev."""
    out = {}
    for line in (root / "requirements-dev.txt").read_text().splitlines():
        m = re.match(r"\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#]+)", line)
        if m:
            out[_norm(m.group(1))] = m.group(2)
    return out


def _norm(name):
    """Return a distribution name normalised as PEP 503 does."""
    return re.sub(r"[-_.]+", "-", name).lower()


def library_files(name):
    """Return (distribution, version, base, [files]) of the installed library `name`.

    base is the directory the module or package sits in, so the files' paths relative to it
    are their paths under CIRCUITPY/lib.
    """
    # PathFinder searches sys.path only: the simulator may have put a stand-in into sys.modules.
    spec = importlib.machinery.PathFinder.find_spec(name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        raise BundleError("library %s is not installed as Python source; run ./dev setup" % name)
    origin = Path(spec.origin)
    if spec.submodule_search_locations:
        base = origin.parent.parent
        files = sorted(p for p in origin.parent.rglob("*.py") if "__pycache__" not in p.parts)
    else:
        base = origin.parent
        files = [origin]
    dists = importlib.metadata.packages_distributions().get(name, [])
    if len(dists) != 1:
        raise BundleError("cannot tell which package installed %s (%s)" % (name, dists or "none"))
    dist = dists[0]
    return dist, importlib.metadata.version(dist), base, files


def libraries(root=ROOT):
    """Return [(name, dist, version, base, files)] for every library the image must carry.

    Each must be pinned with == in requirements-dev.txt and installed at exactly that version:
    the image is then the same on every machine.
    """
    pinned = pins(root)
    out = []
    for name in required(root):
        if name in FROZEN:
            continue
        dist, version, base, files = library_files(name)
        want = pinned.get(_norm(dist))
        if want is None:
            raise BundleError("%s (from %s) is not pinned: add `%s==%s` to requirements-dev.txt"
                              % (name, dist, dist, version))
        if want != version:
            raise BundleError("%s is pinned at %s but %s is installed; run ./dev setup"
                              % (dist, want, version))
        out.append((name, dist, version, base, files))
    return out


def compile_mpy(exe, src, dst, name, target=None):
    """Compile src to dst with `name` as the source name in tracebacks; check the header.

    Every .mpy starts with its major's header (cptools.MPY_HEADER); without a target, with
    b"C", CircuitPython's (MicroPython's start with b"M").
    """
    dst.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([str(exe), "-o", str(dst), "-s", name, str(src)],
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise BundleError("mpy-cross failed on %s:\n%s" % (name, (proc.stdout + proc.stderr)
                                                             .strip()))
    want = cptools.MPY_HEADER[target] if target else b"C"
    with open(dst, "rb") as f:
        head = f.read(len(want))
    if head != want:
        raise BundleError("%s: mpy-cross wrote a file starting %r, not %r" % (name, head, want))


def build_date(root=ROOT):
    """Return (y, m, d) of the commit root is checked out at, or None where git cannot say."""
    try:
        proc = subprocess.run(["git", "log", "-1", "--format=%cs"], cwd=root,
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)", proc.stdout.strip())
    if proc.returncode != 0 or m is None:
        return None
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)))


def dated_source(text, date):
    """Return the date picker's source text with DEFAULT_DATE at date, if date is later."""
    m = _DATE_LINE.search(text)
    if m is None:
        raise BundleError("%s has no line DEFAULT_DATE = (y, m, d) to date the image" % DATED)
    if date is None or date <= tuple(int(g) for g in m.groups()):
        return text
    return text[:m.start()] + "DEFAULT_DATE = (%d, %d, %d)" % date + text[m.end():]


def inputs_digest(root=ROOT, libs=None):
    """Return a digest of everything the image is made from (not the compiler's identity)."""
    h = hashlib.sha256()
    if libs is None:
        libs = libraries(root)
    # (label, path): labels are relative, so a moved tree or venv keeps its digest
    files = [(p.as_posix(), root / p) for p in device_sources(root)]
    files += [(n, root / n) for n in DATA + ("code.py", "boot.py", "requirements.txt",
                                      "requirements-dev.txt", "tools/bundle.py",
                                      "host_sim/savefile.py")]
    for name, dist, version, base, lib_files in libs:
        h.update(("%s %s %s\n" % (name, dist, version)).encode())
        files += [("lib/" + p.relative_to(base).as_posix(), p) for p in lib_files]
    for label, path in files:
        h.update(label.encode() + b"\0")
        h.update(path.read_bytes() if path.exists() else b"(missing)")
        h.update(b"\0")
    return h.hexdigest()


def fill_lib(root, libs, out=sys.stdout):
    """Make the repository's lib/ hold exactly the pinned libraries' sources (README stays)."""
    lib = root / "lib"
    lib.mkdir(exist_ok=True)
    want = {}
    for _name, _dist, _version, base, files in libs:
        for path in files:
            want[path.relative_to(base)] = path
    for path in sorted(lib.rglob("*"), reverse=True):
        rel = path.relative_to(lib)
        if rel == Path("README.md") or rel.name.startswith("."):
            continue  # ours, or another build's file being written
        # Another build in the same tree may tidy at the same moment: gone is fine.
        if path.is_dir():
            if not any(path.iterdir()):
                try:
                    path.rmdir()
                except OSError:
                    pass
        elif rel not in want:
            path.unlink(missing_ok=True)
    for rel, src in sorted(want.items()):
        dst = lib / rel
        data = src.read_bytes()
        if not dst.exists() or dst.read_bytes() != data:
            dst.parent.mkdir(parents=True, exist_ok=True)
            # Write then rename, so a build running beside this one never reads half a file.
            tmp = dst.with_name(".%s.%d" % (dst.name, os.getpid()))
            tmp.write_bytes(data)
            os.replace(tmp, dst)
    return sorted(want)


def check_out(out):
    """Raise BundleError unless out is missing, empty or an earlier image."""
    if not out.exists():
        return
    if not out.is_dir():
        raise BundleError("%s exists and is not a directory" % out)
    if any(out.iterdir()) and not (out / MANIFEST).exists():
        raise BundleError("%s is not empty and holds no earlier image (%s); choose an empty "
                          "directory" % (out, MANIFEST))


def _clear(out):
    """Empty out, which must be an earlier image or empty: never delete anything else."""
    check_out(out)
    if out.exists():
        shutil.rmtree(out)


def build(out, mpy_cross=None, root=ROOT, log=sys.stdout):
    """Write the image to out; return its manifest (a dict, also saved as out/.bundle).

    mpy_cross: the compiler's path, else the one tools/cptools.py finds for the VM's major.
    """
    root = Path(root)
    out = Path(out)
    exe, target, version = cptools.find_mpy_cross(None if mpy_cross else cptools.VM_TARGET,
                                                  mpy_cross)
    libs = libraries(root)
    fill_lib(root, libs)
    _clear(out)
    out.mkdir(parents=True)
    files = []  # image paths, in the order the copy tool writes them
    built = build_date(root)
    for rel in device_sources(root):
        dst = Path("lib") / rel.with_suffix(".mpy")
        src = root / rel
        if rel.as_posix() == DATED:
            # Compiled from a dated copy beside the image (its name in tracebacks unchanged).
            src = out / (".dated-" + rel.name)
            src.write_text(dated_source((root / rel).read_text(), built))
        compile_mpy(exe, src, out / dst, rel.as_posix(), target)
        if src != root / rel:
            src.unlink()
        files.append(dst.as_posix())
    lib = root / "lib"
    for _name, _dist, _lib_version, base, lib_files in libs:
        for path in lib_files:
            rel = path.relative_to(base)
            dst = Path("lib") / rel.with_suffix(".mpy")
            compile_mpy(exe, lib / rel, out / dst, rel.as_posix(), target)
            files.append(dst.as_posix())
    # code.py last: writing it restarts the program, which must find everything else in place.
    for name in DATA + ("boot.py", "code.py"):
        shutil.copyfile(root / name, out / name)
        files.append(name)
    saves = []  # the save file and its spacer, in the order they must be written
    for rel, data in savefile.entries():
        if data is not None:
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_bytes(data)
            saves.append(rel)
    manifest = {
        "inputs": inputs_digest(root, libs),
        "mpy_cross": version,
        "target": target,
        "libraries": {name: "%s==%s" % (dist, v) for name, dist, v, _, _ in libs},
        "files": files,
        "saves": saves,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    size = sum((out / f).stat().st_size for f in files)
    log.write("bundle: %d files, %d bytes in %s\n" % (len(files), size, out))
    log.write("bundle: libraries %s; %s\n" % (
        ", ".join(manifest["libraries"].values()) or "none", version))
    return manifest


def read_manifest(out):
    """Return the manifest of the image in out, or None when there is none."""
    try:
        return json.loads((Path(out) / MANIFEST).read_text())
    except (OSError, ValueError):
        return None


def stale(out, root=ROOT):
    """Return a reason why the image in out must be rebuilt, or None when it is current."""
    manifest = read_manifest(out)
    if manifest is None:
        return "no image in %s" % out
    if manifest.get("inputs") != inputs_digest(root):
        return "the sources changed since the image was built"
    missing = [f for f in manifest.get("files", []) + manifest.get("saves", [])
               if not (Path(out) / f).is_file()]
    if missing:
        return "the image lacks %s" % missing[0]
    return None


def build_parser():
    """Return the command line's parser."""
    ap = options.Parser(prog="./dev bundle",
                        description="Build the CIRCUITPY images the board runs.")
    ap.add_argument("--target", choices=cptools.TARGETS,
                    help="only the image of this CircuitPython major (default: %s)"
                    % " and ".join(cptools.TARGETS))
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross (else $%s, else found or downloaded for "
                    "each major: tools/cptools.py)" % cptools.MPY_CROSS_VAR)
    ap.add_argument("--out", metavar="DIR",
                    help="where to write the one image (default build/CIRCUITPY-<major>)")
    return ap


def main(argv=None):
    """Parse and check the arguments, then build; return the exit code (2: bad arguments).

    Offline with no compiler for a major, the one line says what is missing, the variable
    that gives it and where to download it, and nothing is written.
    """
    ap = build_parser()
    args = ap.parse_args(argv)
    try:
        # Everything the arguments decide is checked before the first file is written.
        targets = (args.target,) if args.target else cptools.TARGETS
        if args.out:
            out = Path(options.folder(args.out, "--out"))
            check_out(out)
        found = cptools.compilers(args.mpy_cross, targets=targets)
        if args.out and len(found) > 1:
            raise ValueError("--out writes one image: give --target or --mpy-cross too")
        outs = [out if args.out else out_dir(target) for _, target, _ in found]
        for out in outs:
            check_out(out)
    except (ValueError, cptools.ToolError) as e:
        ap.refuse(e)
    try:
        for (exe, _, _), out in zip(found, outs):
            build(out, exe)
    except BundleError as e:
        sys.stderr.write(options.error_line(ap.prog, e) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
