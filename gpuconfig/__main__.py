"""Entry point: `gpuconfig` with no arguments opens the window; with a command it runs headless."""

from __future__ import annotations

import sys


def main() -> int:
    if len(sys.argv) > 1:
        from gpuconfig.cli import main as cli_main

        return cli_main(sys.argv[1:])
    return main_gui()


def main_gui() -> int:
    from gpuconfig.ui.app import run

    return run(sys.argv)


if __name__ == "__main__":
    sys.exit(main())
