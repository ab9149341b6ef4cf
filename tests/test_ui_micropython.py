# SPDX-License-Identifier: MIT
"""The table under real MicroPython: a whole solution played by taps allocates nothing per tap.

tests/ui_alloc_mp.py runs in the WebAssembly MicroPython with stand-ins for the display
modules (MicroPython has no displayio); everything the table, the App and the engine do on
a tap is the real code.
"""

import json
import subprocess
from pathlib import Path

from solutions import fcs_solution
from test_micropython import ROOT, TIMEOUT_S, node_command, results

UI = [
    "freecell_mc/ui/cardart.py",
    "freecell_mc/ui/tableview.py",
    "freecell_mc/ui/table.py",
    "freecell_mc/play.py",
    "freecell_mc/app.py",
    "freecell_mc/ui/widgets.py",
    "freecell_mc/ui/screens/__init__.py",
    "freecell_mc/ui/screens/result.py",
    "freecell_mc/ui/screens/models.py",
]


def test_taps_and_polls_allocate_nothing_over_a_whole_solution(tmp_path):
    for deal in (1, 2):
        data = tmp_path / ("in%d.json" % deal)
        data.write_text(json.dumps({"deal": deal, "moves": fcs_solution(deal)}))
        cmd = node_command() + ["--input", str(data)]
        for path in UI:
            cmd += ["--with", str(ROOT / path)]
        cmd.append(str(Path(__file__).with_name("ui_alloc_mp.py")))
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S + 30)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        got = results(proc.stdout)
        moves, taps, won = got["played"]
        assert won and moves == len(fcs_solution(deal))
        # Worst bytes allocated by one pick tap, one drop tap, one App.poll(): none.
        assert got["alloc"] == [0, 0, 0], got
