"""The command line: every GUI capability, headless; one module per command, one output layer (output.py).

`--json` gives JSON on standard output and nothing else, `--output FILE` writes to a file instead. Exit codes:
0 success, 1 a failed verdict, 2 bad input or output that could not be written (with a one-line message
on stderr, also when the program reading the output closes it early), 130 cancelled (Ctrl+C).
"""

from __future__ import annotations

from gpuconfig.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
