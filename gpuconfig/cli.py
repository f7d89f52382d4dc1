"""The command line: every GUI capability, headless.

With --json a command prints machine-readable output on stdout and nothing else. Exit codes:
0 success, 1 a failed verdict, 2 bad input or output that could not be written (with a one-line message
on stderr, also when the program reading the output closes it early), 130 cancelled (Ctrl+C).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gpuconfig import __version__
from gpuconfig.core.catalog.schema import CURRENCIES, SchemaError
from gpuconfig.core.numbers import json_text

EXIT_OK, EXIT_VERDICT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
EXIT_CANCELLED = 130  # what shells report for a command ended by SIGINT (128 + 2)


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit code 2."""


def _store() -> Any:
    from gpuconfig.core.catalog.store import open_default_store

    store = open_default_store()  # a StoreError is reported by main()
    if store.last_refresh.error:
        print(
            f"gpuconfig: catalog files not loaded, using the last good catalog: {store.last_refresh.error}",
            file=sys.stderr,
        )
    return store


def _print_json(data: Any) -> None:
    sys.stdout.write(json_text(data))


class _OutputFile:
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

    def write(self, writer: Callable[[Path], None]) -> None:
        """Write the file with `writer(path)`."""
        try:
            writer(self.path)
        except OSError as exc:
            raise UsageError(f"{self.option} {self.path}: not written: {exc.strerror or exc}") from exc


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def _cmd_catalog_list(args: argparse.Namespace) -> int:
    from gpuconfig.core.catalog.query import PartFilter, PartIndex
    from gpuconfig.core.catalog.records import part_record
    from gpuconfig.core.money import convert_price, format_money
    from gpuconfig.core.units import format_value

    store = _store()
    if args.kind not in store.schema.kinds:
        raise UsageError(f"unknown kind {args.kind!r}; choose one of {', '.join(store.schema.kind_names)}")
    rate = store.exchange_rate()
    index = PartIndex(store.parts(args.kind))
    rows = index.matching_rows(PartFilter(text=args.query or ""), rate)
    parts = [index.parts[r] for r in rows]
    if args.json:
        _print_json([part_record(p, args.currency, rate) for p in parts])
        return EXIT_OK
    spec = store.schema[args.kind]
    columns = [f for f in spec.fields if f.column][:6]
    currency = args.currency or "USD"
    table_rows = []
    for p in parts:
        amount = convert_price(p.price, currency, rate) if p.price else None
        price = format_money(amount, currency) + ("/h" if p.price and p.price.per else "")
        table_rows.append([p.id, p.name, *(format_value(f, p.specs[f.key]) for f in columns), price])
    print(_table(["id", "name", *(f.label for f in columns), f"price ({currency})"], table_rows))
    print(f"\n{len(parts)} of {len(index.parts)} {spec.label.lower()}")
    return EXIT_OK


def _cmd_catalog_show(args: argparse.Namespace) -> int:
    from gpuconfig.core.catalog.derived import DERIVED_FIELDS
    from gpuconfig.core.catalog.records import part_record
    from gpuconfig.core.money import convert_price, format_money
    from gpuconfig.core.units import format_value

    store = _store()
    part = store.part(args.id)
    if part is None:
        raise UsageError(f"no part with id {args.id!r}; try: gpuconfig catalog list --kind KIND --query TEXT")
    rate = store.exchange_rate()
    if args.json:
        _print_json(part_record(part, args.currency, rate))
        return EXIT_OK
    print(f"{part.name}  ({part.vendor}, {part.kind}, id {part.id})")
    for spec in store.schema[part.kind].fields:
        source = part.source_for(spec.key)
        cite = f"  [{source.title}]" if source and part.specs[spec.key] is not None else ""
        print(f"  {spec.label:<34} {format_value(spec, part.specs[spec.key])}{cite}")
    for spec in DERIVED_FIELDS.get(part.kind, ()):
        print(f"  {spec.label:<34} {format_value(spec, part.extra.get(spec.key))}  [computed from the slots]")
    if part.price:
        currency = args.currency or part.price.currency
        amount = format_money(convert_price(part.price, currency, rate), currency)
        origin = {"override": "your price", "import": part.price.basis}.get(part.price_origin, part.price.basis)
        per = "/hour" if part.price.per else ""
        print(f"  {'Price':<34} {amount}{per}  ({origin}, {part.price.date}) {part.price.source}")
    else:
        print(f"  {'Price':<34} no public price")
    print("Sources:")
    for s in part.sources:
        covers = f" — {', '.join(s.fields)}" if s.fields else ""
        print(f"  {s.title} (read {s.read}){covers}\n    {s.url}")
    if part.notes:
        print(f"Notes: {part.notes}")
    return EXIT_OK


def _cmd_catalog_import(args: argparse.Namespace) -> int:
    from gpuconfig.core.catalog.prices import PriceListError, read_price_list

    store = _store()
    path = Path(args.file)
    try:
        prices = read_price_list(path, store.part_ids())
    except PriceListError as exc:
        raise UsageError(f"price list not imported: {exc}") from exc
    store.save_price_list(path.stem, prices)
    if args.json:
        _print_json({"list": path.stem, "prices": len(prices)})
    else:
        print(f"imported {len(prices)} prices as price list {path.stem!r}")
    return EXIT_OK


def _cmd_catalog_check(args: argparse.Namespace) -> int:
    from gpuconfig.core.catalog.files import CatalogError, load_catalog
    from gpuconfig.core.paths import catalog_dir

    directory = Path(args.dir) if args.dir else catalog_dir()
    if not directory.is_dir():
        raise UsageError(f"--dir {directory}: no such folder")
    try:
        loaded = load_catalog(directory)
    except CatalogError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return EXIT_BAD_INPUT
    counts: dict[str, int] = {}
    for part in loaded.parts:
        counts[part.kind] = counts.get(part.kind, 0) + 1
    if args.json:
        _print_json({kind: counts.get(kind, 0) for kind in loaded.schema.kind_names})
    else:
        print(", ".join(f"{kind}: {counts.get(kind, 0)}" for kind in loaded.schema.kind_names))
    return EXIT_OK


def _cmd_catalog_rate(args: argparse.Namespace) -> int:
    from gpuconfig.core.money import ExchangeRateError

    store = _store()
    if args.set is not None:
        try:
            store.set_exchange_rate(args.set)
        except ExchangeRateError as exc:
            raise UsageError(str(exc)) from exc
    elif args.reset:
        store.set_exchange_rate(None)
    rate = store.exchange_rate()
    if args.json:
        _print_json(
            None
            if rate is None
            else {
                "base": rate.base,
                "quote": rate.quote,
                "rate": rate.rate,
                "date": rate.date,
                "source": rate.source,
                "user_set": rate.user_set,
            }
        )
    elif rate is None:
        print("no USD/CNY rate known; set one with: gpuconfig catalog rate --set RATE")
    else:
        print(f"1 {rate.base} = {rate.rate:g} {rate.quote}  ({rate.source}, {rate.date})")
    return EXIT_OK


def _cmd_estimate(args: argparse.Namespace) -> int:

    from gpuconfig.core.units import format_bytes
    from gpuconfig.core.workload.advice import advise, option_record
    from gpuconfig.core.workload.answer import answer_from_fit, answer_record, gpu_spec, prepare
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.spec import WorkloadError

    workload = _workload(args)
    try:
        gpu = gpu_spec(_store(), args.gpu) if args.gpu else None

        def progress(done: int, total: int, what: str) -> None:
            if not args.json and sys.stderr.isatty():
                print(f"\rtracing {done}/{total}: {what}    ", end="", file=sys.stderr, flush=True)

        use_cache, timeout_s = not args.no_cache, args.trace_timeout
        source, fitted, seconds = prepare(workload, progress, use_cache, timeout_s=timeout_s)
        answer = answer_from_fit(source, fitted, workload, gpu, seconds)
        options = []
        if gpu is not None and answer.estimate.memory.peak > gpu.memory_bytes:
            options = advise(answer, gpu, progress, use_cache=use_cache, timeout_s=timeout_s)
    except WorkloadError as exc:
        raise UsageError(str(exc)) from exc
    except TraceFailed as exc:
        return _trace_failed(exc)
    record = answer_record(answer)
    if gpu is not None:
        fitting = [o for o in options if o.fits]
        record["gpu"]["verdict"] = (
            "fits" if record["gpu"]["fits"] else f"fits if: {fitting[0].label}" if fitting else "does not fit"
        )
        record["advice"] = [option_record(o) for o in options]
    if args.json:
        _print_json(record)
        return EXIT_OK
    memory = record["memory"]
    print(
        f"{record['model']}: {record['params']:,} parameters ({record['trainable_params']:,} trainable), "
        f"{record['method']}"
    )
    rows = [
        [key, format_bytes(memory[key])]
        for key in ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead", "peak")
    ]
    print(_table(["per device", "memory"], rows))
    for item in memory["overheads"]:
        print(f"  overhead: {item['name']}: {format_bytes(item['bytes'])} ({item['source']})")
    if "gpu" in record:
        print(f"{record['gpu']['name']} ({format_bytes(record['gpu']['memory'])}): {record['gpu']['verdict']}")
        for option in options:
            factor = f"{option.time_factor:.2f}x time" if option.time_factor is not None else "time unknown"
            note = ", changes what is trained or computed" if option.changes_result else ""
            mark = "fits" if option.fits else "still too big"
            print(f"  {mark:13s} {option.label}: {format_bytes(option.peak)}, {factor}{note}")
    if record.get("time"):
        t = record["time"]
        tokens = t["throughput"]["tokens_per_s"]
        extra = f", {tokens:,.0f} tokens/s" if tokens else ""
        print(f"step {t['step_seconds']:.3g} s, {t['throughput']['samples_per_s']:,.1f} samples/s{extra}")
        print(f"  time of an eager PyTorch step: {t['efficiency']['source']}")
    elif record.get("time_note"):
        print(f"time: {record['time_note']}")
    return EXIT_OK


def _cmd_probe(args: argparse.Namespace) -> int:
    from gpuconfig.probe.history import HistoryError, ProbeHistory
    from gpuconfig.probe.report import write_html, write_json
    from gpuconfig.probe.sampler import Sampler
    from gpuconfig.probe.session import probe

    json_file = _OutputFile("--json", args.json) if args.json and args.json != "-" else None
    html_file = _OutputFile("--html", args.html) if args.html else None
    _check_python(args.python)
    if not 1 <= args.rate <= 10:
        raise UsageError(f"--rate {args.rate:g}: choose 1 to 10 samples a second")
    only = [name.strip() for name in args.only.split(",") if name.strip()] if args.only else None
    if only:
        from gpuconfig.probe.runner import benchmark_names

        known = benchmark_names()  # empty when no Python can be asked (the run then says why)
        for name in only:
            if known and name not in known:
                raise UsageError(f"--only: unknown benchmark {name!r}; choose from {', '.join(known)}")
    tty = sys.stderr.isatty()

    def progress(done: int, total: int, what: str) -> None:
        if tty:
            print(f"\r[{done + 1}/{total}] {what:<60}", end="", file=sys.stderr, flush=True)

    sampler = Sampler(hz=args.rate)
    sampler.start()
    try:
        run = probe(
            "full" if args.full else "quick",
            python=args.python,
            only=only,
            progress=progress,
            series=lambda: sampler.snapshot().record(),
            limits=_limits(args),
        )
    finally:
        sampler.stop()
    if tty:
        print(file=sys.stderr)
    try:
        history = ProbeHistory.open_default()
        history.save(run)
        history.close()
    except HistoryError as exc:
        print(f"gpuconfig: probe run not saved in the history: {exc}{_repair_hint(exc)}", file=sys.stderr)
    if args.json == "-":
        _print_json(run.record())
    elif json_file:
        json_file.write(lambda path: write_json(run, path))
    if html_file:
        html_file.write(lambda path: write_html(run, path))
    if args.json != "-":
        rows = [
            [r.name, r.dtype, r.device, r.variant, f"{r.value:.4g}" if r.value is not None else r.status, r.unit]
            for r in run.results
        ]
        if rows:  # none when no worker could start: the PyTorch verdict below says why
            print(_table(["benchmark", "dtype", "device", "variant", "value", "unit"], rows), end="\n\n")
        for v in run.verdicts:
            advice = f" — {v.advice}" if v.advice else ""
            print(f"{v.status.upper():5s} {v.check} ({v.subject}): {v.message}{advice}")
        summary = ", ".join(f"{n} {status}" for status, n in run.counts.items() if n)
        print(f"\n{summary}; {run.seconds:.0f} s" + (" (cancelled)" if run.cancelled else ""))
    return EXIT_VERDICT_FAILED if run.failed else EXIT_OK


def _check_python(python: str | None) -> None:
    """The Python that will run the benchmarks exists: --python's, or GPUCONFIG_TORCH_PYTHON's."""
    from gpuconfig.core.workers.pythons import PythonNotFound, named_python

    if python:
        if not Path(python).is_file():
            raise UsageError(f"--python {python}: no such interpreter")
        return
    try:
        named_python()
    except PythonNotFound as exc:
        raise UsageError(str(exc)) from exc


def _limits(args: argparse.Namespace) -> Any:
    from gpuconfig.probe.runner import Limits

    return Limits(args.start_timeout, args.bench_timeout)


def _seconds(text: str) -> float:
    """A time-out on the command line: a positive, finite number of seconds."""
    from gpuconfig.core.numbers import NumberError, checked_number

    try:
        return checked_number(float(text))
    except NumberError as exc:
        raise argparse.ArgumentTypeError(f"seconds {exc}") from None
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None


def _worker_timeouts(p: argparse.ArgumentParser) -> None:
    """The time-outs of a command that runs the probe's benchmarks."""
    from gpuconfig.probe.runner import STARTUP_TIMEOUT_S, TIMEOUTS_S

    p.add_argument(
        "--start-timeout", type=_seconds, default=STARTUP_TIMEOUT_S, metavar="S", dest="start_timeout",
        help=f"seconds the benchmark worker may take to import torch and start (default {STARTUP_TIMEOUT_S:g})",
    )  # fmt: skip
    p.add_argument(
        "--bench-timeout", type=_seconds, metavar="S", dest="bench_timeout",
        help=f"seconds each benchmark may take (default: each its own, {min(TIMEOUTS_S.values()):g} to "
        f"{max(TIMEOUTS_S.values()):g})",
    )  # fmt: skip


def _trace_failed(exc: Any) -> int:
    """A trace that failed on the user's input is bad input (exit 2); one that crashed is a failure (exit 1)."""
    if exc.kind in ("model", "input", "unsupported"):
        raise UsageError(str(exc)) from exc
    print(f"gpuconfig: trace failed: {exc}", file=sys.stderr)
    return EXIT_VERDICT_FAILED


def _workload_options(p: argparse.ArgumentParser, model_required: bool = True) -> None:
    """The workload flags `estimate`, `recommend` and `egpu` share."""
    from gpuconfig.core.workload.runner import TRACE_TIMEOUT_S
    from gpuconfig.core.workload.spec import DEVICES, OPTIMIZERS, PRECISIONS, STRATEGIES, TASKS

    p.add_argument(
        "--model",
        required=model_required,
        help="a built-in model id, a config.json, or a .py file that builds the model; "
        "a .py file is run as Python code, so give only files you trust",
    )
    p.add_argument("--task", default="finetune", choices=list(TASKS))
    p.add_argument("--batch", type=int, default=1, help="micro-batch per device")
    p.add_argument("--seq", type=int, help="sequence length (prompt, for inference) or image side")
    p.add_argument("--generate", type=int, default=0, help="tokens generated per sequence (inference)")
    p.add_argument("--precision", default="amp_bf16", choices=list(PRECISIONS))
    p.add_argument("--optimizer", default="adamw", choices=list(OPTIMIZERS))
    p.add_argument("--checkpointing", action="store_true", help="activation checkpointing")
    p.add_argument("--grad-accum", type=int, default=1, dest="grad_accum")
    p.add_argument("--gpus", type=int, default=1)
    p.add_argument("--strategy", default="ddp", choices=list(STRATEGIES))
    p.add_argument("--device", default="cuda", choices=list(DEVICES))
    p.add_argument("--lora-rank", type=int, default=16, dest="lora_rank")
    p.add_argument(
        "--trace-timeout", type=_seconds, default=TRACE_TIMEOUT_S, metavar="S", dest="trace_timeout",
        help=f"seconds a trace of the model may take (default {TRACE_TIMEOUT_S:g})",
    )  # fmt: skip


def _workload(args: argparse.Namespace) -> Any:
    from dataclasses import fields

    from gpuconfig.core.workload.spec import Workload, WorkloadError

    try:
        return Workload(**{f.name: getattr(args, f.name) for f in fields(Workload)})
    except WorkloadError as exc:
        raise UsageError(str(exc)) from exc


def _cmd_recommend(args: argparse.Namespace) -> int:
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.money import format_money
    from gpuconfig.core.planner.recommend import Constraints, PlanError, plan_parts, recommend
    from gpuconfig.core.planner.records import plan_record
    from gpuconfig.core.workload.answer import prepare
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.spec import WorkloadError

    workload = _workload(args)
    store = _store()
    try:
        rules = build_rules()
        if args.circuit not in rules.circuits:
            raise UsageError(f"--circuit: {args.circuit!r} is not one of {', '.join(rules.circuits)}")
        unknown = [i for i in args.own if store.part(i) is None]
        if unknown:
            raise UsageError(f"--own: {unknown[0]!r} is not in the catalog")
        constraints = Constraints(
            budget=args.budget,
            currency=args.currency,
            rent=args.rent,
            form=args.form,
            max_gpus=args.max_gpus,
            circuit=args.circuit,
            owned=tuple(args.own),
            samples=args.samples,
            electricity_per_kwh=args.electricity,
            dataset_gb=args.dataset_gb,
            port=args.port,
            laptop_os=args.os or "linux",
            charger_w=args.charger,
        )
        source, fitted, _ = prepare(workload, timeout_s=args.trace_timeout)
    except (PlanError, WorkloadError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    except TraceFailed as exc:
        return _trace_failed(exc)
    plan = recommend(source, fitted, workload, constraints, plan_parts(store), rules, store.exchange_rate(), store.part)
    if args.json:
        _print_json(plan_record(plan))
        return EXIT_OK
    cur = args.currency
    if plan.shortfall is not None:
        print(plan.shortfall.message)
    rows = []
    for c in plan.candidates[: args.top]:
        o = c.option
        speed = f"{o.throughput:,.0f}" if o.throughput is not None else "unknown"
        rows.append(
            [
                f"{o.count} x {o.gpu.name}",
                o.strategy,
                format_money(c.cost, cur),
                speed,
                f"{o.peak_bytes / 1024**3:.1f}/{o.gpu.memory_bytes / 1024**3:.0f} GiB",
                f"{c.wall_w} W",
                "yes" if c.pareto else "",
            ]
        )
    if rows:
        unit = "tokens/s" if plan.candidates[0].option.tokens_per_s is not None else "samples/s"
        print(_table(["GPUs", "strategy", "cost", unit, "peak/GPU", "wall", "Pareto"], rows))
        best = plan.candidates[0]
        print(f"\nbest per {format_money(1000, cur)}: {best.build.name}")
        for line in best.build.lines:
            part = store.part(line.part_id)
            print(f"  {line.count} x {part.name if part else line.part_id}")
    for r in plan.rentals[: args.top]:
        speed = f"{r.option.samples_per_s:,.2f} samples/s" if r.option.samples_per_s else "speed unknown"
        print(f"rent: {r.nodes} x {r.instance.name}, {format_money(r.hourly, cur)}/h, {speed}")
    if plan.break_even is not None:
        print(plan.break_even.message)
    for note in plan.notes:
        print(f"note: {note}")
    return EXIT_OK


def _cmd_egpu(args: argparse.Namespace) -> int:
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.egpu.check import Host
    from gpuconfig.core.egpu.report import egpu_record, egpu_text, evaluate
    from gpuconfig.core.egpu.tables import EgpuDataError, egpu_tables
    from gpuconfig.core.workload.answer import answer_from_fit, gpu_spec, prepare
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.spec import WorkloadError
    from gpuconfig.probe.egpu import detect, os_id

    if args.charger is not None and not 5 <= args.charger <= 400:
        raise UsageError(f"--charger: {args.charger} W is not a laptop charger (5-400 W)")
    if args.measure:
        _check_python(args.python)
    store = _store()
    parts = {}
    for kind, part_id in (("dock", args.dock), ("gpu", args.gpu)):
        if part_id is None:
            continue
        part = store.part(part_id)
        if part is None or part.kind != kind:
            raise UsageError(
                f"--{kind}: {part_id!r} is not a {kind} in the catalog (gpuconfig catalog list --kind {kind})"
            )
        parts[kind] = part
    try:
        tables, rules = egpu_tables(), build_rules()
    except (EgpuDataError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    detection = detect()
    host = detection.host
    if args.port is not None:  # the user's description wins; what was detected is still reported
        host = Host(args.port, args.os or (host.os if host else os_id()), args.charger)
    elif host is not None and (args.os or args.charger):
        from dataclasses import replace

        host = replace(host, os=args.os or host.os, charger_w=args.charger)
    answer = None
    if args.model:
        if "gpu" not in parts:
            raise UsageError("--model: the slowdown needs the card (--gpu)")
        workload = _workload(args)
        try:
            source, fitted, seconds = prepare(workload, timeout_s=args.trace_timeout)
            answer = answer_from_fit(source, fitted, workload, gpu_spec(store, parts["gpu"].id), seconds)
        except WorkloadError as exc:
            raise UsageError(str(exc)) from exc
        except TraceFailed as exc:
            return _trace_failed(exc)
    measured = None
    if args.measure:
        from gpuconfig.probe.runner import run_suite

        outcome = run_suite("quick", args.python, ["h2d_bandwidth", "train_from_host"], limits=_limits(args))
        measured = [r.record() for r in outcome.results]
    report = evaluate(host, parts.get("dock"), parts.get("gpu"), tables, rules, answer, measured, detection.to_json())
    if args.json:
        _print_json(egpu_record(report))
    else:
        print(egpu_text(report))
        if report.compatibility is None and not args.port:
            print("\nDescribe the laptop to check an enclosure: --port TB3|TB4|USB4|USB4v2|TB5|OCuLink|USB-C")
    return EXIT_VERDICT_FAILED if report.status == "fail" else EXIT_OK


def _cmd_build_check(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from gpuconfig.core.build.check import check
    from gpuconfig.core.build.model import BuildError, read_build, resolve, totals
    from gpuconfig.core.build.power import power_budget
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.money import format_money
    from gpuconfig.core.planner.records import check_record

    store = _store()
    try:
        build = read_build(Path(args.file))
        if args.circuit:
            build = replace(build, circuit=args.circuit)
        rules = build_rules()
        if build.circuit not in rules.circuits:
            raise UsageError(f"circuit: {build.circuit!r} is not one of {', '.join(rules.circuits)}")
        resolved = resolve(build, store.part)
    except (BuildError, RulesError) as exc:
        raise UsageError(str(exc)) from exc
    problems = check(resolved, rules, arch_check=_arch_check())
    currency = args.currency or build.currency
    total = totals(resolved, currency, store.exchange_rate())
    budget = power_budget(resolved, rules, build.circuit)
    record = check_record(resolved, total, budget, problems)
    if args.json:
        _print_json(record)
    else:
        print(
            f"{build.name}: {format_money(total.amount, currency)}"
            + (f" (no price for {', '.join(total.unpriced)})" if total.unpriced else "")
        )
        for item in resolved.items:
            print(f"  {item.count} x {item.part.name} ({item.kind})")
        print(
            f"power: {budget.sustained_w} W sustained, supply needs {budget.required_w} W"
            + (f", has {budget.psu_w} W" if budget.psu_w else "")
            + (
                f", about {budget.wall_w} W at the wall ({budget.circuit.label}: {budget.circuit.watts} W)"
                if budget.wall_w
                else ""
            )
        )
        for p in problems:
            print(f"{p.severity.upper():5s} {p.rule}: {p.message}" + (f" Fix: {p.fix}" if p.fix else ""))
        print(f"verdict: {record['verdict']}")
    return EXIT_VERDICT_FAILED if record["verdict"] == "fail" else EXIT_OK


def _arch_check() -> Any:
    """The PyTorch-wheel rule for each GPU, from the setup guide's tables."""
    from gpuconfig.core.build.wheels import wheel_problem
    from gpuconfig.core.guide.tables import CompatTableError, load_tables

    try:
        load_tables()
    except CompatTableError as exc:
        print(f"gpuconfig: PyTorch wheels not checked: {exc}", file=sys.stderr)
        return None
    return wheel_problem


def _cmd_guide(args: argparse.Namespace) -> int:
    from gpuconfig.core.build.model import BuildError, read_build, resolve
    from gpuconfig.core.guide.choose import target_from_part
    from gpuconfig.core.guide.diagnose import guide_from_probe
    from gpuconfig.core.guide.guide import guide_for_gpus, guide_for_part
    from gpuconfig.core.guide.render import guide_html, guide_markdown, guide_record
    from gpuconfig.core.guide.tables import CompatTableError
    from gpuconfig.core.paths import write_text_atomic
    from gpuconfig.core.user_files import UserFileError, read_json

    output = _OutputFile("--output", args.output) if args.output else None
    try:
        if args.gpu:
            part = _store().part(args.gpu)
            if part is None or part.kind != "gpu":
                raise UsageError(f"--gpu: {args.gpu!r} is not a GPU in the catalog (gpuconfig catalog list --kind gpu)")
            guide = (
                guide_for_gpus(
                    [(target_from_part(part), args.count)], args.os, p2p=part.specs.get("p2p"), driver=args.driver
                )
                if args.driver
                else guide_for_part(part, args.count, args.os)
            )
        elif args.build:
            resolved = resolve(read_build(Path(args.build)), _store().part)
            gpus = resolved.gpus()
            if not gpus:
                raise UsageError(f"{args.build}: the build has no GPU to set up")
            p2p = False if any(g.spec("p2p") is False for g in gpus) else None
            guide = guide_for_gpus(
                [(target_from_part(g.part), g.count) for g in gpus], args.os, p2p=p2p, driver=args.driver
            )
        else:
            report = read_json(Path(args.from_probe))
            if not isinstance(report, dict):
                raise UsageError(f"{args.from_probe}: not a probe report: expected a JSON object")
            guide = guide_from_probe(report, args.os)
    except (BuildError, CompatTableError, UserFileError, ValueError) as exc:
        raise UsageError(str(exc)) from exc
    if args.format == "json":
        text = json_text(guide_record(guide))
    else:
        text = guide_markdown(guide) if args.format == "md" else guide_html(guide)
    if output:
        output.write(lambda path: write_text_atomic(path, text))
    else:
        sys.stdout.write(text)
    return EXIT_VERDICT_FAILED if any(f.severity == "fail" for f in guide.findings) else EXIT_OK


def _cmd_data_repair(args: argparse.Namespace) -> int:
    from gpuconfig.core.catalog.store import default_store_path, repair_store, shipped_catalog
    from gpuconfig.probe.history import default_history_path, repair_history

    store, history = default_store_path(), default_history_path()
    done = [(store, repair_store(store, shipped_catalog())), (history, repair_history(history))]
    if args.json:
        _print_json([_repair_record(path, repair) for path, repair in done])
        return EXIT_OK
    for path, repair in done:
        if repair is None:
            print(f"{path}: sound, left as it is")
            continue
        kept = ", ".join(f"{count} {table}" for table, count in repair.kept.items() if count) or "nothing"
        print(f"{path}: rebuilt; the damaged file is kept as {repair.backup}; copied over: {kept}")
        for line in repair.lost:
            print(f"  not kept: {line}")
    return EXIT_OK


def _repair_hint(exc: BaseException) -> str:
    """What to do about an error that comes from a damaged database file, the catalog's or the probe
    history's (there underneath a HistoryError); "" for any other."""
    from gpuconfig.core.database import DamagedDatabase

    if isinstance(exc, DamagedDatabase) or isinstance(exc.__cause__, DamagedDatabase):
        return "; `gpuconfig data repair` moves it aside and rebuilds it, keeping what can be read"
    return ""


def _repair_record(path: Path, repair: Any) -> dict[str, Any]:
    if repair is None:
        return {"file": str(path), "repaired": False}
    return {
        "file": str(path),
        "repaired": True,
        "moved_to": str(repair.backup),
        "kept": repair.kept,
        "not_kept": list(repair.lost),
    }


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, as for every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from gpuconfig.core.egpu.tables import OSES as EGPU_OSES
    from gpuconfig.core.egpu.tables import PORTS

    parser = _Parser(
        prog="gpuconfig",
        description=__doc__.split("\n")[0],
        epilog="Exit codes: 0 success, 1 a failed verdict, 2 bad input or output closed early, 130 cancelled (Ctrl+C).",
    )
    parser.add_argument("--version", action="version", version=f"gpuconfig {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    catalog = commands.add_parser("catalog", help="browse the priced hardware catalog")
    actions = catalog.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)

    def currency_option(p: argparse.ArgumentParser) -> None:
        p.add_argument("--currency", choices=CURRENCIES, help="show prices converted to this currency")
        p.add_argument("--json", action="store_true", help="print JSON only")

    listing = actions.add_parser("list", help="list the parts of one kind")
    listing.add_argument("--kind", required=True, help="gpu, cpu, motherboard, ram, ssd, psu, case, dock, cloud")
    listing.add_argument("--query", help="words that must all appear (name, vendor, architecture, ...)")
    currency_option(listing)
    listing.set_defaults(handler=_cmd_catalog_list)

    show = actions.add_parser("show", help="every field of one part, with its sources")
    show.add_argument("id")
    currency_option(show)
    show.set_defaults(handler=_cmd_catalog_show)

    imports = actions.add_parser("import-prices", help="import a price list (CSV: id,amount,currency,date,source)")
    imports.add_argument("file")
    imports.add_argument("--json", action="store_true")
    imports.set_defaults(handler=_cmd_catalog_import)

    rate = actions.add_parser("rate", help="show or set the USD/CNY exchange rate")
    group = rate.add_mutually_exclusive_group()
    group.add_argument("--set", type=float, metavar="CNY_PER_USD")
    group.add_argument("--reset", action="store_true", help="go back to the published rate")
    rate.add_argument("--json", action="store_true")
    rate.set_defaults(handler=_cmd_catalog_rate)

    check = actions.add_parser("check", help="validate the catalog files and count the parts")
    check.add_argument("--dir", help="catalog directory (default: the installed catalog)")
    check.add_argument("--json", action="store_true")
    check.set_defaults(handler=_cmd_catalog_check)

    estimate = commands.add_parser("estimate", help="memory and time of a training or inference workload")
    _workload_options(estimate)
    estimate.add_argument("--gpu", metavar="CATALOG_ID", help="the GPU to check the fit and time against")
    estimate.add_argument("--no-cache", action="store_true", help="trace again even if a cached trace exists")
    estimate.add_argument("--json", action="store_true")
    estimate.set_defaults(handler=_cmd_estimate)

    from gpuconfig.core.build.model import DEFAULT_CIRCUIT
    from gpuconfig.core.planner.recommend import FORMS

    recommend = commands.add_parser("recommend", help="ranked, priced and checked builds for a workload and budget")
    _workload_options(recommend)
    recommend.add_argument("--budget", type=float, metavar="AMOUNT", help="the most the machine may cost")
    recommend.add_argument("--currency", choices=CURRENCIES, default="USD")
    recommend.add_argument("--rent", action="store_true", help="also rent: the catalog's cloud instances")
    recommend.add_argument(
        "--form", choices=FORMS, default="tower", help="tower, rack, or egpu (a laptop with an eGPU)"
    )
    recommend.add_argument("--max-gpus", type=int, default=8, dest="max_gpus", help="GPUs in one machine (1-8)")
    recommend.add_argument("--circuit", default=DEFAULT_CIRCUIT, help="the wall circuit (see build_rules.toml)")
    recommend.add_argument("--own", action="append", default=[], metavar="CATALOG_ID", help="a part you already have")
    recommend.add_argument("--samples", type=float, help="samples the job processes (dataset size x epochs)")
    recommend.add_argument("--electricity", type=float, metavar="PRICE_PER_KWH", help="in --currency")
    recommend.add_argument("--dataset-gb", type=int, default=0, dest="dataset_gb", help="dataset size on disk")
    recommend.add_argument("--port", choices=PORTS, help="with --form egpu: the laptop's port")
    recommend.add_argument("--os", choices=EGPU_OSES, help="with --form egpu: the laptop's OS (default linux)")
    recommend.add_argument("--charger", type=int, metavar="WATTS", help="with --form egpu: the laptop's charger")
    recommend.add_argument("--top", type=int, default=5, help="candidates to print (text output)")
    recommend.add_argument("--json", action="store_true")
    recommend.set_defaults(handler=_cmd_recommend, no_cache=False)

    from gpuconfig.core.guide.guide import OSES

    guide = commands.add_parser("guide", help="the setup guide: driver, PyTorch install, checks, settings, fixes")
    what = guide.add_mutually_exclusive_group(required=True)
    what.add_argument("--gpu", metavar="CATALOG_ID", help="a GPU from the catalog")
    what.add_argument("--build", metavar="FILE.json", help="a build file")
    what.add_argument(
        "--from-probe", metavar="FILE.json", dest="from_probe", help="a probe report (gpuconfig probe --json)"
    )
    guide.add_argument("--os", required=True, choices=OSES)
    guide.add_argument("--count", type=int, default=1, help="how many of the GPU (with --gpu)")
    guide.add_argument("--driver", metavar="VERSION", help="the NVIDIA driver installed now, e.g. 560.35.03")
    guide.add_argument("--format", choices=("md", "html", "json"), default="md")
    guide.add_argument("--output", metavar="FILE", help="write to FILE instead of standard output")
    guide.set_defaults(handler=_cmd_guide)

    build = commands.add_parser("build", help="check a build file")
    build_actions = build.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    build_check = build_actions.add_parser("check", help="every compatibility and power rule, with fixes")
    build_check.add_argument("file", metavar="FILE.json")
    build_check.add_argument("--currency", choices=CURRENCIES, help="the currency of the totals")
    build_check.add_argument("--circuit", help="the wall circuit (default: the file's, else " + DEFAULT_CIRCUIT + ")")
    build_check.add_argument("--json", action="store_true")
    build_check.set_defaults(handler=_cmd_build_check)

    egpu = commands.add_parser("egpu", help="will an external GPU work on this laptop, and how fast")
    egpu.add_argument("--port", choices=PORTS, help="the laptop's port (default: what the probe detects)")
    egpu.add_argument("--os", choices=EGPU_OSES, help="the laptop's OS (default: this one)")
    egpu.add_argument("--charger", type=int, metavar="WATTS", help="the laptop's own charger rating")
    egpu.add_argument("--dock", metavar="CATALOG_ID", help="the enclosure (gpuconfig catalog list --kind dock)")
    egpu.add_argument("--gpu", metavar="CATALOG_ID", help="the card to put in it")
    _workload_options(egpu, model_required=False)
    egpu.add_argument("--measure", action="store_true", help="measure the attached eGPU: copies and a training step")
    egpu.add_argument("--python", metavar="PATH", help="the Python (with torch) that runs the measurement")
    _worker_timeouts(egpu)
    egpu.add_argument("--json", action="store_true")
    egpu.set_defaults(handler=_cmd_egpu)

    probe = commands.add_parser("probe", help="inventory, benchmarks and a verdict for this machine")
    suite = probe.add_mutually_exclusive_group()
    suite.add_argument("--quick", action="store_true", help="the quick suite, under a minute (default)")
    suite.add_argument("--full", action="store_true", help="the full suite, a few minutes")
    probe.add_argument("--python", metavar="PATH", help="the Python (with torch) that runs the benchmarks")
    probe.add_argument("--only", metavar="NAMES", help="comma-separated benchmarks to run (e.g. matmul,disk_read)")
    probe.add_argument("--rate", type=float, default=2.0, help="live sampling rate in Hz (1-10)")
    probe.add_argument("--json", metavar="FILE", help="write the whole run as JSON ('-' for stdout)")
    probe.add_argument("--html", metavar="FILE", help="write a report as HTML")
    _worker_timeouts(probe)
    probe.set_defaults(handler=_cmd_probe)

    data = commands.add_parser("data", help="your own data: saved builds, prices, settings, probe history")
    data_actions = data.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=_Parser)
    repair = data_actions.add_parser(
        "repair", help="move a damaged database aside, rebuild it and copy over what can still be read"
    )
    repair.add_argument("--json", action="store_true")
    repair.set_defaults(handler=_cmd_data_repair)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    from gpuconfig.core.database import StoreError

    try:
        code = int(args.handler(args))
        sys.stdout.flush()  # a closed pipe shows here, where it can be handled, not at exit
        return code
    except UsageError as exc:
        print(f"gpuconfig: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (StoreError, SchemaError) as exc:  # no database to work on, or no catalog schema to read it
        print(f"gpuconfig: {exc}{_repair_hint(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader left (`gpuconfig ... --json | head`): one line, and nothing more flushed into the pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print("gpuconfig: the output was closed before all of it was written (a pipe into head?)", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # Ctrl+C: the workers are already killed on the way out (run_worker)
        print(("\n" if sys.stderr.isatty() else "") + "gpuconfig: cancelled", file=sys.stderr)
        return EXIT_CANCELLED
