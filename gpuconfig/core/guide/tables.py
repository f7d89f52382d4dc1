"""Read and validate the compatibility tables in catalog/compat/, naming the file, line and field of a fault.

A table loads whole or not at all; the loaded tables are cached (they are data shipped with the program).
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from gpuconfig.core.catalog.model import Source
from gpuconfig.core.guide.records import (
    AmdTarget,
    CompatTables,
    DriverFamily,
    DriverMinimum,
    NvidiaArch,
    TorchBuild,
    TorchRelease,
    arch_key,
    gfx_key,
    version_key,
)
from gpuconfig.core.paths import catalog_dir

BUILDS_FILE = "torch_builds.toml"
DRIVERS_FILE = "cuda_drivers.toml"
ARCHITECTURES_FILE = "gpu_architectures.toml"
INDEX_URL = "https://download.pytorch.org/whl/{}"
WHEEL_OSES = ("linux", "windows")

MINOR = re.compile(r"^\d+\.\d+$")  # "2.10", "12.8", "3.13"
DRIVER = re.compile(r"^\d+(\.\d+){0,2}$")  # "570.124.06", "580"
VARIANT = re.compile(r"^(cu\d{3}|rocm\d+\.\d+(\.\d+)?|cpu)$")
SM = re.compile(r"^sm_\d{2,3}[af]?$")
PTX = re.compile(r"^compute_\d{2,3}$")
GFX = re.compile(r"^gfx[0-9a-f]{3,4}$")


class CompatTableError(ValueError):
    """A compatibility table is malformed; str() is one line naming the file, the line and the field."""


def compat_dir() -> Path:
    return catalog_dir() / "compat"


def _date(value: Any) -> bool:
    return isinstance(value, dt.date) and not isinstance(value, dt.datetime)


class _Rows:
    """The rows of one [[table]] of one file, with the line where each row and each of its keys starts."""

    def __init__(self, file: str, text: str, data: dict[str, Any], table: str) -> None:
        self.file, self.table = file, table
        self.lines = text.splitlines()
        self.rows = data.get(table)
        if not isinstance(self.rows, list) or not self.rows:
            raise CompatTableError(f"{file}: [[{table}]]: the file has no {table} rows")
        header = re.compile(rf"^\s*\[\[{re.escape(table)}\]\]\s*(#.*)?$")
        self.starts = [n + 1 for n, line in enumerate(self.lines) if header.match(line)]

    def line(self, index: int, key: str = "") -> int:
        start = self.starts[index] if index < len(self.starts) else 0
        if key and start:
            pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
            for number in range(start, len(self.lines) + 1):
                if number > start and self.lines[number - 1].lstrip().startswith("[["):
                    break
                if pattern.match(self.lines[number - 1]):
                    return number
        return start

    def fail(self, index: int, key: str, message: str) -> CompatTableError:
        where = f"{self.file}:{self.line(index, key)}"
        return CompatTableError(f"{where}: {self.table}[{index}] {key}: {message}" if key else f"{where}: {message}")


class _Row:
    """Typed access to one row's fields; every fault raises CompatTableError naming the field."""

    def __init__(self, rows: _Rows, index: int, allowed: tuple[str, ...]) -> None:
        self.rows, self.index = rows, index
        self.data = rows.rows[index] if isinstance(rows.rows, list) else {}
        if not isinstance(self.data, dict):
            raise rows.fail(index, "", f"{rows.table}[{index}] is not a table")
        unknown = sorted(set(self.data) - set(allowed) - {"sources", "note"})
        if unknown:
            raise self.fail(unknown[0], "unknown field (a typo?)")

    def fail(self, key: str, message: str) -> CompatTableError:
        return self.rows.fail(self.index, key, message)

    def text(self, key: str, pattern: re.Pattern[str] | None = None, empty: bool = False) -> str:
        value = self.data.get(key)
        if value is None:
            raise self.fail(key, "required field is missing")
        if not isinstance(value, str) or (not value.strip() and not empty):
            raise self.fail(key, f"expected text, got {value!r}")
        if pattern is not None and value and not pattern.match(value):
            raise self.fail(key, f"{value!r} does not look like {pattern.pattern}")
        return value

    def flag(self, key: str) -> bool:
        value = self.data.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"expected true or false, got {value!r}")
        return value

    def names(
        self, key: str, pattern: re.Pattern[str] | None, order: Callable[[str], Any] | None, empty: bool = True
    ) -> tuple[str, ...]:
        value = self.data.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(key, f"expected a list of names, got {value!r}")
        if not value and not empty:
            raise self.fail(key, "the list is empty")
        bad = [v for v in value if pattern is not None and not pattern.match(v)]
        if bad:
            raise self.fail(key, f"{bad[0]!r} does not look like {pattern.pattern if pattern else ''}")
        if order is not None and (value != sorted(value, key=order) or len(set(value)) != len(value)):
            raise self.fail(key, f"not in ascending order without repeats: {' '.join(value)}")
        return tuple(value)

    def sources(self) -> tuple[Source, ...]:
        value = self.data.get("sources")
        if not isinstance(value, list) or not value:
            raise self.fail("sources", "every row needs at least one source { url, title, read }")
        found = []
        for item in value:
            ok = isinstance(item, dict) and set(item) == {"url", "title", "read"}
            if not ok or not str(item["url"]).startswith("https://") or not item["title"] or not _date(item["read"]):
                raise self.fail("sources", f"each source is {{ url = 'https://...', title, read = date }}: {item!r}")
            found.append(Source(item["url"], item["title"], item["read"].isoformat()))
        return tuple(found)

    def note(self) -> str:
        value = self.data.get("note", "")
        if not isinstance(value, str):
            raise self.fail("note", f"expected text, got {value!r}")
        return value


def _read(directory: Path, name: str) -> tuple[str, dict[str, Any]]:
    path = directory / name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CompatTableError(f"{name}: cannot read {path}: {error.strerror or error}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # Python 3.11's TOMLDecodeError has no lineno attribute; its message ends "(at line N, column M)".
        where = re.search(r"\(at line (\d+), column \d+\)$", str(error))
        message = str(error)[: where.start()].strip() if where else str(error)
        raise CompatTableError(f"{name}:{where.group(1) if where else 0}: not valid TOML: {message}") from None


def _releases(text: str, data: dict[str, Any]) -> tuple[TorchRelease, ...]:
    rows = _Rows(BUILDS_FILE, text, data, "release")
    found: dict[str, TorchRelease] = {}
    for i in range(len(rows.rows or [])):
        row = _Row(rows, i, ("torch", "torchvision", "torchaudio"))
        torch = row.text("torch", MINOR)
        if torch in found:
            raise row.fail("torch", f"release {torch} is listed twice")
        found[torch] = TorchRelease(
            torch,
            row.text("torchvision", MINOR, empty=True),
            row.text("torchaudio", MINOR, empty=True),
            row.sources(),
            row.note(),
        )
    return tuple(found.values())


def _build(row: _Row, releases: set[str]) -> TorchBuild:
    torch, variant = row.text("torch", MINOR), row.text("variant", VARIANT)
    if torch not in releases:
        raise row.fail("torch", f"no [[release]] row for torch {torch}")
    cuda, rocm = row.text("cuda", MINOR, empty=True), row.text("rocm", re.compile(r"^\d+\.\d+(\.\d+)?$"), empty=True)
    expected_cuda = f"{variant[2:-1]}.{variant[-1]}" if variant.startswith("cu") else ""
    if cuda != expected_cuda:
        raise row.fail("cuda", f"variant {variant} means cuda = {expected_cuda!r}, the row says {cuda!r}")
    if rocm != variant.removeprefix("rocm") and (rocm or variant.startswith("rocm")):
        raise row.fail("rocm", f"variant {variant} and rocm = {rocm!r} disagree")
    sm = row.names("sm", SM, arch_key, empty=not cuda)
    ptx = row.names("ptx", PTX, arch_key)
    gfx = row.names("gfx", GFX, gfx_key)
    for key, value, allowed in (("sm", sm, bool(cuda)), ("ptx", ptx, bool(cuda)), ("gfx", gfx, bool(rocm))):
        if value and not allowed:
            raise row.fail(key, f"a {variant} build cannot carry {key} targets")
    low, high = row.text("python_min", MINOR), row.text("python_max", MINOR)
    if version_key(low) > version_key(high):
        raise row.fail("python_min", f"{low} is above python_max {high}")
    index = row.text("index")
    if index != INDEX_URL.format(variant):
        raise row.fail("index", f"expected {INDEX_URL.format(variant)}, got {index}")
    oses = row.names("os", None, None, empty=False)
    if set(oses) - set(WHEEL_OSES):
        raise row.fail("os", f"expected some of {', '.join(WHEEL_OSES)}, got {', '.join(oses)}")
    return TorchBuild(
        torch,
        variant,
        cuda,
        rocm,
        sm,
        ptx,
        gfx,
        low,
        high,
        row.flag("pypi_default"),
        index,
        oses,
        row.sources(),
        row.note(),
        row.rows.line(row.index),
    )


def _builds(text: str, data: dict[str, Any], releases: tuple[TorchRelease, ...]) -> tuple[TorchBuild, ...]:
    rows = _Rows(BUILDS_FILE, text, data, "build")
    allowed = ("torch", "variant", "cuda", "rocm", "sm", "ptx", "gfx", "python_min", "python_max", "pypi_default")
    builds: list[TorchBuild] = []
    for i in range(len(rows.rows or [])):
        build = _build(_Row(rows, i, (*allowed, "index", "os")), {r.torch for r in releases})
        if any((b.torch, b.variant) == (build.torch, build.variant) for b in builds):
            raise rows.fail(i, "variant", f"torch {build.torch} {build.variant} is listed twice")
        builds.append(build)
    for release in releases:
        defaults = [b for b in builds if b.torch == release.torch and b.pypi_default]
        if len(defaults) != 1:
            first = next((b for b in builds if b.torch == release.torch), None)
            index = builds.index(first) if first else 0
            raise rows.fail(
                index, "pypi_default", f"torch {release.torch} needs exactly one default, has {len(defaults)}"
            )
    return tuple(builds)


def _drivers(text: str, data: dict[str, Any]) -> tuple[tuple[DriverFamily, ...], tuple[DriverMinimum, ...]]:
    rows = _Rows(DRIVERS_FILE, text, data, "family")
    families = []
    for i in range(len(rows.rows or [])):
        row = _Row(rows, i, ("major", "linux", "windows", "upper"))
        major = row.data.get("major")
        if not isinstance(major, int) or isinstance(major, bool) or major < 1:
            raise row.fail("major", f"expected a CUDA major version, got {major!r}")
        families.append(
            DriverFamily(
                major,
                row.text("linux", DRIVER),
                row.text("windows", DRIVER),
                row.text("upper", DRIVER, empty=True),
                row.sources(),
                row.note(),
            )
        )
    rows = _Rows(DRIVERS_FILE, text, data, "toolkit")
    toolkits = []
    for i in range(len(rows.rows or [])):
        row = _Row(rows, i, ("cuda", "linux", "windows"))
        toolkits.append(
            DriverMinimum(
                row.text("cuda", MINOR),
                row.text("linux", DRIVER),
                row.text("windows", DRIVER, empty=True),
                row.sources(),
                row.note(),
            )
        )
    return tuple(families), tuple(toolkits)


def _architectures(text: str, data: dict[str, Any]) -> tuple[tuple[NvidiaArch, ...], tuple[AmdTarget, ...]]:
    rows = _Rows(ARCHITECTURES_FILE, text, data, "nvidia")
    nvidia = []
    for i in range(len(rows.rows or [])):
        keys = (
            "compute_capability",
            "architecture",
            "examples",
            "first_cuda",
            "last_driver_branch",
            "open_kernel_modules",
        )
        row = _Row(rows, i, keys)
        nvidia.append(
            NvidiaArch(
                row.text("compute_capability", re.compile(r"^\d+\.\d$")),
                row.text("architecture"),
                row.names("examples", None, None, empty=False),
                row.text("first_cuda", MINOR, empty=True),
                row.text("last_driver_branch", re.compile(r"^\d{3}$"), empty=True),
                row.flag("open_kernel_modules"),
                row.sources(),
                row.note(),
            )
        )
    rows = _Rows(ARCHITECTURES_FILE, text, data, "amd")
    amd = []
    for i in range(len(rows.rows or [])):
        row = _Row(rows, i, ("gfx", "architecture", "examples"))
        amd.append(
            AmdTarget(
                row.text("gfx", GFX),
                row.text("architecture"),
                row.names("examples", None, None, empty=False),
                row.sources(),
                row.note(),
            )
        )
    return tuple(nvidia), tuple(amd)


def _cross_check(tables: CompatTables) -> None:
    """Every CUDA version a build or an architecture names has its driver row."""
    known = {t.cuda for t in tables.toolkits}
    for build in tables.builds:
        if build.cuda and build.cuda not in known:
            raise CompatTableError(
                f"{BUILDS_FILE}:{build.line}: {build.label} cuda: no {DRIVERS_FILE} row for {build.cuda}"
            )
        if build.cuda and tables.family(build.cuda) is None:
            raise CompatTableError(f"{BUILDS_FILE}:{build.line}: {build.label} cuda: no driver family for {build.cuda}")
    for arch in tables.nvidia:
        if arch.first_cuda and arch.first_cuda not in known:
            raise CompatTableError(
                f"{ARCHITECTURES_FILE}: nvidia {arch.compute_capability} first_cuda: no {DRIVERS_FILE} row for "
                f"{arch.first_cuda}"
            )


def read_tables(directory: Path) -> CompatTables:
    """Load and check the three tables in `directory` (not cached: for a directory the user or a test chose)."""
    text, data = _read(directory, BUILDS_FILE)
    releases = _releases(text, data)
    builds = _builds(text, data, releases)
    families, toolkits = _drivers(*_read(directory, DRIVERS_FILE))
    nvidia, amd = _architectures(*_read(directory, ARCHITECTURES_FILE))
    tables = CompatTables(releases, builds, families, toolkits, nvidia, amd)
    _cross_check(tables)
    return tables


@cache
def load_tables() -> CompatTables:
    """The shipped tables (catalog/compat/), read once."""
    return read_tables(compat_dir())
