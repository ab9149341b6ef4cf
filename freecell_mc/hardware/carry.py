# SPDX-License-Identifier: MIT
"""What the game's own reset carries to the next start, without a flash write.

After a fault the game resets the board (hardware/source.py `fault`). The reset restarts
the internal RTC at 2000-01-01, so the start after it would ask the player for the date
the game itself made it forget; and a fault that comes at every start would reset the
board for ever. Both are answered by 8 bytes of `alarm.sleep_memory`, the SAMD51's backup
RAM: CircuitPython writes it directly (ports/atmel-samd/common-hal/alarm/SleepMemory.c)
and no reset path clears it, while a power-up leaves it undefined. So it counts only when
it carries the mark and its check, and the time only after a software reset
(microcontroller.cpu.reset_reason), which on this board only the game makes.

    0     _MARK
    1     flags: _IN_START (this start has not yet finished its first poll),
          _START_FAULT (the reset before this start came from a fault at start)
    2..3  the day of the reset, in days from 2000-01-01; _NO_DAY when the clock was unset
    4..6  the second of that day
    7     the check: bytes 0..6 xor-ed into 0x5A

A board without `alarm` keeps nothing: the start after a fault asks for the date, and a
fault at every start resets the board every time, as before.
"""

from freecell_mc.compat import const

_MARK = const(0xFC)
_IN_START = const(1)
_START_FAULT = const(2)
_NO_DAY = const(0xFFFF)
_SIZE = const(8)
# The time is taken as the calm screen goes up: its 3 s, then the reset, the bootloader and
# boot.py (about 1.5 s on a PyPortal) pass before the start sets it again.
_BOOT_S = const(5)


def _memory():
    """Return alarm.sleep_memory, or None where the board has none."""
    try:
        import alarm

        mem = alarm.sleep_memory
    except (ImportError, AttributeError):
        return None
    return mem if len(mem) >= _SIZE else None


def _check(mem):
    """Return the check of bytes 0..6 of mem."""
    c = 0x5A
    for i in range(7):
        c ^= mem[i]
    return c


def _valid(mem):
    """Return True if mem holds a record of the game's (mark and check)."""
    return mem[0] == _MARK and mem[7] == _check(mem)


def _put(mem, flags, day, second):
    """Write a whole record into mem."""
    mem[0] = _MARK
    mem[1] = flags
    mem[2] = day & 0xFF
    mem[3] = day >> 8
    mem[4] = second & 0xFF
    mem[5] = (second >> 8) & 0xFF
    mem[6] = second >> 16
    mem[7] = _check(mem)


def begin():
    """Note that a start has begun; keep what the game's own reset before it carried."""
    mem = _memory()
    if mem is None:
        return
    flags = 0
    day = _NO_DAY
    second = 0
    if _valid(mem):
        import microcontroller

        try:
            ours = microcontroller.cpu.reset_reason == microcontroller.ResetReason.SOFTWARE
        except AttributeError:
            ours = False
        if ours:
            flags = mem[1] & _START_FAULT
            day = mem[2] | mem[3] << 8
            second = mem[4] | mem[5] << 8 | mem[6] << 16
    _put(mem, flags | _IN_START, day, second)


def time():
    """Return (day, second of the day) the game's reset before this start carried, or None.

    The day counts from 2000-01-01; the second is as late as the start reads it.
    """
    mem = _memory()
    if mem is None or not _valid(mem) or not mem[1] & _IN_START:
        return None
    day = mem[2] | mem[3] << 8
    if day == _NO_DAY:
        return None
    second = (mem[4] | mem[5] << 8 | mem[6] << 16) + _BOOT_S
    if second >= 86400:
        return (day + 1, second - 86400)
    return (day, second)


def clear():
    """The start is over (its first poll is done): nothing is carried any more."""
    mem = _memory()
    if mem is not None and mem[0] == _MARK:
        mem[0] = 0


def fault():
    """Carry the clock's time across the reset a fault makes, and return None; or, when this
    fault is the second in a row at start, say so on the console, write nothing and return
    the lines the screen shows before the board restarts in safe mode."""
    mem = _memory()
    if mem is None:
        return None
    at_start = _valid(mem) and mem[1] & _IN_START
    if at_start and mem[1] & _START_FAULT:
        print("FreeCell MC stopped twice in a row as it started: the board restarts in safe "
              "mode (the REPL; CIRCUITPY is the computer's). Copy the game again, or press "
              "reset to try again.")
        return ("FreeCell MC could not", "start: it stopped twice.", "",
                "Safe mode now: copy", "the game again, or", "press reset to retry.")
    import rtc

    from freecell_mc.dates import day_number, plausible

    t = rtc.RTC().datetime
    second = t[3] * 3600 + t[4] * 60 + t[5]
    day = day_number(t[0], t[1], t[2]) if plausible(t[0]) and 0 <= second < 86400 else _NO_DAY
    _put(mem, _START_FAULT if at_start else 0, day, second if day != _NO_DAY else 0)
    return None
