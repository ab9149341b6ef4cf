# SPDX-License-Identifier: MIT
"""Follow the imports the board makes, from code.py and boot.py through every library.

Each import is sorted into where the board finds it: the firmware's built-in modules (as
the circuitpython-stubs board definitions of all three boards list them), its frozen modules,
lib/ (the game and the bundled libraries), or nowhere. Frozen and bundled libraries are read
as Python source (the frozen ones from the installed package, the closest copy the desktop
has) so what they import in turn is checked too: a frozen library may import one that no
firmware freezes, which lib/ must then give (the game imports no frozen library today).

An import inside `try: ... except ImportError` (or a broader handler) is optional: the
library has a fallback, as Adafruit's libraries have for typing.
"""

import ast
import importlib.machinery
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools import bundle  # noqa: E402

OPTIONAL_HANDLERS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}


def device_roots(root=ROOT):
    """Return the files the board starts from: every game module, code.py and boot.py."""
    files = [root / p for p in bundle.device_sources(root)]
    return files + [root / n for n in ("code.py", "boot.py")]


def _optional(node, parents):
    """Return True if node sits in the body of a try whose handlers catch ImportError."""
    child = node
    while child in parents:
        parent = parents[child]
        if isinstance(parent, ast.Try) and child in parent.body:
            for h in parent.handlers:
                names = []
                if h.type is None:
                    return True
                for t in (h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]):
                    if isinstance(t, ast.Name):
                        names.append(t.id)
                if OPTIONAL_HANDLERS.intersection(names):
                    return True
        child = parent
    return False


def imports_of(path, package):
    """Return [(module name, optional, guess)] imported by the file at path inside package.

    `from pkg import name` lists pkg, and pkg.name as a guess: name may be a submodule, or only
    an attribute of pkg (then nothing provides it as a module and the guess is dropped).
    """
    tree = ast.parse(path.read_text(), str(path))
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
            subs = []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            names = [mod]
            subs = [mod + "." + a.name for a in node.names if a.name != "*"]
        else:
            continue
        opt = _optional(node, parents)
        out += [(n, opt, False) for n in names] + [(n, opt, True) for n in subs]
    return out


class Board:
    """What a board with the bundle's lib/ provides; `where(name)` answers for one module."""

    def __init__(self, lib_names, lib_dir, root=ROOT, frozen=bundle.FROZEN, builtin=None,
                 frozen_dir=None):
        self.root = root
        self.lib_names = set(lib_names)  # top-level names under CIRCUITPY/lib (not freecell_mc)
        # where the bundled libraries' sources are (None: the installed packages)
        self.lib_dir = None if lib_dir is None else Path(lib_dir)
        self.frozen = set(frozen)
        # where the frozen libraries' sources are (None: the installed packages)
        self.frozen_dir = None if frozen_dir is None else Path(frozen_dir)
        self.builtin = bundle.builtin_modules() if builtin is None else set(builtin)

    def where(self, name):
        """Return (provider, source file or None); provider is None when nothing provides it."""
        top = name.split(".")[0]
        if top in self.builtin:
            return "built-in", None
        if top == "freecell_mc":
            return "lib", _module_file(name, [self.root])
        if top in self.lib_names:
            return "lib", _module_file(name, None if self.lib_dir is None else [self.lib_dir])
        if top in self.frozen:
            return "frozen", _module_file(
                name, None if self.frozen_dir is None else [self.frozen_dir])
        return None, None


def _module_file(name, paths):
    """Return the source file of module `name` under paths (None: sys.path), or None."""
    parts = name.split(".")
    search = [str(p) for p in paths] if paths is not None else None
    found = None
    for i in range(len(parts)):
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[:i + 1]), search)
        if spec is None:
            return None
        found = spec
        search = list(spec.submodule_search_locations or [])
    if found.origin and found.origin.endswith(".py"):
        return Path(found.origin)
    return None


def unresolved(board, roots):
    """Return sorted "module (imported by file)" lines for required imports nothing provides."""
    return walk(board, roots)[0]


def walk(board, roots):
    """Return (unresolved lines, {top-level module: provider}) of everything roots import.

    Follows every import into the source of the game, the bundled and the frozen libraries.
    """
    missing = set()
    used = {}
    seen = set()
    todo = [(path, _package_of(path, board)) for path in roots]
    while todo:
        path, package = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        by = _label(path, board)
        for name, optional, guess in imports_of(path, package):
            provider, source = board.where(name)
            if guess and source is None:
                continue  # `from pkg import attr`: an attribute, not a module
            if provider is not None:
                used.setdefault(name.split(".")[0], provider)
            if provider is None:
                if not optional:
                    missing.add("%s (imported by %s)" % (name, by))
                continue
            if source is None:
                continue
            todo.append((source, name if source.name == "__init__.py"
                         else name.rpartition(".")[0]))
            # Importing a submodule runs its packages' __init__ first.
            while "." in name:
                name = name.rpartition(".")[0]
                parent = board.where(name)[1]
                if parent is not None:
                    todo.append((parent, name))
    return sorted(missing), used


def _package_of(path, board):
    """Return the package a root file belongs to ("freecell_mc.ui.screens", or "")."""
    try:
        rel = path.relative_to(board.root)
    except ValueError:
        return ""
    parts = list(rel.with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        return ".".join(parts[:-1])
    return ".".join(parts[:-1])


def _label(path, board):
    """Return a short name for path in messages."""
    parts = path.parts
    if "site-packages" in parts:
        return "/".join(parts[parts.index("site-packages") + 1:])
    for base in (board.root, board.lib_dir or board.root, board.frozen_dir or board.root):
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            pass
    return path.as_posix()
