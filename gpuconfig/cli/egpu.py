"""`gpuconfig egpu`: will an external GPU work on this laptop, and how fast."""

from __future__ import annotations

import argparse
from typing import Any

from gpuconfig.cli.options import (
    catalog_part,
    check_python,
    form_options,
    headroom_of,
    headroom_option,
    limits,
    open_store,
    trace_failed,
    worker_timeouts,
    workload,
    workload_options,
)
from gpuconfig.cli.output import EXIT_OK, EXIT_VERDICT_FAILED, Reply, UsageError, lines


def add_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    from gpuconfig.core.build.model import OSES, PORTS

    egpu = commands.add_parser("egpu", help="will an external GPU work on this laptop, and how fast")
    egpu.add_argument("--port", choices=PORTS, help="the laptop's port (default: what the probe detects)")
    egpu.add_argument("--os", choices=OSES, help="the laptop's OS (default: this one)")
    egpu.add_argument("--charger", type=int, metavar="WATTS", help="the laptop's own charger rating")
    egpu.add_argument("--dock", metavar="DOCK", help="the enclosure: its catalog id, name or words of it")
    egpu.add_argument("--gpu", metavar="GPU", help="the card to put in it: its catalog id, name or words of it")
    workload_options(egpu, model_required=False)
    egpu.add_argument("--measure", action="store_true", help="measure the attached eGPU: copies and a training step")
    egpu.add_argument("--python", metavar="PATH", help="the Python (with torch) that runs the measurement")
    worker_timeouts(egpu)
    headroom_option(egpu)
    form_options(egpu)
    egpu.set_defaults(handler=run)


def run(args: argparse.Namespace) -> Reply | int:
    from gpuconfig.core.build.rules import RulesError, build_rules
    from gpuconfig.core.egpu.check import Host
    from gpuconfig.core.egpu.report import egpu_record, egpu_text, evaluate
    from gpuconfig.core.egpu.tables import EgpuDataError, egpu_tables
    from gpuconfig.core.workload.answer import gpu_spec
    from gpuconfig.core.workload.runner import TraceFailed
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import WorkloadError
    from gpuconfig.probe.egpu import detect, os_id

    if args.charger is not None and not 5 <= args.charger <= 400:
        raise UsageError(f"--charger: {args.charger} W is not a laptop charger (5-400 W)")
    if args.measure:
        check_python(args.python)
    store = open_store()
    parts = {}
    for kind, named in (("dock", args.dock), ("gpu", args.gpu)):
        if named is not None:
            parts[kind] = catalog_part(store, named, kind, f"--{kind}")
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
    headroom = headroom_of(args, store)  # checked with or without a workload
    if args.model:
        if "gpu" not in parts:
            raise UsageError("--model: the slowdown needs the card (--gpu)")
        asked = workload(args)
        try:
            traced = TraceService(timeout_s=args.trace_timeout).fit_for(asked)
            answer = traced.answer(asked, gpu_spec(store, parts["gpu"].id), headroom)
        except WorkloadError as exc:
            raise UsageError(str(exc)) from exc
        except TraceFailed as exc:
            return trace_failed(exc)
    measured = None
    if args.measure:
        from gpuconfig.probe.runner import run_suite

        outcome = run_suite("quick", args.python, ["h2d_bandwidth", "train_from_host"], limits=limits(args))
        measured = [r.record() for r in outcome.results]
    report = evaluate(host, parts.get("dock"), parts.get("gpu"), tables, rules, answer, measured, detection.to_json())

    def text() -> str:
        hint = report.compatibility is None and not args.port
        describe = "\nDescribe the laptop to check an enclosure: --port TB3|TB4|USB4|USB4v2|TB5|OCuLink|USB-C"
        return lines(egpu_text(report), *([describe] if hint else []))

    return Reply(EXIT_VERDICT_FAILED if report.status == "fail" else EXIT_OK, text, lambda: egpu_record(report))
