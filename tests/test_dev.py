# SPDX-License-Identifier: MIT
"""The ./dev entry point: set-up is idempotent and silent; an empty run fails, and so does a
skip in CI, unless it is for CircuitPython's tools, which a machine may lack."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dev(*args, env=None, timeout=600):
    """Run ./dev with args from the repository root; return the CompletedProcess."""
    full = dict(os.environ)
    # The outer run's xdist worker settings must not leak into the inner pytest.
    for name in list(full):
        if name.startswith("PYTEST_") or name == "CI":
            del full[name]
    full.update(env or {})
    return subprocess.run([str(ROOT / "dev"), *args], cwd=ROOT, env=full, capture_output=True,
                          text=True, timeout=timeout)


def test_ci_runs_exactly_the_readme_test_command():
    """.ci/run is ./dev test, the command the README gives, and nothing more."""
    lines = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line and not line.startswith("#")]
    assert lines == ["exec ./dev test"]
    assert os.access(ROOT / ".ci" / "run", os.X_OK) and os.access(ROOT / "dev", os.X_OK)
    assert "./dev test" in (ROOT / "README.md").read_text()


def test_setup_twice_is_quiet():
    """Once set up, ./dev setup does nothing and says nothing."""
    first = dev("setup")
    assert first.returncode == 0, first.stderr
    again = dev("setup")
    assert again.returncode == 0 and again.stdout == "" and again.stderr == ""


def test_unknown_command_fails_with_usage():
    """A typo is an error with the list of commands, not a silent success."""
    proc = dev("tset")
    assert proc.returncode == 2
    assert "unknown command: tset" in proc.stderr and "./dev test" in proc.stderr


def test_a_run_that_collects_nothing_fails():
    """pytest's exit code 5 (no tests) is passed on, with a message."""
    proc = dev("test", "-p", "no:xdist", "-q", "-k", "no_test_is_named_like_this_xyz",
               "tests/test_dev.py")
    assert proc.returncode == 5, proc.stdout + proc.stderr
    assert "collected no tests" in proc.stderr


def test_skipped_tests_fail_in_ci_and_warn_elsewhere(tmp_path):
    """The project skips no checks: with CI=true a skip fails the run."""
    probe = tmp_path / "test_probe_skip.py"
    probe.write_text("import pytest\n\n\ndef test_skipped():\n    pytest.skip('probe')\n")
    args = ("test", "-p", "no:xdist", "-q", "-p", "no:cacheprovider", str(probe))
    local = dev(*args)
    assert local.returncode == 0, local.stdout + local.stderr
    assert "warning: 1 test(s) skipped" in local.stderr
    ci = dev(*args, env={"CI": "true"})
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "error: 1 test(s) skipped" in ci.stderr


def test_a_skip_for_circuitpythons_tools_is_told_once_by_pytest_and_passes_ci(tmp_path):
    """A clone without the tools: pytest's one summary line says why; ./dev adds no warning,
    and CI on a machine without them passes (everything else runs there)."""
    probe = tmp_path / "test_probe_skip.py"
    probe.write_text("import pytest\n\n\ndef test_skipped():\n"
                     "    pytest.skip(\"needs CircuitPython's VM, not found\")\n")
    args = ("test", "-p", "no:xdist", "-q", "-p", "no:cacheprovider", str(probe))
    local = dev(*args)
    assert local.returncode == 0, local.stdout + local.stderr
    assert "skipped" not in local.stderr
    ci = dev(*args, env={"CI": "true"})
    assert ci.returncode == 0 and "skipped" not in ci.stderr, ci.stdout + ci.stderr
    both = tmp_path / "test_probe_two.py"
    both.write_text(probe.read_text() + "\n\ndef test_other():\n    pytest.skip('probe')\n")
    ci = dev("test", "-p", "no:xdist", "-q", "-p", "no:cacheprovider", str(both),
             env={"CI": "true"})
    assert ci.returncode == 1 and "error: 1 test(s) skipped" in ci.stderr, ci.stderr


def test_play_takes_its_paths_from_the_callers_folder(tmp_path):
    """./dev play --script FILE run elsewhere reads FILE there and writes its shots there."""
    (tmp_path / "play.txt").write_text("expect screen datepicker\nshot here.png\n")
    full = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    proc = subprocess.run([str(ROOT / "dev"), "play", "--headless", "--script", "play.txt"],
                          cwd=tmp_path, env=full, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "here.png").is_file() and not (ROOT / "here.png").exists()
