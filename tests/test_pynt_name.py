# SPDX-License-Identifier: MIT
"""A PyPortal Pynt runs the PyPortal's firmware, so its board_id says "pyportal".

CircuitPython lists pyportal_pynt as an alias of pyportal (docs/shared_bindings_matrix.py in
its source): the same firmware, the same board.board_id, on a 2.4" panel where the PyPortal
has 3.2". What tells them apart is the one part the Pynt leaves out, the PyPortal's ADT7410
temperature sensor at 0x48 on the I2C bus (device.board_name); CIRCUITPY/settings.toml may
name the board instead, FREECELL_BOARD, which CircuitPython's os.getenv reads: the
simulator reads it from its drive's settings.toml, never from the host's environment.
"""

import pytest

from freecell_mc.hardware.device import board_name
from freecell_mc.ui import layout
from host_sim import circuitpy
from host_sim.fatformat import short_name
from host_sim.hardware import ADT7410, BOARDS, board_chips
from test_screens_sim import run


class Bus:
    """A busio.I2C of the chips given ({address: chip}), as the simulator's bus answers."""

    def __init__(self, chips, lock=True):
        self.chips = chips
        self.lock = lock
        self.locked = False

    def try_lock(self):
        if not self.lock or self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def writeto_then_readfrom(self, address, out, buf, *, out_start=0, out_end=None,
                              in_start=0, in_end=None):
        chip = self.chips.get(address)
        if chip is None:
            raise OSError(19, "No such device")
        chip.write(bytes(out[out_start:out_end]))
        end = len(buf) if in_end is None else in_end
        buf[in_start:end] = chip.read(end - in_start)


class Other:
    """Some other chip at 0x48 (an ADS1115 converter, say): its registers read 0x85."""

    def write(self, data):
        pass

    def read(self, n):
        return bytes([0x85] * n)


def test_the_simulated_boards_report_themselves_as_the_real_ones_do():
    assert BOARDS["pyportal"][0] == "pyportal"
    assert BOARDS["pynt"][0] == "pyportal"  # the PyPortal's firmware
    assert BOARDS["titano"][0] == "pyportal_titano"
    assert set(board_chips("pyportal")) == {0x48} and not board_chips("pynt")


class Board:
    """A board module: its board_id and its I2C bus (None: I2C() raises as with no pull-ups)."""

    def __init__(self, board_id, bus=None):
        self.board_id = board_id
        self.bus = bus

    def I2C(self):  # noqa: N802  (the board's own name)
        if self.bus is None:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        return self.bus


@pytest.mark.parametrize("chips,lock,name", [
    ({0x48: ADT7410()}, True, "pyportal"),  # the PyPortal's sensor answers: the 3.2" panel
    ({}, True, "pyportal_pynt"),  # nothing answers: the Pynt
    ({0x48: Other()}, True, "pyportal_pynt"),  # something else there is no ADT7410
    ({0x48: ADT7410()}, False, "pyportal_pynt"),  # a bus that never comes free
])
def test_a_pyportal_without_its_temperature_sensor_is_a_pynt(chips, lock, name):
    bus = Bus(chips, lock)
    assert board_name(Board("pyportal", bus)) == name
    assert not bus.locked  # the bus is let go of, whatever answered


def test_no_bus_is_a_pynt_and_other_boards_keep_their_names():
    assert board_name(Board("pyportal")) == "pyportal_pynt"
    assert board_name(Board("pyportal_titano")) == "pyportal_titano"
    assert board_name(Board("pyportal_titano", Bus({}))) == "pyportal_titano"


def settings_toml(tmp_path, text):
    """Put settings.toml onto the simulated drive in tmp_path/drive, as a computer would."""
    drive = tmp_path / "drive"
    drive.mkdir()
    vol = circuitpy.open_drive(str(drive))
    with vol.open(short_name("settings.toml"), "wb") as f:
        f.write(text.encode())
    vol.sync()


def test_the_simulated_pynt_is_laid_out_at_its_own_density_out_of_the_box(tmp_path):
    app = run(["wait 100"], tmp_path, board="pynt")
    assert app.hw.ppcm == app.ppcm == layout.PPCM_PYNT


def test_a_pyportal_is_laid_out_at_its_own_density(tmp_path, monkeypatch):
    # The host's environment is not the board's settings.toml: it changes nothing.
    monkeypatch.setenv("FREECELL_BOARD", "pyportal_pynt")
    app = run(["wait 100"], tmp_path, board="pyportal")
    assert app.hw.ppcm == layout.PPCM_PYPORTAL


def test_settings_toml_on_the_drive_names_the_board(tmp_path, monkeypatch):
    monkeypatch.delenv("FREECELL_BOARD", raising=False)
    settings_toml(tmp_path, '# the board\nFREECELL_BOARD = "pyportal"  # the 3.2" panel\n')
    app = run(["wait 100"], tmp_path, board="pynt")
    assert app.hw.ppcm == layout.PPCM_PYPORTAL


@pytest.mark.parametrize("text,ppcm", [
    ('FREECELL_BOARD = "pyportal_pynt"\n', layout.PPCM_PYNT),
    ('FREECELL_BOARD = "pyportal_pint"\n', layout.PPCM_PYNT),  # unknown: the densest panel
    ('[section]\nFREECELL_BOARD = "pyportal_pynt"\n', layout.PPCM_PYPORTAL),  # not read
    ('FREECELL_BOARD = "pyportal_pynt\n', layout.PPCM_PYPORTAL),  # no closing quote: nothing
])
def test_settings_toml_is_read_as_circuitpython_reads_it(tmp_path, text, ppcm):
    settings_toml(tmp_path, text)
    app = run(["wait 100"], tmp_path, board="pyportal")
    assert app.hw.ppcm == ppcm
