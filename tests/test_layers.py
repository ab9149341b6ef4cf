# SPDX-License-Identifier: MIT
"""The rule of dependency between freecell_mc's folders, read from the imports of the source.

Bottom to top (docs/architecture.md): compat.py and dates.py, which every layer may use;
rules/; saves/; ui/; hardware/; play.py and app.py. A module imports only from its own layer
and the ones below it, anywhere in the file (an import inside a function counts as much as
one at the top), and no chain of imports comes back to where it started. The simulator's flash
chip, its FAT volume and its board parts depend one way too.
"""

import ast
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


def test_play_knows_no_screen():
    """The game in play imports nothing of the screen's layer, not even inside a function: the
    rules it needs (a daily's date and status, today as known, a slot's game unfinished) are
    the rules', the dates' and the saves', so a win at the table loads no screen module."""
    edges = graph(modules())
    assert "freecell_mc.rules.deals" in edges["freecell_mc.play"]
    assert [m for m in edges["freecell_mc.play"] if m.startswith("freecell_mc.ui")] == []


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


# -- the screens' interface ---------------------------------------------------------------

SCREENS = ROOT / "freecell_mc" / "ui" / "screens"


def host_names(name="Host"):
    """Return (values, actions, queries) of an interface of ui/screens/host.py: Host, the
    screens'; TableHost, the table's; PlayHost, Play's."""
    from freecell_mc.ui.screens import host

    cls = getattr(host, name)
    values, actions = set(), set()
    for n in dir(cls):
        if n.startswith("_") or n == "QUERIES":
            continue
        (actions if callable(getattr(cls, n)) else values).add(n)
    return values, actions, set(getattr(cls, "QUERIES", ()))


def _path(node, aliases, selfs=None):
    """Return the attribute names from the App down to node (["saves", "settings"]), or None.

    The App is `app`, `self.app` or another object's `.app` (narrow.py's `view.app`), or a
    name bound to something reached from it: a local name (aliases: name -> its path) or a
    name stored on self (selfs: attribute -> its path; `self.s = app.saves` makes `self.s`
    the saves).
    """
    names = []
    while isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name):
            if node.attr == "app":
                return names[::-1]
            if node.value.id == "self" and selfs and node.attr in selfs:
                return selfs[node.attr] + names[::-1]
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        if node.id == "app":
            return names[::-1]
        if node.id in aliases:
            return aliases[node.id] + names[::-1]
    return None


def _own(target):
    """Return True if target is one of self's own attributes (`self.x`): rebinding it, even
    from the App, writes into nothing of the App's."""
    return (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == "self")


def _walk_own(node):
    """Yield node and what lies under it, but not inside a function defined there."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, ast.FunctionDef))


def _bodies(tree):
    """Return the nodes of each body of a module's source tree: each function's own, and the
    module's outside every function (its classes' bodies too)."""
    out = [list(_walk_own(tree))]
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        out.append([n for stmt in func.body for n in _walk_own(stmt)])
    return out


def _aliases(nodes, selfs):
    """Return {local name: path} of the names a body binds to something reached from the App
    (app = self.app; s = app.saves.settings), and add to selfs what it stores on self."""
    aliases = {}
    for n in nodes:
        if isinstance(n, ast.Assign):
            p = _path(n.value, aliases, selfs)
            if p is None:
                continue
            for t in n.targets:
                if isinstance(t, ast.Name):
                    aliases[t.id] = p
                elif _own(t) and t.attr != "app":
                    selfs[t.attr] = p
    return aliases


def reaches_past(source, host=None):
    """Return "line: what" for every use of the App in a screen's source that Host does not name.

    A screen reads Host's values (attributes of them too) and never writes into them, but
    `app.dirty`; calls only Host's actions and the QUERIES on its values; and hands the App
    to nobody but its base class. A part of the App kept in a local name or on self is
    followed there too.
    """
    values, actions, queries = host or host_names()
    tree = ast.parse(source)
    bad = []
    bodies = _bodies(tree)
    # What is stored on self, in any method, before the uses are read: `self.s = app.saves`
    # in __init__ makes every `self.s.commit()` a command on the saves. Twice, for a part
    # stored from another part stored on self (self.t = self.s.stats).
    selfs = {}
    for _ in range(2):
        for nodes in bodies:
            _aliases(nodes, selfs)
    for nodes in bodies:
        aliases = _aliases(nodes, selfs)
        for n in nodes:
            line = getattr(n, "lineno", 0)
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                targets = n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]
                for t in targets:
                    while isinstance(t, ast.Subscript):
                        t = t.value
                    if isinstance(t, ast.Attribute) and not _own(t):
                        p = _path(t, aliases, selfs)
                        if p is not None and p != ["dirty"]:
                            bad.append("%d: writes app.%s" % (line, ".".join(p)))
            elif isinstance(n, ast.Attribute):
                p = _path(n, aliases, selfs)
                if p and len(p) == 1 and p[0] not in values | actions:
                    bad.append("%d: reads app.%s" % (line, p[0]))
            elif isinstance(n, ast.Call):
                f = n.func
                p = _path(f, aliases, selfs) if isinstance(f, ast.Attribute) else None
                if p is not None and len(p) > 1 and ".".join(p) not in queries:
                    bad.append("%d: calls app.%s()" % (line, ".".join(p)))
                if isinstance(f, ast.Name) and f.id == "getattr" and len(n.args) > 1:
                    # getattr(app, "art", None): what the App has is Host's to say.
                    p = _path(n.args[0], aliases, selfs)
                    name = getattr(n.args[1], "value", "?")
                    if p is not None:
                        bad.append("%d: getattr of app.%s" % (line, ".".join(p + [name])))
                        continue
                base = (isinstance(f, ast.Attribute) and f.attr == "__init__"
                        and isinstance(f.value, ast.Call))  # super().__init__(app)
                for a in list(n.args) + [k.value for k in n.keywords]:
                    if not base and _path(a, aliases, selfs) == []:
                        bad.append("%d: hands the App on" % line)
    return sorted(set(bad), key=lambda s: (int(s.split(":")[0]), s))


def test_every_screen_uses_only_the_interface_host_names():
    """A screen reads the App's values, asks for its actions and writes into none of its parts;
    so does their base, widgets.Screen."""
    files = sorted(p for p in SCREENS.glob("*.py") if p.name not in ("host.py", "models.py"))
    assert len(files) >= 10
    for path in files:
        assert reaches_past(path.read_text()) == [], path.name
    widgets = (ROOT / "freecell_mc" / "ui" / "widgets.py").read_text()
    base = [ast.get_source_segment(widgets, n) for n in ast.parse(widgets).body
            if isinstance(n, ast.ClassDef) and n.name == "Screen"]
    assert len(base) == 1 and "self.app" in base[0]
    assert reaches_past(base[0]) == []


TABLE = ("table.py", "tableview.py", "narrow.py")


def test_the_table_uses_only_the_interface_table_host_names():
    """The table, its drawing and the Pynt's narrow table use of the App what TableHost names:
    Host, the game's queries and moves, moved() and the clock's ticks."""
    host = host_names("TableHost")
    assert host[1] - host_names()[1] == {"moved"}
    for name in TABLE:
        src = (ROOT / "freecell_mc" / "ui" / name).read_text()
        assert "app" in src
        assert reaches_past(src, host) == [], name
    # Under Host alone the table's moves are past the screens' interface.
    src = (ROOT / "freecell_mc" / "ui" / "table.py").read_text()
    assert "calls app.game.move()" in " ".join(reaches_past(src))


def test_play_uses_only_what_play_host_names():
    """Play keeps the App to show what it does: goto, show_deal, show_result_next, ask and a
    refresh, and nothing else of it (no screen, no display, no hardware); a use past that is
    seen, as in a screen."""
    values, actions, queries = host_names("PlayHost")
    assert values == {"dirty"} and actions == {"goto", "show_deal", "show_result_next", "ask"}
    src = (ROOT / "freecell_mc" / "play.py").read_text()
    assert "self.app." in src
    assert reaches_past(src, (values, actions, queries)) == []
    # What the screens may ask for is past Play's: it never shows a screen by itself.
    wider = src + "\n\ndef f(app):\n    app.table.redraw()\n    app.saves.commit(0)\n"
    assert [b.split(": ")[1] for b in reaches_past(wider, (values, actions, queries))] == [
        "calls app.table.redraw()", "reads app.table", "calls app.saves.commit()",
        "reads app.saves"]


def privates_of_others(source):
    """Return "line: name.attr" for every private attribute (one leading underscore) read or
    written on anything but self: another object's inside, which its class may change."""
    bad = []
    for n in ast.walk(ast.parse(source)):
        if (isinstance(n, ast.Attribute) and n.attr.startswith("_")
                and not n.attr.startswith("__")
                and not (isinstance(n.value, ast.Name) and n.value.id == "self")):
            what = n.value.id if isinstance(n.value, ast.Name) else "..."
            bad.append("%d: %s.%s" % (n.lineno, what, n.attr))
    return sorted(bad)


def test_the_screen_layer_reaches_into_no_other_objects_insides():
    """No module of ui/ (the table, narrow.py, the widgets, the screens) reads or writes
    another object's private attributes: what one part offers another has a public name."""
    files = sorted((ROOT / "freecell_mc" / "ui").rglob("*.py"))
    assert len(files) > 15
    for path in files:
        assert privates_of_others(path.read_text()) == [], path.name
    assert privates_of_others("def f(view, s):\n    view._buf[0] = s._x\n    self._y = 1\n") \
        == ["2: s._x", "2: view._buf"]


def test_the_interface_is_small():
    """Host names a screen's needs, not the whole App (test_screens.py holds the App to it)."""
    values, actions, queries = host_names()
    assert "goto" in actions and "saves" in values and "hw" not in values
    assert len(values | actions) <= 30
    for q in queries:
        assert q.split(".")[0] in values, q


def test_the_interface_check_sees_a_screen_reach_past_the_app():
    """Writes into the saves, a setting through a name, the hardware, a command on a part."""
    src = (
        "class Screen:\n"
        "    def __init__(self, app):\n"
        "        super().__init__(app)\n"
        "        self.ppcm = app.hw.ppcm\n"
        "        app.dirty = True\n"
        "        self.art = getattr(app, 'art', None)\n"
        "    def pressed(self, bid):\n"
        "        app = self.app\n"
        "        s = app.saves.settings\n"
        "        s.cells = 2\n"
        "        app.saves.settings.calibration = None\n"
        "        app.saves.commit(0, True)\n"
        "        app.saves.stats.day_won(2026, 1, 1)\n"
        "        self.app.clock.set_today(2026, 1, 1)\n"
        "        self.app.settings_changed()\n"
        "        self.app.set_setting('cells', 2)\n"
        "        helper(self.app)\n"
    )
    assert reaches_past(src) == [
        "4: reads app.hw",
        "6: getattr of app.art",
        "10: writes app.saves.settings.cells",
        "11: writes app.saves.settings.calibration",
        "12: calls app.saves.commit()",
        "14: calls app.clock.set_today()",
        "15: reads app.settings_changed",
        "17: hands the App on",
    ]


def test_the_interface_check_follows_a_part_kept_on_self():
    """A part of the App kept on self, in one method or another, is the App's part wherever it
    is used: commands and writes on it are seen; reads of Host's values through it are not."""
    src = (
        "class Screen:\n"
        "    def __init__(self, app):\n"
        "        self.x = app.part\n"
        "        self.s = app.saves\n"
        "        self.w = app.width\n"
        "    def pressed(self, bid):\n"
        "        self.x.write()\n"
        "        self.s.commit(0, True)\n"
        "        self.s.settings.cells = 2\n"
        "        self.t = self.s.stats\n"
        "        self.t.record_win(1, 2)\n"
        "        self.s.slot(0)\n"
        "        self.w = self.w + 1\n"
        "        self.s = None\n"
        "        return self.s.stats.day_won(2026, 1, 1)\n"
    )
    assert reaches_past(src) == [
        "3: reads app.part",
        "7: calls app.part.write()",
        "7: reads app.part",
        "8: calls app.saves.commit()",
        "9: writes app.saves.settings.cells",
        "11: calls app.saves.stats.record_win()",
    ]
