"""Reading the files people hand to gpuconfig: build files, model configs, price lists, probe reports and
catalog files. Whatever is wrong with one (missing, a folder, a symlink loop, not UTF-8, bad syntax, nested
too deeply, a number too long to convert) becomes one UserFileError naming the file and, where known, the line.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# Python 3.11's TOMLDecodeError has no lineno attribute; its message ends "(at line N, column M)".
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column \d+\)$")


class UserFileError(ValueError):
    """A file that cannot be read as what it should be; str() is one line: 'file:line: message'."""

    def __init__(self, file: str, message: str, line: int = 0) -> None:
        self.file, self.message, self.line = file, message, line
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    if path.is_dir():
        raise UserFileError(str(path), "is a folder, not a file")
    try:
        yield
    except FileNotFoundError:
        raise UserFileError(str(path), "no such file") from None
    except UnicodeDecodeError as exc:
        line = exc.object[: exc.start].count(b"\n") + 1
        raise UserFileError(str(path), f"not UTF-8 text ({exc.reason})", line) from None
    except OSError as exc:  # permission denied, a symlink loop, a device that fails
        raise UserFileError(str(path), f"cannot be read: {exc.strerror or exc}") from None


def read_text(path: Path, encoding: str = "utf-8") -> str:
    """The whole file as text, or UserFileError saying why it cannot be read."""
    with _reading(Path(path)):
        return Path(path).read_text(encoding=encoding)


def read_bytes(path: Path) -> bytes:
    with _reading(Path(path)):
        return Path(path).read_bytes()


def parse_json(text: str, file: str) -> Any:
    """JSON text as Python data, or UserFileError naming the line of the problem."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserFileError(file, f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno) from None
    except RecursionError:
        raise UserFileError(file, "nested too deeply to read") from None
    except ValueError:  # the only other ValueError json raises: an integer too long to convert
        raise _long_number(text, file) from None


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """TOML text as a table, or UserFileError naming the line of the problem."""
    import tomllib  # only when a file is read: not on the start-up path

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _TOML_WHERE.search(str(exc))
        message = _TOML_WHERE.sub("", str(exc))
        raise UserFileError(file, f"not valid TOML: {message}", int(where.group(1)) if where else 0) from None
    except RecursionError:
        raise UserFileError(file, "nested too deeply to read") from None
    except ValueError:
        raise _long_number(text, file) from None


def read_json(path: Path) -> Any:
    return parse_json(read_text(path), str(path))


def _long_number(text: str, file: str) -> UserFileError:
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"\d{{{limit + 1},}}", text)
    line = text.count("\n", 0, found.start()) + 1 if found else 0
    digits = len(found.group()) if found else 0
    return UserFileError(file, f"a number has {digits:,} digits; at most {limit:,} can be read", line)
