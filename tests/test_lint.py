# SPDX-License-Identifier: MIT
"""ruff finds nothing in the tree (settings in pyproject.toml), and every `# noqa` names its
rule."""

import io
import json
import re
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A suppression anywhere in a comment: the marker with or without a space after the hash,
# ruff's file-wide form too, in any case.
NOQA = re.compile(r"#\s*(?:ruff\s*:\s*)?noqa\b", re.IGNORECASE)
# What it must be: the marker, then at least one rule code.
NAMED = re.compile(r"# (?:ruff: )?noqa: [A-Z]+[0-9]+")


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, "ruff check . failed:\n" + done.stdout + done.stderr


def _tracked_python():
    """Return the paths of the .py files git tracks, relative to ROOT."""
    out = subprocess.run(["git", "ls-files", "-z", "--", "*.py"], cwd=ROOT, check=True,
                         capture_output=True, timeout=60).stdout.decode()
    return [p for p in out.split("\0") if p]


def bare_noqas(text):
    """Return (line, comment) for each `# noqa` in the comments of text not followed by
    `: CODE`."""
    bad = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type != tokenize.COMMENT:
            continue
        for m in NOQA.finditer(tok.string):
            if not NAMED.match(tok.string, m.start()):
                bad.append((tok.start[0], tok.string))
    return bad


def test_the_noqa_check_takes_only_the_form_that_names_a_rule():
    text = ("import os  # noqa: F401  (why)\n"
            "import re  # noqa\n"
            "import sys  # NOQA:F401\n"
            "s = '# noqa'  # a string is not a comment\n"
            "# ruff: noqa\n")
    assert [line for line, _ in bare_noqas(text)] == [2, 3, 5]


def test_every_noqa_names_its_rule():
    paths = _tracked_python()
    assert "code.py" in paths  # git answered for this tree
    bad = []
    for rel in paths:
        path = ROOT / rel
        if not path.exists():
            continue  # deleted in the working tree, not yet in the index
        bad += ["%s:%d: %s" % (rel, line, comment)
                for line, comment in bare_noqas(path.read_text(encoding="utf-8"))]
    assert not bad, ("a `# noqa` that names no rule hides every error on its line:\n"
                     + "\n".join(bad))


def test_the_layout_check_sees_a_missing_blank_line_and_not_the_import_order(tmp_path):
    """The project's settings, read from pyproject.toml, hold blank lines to pycodestyle's
    rules (E301-E306, a preview rule of ruff's turned on alone) and leave the order of the
    imports as written: on the board it is the order of the heap's first allocations."""
    src = ("import sys\nimport os\n\n\nclass A:\n    x = 1\n    def f(self):\n        pass\n"
           "def g():\n    return os, sys\n\n\n\nh = 1\n")
    (tmp_path / "layout.py").write_text(src)
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config",
                           str(ROOT / "pyproject.toml"), "--output-format", "json",
                           str(tmp_path / "layout.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    found = [(d["code"], d["location"]["row"]) for d in json.loads(done.stdout)]
    assert sorted(found) == [("E301", 7), ("E302", 9), ("E303", 14)], done.stderr
