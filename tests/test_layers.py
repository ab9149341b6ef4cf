# SPDX-License-Identifier: MIT
"""The rule of dependency between freecell_mc's folders, read from the imports of the source.

Bottom to top (docs/architecture.md): compat.py and dates.py, which every layer may use;
rules/; saves/; ui/; hardware/; play.py and app.py. A module imports only from its own layer
and the ones below it, anywhere in the file (an import inside a function counts as much as
one at the top), and no chain of imports comes back to where it started. The simulator's flash
chip, its FAT volume and its board parts depend one way too.
"""

from pathlib import Path

import pytest

from device_imports import imports_of

ROOT = Path(__file__).resolve().parent.parent

# (layer, the modules or packages it holds), bottom first.
LAYERS = (
    ("base", ("freecell_mc", "freecell_mc.compat", "freecell_mc.dates")),
    ("rules", ("freecell_mc.rules",)),
    ("saves", ("freecell_mc.saves",)),
    ("ui", ("freecell_mc.ui",)),
    ("hardware", ("freecell_mc.hardware",)),
    ("app", ("freecell_mc.app", "freecell_mc.play")),
)
# Packages whose __init__ holds no code: each costs the board a module and a dict, no more.
EMPTY_PACKAGES = ("freecell_mc", "freecell_mc.rules", "freecell_mc.saves", "freecell_mc.ui",
                  "freecell_mc.hardware")


def modules(root=ROOT, top="freecell_mc"):
    """Return {module name: source path} of every module of the package top under root."""
    out = {}
    for path in sorted((root / top).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def layer_of(name, layers=LAYERS):
    """Return the index of the layer holding module name, or None when no layer names it."""
    best = None
    for i, (_, held) in enumerate(layers):
        for h in held:
            # The package itself only by name: a prefix would put every module in the base.
            inside = name == h or (h != "freecell_mc" and name.startswith(h + "."))
            if inside and (best is None or len(h) > best[1]):
                best = (i, len(h))
    return None if best is None else best[0]


def graph(mods):
    """Return {module: sorted modules of the package it imports} (the package's own, only)."""
    out = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        seen = set()
        for imported, _, _ in imports_of(path, package):
            if imported in mods and imported != name:
                seen.add(imported)
        out[name] = sorted(seen)
    return out


def upward(edges, layers=LAYERS):
    """Return "a (layer) imports b (layer)" for every import that runs up the layers."""
    bad = []
    for a, targets in sorted(edges.items()):
        for b in targets:
            la, lb = layer_of(a, layers), layer_of(b, layers)
            if la is not None and lb is not None and lb > la:
                bad.append("%s (%s) imports %s (%s)" % (a, layers[la][0], b, layers[lb][0]))
    return bad


def cycles(edges):
    """Return the import cycles, each as a list of modules from the first back to it."""
    found = []
    state = {}  # 1: on the current path, 2: done
    path = []

    def visit(m):
        state[m] = 1
        path.append(m)
        for n in edges.get(m, ()):
            if state.get(n) == 1:
                found.append(path[path.index(n):] + [n])
            elif n not in state:
                visit(n)
        path.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    return found


def test_every_module_has_a_layer():
    """A new module or folder is placed in a layer on purpose, not by accident."""
    mods = modules()
    assert "freecell_mc.rules.engine" in mods and "freecell_mc.ui.screens.menu" in mods
    assert [m for m in mods if layer_of(m) is None] == []


def test_no_import_runs_up_the_layers():
    """The rules know no saves, the saves no screen, the screen no board's edge, none the App."""
    assert upward(graph(modules())) == []


def test_no_import_cycles():
    """No chain of imports, at the top or inside a function, comes back to where it began."""
    assert cycles(graph(modules())) == []


def test_the_simulators_flash_fat_and_hardware_depend_one_way():
    """The chips know no file system, the file system no drive folder, none the board parts."""
    edges = graph(modules(top="host_sim"))
    assert cycles(edges) == []
    order = ["host_sim.flash", "host_sim.fatformat", "host_sim.fatfile", "host_sim.fat",
             "host_sim.savefile", "host_sim.circuitpy", "host_sim.hardware"]
    for i, name in enumerate(order):
        assert not set(edges[name]) & set(order[i + 1:]), name
    assert "host_sim.flash" in edges["host_sim.fat"]


def test_the_new_packages_hold_no_code():
    """Only a docstring, which the compiler drops: nothing runs and nothing stays on the heap."""
    import ast

    mods = modules()
    for name in EMPTY_PACKAGES:
        tree = ast.parse(mods[name].read_text())
        assert [type(n).__name__ for n in tree.body] == ["Expr"], name
        assert isinstance(tree.body[0].value, ast.Constant), name


def test_the_checks_see_an_upward_import_and_a_cycle(tmp_path):
    """A rule that imports the screen, and two saves modules that import each other, are told."""
    pkg = tmp_path / "freecell_mc"
    for folder in ("rules", "saves", "ui"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text('"""A layer."""\n')
    (pkg / "__init__.py").write_text('"""The package."""\n')
    (pkg / "compat.py").write_text("const = int\n")
    (pkg / "rules" / "engine.py").write_text(
        "from freecell_mc.compat import const\n\n\ndef draw():\n"
        "    from freecell_mc.ui import table\n    return table\n")
    (pkg / "saves" / "record.py").write_text("from freecell_mc.saves import policy\n")
    (pkg / "saves" / "policy.py").write_text("import freecell_mc.saves.record\n")
    (pkg / "ui" / "table.py").write_text("from freecell_mc.rules.engine import draw\n")
    mods = modules(tmp_path)
    edges = graph(mods)
    assert edges["freecell_mc.rules.engine"] == ["freecell_mc.compat", "freecell_mc.ui",
                                                "freecell_mc.ui.table"]
    assert upward(edges) == [
        "freecell_mc.rules.engine (rules) imports freecell_mc.ui (ui)",
        "freecell_mc.rules.engine (rules) imports freecell_mc.ui.table (ui)",
    ]
    assert sorted(map(tuple, cycles(edges))) == [
        ("freecell_mc.rules.engine", "freecell_mc.ui.table", "freecell_mc.rules.engine"),
        ("freecell_mc.saves.policy", "freecell_mc.saves.record", "freecell_mc.saves.policy"),
    ]


@pytest.mark.parametrize("name, layer", [
    ("freecell_mc", "base"), ("freecell_mc.dates", "base"), ("freecell_mc.rules", "rules"),
    ("freecell_mc.rules.engine", "rules"), ("freecell_mc.ui.screens.models", "ui"),
    ("freecell_mc.app", "app"), ("freecell_mc.other", None), ("freecell_mc.uix.y", None)])
def test_layer_of_reads_packages_and_modules(name, layer):
    """A module is in the layer of its package; the top package alone is the base."""
    i = layer_of(name)
    assert (None if i is None else LAYERS[i][0]) == layer
