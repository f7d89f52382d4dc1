"""`gpuconfig catalog list|show|import-prices|rate|check`: the priced hardware catalog."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from gpuconfig.cli.options import catalog_part, form_options, open_store
from gpuconfig.cli.output import EXIT_BAD_INPUT, EXIT_OK, Reply, UsageError, lines, pad, table
from gpuconfig.core.catalog.schema import CURRENCIES


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    catalog = commands.add_parser("catalog", help="browse the priced hardware catalog")
    actions = catalog.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=parser_class)

    listing = actions.add_parser("list", help="list the parts of one kind")
    listing.add_argument("--kind", required=True, help="gpu, cpu, motherboard, ram, ssd, psu, case, dock, cloud")
    listing.add_argument("--query", help="words that must all appear (name, vendor, architecture, ...)")
    listing.add_argument("--currency", choices=CURRENCIES, help="show prices converted to this currency")
    listing.set_defaults(handler=list_parts)

    show = actions.add_parser("show", help="every field of one part, with its sources")
    show.add_argument("id", metavar="PART", help="the part's catalog id, name or words of it")
    show.add_argument("--currency", choices=CURRENCIES, help="show prices converted to this currency")
    show.set_defaults(handler=show_part)

    imports = actions.add_parser("import-prices", help="import a price list (CSV: id,amount,currency,date,source)")
    imports.add_argument("file")
    imports.set_defaults(handler=import_prices)

    rate = actions.add_parser("rate", help="show or set the USD/CNY exchange rate")
    group = rate.add_mutually_exclusive_group()
    group.add_argument("--set", type=float, metavar="CNY_PER_USD")
    group.add_argument("--reset", action="store_true", help="go back to the published rate")
    rate.set_defaults(handler=exchange_rate)

    check = actions.add_parser("check", help="validate the catalog files and count the parts")
    check.add_argument("--dir", help="catalog directory (default: the installed catalog)")
    check.add_argument(
        "--stats",
        action="store_true",
        help="per kind: the rows, how many are priced, how many say why they have no price, and the oldest price",
    )
    check.set_defaults(handler=check_files)

    for p in (listing, show, imports, rate, check):
        form_options(p)


def list_parts(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.catalog.query import PartFilter, PartIndex, price_in
    from gpuconfig.core.catalog.records import part_record
    from gpuconfig.core.money import format_money
    from gpuconfig.core.units import format_value

    store = open_store()
    if args.kind not in store.schema.kinds:
        raise UsageError(f"unknown kind {args.kind!r}; choose one of {', '.join(store.schema.kind_names)}")
    rate = store.exchange_rate()
    index = PartIndex(store.parts(args.kind))
    rows = index.matching_rows(PartFilter(text=args.query or ""), rate)
    parts = [index.parts[r] for r in rows]

    def text() -> str:
        from gpuconfig.core.catalog.age import is_stale, price_age

        spec = store.schema[args.kind]
        columns = [f for f in spec.fields if f.column][:6]
        currency = args.currency or "USD"
        table_rows, converted, stale = [], False, False
        for p in parts:
            shown = p.price_for(currency)
            amount = price_in(p, currency, rate)
            price_text = format_money(amount, currency) + ("/h" if shown and shown.per else "")
            when = ""
            if shown is not None:
                if shown.currency != currency and amount is not None:
                    price_text, converted = "≈" + price_text, True
                when = f"{shown.date} ({price_age(shown)})"
                if is_stale(shown):
                    when, stale = when + " *", True
            table_rows.append([p.id, p.name, *(format_value(f, p.specs[f.key]) for f in columns), price_text, when])
        headers = ["id", "name", *(f.title for f in columns), f"price ({currency})", "price date"]
        notes = [f"\n{len(parts)} of {len(index.parts)} {spec.title.lower()}"]
        if stale:
            notes.append("* a price older than six months: look before you buy (catalog show ID gives its source)")
        if converted and rate is not None:
            notes.append(f"≈ converted at 1 {rate.base} = {rate.rate:g} {rate.quote} ({rate.date}; catalog rate)")
        return lines(table(headers, table_rows), *notes)

    return Reply(EXIT_OK, text, lambda: [part_record(p, args.currency, rate) for p in parts])


def show_part(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.catalog.records import part_record

    store = open_store()
    part = catalog_part(store, args.id, None, "")
    rate = store.exchange_rate()
    record = part_record(part, args.currency, rate)
    return Reply(EXIT_OK, lambda: _part_text(store, part, args.currency, rate), lambda: record)


def _part_text(store: Any, part: Any, currency: str | None, rate: Any) -> str:
    from gpuconfig.core.catalog.age import is_stale, price_age
    from gpuconfig.core.catalog.derived import DERIVED_FIELDS
    from gpuconfig.core.money import convert_price, format_money
    from gpuconfig.core.units import format_value

    out = [f"{part.name}  ({part.vendor}, {part.kind}, id {part.id})"]
    for spec in store.schema[part.kind].fields:
        source = part.source_for(spec.key)
        cite = f"  [{source.title}]" if source and part.specs[spec.key] is not None else ""
        why = f"  (unknown: {part.unknown[spec.key]})" if spec.key in part.unknown else ""
        out.append(f"  {pad(spec.title, 34)} {format_value(spec, part.specs[spec.key])}{cite}{why}")
    out += [
        f"  {pad(spec.title, 34)} {format_value(spec, part.extra.get(spec.key))}  [computed from the slots]"
        for spec in DERIVED_FIELDS.get(part.kind, ())
    ]
    if part.price:
        currency = currency or part.price.currency
        price = part.price_for(currency) or part.price
        amount = format_money(convert_price(price, currency, rate), currency)
        origin = {"override": "your price", "import": price.basis}.get(part.price_origin, price.basis)
        per = "/hour" if price.per else ""
        age = price_age(price) + (", older than six months" if is_stale(price) else "")
        if price.currency != currency and rate is not None:  # the price's own figure, and the rate that converted it
            amount = f"≈{amount} (= {format_money(price.amount, price.currency)} at {rate.rate:g}, rate of {rate.date})"
        out.append(f"  {'Price':<34} {amount}{per}  ({origin}, {price.date}, {age} old) {price.source}")
        for other in (p for p in part.catalog_prices if p != price):
            text = format_money(other.amount, other.currency) + ("/hour" if other.per else "")
            out.append(f"  {'':<34} {text}  ({other.basis}, {other.date}) {other.source}")
    else:
        why = f": {part.unpriced}" if part.unpriced else ""
        out.append(f"  {'Price':<34} no public price{why}")
    out.append("Sources:")
    for s in part.sources:
        covers = f" — {', '.join(s.fields)}" if s.fields else ""
        out.append(f"  {s.title} (read {s.read}){covers}\n    {s.url}")
    if part.notes:
        out.append(f"Notes: {part.notes}")
    return lines(*out)


def import_prices(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.catalog.prices import PriceListError, read_price_list

    store = open_store()
    path = Path(args.file)
    try:
        prices = read_price_list(path, store.part_ids())
    except PriceListError as exc:
        raise UsageError(f"price list not imported: {exc}") from exc
    store.user.save_price_list(path.stem, prices)
    return Reply(
        EXIT_OK,
        lambda: lines(f"imported {len(prices)} prices as price list {path.stem!r}"),
        lambda: {"list": path.stem, "prices": len(prices)},
    )


def check_files(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.catalog.files import CatalogError, load_catalog
    from gpuconfig.core.catalog.query import kind_stats
    from gpuconfig.core.paths import catalog_dir

    directory = Path(args.dir) if args.dir else catalog_dir()
    if not directory.is_dir():
        raise UsageError(f"--dir {directory}: no such folder")
    try:
        loaded = load_catalog(directory)
    except CatalogError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return Reply(EXIT_BAD_INPUT, lambda: "")
    kinds = loaded.schema.kind_names
    if args.stats:
        stats = kind_stats(loaded.parts, kinds)
        return Reply(EXIT_OK, lambda: stats_text(stats), lambda: stats)
    counts: dict[str, int] = {}
    for part in loaded.parts:
        counts[part.kind] = counts.get(part.kind, 0) + 1
    return Reply(
        EXIT_OK,
        lambda: lines(", ".join(f"{kind}: {counts.get(kind, 0)}" for kind in kinds)),
        lambda: {kind: counts.get(kind, 0) for kind in kinds},
    )


def stats_text(stats: dict[str, dict[str, Any]]) -> str:
    headers = ["kind", "rows", "priced", "share", "no price, why given", "no price, no reason", "oldest price", "part"]
    body = [
        [
            kind,
            str(row["rows"]),
            str(row["priced"]),
            "-" if row["priced_share"] is None else f"{row['priced_share']:.0%}",
            str(row["unpriced_with_reason"]),
            str(row["unpriced_without_reason"]),
            row["oldest_price_date"] or "-",
            row["oldest_price_part"] or "-",
        ]
        for kind, row in stats.items()
    ]
    return table(headers, body)


def exchange_rate(args: argparse.Namespace) -> Reply:
    from gpuconfig.core.money import ExchangeRateError

    store = open_store()
    if args.set is not None:
        try:
            store.user.set_exchange_rate(args.set)
        except ExchangeRateError as exc:
            raise UsageError(str(exc)) from exc
    elif args.reset:
        store.user.set_exchange_rate(None)
    rate = store.exchange_rate()

    def text() -> str:
        if rate is None:
            return lines("no USD/CNY rate known; set one with: gpuconfig catalog rate --set RATE")
        return lines(f"1 {rate.base} = {rate.rate:g} {rate.quote}  ({rate.source}, {rate.date})")

    def record() -> Any:
        if rate is None:
            return None
        fields = ("base", "quote", "rate", "date", "source", "user_set")
        return {name: getattr(rate, name) for name in fields}

    return Reply(EXIT_OK, text, record)
