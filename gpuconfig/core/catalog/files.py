"""Read and validate the catalog files (catalog/<kind>.toml), reporting file, line and field.

A file either loads whole or not at all: the caller never sees half a catalog.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuconfig.core.catalog.model import Part, Price, Source
from gpuconfig.core.catalog.schema import (
    CURRENCIES,
    FieldSpec,
    KindSpec,
    Schema,
    SchemaError,
    parse_schema,
)
from gpuconfig.core.catalog.schema import SCHEMA_FILE as SCHEMA_FILE  # where the store looks for it
from gpuconfig.core.numbers import MAX_AMOUNT, MAX_QUANTITY, NumberError, checked_number
from gpuconfig.core.user_files import UserFileError, parse_toml, read_text

CURRENCY_FILE = "currency.toml"
COMMON_KEYS = ("id", "name", "vendor", "released", "price", "prices", "unpriced", "unknown", "sources", "notes")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")
RELEASED_PATTERN = re.compile(r"^\d{4}(-\d{2}){0,2}$")
SLOT_LANES = (1, 2, 4, 8, 16)
# Counts where zero is a real answer (a PSU without a 12V-2x6 connector); every other figure must be
# positive, because a figure a part does not have is left out, never written as 0.
ZERO_ALLOWED = frozenset({"connectors_12v2x6", "pcie_8pin", "m2_slots", "power_delivery_w"})
# What a price is, first in its basis, so a buyer tells a launch price from what a part sells (or rents) for now.
PRICE_BASES = ("launch MSRP", "MSRP", "list price", "street", "on-demand")


@dataclass(frozen=True)
class CatalogProblem:
    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


class CatalogError(ValueError):
    """One or more catalog files are malformed; str() is a one-line summary naming the first."""

    def __init__(self, problems: list[CatalogProblem]) -> None:
        self.problems = problems
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}")


@dataclass(frozen=True)
class LoadedCatalog:
    schema: Schema
    parts: tuple[Part, ...]
    digest: str


def files_digest(files: dict[str, str]) -> str:
    """A fingerprint of every catalog file (name, size and CRC-32), so the store knows when to rebuild.

    It only has to notice an edit, not resist tampering, and zlib is loaded at start-up anyway.
    """
    parts = []
    for name in sorted(files):
        data = files[name].encode()
        parts.append(f"{name}:{len(data)}:{zlib.crc32(data):08x}")
    return ";".join(parts)


def _row_lines(text: str) -> list[tuple[int, int]]:
    """(first, last) line of each [[part]] table, 1-based, in file order."""
    lines = text.splitlines()
    starts = [i + 1 for i, line in enumerate(lines) if re.match(r"^\s*\[\[part\]\]\s*(#.*)?$", line)]
    ends = [s - 1 for s in starts[1:]] + [len(lines)]
    return list(zip(starts, ends[: len(starts)], strict=True))


def _key_line(lines: list[str], span: tuple[int, int], key: str) -> int:
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for number in range(span[0], span[1] + 1):
        if pattern.match(lines[number - 1]):
            return number
    return span[0]


def _date_text(value: Any) -> str | None:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value).isoformat()
        except ValueError:
            return None
    return None


class _RowChecker:
    """Validates one row, collecting problems with the line of the offending key."""

    def __init__(self, file: str, lines: list[str], span: tuple[int, int]) -> None:
        self.file = file
        self.lines = lines
        self.span = span
        self.problems: list[CatalogProblem] = []

    def fail(self, key: str, message: str) -> None:
        line = _key_line(self.lines, self.span, key.split(".")[0]) if key else self.span[0]
        self.problems.append(CatalogProblem(self.file, line, key, message))

    def text(self, row: dict[str, Any], key: str, required: bool) -> str:
        value = row.get(key)
        if value is None:
            if required:
                self.fail(key, "required field is missing")
            return ""
        if not isinstance(value, str) or not value.strip():
            self.fail(key, f"expected non-empty text, got {value!r}")
            return ""
        return value

    def unknown(self, kind: KindSpec, value: Any, specs: dict[str, Any]) -> dict[str, str]:
        """The row's `unknown = { field = "why" }`, checked: each names a field of the kind the row leaves out;
        and every checked field the row is held to (KindSpec.checks) is given or named here."""
        reasons: dict[str, str] = {}
        if value is not None and not isinstance(value, dict):
            self.fail("unknown", 'expected a table of field = reason, like unknown = { board_length_mm = "why" }')
            value = None
        for key, why in (value or {}).items():
            if kind.field(key) is None:
                self.fail("unknown", f"{key!r} is not a field of kind {kind.kind}")
            elif not isinstance(why, str) or not why.strip():
                self.fail("unknown", f"{key}: expected the reason as text, got {why!r}")
            elif specs.get(key) is not None:
                self.fail("unknown", f"{key}: the row gives it, so it is not unknown")
            else:
                reasons[key] = why
        if kind.checks(specs):
            for field in kind.fields:
                if field.checked and specs.get(field.key) is None and field.key not in reasons:
                    self.fail(
                        field.key,
                        "the build checks read it: give it, or say why it is unknown (unknown = { "
                        f'{field.key} = "why" }})',
                    )
        return reasons

    def spec_value(self, spec: FieldSpec, value: Any) -> Any:
        key = spec.key
        if spec.type in ("str", "ref"):
            if not isinstance(value, str) or not value.strip():
                return self.fail(key, f"expected non-empty text, got {value!r}")
            return value
        if spec.type == "choice":
            if value not in spec.choices:
                return self.fail(key, f"{value!r} is not one of {', '.join(spec.choices)}")
            return value
        if spec.type == "bool":
            if not isinstance(value, bool):
                return self.fail(key, f"expected true or false, got {value!r}")
            return value
        if spec.type == "date":
            text = _date_text(value)
            if text is None:
                return self.fail(key, f"expected a date YYYY-MM-DD, got {value!r}")
            return text
        if spec.type in ("int", "float"):
            return self.number(key, value, integer=spec.type == "int", zero_ok=key in ZERO_ALLOWED)
        if spec.type == "strlist":
            if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
                return self.fail(key, f"expected a non-empty list of text, got {value!r}")
            return list(value)
        if spec.type == "slots":
            return self.slots(key, value)
        raise AssertionError(spec.type)

    def number(self, key: str, value: Any, *, integer: bool, zero_ok: bool = False, most: float = MAX_QUANTITY) -> Any:
        try:
            return checked_number(value, integer=integer, zero_ok=zero_ok, most=most)
        except NumberError as exc:
            negative = isinstance(value, int | float) and not isinstance(value, bool) and value <= 0
            hint = " (leave a figure out if the part has none)" if negative else ""
            return self.fail(key, f"{exc}{hint}")

    def slots(self, key: str, value: Any) -> Any:
        if not isinstance(value, list) or not value:
            return self.fail(key, "expected a list of slots { position, lanes, pcie_gen, source }")
        slots = []
        for index, slot in enumerate(value, start=1):
            where = f"{key}[{index}]"
            if not isinstance(slot, dict) or set(slot) != {"position", "lanes", "pcie_gen", "source"}:
                return self.fail(where, "each slot needs exactly position, lanes, pcie_gen and source")
            if not isinstance(slot["position"], int) or not 1 <= slot["position"] <= 10:
                return self.fail(where, f"position must be an expansion-slot number 1-10, got {slot['position']!r}")
            if slot["lanes"] not in SLOT_LANES:
                return self.fail(where, f"lanes must be one of {SLOT_LANES}, got {slot['lanes']!r}")
            if slot["pcie_gen"] not in (1, 2, 3, 4, 5, 6):
                return self.fail(where, f"pcie_gen must be 1-6, got {slot['pcie_gen']!r}")
            if slot["source"] not in ("cpu", "chipset"):
                return self.fail(where, f"source must be cpu or chipset, got {slot['source']!r}")
            slots.append(dict(slot))
        positions = [s["position"] for s in slots]
        if positions != sorted(set(positions)):
            return self.fail(key, "slot positions must be distinct and in order from the CPU")
        return slots

    def price(self, kind: str, value: Any) -> Price | None:
        if value is None:
            return None
        known = {"amount", "currency", "date", "source", "basis", "per"}
        if not isinstance(value, dict):
            self.fail("price", "expected { amount, currency, date, source, basis }")
            return None
        if set(value) - known:
            self.fail("price", f"unknown keys {sorted(set(value) - known)}")
            return None
        amount = self.number("price", value.get("amount"), integer=False, most=MAX_AMOUNT)
        currency = value.get("currency")
        date = _date_text(value.get("date"))
        source = value.get("source")
        per = value.get("per", "")
        if currency not in CURRENCIES:
            self.fail("price", f"currency must be one of {', '.join(CURRENCIES)}, got {currency!r}")
        if date is None:
            self.fail("price", f"price date must be YYYY-MM-DD, got {value.get('date')!r}")
        if not isinstance(source, str) or not source.startswith(("http://", "https://")):
            self.fail("price", f"price source must be a URL, got {source!r}")
        if kind == "cloud" and per != "hour":
            self.fail("price", 'a cloud price must say per = "hour"')
        if kind != "cloud" and per:
            self.fail("price", "only cloud prices are per hour")
        basis = value.get("basis")
        if not isinstance(basis, str) or not basis.startswith(PRICE_BASES):
            self.fail("price", f"basis must begin with what the price is ({', '.join(PRICE_BASES)}), got {basis!r}")
            return None
        if amount is None or currency not in CURRENCIES or date is None or not isinstance(source, str):
            return None
        return Price(float(amount), currency, date, source, basis, per)

    def prices(self, kind: str, first: Price | None, value: Any, first_given: bool) -> tuple[Price, ...]:
        """The row's `price` and its further `prices` (each as `price` is checked): at most one per currency,
        date and basis, and none without a first `price` (`first_given`: the row has one, valid or not)."""
        if value is None:
            return () if first is None else (first,)
        if not isinstance(value, list) or not value:
            self.fail("prices", "expected a list of { amount, currency, date, source, basis }")
            return () if first is None else (first,)
        if not first_given:
            self.fail("prices", "further prices need a first `price`")
        found = [first] if first is not None else []
        for raw in value:
            price = self.price(kind, raw)
            if price is None:
                continue
            if any((p.currency, p.date, p.basis) == (price.currency, price.date, price.basis) for p in found):
                self.fail("prices", f"two prices in {price.currency} of {price.date} ({price.basis})")
                continue
            if first is not None and price.currency == first.currency and price.date > first.date:
                self.fail(
                    "prices",
                    f"a {price.currency} price of {price.date} is newer than `price` ({first.date}):"
                    f" `price` is the row's newest in its currency, older ones follow in `prices`",
                )
                continue
            found.append(price)
        return tuple(found)

    def sources(self, value: Any, spec_keys: set[str]) -> tuple[Source, ...]:
        if not isinstance(value, list) or not value:
            self.fail("sources", "every row needs at least one source { url, title, read }")
            return ()
        result = []
        for index, raw in enumerate(value, start=1):
            where = f"sources[{index}]"
            if not isinstance(raw, dict) or not {"url", "title", "read"} <= set(raw):
                self.fail(where, "needs url, title and read (the date it was read)")
                continue
            if set(raw) - {"url", "title", "read", "fields"}:
                self.fail(where, f"unknown keys {sorted(set(raw) - {'url', 'title', 'read', 'fields'})}")
                continue
            url, read = raw["url"], _date_text(raw["read"])
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                self.fail(where, f"url must start with http:// or https://, got {url!r}")
                continue
            if read is None:
                self.fail(where, f"read must be a date YYYY-MM-DD, got {raw['read']!r}")
                continue
            fields = raw.get("fields", [])
            unknown = [f for f in fields if f not in spec_keys]
            if unknown:
                self.fail(where, f"names fields this kind does not have: {unknown}")
                continue
            result.append(Source(url, str(raw["title"]), read, tuple(fields)))
        return tuple(result)


def _parse_kind_file(spec: KindSpec, name: str, text: str) -> tuple[list[Part], list[CatalogProblem]]:
    try:
        data = parse_toml(text, name)
    except UserFileError as exc:
        return [], [CatalogProblem(name, exc.line, "", exc.message)]
    if set(data) - {"part"}:
        return [], [CatalogProblem(name, 1, "", f"unexpected top-level keys {sorted(set(data) - {'part'})}")]
    rows = data.get("part", [])
    if not rows:  # said here, not as a missing reference from every row of another file
        return [], [CatalogProblem(name, 0, "", f"no parts: list each {spec.kind} as a [[part]] table")]
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        return [], [CatalogProblem(name, 1, "", "write each part as a [[part]] table on its own line")]
    lines = text.splitlines()
    spans = _row_lines(text)
    if len(spans) != len(rows):
        return [], [CatalogProblem(name, 1, "", "write each part as a [[part]] table on its own line")]
    spec_keys = {f.key for f in spec.fields}
    parts: list[Part] = []
    problems: list[CatalogProblem] = []
    for row, span in zip(rows, spans, strict=True):
        check = _RowChecker(name, lines, span)
        for key in sorted(set(row) - spec_keys - set(COMMON_KEYS)):
            check.fail(key, f"unknown field for kind {spec.kind}")
        part_id = check.text(row, "id", required=True)
        if part_id and not ID_PATTERN.match(part_id):
            check.fail("id", f"{part_id!r} must be lower-case letters, digits, '.', '+' and '-'")
        released = row.get("released", "")
        if isinstance(released, dt.date):
            released = released.isoformat()
        if released and not (isinstance(released, str) and RELEASED_PATTERN.match(released)):
            check.fail("released", f"expected YYYY, YYYY-MM or YYYY-MM-DD, got {released!r}")
        specs: dict[str, Any] = {}
        for field_spec in spec.fields:
            value = row.get(field_spec.key)
            if value is None:
                if field_spec.required:
                    check.fail(field_spec.key, "required field is missing")
                specs[field_spec.key] = None
            else:
                specs[field_spec.key] = check.spec_value(field_spec, value)
        first = check.price(spec.kind, row.get("price"))
        unpriced = check.text(row, "unpriced", required=False)
        if unpriced and "price" in row:
            check.fail("unpriced", "a row with a price cannot also say why it has none")
        if spec.priced and "price" not in row and "unpriced" not in row:
            check.fail("price", f"every {spec.kind} is priced: give a price, or say why there is none (unpriced)")
        unknown = check.unknown(spec, row.get("unknown"), specs)
        part = Part(
            kind=spec.kind,
            id=part_id,
            name=check.text(row, "name", required=True),
            vendor=check.text(row, "vendor", required=True),
            specs=specs,
            sources=check.sources(row.get("sources"), spec_keys | {"price"}),
            price=first,
            catalog_prices=check.prices(spec.kind, first, row.get("prices"), "price" in row),
            released=str(released),
            notes=check.text(row, "notes", required=False),
            unpriced=unpriced,
            unknown=unknown,
            file=name,
            line=span[0],
        )
        problems.extend(check.problems)
        parts.append(part)
    return parts, problems


def _cross_checks(parts: Iterable[Part]) -> list[CatalogProblem]:
    problems = []
    seen: dict[str, Part] = {}
    gpu_ids = {p.id for p in parts if p.kind == "gpu"}
    for part in parts:
        if part.id in seen:
            first = seen[part.id]
            problems.append(
                CatalogProblem(part.file, part.line, "id", f"{part.id!r} already used at {first.file}:{first.line}")
            )
        seen[part.id] = part
        if part.kind == "cloud" and part.specs.get("gpu") not in gpu_ids:
            problems.append(
                CatalogProblem(part.file, part.line, "gpu", f"{part.specs.get('gpu')!r} is not a GPU in gpu.toml")
            )
    return problems


def parse_catalog(files: dict[str, str]) -> LoadedCatalog:
    """Validate a whole catalog given as {file name: text}; raise CatalogError listing every problem."""
    if SCHEMA_FILE not in files:
        raise CatalogError([CatalogProblem(SCHEMA_FILE, 0, "", "the schema file is missing")])
    try:
        schema = parse_schema(files[SCHEMA_FILE])
    except SchemaError as exc:
        raise CatalogError([CatalogProblem(SCHEMA_FILE, exc.line, "", exc.message)]) from None
    parts: list[Part] = []
    problems: list[CatalogProblem] = []
    for kind in schema.kind_names:
        name = f"{kind}.toml"
        if name not in files:
            problems.append(CatalogProblem(name, 0, "", "catalog file is missing"))
            continue
        kind_parts, kind_problems = _parse_kind_file(schema[kind], name, files[name])
        parts.extend(kind_parts)
        problems.extend(kind_problems)
    if not problems:
        problems = _cross_checks(parts)
    if problems:
        raise CatalogError(problems)
    return LoadedCatalog(schema=schema, parts=tuple(parts), digest=files_digest(files))


def read_catalog_files(directory: Path) -> dict[str, str]:
    """Every .toml file of a catalog directory, as text."""
    files = {}
    for path in sorted(directory.glob("*.toml")):
        try:
            files[path.name] = read_text(path)
        except UserFileError as exc:
            raise CatalogError([CatalogProblem(path.name, exc.line, "", exc.message)]) from exc
    return files


def load_catalog(directory: Path) -> LoadedCatalog:
    return parse_catalog(read_catalog_files(directory))
