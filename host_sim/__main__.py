# SPDX-License-Identifier: MIT
"""Entry point: `python -m host_sim [deal|replay] ...`, or the simulator itself."""

import sys


def main(argv=None):
    """Dispatch to a host tool or run the simulator; return the exit code."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("deal", "replay"):
        from host_sim import tools

        return tools.main(argv)
    from host_sim import sim

    return sim.main(argv)


if __name__ == "__main__":
    sys.exit(main())
