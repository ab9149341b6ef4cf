# SPDX-License-Identifier: MIT
"""Print the lines of every module and class of the game and the simulator, longest first.

    python -m tools.linecounts [--all] [folder ...]

A module over 500 lines or a class over 300 is marked `*`: past that, one reading no longer
holds it (docs/architecture.md). The folders default to freecell_mc and host_sim; --all lists
every module and class, not only the longest twenty of each.
"""

import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULE_LIMIT = 500
CLASS_LIMIT = 300
FOLDERS = ("freecell_mc", "host_sim")


def count(folders, root=ROOT):
    """Return ([(lines, module path)], [(lines, module path, class name)]) under folders."""
    modules = []
    classes = []
    for folder in folders:
        for here, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(here, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                modules.append((len(text.splitlines()), rel))
                for node in ast.walk(ast.parse(text, rel)):
                    if isinstance(node, ast.ClassDef):
                        classes.append((node.end_lineno - node.lineno + 1, rel, node.name))
    modules.sort(key=lambda m: (-m[0], m[1]))
    classes.sort(key=lambda c: (-c[0], c[1], c[2]))
    return modules, classes


def report(out, folders=FOLDERS, every=False, root=ROOT):
    """Write the table of modules and classes; return how many are over their limit."""
    modules, classes = count(folders, root)
    over = 0
    shown = modules if every else modules[:20]
    out.write("modules (%d, %d lines in all; * over %d):\n"
              % (len(modules), sum(m[0] for m in modules), MODULE_LIMIT))
    for n, rel in shown:
        mark = "*" if n > MODULE_LIMIT else " "
        out.write("  %5d %s %s\n" % (n, mark, rel))
    over += sum(1 for m in modules if m[0] > MODULE_LIMIT)
    shown = classes if every else classes[:20]
    out.write("classes (%d; * over %d):\n" % (len(classes), CLASS_LIMIT))
    for n, rel, name in shown:
        mark = "*" if n > CLASS_LIMIT else " "
        out.write("  %5d %s %s %s\n" % (n, mark, rel, name))
    over += sum(1 for c in classes if c[0] > CLASS_LIMIT)
    return over


def build_parser():
    """Return the command line's parser."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from host_sim import options

    p = options.Parser(prog="python -m tools.linecounts", description=__doc__.split("\n")[0])
    p.add_argument("folders", nargs="*", default=list(FOLDERS),
                   help="folders under the repository (default: freecell_mc host_sim)")
    p.add_argument("--all", action="store_true", help="every module and class, not 20 of each")
    return p


def main(argv=None):
    """Print the counts; return 0 (the limits guide a reader, they fail nothing)."""
    p = build_parser()
    args = p.parse_args(argv)
    for folder in args.folders:
        if not os.path.isdir(os.path.join(ROOT, folder)):
            p.refuse("no folder %s in %s" % (folder, ROOT))
    report(sys.stdout, args.folders, args.all)
    return 0


if __name__ == "__main__":
    sys.exit(main())
