# SPDX-License-Identifier: MIT
"""Fake `microcontroller`: nvm is the simulator's flash block, reset restarts the board."""

from host_sim import fakes


class Pin:
    """A named pin."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


class _Processor:
    """microcontroller.cpu of a SAMD51."""

    frequency = 120000000
    temperature = 25.0
    voltage = 3.3
    uid = bytearray(b"\x46\x43\x4d\x43\x53\x49\x4d\x00\x00\x00\x00\x00\x00\x00\x00\x01")

    @property
    def reset_reason(self):
        """Why the board last started: POWER_ON, then SOFTWARE after reset()."""
        return fakes.current().reset_reason


class RunMode:
    """microcontroller.RunMode."""

    NORMAL = 0
    SAFE_MODE = 1
    UF2 = 2
    BOOTLOADER = 3


class ResetReason:
    """microcontroller.ResetReason."""

    POWER_ON = 0
    BROWNOUT = 1
    SOFTWARE = 2
    DEEP_SLEEP_ALARM = 3
    RESET_PIN = 4
    WATCHDOG = 5
    UNKNOWN = 6
    RESCUE_DEBUG = 7


cpu = _Processor()
cpus = (cpu,)


def reset():
    """Restart the board: the simulator runs boot.py and code.py again (no finaliser runs:
    open files stay unclosed, as ports/atmel-samd/reset.c has it)."""
    raise fakes.HardReset()


def on_next_reset(run_mode):
    """Set the next run mode: SAFE_MODE ends the run at the reset (the simulator has no
    REPL or bootloader; safe mode runs neither boot.py nor code.py)."""
    fakes.current().safe_mode = run_mode == RunMode.SAFE_MODE


def delay_us(delay):
    """Busy-wait on the board; nothing to wait for here."""


def disable_interrupts():
    """No interrupts to disable."""


def enable_interrupts():
    """No interrupts to enable."""


def __getattr__(name):
    """Serve nvm from the running simulation."""
    if name == "nvm":
        return fakes.current().nvm
    raise AttributeError("module 'microcontroller' has no attribute %r" % name)
