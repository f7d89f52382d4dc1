"""The parser of every command, and running one: its reply in the form asked for, errors as one line."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from gpuconfig import __version__
from gpuconfig.cli import build, catalog, data, egpu, estimate, fleet, guide, probe, recommend
from gpuconfig.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_CANCELLED,
    EXIT_OK,
    Reply,
    UsageError,
    chosen_form,
    deliver,
    output_file,
    repair_hint,
)
from gpuconfig.core import i18n
from gpuconfig.core.catalog.schema import SchemaError

COMMANDS = (catalog, estimate, recommend, guide, build, egpu, probe, fleet, data)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, as for every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gpuconfig",
        description="The command line: every GUI capability, headless.",
        epilog="Exit codes: 0 success, 1 a failed verdict, 2 bad input or output closed early, 130 cancelled (Ctrl+C).",
    )
    parser.add_argument("--version", action="version", version=f"gpuconfig {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(commands, _Parser)
    return parser


def _run(args: argparse.Namespace) -> int:
    target = output_file(args)  # checked before any work
    i18n.use(getattr(args, "lang", i18n.ENGLISH))
    reply: Reply | int = args.handler(args)
    if isinstance(reply, int):  # the command said why on standard error
        return reply
    if reply.code != EXIT_BAD_INPUT:
        deliver(reply, chosen_form(args), target)
    return reply.code


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    from gpuconfig.core.database import StoreError

    try:
        code = _run(args)
        sys.stdout.flush()  # a closed pipe shows here, where it can be handled, not at exit
        return code
    except UsageError as exc:
        print(f"gpuconfig: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (StoreError, SchemaError) as exc:  # no database to work on, or no catalog schema to read it
        print(f"gpuconfig: {exc}{repair_hint(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader left (`gpuconfig ... --json | head`): one line, and nothing more flushed into the pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print("gpuconfig: the output was closed before all of it was written (a pipe into head?)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # Ctrl+C: the workers are already killed on the way out (run_worker)
        print(("\n" if sys.stderr.isatty() else "") + "gpuconfig: cancelled", file=sys.stderr)
        return EXIT_CANCELLED
