"""The one output layer: a command returns its answer in the forms it has (text, JSON, HTML); the user's
flags pick one (`--json`, `--html`, else text) and where it goes (standard output, or `--output FILE`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuconfig.core.numbers import json_text
from gpuconfig.core.units import text_width as width

EXIT_OK, EXIT_VERDICT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_CANCELLED = 130  # what shells report for a command ended by SIGINT (128 + 2)


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


@dataclass(frozen=True)
class Reply:
    """What a command answers: its exit code and each form it can give, made only when asked for."""

    code: int
    text: Callable[[], str]
    record: Callable[[], Any] | None = None
    html: Callable[[], str] | None = None
    csv: Callable[[], str] | None = None

    def render(self, form: str) -> str:
        if form == "json" and self.record is not None:
            return json_text(self.record())
        if form == "html" and self.html is not None:
            return self.html()
        if form == "csv" and self.csv is not None:
            return self.csv()
        return self.text()


def lines(*parts: str) -> str:
    """Text output: each part a line (a part may hold several), ending in a newline."""
    return "".join(f"{part}\n" for part in parts)


class OutputFile:
    """A file an option names for the command to write. Checked when made, before any work (its folder exists,
    it is not a folder itself); a write that fails all the same is one line of bad input, never a traceback."""

    def __init__(self, option: str, target: str) -> None:
        self.option, self.path = option, Path(target)
        try:
            if self.path.is_dir():
                raise UsageError(f"{option} {target}: a folder; name a file to write")
            if not self.path.parent.is_dir():
                raise UsageError(f"{option} {target}: no folder {self.path.parent} to write it in")
        except OSError as exc:
            raise UsageError(f"{option} {target}: {exc.strerror or exc}") from exc

    def write(self, text: str) -> None:
        """Write the whole file or nothing."""
        from gpuconfig.core.paths import write_text_atomic

        try:
            write_text_atomic(self.path, text)
        except OSError as exc:
            raise UsageError(f"{self.option} {self.path}: not written: {exc.strerror or exc}") from exc


def chosen_form(args: Any) -> str:
    if getattr(args, "json", False):
        return "json"
    if getattr(args, "csv", False):
        return "csv"
    return "html" if getattr(args, "html", False) else "text"


def output_file(args: Any) -> OutputFile | None:
    """--output's file, checked before the command does any work."""
    target = getattr(args, "output", None)
    return OutputFile("--output", target) if target else None


def deliver(reply: Reply, form: str, target: OutputFile | None) -> None:
    """Write the reply's chosen form to --output's file, or to standard output."""
    text = reply.render(form)
    if target is None:
        sys.stdout.write(text)
    else:
        target.write(text)


def pad(text: str, columns: int) -> str:
    """`text` padded with spaces to take `columns` terminal columns."""
    return text + " " * max(0, columns - width(text))


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(width(h), *(width(r[i]) for r in rows)) if rows else width(h) for i, h in enumerate(headers)]
    out = ["  ".join(pad(h, w) for h, w in zip(headers, widths, strict=True))]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(pad(c, w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(out)


def warn(message: str) -> None:
    """A note on standard error that does not stop the command."""
    print(f"gpuconfig: {message}", file=sys.stderr)


def repair_hint(exc: BaseException) -> str:
    """What to do about an error that comes from a damaged database file, the catalog's or the probe
    history's (there underneath a HistoryError); "" for any other."""
    from gpuconfig.core.database import DamagedDatabase

    if isinstance(exc, DamagedDatabase) or isinstance(exc.__cause__, DamagedDatabase):
        return "; `gpuconfig data repair` moves it aside and rebuilds it, keeping what can be read"
    return ""
