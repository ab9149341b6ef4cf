# SPDX-License-Identifier: MIT
"""A PyPortal Pynt runs the PyPortal's firmware, so its board_id says "pyportal".

CircuitPython lists pyportal_pynt as an alias of pyportal (docs/shared_bindings_matrix.py in
its source): the same firmware, the same board.board_id, on a 2.4" panel where the PyPortal
has 3.2". The game learns the panel from CIRCUITPY/settings.toml, FREECELL_BOARD =
"pyportal_pynt", which CircuitPython's os.getenv reads; the simulator's environment stands in
for that file here.
"""

from freecell_mc.ui import layout
from test_screens_sim import run


def test_a_pyportal_is_laid_out_at_its_own_density(tmp_path, monkeypatch):
    monkeypatch.delenv("FREECELL_BOARD", raising=False)
    app = run(["wait 100"], tmp_path, board="pyportal")
    assert app.hw.ppcm == layout.PPCM_PYPORTAL


def test_settings_toml_names_the_pynt_whose_firmware_says_pyportal(tmp_path, monkeypatch):
    monkeypatch.setenv("FREECELL_BOARD", "pyportal_pynt")
    app = run(["wait 100"], tmp_path, board="pyportal")
    assert app.hw.ppcm == layout.PPCM_PYNT
    # The Pynt's denser panel gets its 7 mm targets in more pixels than the PyPortal's.
    assert app.ppcm == layout.PPCM_PYNT


def test_a_name_the_game_does_not_know_falls_back_to_the_densest_panel_of_the_size(
        tmp_path, monkeypatch):
    monkeypatch.setenv("FREECELL_BOARD", "pyportal_pint")
    app = run(["wait 100"], tmp_path, board="pyportal")
    assert app.hw.ppcm == layout.PPCM_PYNT  # targets too big, never too small
