# SPDX-License-Identifier: MIT
"""tools/linecounts.py: lines per module and per class, the long ones marked."""

import io

import pytest

from tools import linecounts


def _tree(tmp_path):
    """Write a package with a long module, a short one and classes of known lengths."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    body = "".join("    x%d = %d\n" % (i, i) for i in range(301))
    (pkg / "long.py").write_text("class Big:\n" + body + "\n" * 200 + "class Small:\n    pass\n")
    (pkg / "sub" / "short.py").write_text('"""One class."""\n\n\nclass Tiny:\n    """Hi."""\n')
    (pkg / "notes.txt").write_text("not python\n" * 900)
    return tmp_path


def test_counts_every_module_and_class_longest_first(tmp_path):
    root = _tree(tmp_path)
    modules, classes = linecounts.count(["pkg"], str(root))
    assert modules == [(504, "pkg/long.py"), (5, "pkg/sub/short.py"), (0, "pkg/__init__.py")]
    assert classes == [(302, "pkg/long.py", "Big"), (2, "pkg/long.py", "Small"),
                       (2, "pkg/sub/short.py", "Tiny")]


def test_the_report_marks_what_is_over_the_limits(tmp_path):
    root = _tree(tmp_path)
    out = io.StringIO()
    assert linecounts.report(out, ["pkg"], root=str(root)) == 2
    lines = out.getvalue().splitlines()
    assert lines[0] == "modules (3, 509 lines in all; * over 500):"
    assert lines[1].split() == ["504", "*", "pkg/long.py"]
    assert lines[2].split() == ["5", "pkg/sub/short.py"]
    assert "classes (3; * over 300):" in lines
    assert "302 * pkg/long.py Big" in " ".join(out.getvalue().split())


def test_an_unknown_folder_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        linecounts.main(["no_such_folder"])
    assert e.value.code == 2
    assert "no folder no_such_folder" in capsys.readouterr().err
