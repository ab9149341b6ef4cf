# SPDX-License-Identifier: MIT
"""bench.saves, as `python -m bench` runs it: the tap storms are played over whole turns.

The section is run through bench/__main__.py's module_section on a small ring (40 places,
two turns: seconds, where the bench's 2,048 places over ten turns take half a minute), and
its printed figures are read back: every storm taps at its pace, asks for more saves than
the budget lets through, and writes exactly two whole turns of records; the file's 4 KB
sectors are erased twice a turn at most (a group straddles two), every one holding record
places at least once a turn, and nothing else on CIRCUITPY is erased.
"""

import io
import re

import bench.__main__ as bench_main
from bench import saves

TURNS = 2
RING = 40


def _sections(text):
    """Return {run's name: its lines} from the saves section's output."""
    out = {}
    name = None
    for line in text.splitlines():
        m = re.match(r"saves: (.*) \(per hour, steady state over (.*)\)$", line)
        if m:
            name = m.group(1)
            out[name] = [line]
        elif name is not None and line.startswith("  "):
            out[name].append(line)
    return out


def _figure(lines, pattern):
    """Return the groups of the first line matching pattern."""
    for line in lines:
        m = re.search(pattern, line)
        if m:
            return m.groups()
    raise AssertionError("no line matches %r in:\n%s" % (pattern, "\n".join(lines)))


def test_the_bench_section_plays_the_tap_storms_over_whole_turns_and_prints_them(monkeypatch):
    monkeypatch.setattr(saves, "TURNS", TURNS)
    monkeypatch.setattr(saves, "RING", RING)
    out = io.StringIO()
    bench_main.module_section(out, "saves")
    runs = _sections(out.getvalue())
    assert list(runs) == [saves.PLAY, saves.RELENTLESS, saves.MENU_STORM, saves.SWITCH_STORM,
                          saves.USB_STORM, saves.USB_MODE]
    for kind in (saves.MENU_STORM, saves.SWITCH_STORM, saves.USB_STORM):
        lines = runs[kind]
        assert "%d turns of the ring" % TURNS in lines[0]
        taps, rate, forced, records, turns, places = _figure(
            lines, r"played: (\d+) taps \(([\d.]+) a second\), (\d+) forced saves asked; "
                   r"(\d+) records written, over (\d+) whole turns of (\d+) places")
        assert (int(turns), int(places)) == (TURNS, RING)
        assert TURNS * RING <= int(records) <= TURNS * RING + 1  # a step's last may end over
        assert float(rate) >= 3.5  # a storm: about a tap every 250 ms, or faster
        assert int(forced) > int(records)  # more asked for than the budget lets through
        most, per_turn, fewest, elsewhere = _figure(
            lines, r"erases of the save file's 4 KB sectors over those turns: most (\d+) "
                   r"\(([\d.]+) a turn\), fewest (\d+); of every other sector of CIRCUITPY: (\d+)")
        assert int(most) == 2 * TURNS and float(per_turn) == 2.0
        assert TURNS <= int(fewest) <= int(most)
        assert int(elsewhere) == 0
        (worst,) = _figure(lines, r"most erases of one 4 KB sector per hour +[\d.]+ "
                                  r"\((\d+) in all\)")
        assert int(worst) == int(most)  # the most-erased sector of the drive is the file's
        (wait,) = _figure(lines, r"longest a change waited until it was on flash +([\d.]+) s")
        assert float(wait) <= 2.0  # the promise: at most 2 s of play lost
        assert _figure(lines, r"projected life at 2 h/day, 10000 cycles: worst CIRCUITPY "
                              r"sector ([\d.]+) years")
    switch = runs[saves.SWITCH_STORM]
    assert _figure(switch, r"played: \d+ taps \(([\d.]+) a second\)") == ("5.00",)


def test_the_storms_are_counted_from_the_flash_not_from_the_write_budget():
    """Twice the turns, twice the erases of the worst sector: what the flash model counted."""
    one = saves.simulate(saves.SWITCH_STORM, turns=1, ring=RING)
    three = saves.simulate(saves.SWITCH_STORM, turns=3, ring=RING)
    assert (one["records"], three["records"]) == (RING, 3 * RING)
    assert (one["file_most"], three["file_most"]) == (2, 6)
    assert one["elsewhere"] == three["elsewhere"] == 0
    assert three["hours"] > 2.5 * one["hours"]
