# SPDX-License-Identifier: MIT
"""CircuitPython's tools found, downloaded (HTTP faked), refused: tools/cptools.py.

No test here needs the real tools or the internet: the compilers are small scripts that
answer --version as CircuitPython's and MicroPython's do and write an .mpy header, the
download is circuitpython-build-tools' own mpy_cross() with its HTTP call and its build
fall-back faked, and the wrong VMs are probes' answers with one property changed.
"""

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest
from circuitpython_build_tools import build, target_versions

from tools import cptools

ROOT = Path(__file__).resolve().parent.parent


def fake_compiler(path, says, header=b"C\x06\x03\x1f"):
    """Write an executable that answers --version with says and 'compiles' to an .mpy header."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "#!%s\nimport sys\nargs = sys.argv[1:]\nif args == ['--version']:\n"
        "    print(%r)\n    sys.exit(0)\nopen(args[args.index('-o') + 1], 'wb').write(%r)\n"
        % (sys.executable, says, header))
    path.chmod(0o755)
    return path


CP10 = "CircuitPython 10.3.1 on 2026-06-01; mpy-cross emitting mpy v6.3"
CP9 = "CircuitPython 9.2.9 on 2025-08-01; mpy-cross emitting mpy v6.3"
MICROPYTHON = "MicroPython v1.29.0 on 2026-05-01; mpy-cross emitting mpy v6.3"


@pytest.fixture
def nowhere(tmp_path, monkeypatch):
    """No tool anywhere: an empty tools folder and an empty circuitpython-build-tools cache;
    the download's HTTP call and its build fall-back are recorded, never made."""
    calls = {"get": [], "build": []}
    monkeypatch.setattr(build, "mpy_cross_path", tmp_path / "cbt-cache")
    (tmp_path / "cbt-cache").mkdir()

    def no_get(url, *a, **k):
        calls["get"].append(url)
        raise OSError("no network here (faked)")

    def no_build(cmd, *a, **k):
        calls["build"].append(cmd)
        raise subprocess.CalledProcessError(128, cmd)

    monkeypatch.setattr(build.requests, "get", no_get)
    monkeypatch.setattr(build.subprocess, "check_call", no_build)
    # The prebuilt compilers are for named systems: this one asks for Linux x86-64's.
    monkeypatch.setattr(build.platform, "uname", lambda: platform.uname_result(
        "Linux", "host", "6.1", "#1", "x86_64"))
    environ = {cptools.TOOLS_VAR: str(tmp_path / "tools")}
    return environ, calls


class FakeResponse:
    def __init__(self, status, content=b""):
        self.status_code = status
        self.content = content


def serve(monkeypatch, calls, pages):
    """Answer build-tools' requests.get from pages {url suffix: bytes}; 404 otherwise."""
    def get(url, *a, **k):
        calls["get"].append(url)
        for suffix, data in pages.items():
            if url.endswith(suffix):
                return FakeResponse(200, data)
        return FakeResponse(404)

    monkeypatch.setattr(build.requests, "get", get)


def compiler_bytes(tmp_path, says):
    return fake_compiler(tmp_path / "served", says).read_bytes()


# --- the compiler ------------------------------------------------------------------------


def test_each_target_is_a_release_circuitpython_build_tools_knows():
    names = [v["name"] for v in target_versions.VERSIONS]
    for target in cptools.TARGETS:
        assert target in names
        assert cptools.build_tools_version(target)["tag"].startswith(target[:-1])
    with pytest.raises(cptools.ToolError, match="knows no CircuitPython 8.x"):
        cptools.build_tools_version("8.x")


def test_the_download_asks_for_each_majors_release_and_caches_it(tmp_path, nowhere,
                                                                 monkeypatch):
    environ, calls = nowhere
    tags = {t: cptools.build_tools_version(t)["tag"] for t in cptools.TARGETS}
    serve(monkeypatch, calls, {"-%s.static" % tags["9.x"]: compiler_bytes(tmp_path, CP9),
                               "-%s.static" % tags["10.x"]: compiler_bytes(tmp_path, CP10)})
    found = cptools.compilers(environ=environ)
    assert [(f[1], f[2]) for f in found] == [("9.x", CP9), ("10.x", CP10)]
    # Adafruit's prebuilt compiler of the release circuitpython-build-tools names, per major.
    assert [u.rsplit("/", 1)[1] for u in calls["get"]] == [
        "mpy-cross-linux-amd64-%s.static" % tags["9.x"],
        "mpy-cross-linux-amd64-%s.static" % tags["10.x"]]
    assert calls["build"] == []
    assert found[1][0] == build.mpy_cross_path / "mpy-cross-10.x"
    # The second time the cache answers: no request.
    again = cptools.compilers(environ=environ)
    assert [f[0] for f in again] == [f[0] for f in found] and len(calls["get"]) == 2


def test_the_tools_folder_comes_before_the_builders_cache(tmp_path, nowhere):
    environ, calls = nowhere
    ours = fake_compiler(Path(environ[cptools.TOOLS_VAR]) / "mpy-cross-10.x", CP10)
    fake_compiler(build.mpy_cross_path / "mpy-cross-10.x", CP10)
    assert cptools.find_mpy_cross("10.x", environ=environ) == (ours, "10.x", CP10)
    assert calls["get"] == []


def test_a_served_micropython_compiler_is_refused(tmp_path, nowhere, monkeypatch):
    environ, calls = nowhere
    serve(monkeypatch, calls, {".static": compiler_bytes(tmp_path, MICROPYTHON)})
    with pytest.raises(cptools.ToolError, match="not CircuitPython's mpy-cross"):
        cptools.find_mpy_cross("10.x", environ=environ, download=True)


def test_a_compiler_of_the_wrong_major_is_refused_for_a_target(tmp_path, nowhere):
    environ, _ = nowhere
    fake_compiler(Path(environ[cptools.TOOLS_VAR]) / "mpy-cross-10.x", CP9)
    with pytest.raises(cptools.ToolError, match="is CircuitPython 9.x's mpy-cross, not 10.x's"):
        cptools.find_mpy_cross("10.x", environ=environ)
    old = fake_compiler(tmp_path / "old", "CircuitPython 8.2.10 on 2024-01-01; mpy-cross "
                        "emitting mpy v6.1")
    with pytest.raises(cptools.ToolError, match="the game is built for 9.x and 10.x"):
        cptools.mpy_cross_version(old)


def test_a_given_compiler_decides_the_one_target(tmp_path, nowhere):
    environ, calls = nowhere
    nine = fake_compiler(tmp_path / "nine", CP9)
    environ[cptools.MPY_CROSS_VAR] = str(nine)
    assert cptools.compilers(environ=environ) == [(nine, "9.x", CP9)]
    ten = fake_compiler(tmp_path / "ten", CP10)
    assert cptools.compilers(str(ten), environ=environ) == [(ten, "10.x", CP10)]  # option wins
    with pytest.raises(cptools.ToolError, match="asked for 10.x"):
        cptools.compilers(environ=environ, targets=("10.x",))
    assert calls["get"] == []


def test_a_given_path_that_is_wrong_is_an_error_not_a_fall_back(tmp_path, nowhere):
    environ, _ = nowhere
    fake_compiler(Path(environ[cptools.TOOLS_VAR]) / "mpy-cross-10.x", CP10)
    with pytest.raises(cptools.ToolError, match="--mpy-cross .* not an executable") as e:
        cptools.find_mpy_cross("10.x", str(tmp_path / "nope"), environ)
    assert not isinstance(e.value, cptools.ToolMissing)
    environ[cptools.MPY_CROSS_VAR] = str(tmp_path / "nope")
    with pytest.raises(cptools.ToolError, match=r"\$FREECELL_MPY_CROSS .* not an executable"):
        cptools.find_mpy_cross("10.x", environ=environ)


def test_offline_with_no_compiler_the_error_is_one_line_naming_what_to_do(nowhere):
    environ, calls = nowhere
    with pytest.raises(cptools.ToolMissing) as e:
        cptools.find_mpy_cross("10.x", environ=environ, download=True)
    msg = str(e.value)
    assert "\n" not in msg
    assert "CircuitPython 10.x's mpy-cross was not found" in msg
    assert "could not be downloaded (is the computer offline?)" in msg
    assert "$FREECELL_MPY_CROSS" in msg and cptools.DOWNLOADS in msg
    assert str(Path(environ[cptools.TOOLS_VAR]) / "mpy-cross-10.x") in msg
    # It asked for the prebuilt one, then the tool tried its own build (git clone), quietly.
    assert len(calls["get"]) == 1 and calls["build"][0][:2] == ["git", "clone"]
    # Without download, nothing is asked.
    with pytest.raises(cptools.ToolMissing):
        cptools.find_mpy_cross("10.x", environ=environ)
    assert len(calls["get"]) == 1


def test_dev_bundle_offline_exits_2_with_one_line(tmp_path):
    """No compiler anywhere and no internet: ./dev bundle says so in one line, writes nothing."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FREECELL_", "PYTEST_")) and k != "CI"}
    env.update({cptools.TOOLS_VAR: str(tmp_path / "tools"), "XDG_CACHE_HOME": str(tmp_path),
                # An address nothing answers at: offline however the machine is connected.
                "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
                "GIT_CONFIG_GLOBAL": os.devnull, "GIT_TERMINAL_PROMPT": "0"})
    out = tmp_path / "img"
    proc = subprocess.run([str(ROOT / "dev"), "bundle", "--target", "10.x", "--out", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("./dev bundle: error: CircuitPython 10.x's mpy-cross was "
                                  "not found")
    assert "$FREECELL_MPY_CROSS" in proc.stderr and cptools.DOWNLOADS in proc.stderr
    assert not out.exists()


def test_the_tools_folder_is_the_user_cache_or_the_variable(tmp_path):
    assert cptools.tools_dir({cptools.TOOLS_VAR: str(tmp_path)}) == tmp_path
    assert cptools.tools_dir({}).name == "freecell-mc"


# --- the VM ------------------------------------------------------------------------------


def board_answers():
    """The probe's answers of a VM built like the board."""
    said = {"implementation": "circuitpython", "maxsize": str(2**31 - 1), "smallint": "31",
            "mpz": "True", "float": "immediate", "pystack": "exhausted", "depth": "40",
            "font": "6", "heap": "195000"}
    for m in ("displayio", "vectorio", "fontio", "terminalio", "struct", "binascii",
              "micropython"):
        said["module " + m] = "ok"
    for m in cptools._FROZEN_PROBE:
        said["frozen " + m] = "ok"
    return said


@pytest.mark.parametrize("key, value, named", [
    ("implementation", "micropython", "the circuitpython implementation"),
    ("maxsize", str(2**63 - 1), "32-bit words"),
    ("smallint", "0", "31-bit small ints"),
    ("mpz", "False", "MPZ long ints"),
    ("float", "boxed", "floats in the object word"),
    ("pystack", "maximum-recursion-depth-exceeded", "the pystack option"),
    ("module displayio", "missing", "the displayio module"),
    ("module vectorio", "missing", "the vectorio module"),
    ("module terminalio", "missing", "the terminalio module"),
    ("font", "8", "terminalio.FONT as the firmware's"),
    ("frozen adafruit_display_text", "missing",
     "the board's frozen module adafruit_display_text"),
    ("frozen adafruit_portalbase", "missing", "the board's frozen module adafruit_portalbase"),
    ("heap", "8000000", "a fixed heap"),
])
def test_a_vm_unlike_the_board_is_refused_naming_the_property(key, value, named):
    said = board_answers()
    assert cptools.vm_problem(said) is None
    said[key] = value
    assert cptools.vm_problem(said).startswith(named)


def fake_vm(path, body):
    path.write_text("#!/bin/sh\n%s\n" % body)
    path.chmod(0o755)
    return path


def test_a_cpython_posing_as_the_vm_is_refused(tmp_path):
    """CPython takes any -X option and runs the probe: it answers cpython, and is refused."""
    vm = fake_vm(tmp_path / "vm", 'exec %s "$@"' % sys.executable)
    with pytest.raises(cptools.VMError, match="not CircuitPython's VM built like the board: it "
                       "lacks the circuitpython implementation"):
        cptools.check_vm(vm)


def test_micropython_is_refused_by_its_implementation(tmp_path):
    """MicroPython (WebAssembly, the suite's other interpreter) answers the probe: refused."""
    node = subprocess.run(["which", "node"], capture_output=True, text=True).stdout.strip()
    assert node, "node runs the MicroPython checks (./dev setup installs it)"
    probe = tmp_path / "probe.py"
    probe.write_text(cptools._PROBE)
    proc = subprocess.run(["timeout", "120", node, str(ROOT / "tests" / "mp" / "run.mjs"),
                           str(probe)], capture_output=True, text=True)
    said = {}
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) >= 2:
            said[" ".join(words[:-1])] = words[-1]
    assert said.get("implementation") == "micropython", proc.stdout + proc.stderr
    assert cptools.vm_problem(said).startswith("the circuitpython implementation")


def test_a_vm_whose_pystack_ignores_the_option_is_refused(tmp_path, monkeypatch):
    answers = board_answers()
    monkeypatch.setattr(cptools, "probe_vm", lambda exe, heap=200000, pystack=1536: answers)
    with pytest.raises(cptools.VMError, match="the pystack option .* both allow 40 calls"):
        cptools.check_vm(tmp_path / "vm")


def test_the_vm_is_found_by_option_variable_then_tools_folder(tmp_path):
    folder = tmp_path / "tools"
    folder.mkdir()
    in_folder = fake_vm(folder / "circuitpython", "true")
    env_vm = fake_vm(tmp_path / "env", "true")
    opt = fake_vm(tmp_path / "opt", "true")
    environ = {cptools.TOOLS_VAR: str(folder), cptools.VM_VAR: str(env_vm)}
    assert cptools.find_vm(str(opt), environ) == opt
    assert cptools.find_vm(None, environ) == env_vm
    assert cptools.find_vm(None, {cptools.TOOLS_VAR: str(folder)}) == in_folder
    with pytest.raises(cptools.ToolMissing, match=r"--circuitpython PATH or \$FREECELL_CIRC"):
        cptools.find_vm(None, {cptools.TOOLS_VAR: str(tmp_path / "none")})
    with pytest.raises(cptools.ToolError, match="not an executable"):
        cptools.find_vm(None, {cptools.VM_VAR: str(tmp_path / "none")})
