"""`gpuconfig probe`: this machine's inventory, benchmarks and a verdict against its spec."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from gpuconfig.cli.options import check_python, form_options, limits, worker_timeouts
from gpuconfig.cli.output import EXIT_OK, EXIT_VERDICT_FAILED, Reply, UsageError, lines, repair_hint, table, warn


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    probe = commands.add_parser("probe", help="inventory, benchmarks and a verdict for this machine")
    suite = probe.add_mutually_exclusive_group()
    suite.add_argument("--quick", action="store_true", help="the quick suite, a minute at most (default)")
    suite.add_argument("--full", action="store_true", help="the full suite, three minutes at most")
    probe.add_argument("--python", metavar="PATH", help="the Python (with torch) that runs the benchmarks")
    probe.add_argument("--only", metavar="NAMES", help="comma-separated benchmarks to run (e.g. matmul,disk_read)")
    probe.add_argument("--rate", type=float, default=2.0, help="live sampling rate in Hz (1-10)")
    worker_timeouts(probe)
    form_options(probe, html=True)
    probe.set_defaults(handler=run)


def run(args: argparse.Namespace) -> Reply:
    from gpuconfig.probe.history import HistoryError, ProbeHistory, default_history_path, earlier_in
    from gpuconfig.probe.report import html
    from gpuconfig.probe.sampler import Sampler
    from gpuconfig.probe.session import probe

    check_python(args.python)
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
        done = probe(
            "full" if args.full else "quick",
            python=args.python,
            only=only,
            progress=progress,
            series=lambda: sampler.snapshot().record(),
            limits=limits(args),
            earlier=earlier_in(default_history_path()),
        )
    finally:
        sampler.stop()
    if tty:
        print(file=sys.stderr)
    try:
        history = ProbeHistory.open_default()
        history.save(done)
        history.close()
    except HistoryError as exc:
        warn(f"probe run not saved in the history: {exc}{repair_hint(exc)}")
    code = EXIT_VERDICT_FAILED if done.failed else EXIT_OK
    return Reply(code, lambda: _text(done), done.record, lambda: html(done))


def _text(run: Any) -> str:
    from gpuconfig.probe.stability import stability

    out = []
    rows = []
    for r in run.results:
        found = stability(r) if r.status == "ok" else None
        spread = found.spread if found is not None else None
        rows.append(
            [
                r.name, r.dtype, r.device, r.variant, f"{r.value:.4g}" if r.value is not None else r.status, r.unit,
                f"±{100 * spread.spread:.1f} %" if spread is not None else "", str(len(r.samples) or ""),
                "" if found is None or found.stable else "unstable",
            ]
        )  # fmt: skip
    if rows:  # none when no worker could start: the PyTorch verdict below says why
        headers = ["benchmark", "dtype", "device", "variant", "median", "unit", "spread", "samples", ""]
        out.append(table(headers, rows) + "\n")
    for v in run.verdicts:
        advice = f" — {v.advice}" if v.advice else ""
        out.append(f"{v.status.upper():5s} {v.check} ({v.subject}): {v.message}{advice}")
    happenings = run.what_else()
    if happenings:
        out.append("\nWhat else was happening:")
        out += [f"{'!' if h.notable else ' '} {h.topic}: {h.text}" for h in happenings]
    summary = ", ".join(f"{n} {status}" for status, n in run.counts.items() if n)
    budget = f" of a {run.budget_s:.0f} s budget" if run.budget_s else ""
    out.append(f"\n{summary}; {run.seconds:.0f} s{budget}" + (" (cancelled)" if run.cancelled else ""))
    return lines(*out)
