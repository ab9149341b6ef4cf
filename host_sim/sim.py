# SPDX-License-Identifier: MIT
"""The desktop simulator: supplies a PyPortal's hardware, then runs the board's boot.py and code.py.

    python -m host_sim [--board pyportal|pynt|titano] [--scale N]       a window
    python -m host_sim --headless --script FILE                        no screen

The game code is not imported by this module: the fake device modules (host_sim/fakes/)
go into sys.modules, the working directory becomes the simulated CIRCUITPY folder, and
boot.py then code.py run as the board runs them.
"""

import calendar
import os
import runpy
import shutil
import sys
import tempfile
import time
import traceback

from host_sim import fakes, headless_env, host_env, options
from host_sim.hardware import (
    BOARDS, EPOCH_2000, Keyboard, SimClock, board_chips, make_ext_rtc, parse_date,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STEP_MS = 10  # simulated time per touch poll in a headless run
AUTORELOAD_DELAY_MS = 750  # CIRCUITPY_AUTORELOAD_DELAY_MS (py/circuitpy_mpconfig.h)
RESET_POWER_ON = 0  # microcontroller.ResetReason.POWER_ON
RESET_SOFTWARE = 2  # microcontroller.ResetReason.SOFTWARE: microcontroller.reset()
PROG = "python -m host_sim"  # how every message names it: the command the player typed
HOME = os.path.join(os.path.expanduser("~"), ".freecell_mc")


class Simulator:
    """One simulated board: its parts, and the run of boot.py and code.py on it."""

    def __init__(
        self,
        board="pyportal",
        headless=True,
        nvm_path=None,
        drive=None,
        date=None,
        ext_rtc="none",
        scale=2,
        step_ms=STEP_MS,
        start_deal=None,
        script=None,
        usb_connected=True,
        root=ROOT,
        hold_at_boot=False,
        backlight=True,
        release=None,
        raise_faults=True,
    ):
        host_env()
        self.board_id, self.width, self.height = BOARDS[board]
        self.headless = headless
        self.scale = scale
        self.step_ms = step_ms
        self.root = root
        rtc_start = parse_date(date) if date else EPOCH_2000
        self.clock = SimClock(realtime=not headless, rtc_start=rtc_start, step_ms=step_ms)
        self.backlight = backlight  # False: a board whose brightness is not adjustable
        # A battery-backed chip keeps real time: it starts at --date, else at today's
        # local date and time on the host.
        ext_start = rtc_start if date else calendar.timegm(time.localtime())
        self.i2c_devices = make_ext_rtc(ext_rtc, self.clock, ext_start)
        self.i2c_devices.update(board_chips(board))
        self._i2c = None
        self.keys = Keyboard()
        self.start_deal = start_deal
        self.usb_connected = usb_connected
        self.hold_at_boot = hold_at_boot
        self.drive_readonly = True  # what code.py sees until boot.py remounts "/"
        self.remounts = []
        self.boot_out_writes = 0  # times boot.py's start rewrote boot_out.txt (_run_boot)
        self.phase = "boot"
        self.polls = 0
        self.resets = 0
        self.safe_mode = False  # microcontroller.on_next_reset(SAFE_MODE) before a reset
        # True: a fault in the game raises out of code.py (board.RAISE_FAULTS); False: the
        # game shows its calm screen and resets the board, as on a real one.
        self.raise_faults = raise_faults
        self.reset_reason = RESET_POWER_ON  # microcontroller.cpu.reset_reason
        # alarm.sleep_memory, the SAMD51's backup RAM: undefined at power-up (the same
        # bytes every run), kept by a reset
        self.sleep_memory = bytearray((i * 167 + 53) & 0xFF for i in range(8192))
        # The computer copying files onto CIRCUITPY over USB (host_sim/usbhost.py), and
        # CircuitPython's auto-reload that its writes trigger (supervisor/shared/reload.c).
        self.computer = None
        self.reloads = 0  # times code.py was stopped by an auto-reload
        self._reload_at = None  # board ms of the last trigger (last_autoreload_trigger)
        self._reload_due = False  # ReloadException waits for the running code
        self.syncs = 0
        self.drive_writes = 0  # files opened for writing on CIRCUITPY by the board's code
        self.host_writing = False
        self.random_state = 0x2545F491  # headless os.urandom: the same bytes every run
        self._temps = []
        self.release = release
        if release is not None:
            # A release zip: unzipped onto the new drive (volume()), and its boot.py and
            # code.py are what runs, with its lib/ on the module path as the board has it.
            import zipfile

            root = tempfile.mkdtemp(prefix="fcmc-release-")
            self._temps.append(root)
            with zipfile.ZipFile(release) as zf:
                zf.extractall(root)
            self.root = root
        if drive is None:
            if headless:
                drive = tempfile.mkdtemp(prefix="fcmc-drive-")
                self._temps.append(drive)
            else:
                drive = os.path.join(HOME, "drive")
        os.makedirs(drive, exist_ok=True)
        self.drive = os.path.abspath(drive)
        from host_sim import circuitpy

        why = circuitpy.drive_problem(self.drive)
        if why:
            raise ValueError(why)  # before the board starts: it would format the drive
        if nvm_path is None:
            if headless:
                d = tempfile.mkdtemp(prefix="fcmc-nvm-")
                self._temps.append(d)
                nvm_path = os.path.join(d, "nvm.bin")
            else:
                os.makedirs(HOME, exist_ok=True)
                nvm_path = os.path.join(HOME, "nvm.bin")
        from host_sim.flash import FlashBlock

        self.nvm_path = os.path.abspath(nvm_path)
        self.nvm = FlashBlock(self.nvm_path, 8192)
        self.nvm.fail_exc = RuntimeError  # microcontroller.nvm's error for a failed write
        self._volume = None
        self._busy_us = 0
        self.script = script
        self.display = None
        self.input = None
        self.failure = None

    # --- what the fake modules ask for ---------------------------------------------

    def volume(self):
        """Return CIRCUITPY's FAT model (host_sim/fat.py) in the drive folder, opened once."""
        if self._volume is None:
            from host_sim import circuitpy

            self._volume = circuitpy.open_drive(self.drive, release=self.release)
            self._volume.flash.on_busy = self._flash_busy
        return self._volume

    def _flash_busy(self, us):
        """A flash erase or program holds the board up: headless, the clock moves on."""
        if self.clock.realtime:
            return
        self._busy_us += us
        if self._busy_us >= 1000:
            self.clock.advance(self._busy_us // 1000)
            self._busy_us %= 1000

    def i2c(self):
        """Return the board's one I2C bus (board.I2C() hands out the same object)."""
        if self._i2c is None:
            from host_sim.fakes.busio import I2C

            self._i2c = I2C()
        return self._i2c

    def usb_wrote(self):
        """A block written over USB is complete: trigger an auto-reload, as the board does
        (autoreload_trigger: the first trigger stops the running code, later ones push back
        the restart)."""
        from host_sim.fakes import supervisor

        if not supervisor.runtime.autoreload:
            return
        if self._reload_at is None:
            self._reload_due = True
        self._reload_at = self.clock.ms()

    def background(self):
        """Run the board's background tasks: USB takes the computer's writes due by now;
        the VM raises a pending ReloadException in the code that runs."""
        if self.computer is not None:
            self.computer.run_until(self.clock.total_ms())
        if self._reload_due and self.phase == "code":
            self._reload_due = False
            raise fakes.ReloadException()

    def _await_reload(self):
        """code.py was stopped by an auto-reload: the board waits until the computer has
        written nothing for CIRCUITPY_AUTORELOAD_DELAY_MS (750 ms), taking its writes, and
        then runs code.py again (main.c, autoreload_ready)."""
        self.reloads += 1
        self._reload_due = False
        while True:
            if self.computer is not None:
                self.computer.run_until(self.clock.total_ms())
            idle = self.computer is None or self.computer.idle()
            if idle and self.clock.ms() - self._reload_at > AUTORELOAD_DELAY_MS:
                break
            self.clock.advance(self.step_ms)
        self._reload_at = None

    def touch_read(self):
        """Return this poll's touch reading; headless, each poll is STEP_MS of time."""
        self.polls += 1
        if not self.clock.realtime:
            self.clock.advance(self.step_ms)
        self.background()
        scripted = self.headless or self.script is not None
        if self.phase == "boot" and (scripted or self.hold_at_boot):
            # The script plays to the game; at boot the finger is on the screen only when
            # --hold-at-boot asks for it (the way to leave CIRCUITPY to the computer), in a
            # window as well, where the mouse cannot be held before the window opens.
            if self.hold_at_boot:
                return (self.width // 2, self.height // 2, 32000)
            return None
        return self.input.read()

    def write_png(self, path):
        """Write the screen to path (the simulator's own file: never refused as read-only)."""
        self.host_writing = True
        try:
            self.display.save_png(path)
        finally:
            self.host_writing = False

    def write_text(self, path, text):
        """Write a text file for the script (never refused as read-only)."""
        self.host_writing = True
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        finally:
            self.host_writing = False

    # --- the run -------------------------------------------------------------------

    def _make_display(self):
        from host_sim import display

        display.release()
        if self.headless:
            self.display = display.FramebufferDisplay(self.width, self.height, self.backlight)
        else:
            from host_sim.window import WindowDisplay

            self.display = WindowDisplay(self.width, self.height, self.scale, self.backlight)

    def _make_input(self):
        if self.script is not None:
            from host_sim.script import ScriptInput

            self.input = ScriptInput(self, self.script)
        elif self.headless:
            raise ValueError("a headless run needs --script")
        else:
            from host_sim.window import MouseInput

            self.input = MouseInput(self.display, self.keys)

    def _run_file(self, name):
        """Run boot.py or code.py from the game's folder as the board does, if it exists."""
        path = os.path.join(self.root, name)
        if os.path.exists(path):
            runpy.run_path(path, run_name="__main__")

    def _run_boot(self):
        """Run boot.py as the board does, and write boot_out.txt only if its text changed.

        CircuitPython's run_boot_py (main.c) collects its own lines, "boot.py output:" and
        everything printed while boot.py runs (a traceback too), then reads boot_out.txt
        and rewrites it, through FatFs, only when the text differs. Each rewrite is counted
        in boot_out_writes; the text is also printed, as on the serial console.
        """
        import io

        from host_sim import circuitpy

        path = os.path.join(self.root, "boot.py")
        text = circuitpy.FIRMWARE_TEXT
        failed = None
        if os.path.exists(path):
            buf = io.StringIO()
            old = sys.stdout
            sys.stdout = buf
            try:
                runpy.run_path(path, run_name="__main__")
            except Exception as e:  # noqa: BLE001  (the board prints it into boot_out.txt)
                failed = e
                traceback.print_exc(file=buf)
            finally:
                sys.stdout = old
            out = buf.getvalue()
            sys.stdout.write(out)
            text += "boot.py output:\r\n" + out.replace("\n", "\r\n")
        data = text.encode()
        if len(data) > 486:  # the firmware keeps 512 bytes at most (supervisor/.../micropython.c)
            data = data[:486] + b"[truncated due to length]\n"
        vol = self.volume()
        try:
            with vol.open(circuitpy.BOOT_OUT, "rb") as fh:
                same = fh.read(len(data) + 1) == data
        except OSError:
            same = False
        if not same:
            # The firmware's write, before code.py: it moves no clock the game reads (the
            # scripts time the game's polls from boot.py's); the flash counts it all the same.
            busy = vol.flash.on_busy
            vol.flash.on_busy = None
            try:
                with vol.open(circuitpy.BOOT_OUT, "wb") as fh:
                    fh.write(data)
            finally:
                vol.flash.on_busy = busy
            self.boot_out_writes += 1
        if failed is not None:
            raise failed

    def _end_vm(self):
        """code.py ended (returned, raised, or supervisor.reload()): CircuitPython's
        finalisers close every file still open on CIRCUITPY (fat.Volume.finalise)."""
        if self._volume is not None:
            self._volume.finalise()

    def _power_up(self):
        """A hard reset: ticks and the internal RTC restart (at 2000-01-01, whatever --date
        said), the drive's mount goes back to the default; an external RTC keeps its time."""
        self.clock.power_up()
        self.drive_readonly = True
        from host_sim.fakes import rtc

        rtc.reset_time_source()

    def run(self):
        """Run boot.py and code.py until the script ends or the window closes; return exit code."""
        from host_sim.fatfile import Hang
        from host_sim.script import ScriptEnd, ScriptFailure
        from host_sim.window import WindowClosed

        old_cwd = os.getcwd()
        old_path = list(sys.path)
        try:
            self._make_display()
            self._make_input()
        except RuntimeError as e:  # pygame.error: no screen to open a window on
            from host_sim.window import NO_WINDOW

            self.failure = options.error_line(
                PROG, "cannot open the window: %s; %s" % (" ".join(str(e).split()), NO_WINDOW)
            )
            print(self.failure, file=sys.stderr)
            return 2
        fakes.install(self)
        sys.path.insert(0, self.root)
        if os.path.isdir(os.path.join(self.root, "lib")) and self.release is not None:
            sys.path.insert(1, os.path.join(self.root, "lib"))  # the board's /lib
        os.chdir(self.drive)
        try:
            boot = True
            while True:
                try:
                    if boot:
                        self.phase = "boot"
                        self._run_boot()
                    self.phase = "code"
                    try:
                        self._run_file("code.py")
                    except (Exception, KeyboardInterrupt, fakes.SoftReload,
                            fakes.ReloadException):
                        # The board prints a traceback (or reloads), then ends the VM. A
                        # reset, a power cut or the script's end runs no finaliser.
                        self._end_vm()
                        raise
                    self._end_vm()
                    return 0  # code.py finished: "Code done running."
                except fakes.ReloadException:
                    # "Code stopped by auto-reload. Reloading soon."
                    self._await_reload()
                    boot = False
                except fakes.HardReset:
                    self.resets += 1
                    self.reset_reason = RESET_SOFTWARE
                    if self.computer is not None:
                        self.computer.unplugged()  # USB goes down with the board
                    self._reload_at = None
                    self._reload_due = False
                    if self._volume is not None:
                        self._volume.reset()
                    self._power_up()
                    if self.safe_mode:
                        return 0  # CircuitPython's safe mode runs neither boot.py nor code.py
                    boot = True
                except fakes.SoftReload:
                    boot = False
        except ScriptEnd:
            return 0
        except ScriptFailure as e:
            self.failure = str(e)
            print(self.failure, file=sys.stderr)
            return 1
        except (WindowClosed, KeyboardInterrupt):
            return 0
        except Hang as e:
            self.failure = "host_sim: the board hangs: %s" % e
            print(self.failure, file=sys.stderr)
            return 1
        except Exception:  # noqa: BLE001  (the board prints the traceback and stops)
            self.failure = traceback.format_exc()
            line = getattr(self.input, "lineno", 0)
            if line:
                self.failure += "(while playing script line %d)\n" % line
            sys.stderr.write(self.failure)
            return 1
        finally:
            os.chdir(old_cwd)
            sys.path[:] = old_path
            fakes.uninstall()

    def close(self):
        """Release the display and remove the temporary drive and nvm folders."""
        from host_sim import display

        display.release()
        for d in self._temps:
            shutil.rmtree(d, ignore_errors=True)
        self._temps = []

    def summary(self):
        """Return a one-line account of the run: polls, simulated time, erases, refreshes."""
        drawn = len(self.display.drawn_refreshes()) if self.display else 0
        worst = self._volume.flash.worst()[0] if self._volume is not None else 0
        return (
            "host_sim: %d polls, %.1f s on the board's clock, %d refreshes, nvm erases %d, "
            "CIRCUITPY file writes %d, most erases of one CIRCUITPY 4 KB sector %d"
            % (self.polls, self.clock.ms() / 1000.0, drawn, self.nvm.erase_count,
               self.drive_writes, worst)
        )


def start_from_args(args):
    """Return (kind, number, cells) from the deal options, or None to start as the board does."""
    from freecell_mc.rules import deals

    cells = args.cells
    chosen = [o for o in ("seed", "daily", "ms", "code") if getattr(args, o) is not None]
    if len(chosen) > 1:
        raise ValueError("choose one of --seed, --daily, --ms, --code")
    if args.code is not None:
        kind, number, code_cells = args.code
        if cells is not None and cells != code_cells:
            raise ValueError(
                "the code is for %d free cells, but --cells says %d" % (code_cells, cells)
            )
        return kind, number, code_cells
    if cells is None:
        cells = 4
    if args.seed is not None:
        kind, number = deals.KIND_SEED, args.seed
    elif args.daily is not None:
        kind, number = deals.KIND_DAILY, deals.daily_seed(*args.daily)
    elif args.ms is not None:
        kind, number = deals.KIND_MS, args.ms
    else:
        return None
    deals.deal_code(kind, number, cells)  # raises ValueError for a deal that does not exist
    return kind, number, cells


def build_parser():
    """Return the command-line parser."""
    p = options.Parser(
        prog=PROG,
        description="Run FreeCell MC's code.py on a simulated PyPortal.",
        epilog="A bad option or file ends the run with one line on stderr and exit status 2; "
        "a failed script line with exit status 1. Scripts are UTF-8, at most %s. "
        "Host tools: python -m host_sim deal --help, python -m host_sim replay --help."
        % options.MAX_TEXT_NAME,
    )
    p.add_argument(
        "--board",
        choices=sorted(BOARDS),
        default="pyportal",
        help="pyportal and pynt are 320x240, titano 480x320 (default pyportal)",
    )
    p.add_argument("--headless", action="store_true", help="no window (needs --script)")
    p.add_argument("--script", metavar="FILE", help="play this script (see host_sim/script.py)")
    p.add_argument(
        "--scale",
        metavar="N",
        type=options.scale,
        default=2,
        help="window scale, 1 .. %d (default 2)" % options.SCALE_MAX,
    )
    p.add_argument(
        "--nvm",
        metavar="PATH",
        help="file behind microcontroller.nvm: a new file or an 8 KB one from an earlier run "
        "(default: a temporary one when headless, ~/.freecell_mc/nvm.bin in a window)",
    )
    p.add_argument(
        "--install",
        metavar="ZIP",
        help="a release zip (./dev release) unzipped onto a new drive; its boot.py and code.py "
        "run (with --drive, a folder that holds no drive yet)",
    )
    p.add_argument(
        "--drive",
        metavar="DIR",
        help="the simulated CIRCUITPY folder, made if missing (default: temporary when "
        "headless, ~/.freecell_mc/drive in a window)",
    )
    p.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        type=options.rtc_date,
        help="the internal RTC at start, years %d .. %d (default 2000-01-01, as after "
        "power-up); an external RTC holds this date too, else the host's"
        % (options.YEAR_MIN, options.YEAR_MAX),
    )
    p.add_argument(
        "--ext-rtc",
        choices=("none", "ds3231", "pcf8523"),
        default="none",
        help="an RTC chip on the STEMMA I2C port at 0x68 (default none)",
    )
    p.add_argument(
        "--seed", metavar="N", type=options.seed, help="start on seeded deal N, 0 .. 4294967295"
    )
    p.add_argument(
        "--daily", metavar="YYYY-MM-DD", type=options.daily, help="start on that day's daily deal"
    )
    p.add_argument(
        "--ms", metavar="N", type=options.ms, help="start on Microsoft deal #N, 1 .. 1000000"
    )
    p.add_argument("--code", type=options.code, help="start on the deal with this deal code")
    p.add_argument(
        "--cells", metavar="K", type=options.cells, help="free cells, 1 .. 4 (default 4)"
    )
    p.add_argument(
        "--step-ms",
        metavar="MS",
        type=options.step_ms,
        default=STEP_MS,
        help="simulated ms per poll, 1 .. %d (default %d)" % (options.STEP_MS_MAX, STEP_MS),
    )
    p.add_argument("--no-usb", action="store_true", help="run as on battery, without a USB host")
    p.add_argument(
        "--hold-at-boot", action="store_true", help="a finger on the screen at reset"
    )
    p.add_argument(
        "--root", metavar="DIR", default=ROOT, help="the folder with code.py and boot.py"
    )
    p.add_argument("--shot", metavar="PATH.png", help="write the last screen here at the end")
    p.add_argument("--quiet", action="store_true", help="no summary line at the end")
    return p


def _stop_on_sigterm():
    """End a run on SIGTERM as on closing the window: cleanly, writing --shot."""
    import signal
    import threading

    def stop(signum, frame):
        raise KeyboardInterrupt()

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)


def _release_zip(path):
    """Return path if it is a release zip with code.py at its top; raise ValueError."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except (OSError, zipfile.BadZipFile) as e:
        raise ValueError("--install %s is not a zip file we can read (%s)" % (path, e)) from None
    if "code.py" not in names:
        raise ValueError("--install %s has no code.py at its top: not a release zip" % path)
    return os.path.abspath(path)


def _check_paths(args):
    """Check the file and folder options before anything is written; raise ValueError."""
    if args.nvm is not None:
        args.nvm = options.nvm_file(args.nvm)
    if args.drive is not None:
        args.drive = options.folder(args.drive, "--drive")
    if args.shot is not None:
        args.shot = options.out_file(args.shot, "--shot", ".png")
    if args.install is not None:
        args.install = _release_zip(args.install)
        if args.drive is not None and os.path.lexists(os.path.join(args.drive, "circuitpy.img")):
            raise ValueError("--drive %s holds a drive already; --install needs a new one"
                             % args.drive)
    root = os.path.abspath(args.root)
    if not os.path.isfile(os.path.join(root, "code.py")):
        raise ValueError("--root %s has no code.py" % root)
    args.root = root


def main(argv=None):
    """Run the simulator with command-line arguments; return the exit code."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:
        # argparse exits on --help (0) and on usage errors (2, its one line printed).
        return e.code if isinstance(e.code, int) else 2
    if args.headless:
        headless_env()
    else:
        host_env()
    try:
        start = start_from_args(args)
        _check_paths(args)
        script = None
        if args.script:
            from host_sim import script as script_mod

            script = script_mod.load(args.script)
        elif args.headless:
            raise ValueError("--headless needs --script FILE")
        if not args.headless:
            from host_sim import window

            window.check_video()
    except ValueError as e:
        print(options.error_line(PROG, e), file=sys.stderr)
        return 2
    try:
        sim = Simulator(
            board=args.board,
            headless=args.headless,
            nvm_path=args.nvm,
            drive=args.drive,
            date=args.date,
            ext_rtc=args.ext_rtc,
            scale=args.scale,
            step_ms=args.step_ms,
            start_deal=start,
            script=script,
            usb_connected=not args.no_usb,
            root=args.root,
            hold_at_boot=args.hold_at_boot,
            release=args.install,
        )
    except OSError as e:  # a folder that cannot be made, a file that cannot be read
        why = "cannot use %s: %s" % (e.filename, e.strerror or e)
        print(options.error_line(PROG, why), file=sys.stderr)
        return 2
    except ValueError as e:  # a drive image the board could not mount
        print(options.error_line(PROG, e), file=sys.stderr)
        return 2
    _stop_on_sigterm()
    try:
        code = sim.run()
        if code == 2:
            return code  # no window: run() said why in one line
        if args.shot and sim.display is not None:
            try:
                sim.display.save_png(args.shot)
            except OSError as e:
                why = "cannot write --shot %s: %s" % (args.shot, e)
                print(options.error_line(PROG, why), file=sys.stderr)
                code = code or 1
        if not args.quiet:
            print(sim.summary(), file=sys.stderr)
        return code
    finally:
        sim.close()
